import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Tests/Support/http_server.py, started on 127.0.0.1 with a port of its own; stopped when
/// released (closing its standard input ends it).
public final class TestHTTPServer: @unchecked Sendable {
    public let port: Int
    public let scheme: String
    /// Plain http on the same routes and counts (the same as `port` without TLS).
    public let plainPort: Int
    private let server: ChildProcess

    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// - Parameter tls: a certificate and key to serve https with.
    /// - Parameter files: a folder served under /files/.
    public init(tls: TestCertificate? = nil, files: String? = nil) throws {
        server = try ChildProcess(
            ["python3", Self.packageRoot.appendingPathComponent("Tests/Support/http_server.py").path]
                + (tls.map { ["--tls", $0.certificate, $0.key] } ?? []) + (files.map { ["--files", $0] } ?? []),
            errors: .inherited)
        let ports = (server.readLine() ?? "").split(separator: " ").compactMap { Int($0) }
        guard let port = ports.first else { throw TestSupportError("the test HTTP server did not start") }
        self.port = port
        plainPort = ports.last!
        scheme = tls == nil ? "http" : "https"
    }

    deinit {
        // Closing its input ends it; a server stuck in a test's slow answer is killed.
        server.closeInput()
        server.signal(SIGTERM)
        server.wait()
    }

    public func url(_ path: String) -> String { "\(scheme)://127.0.0.1:\(port)\(path)" }

    /// How many times `path` was requested, asked of the server itself.
    public func count(_ path: String) throws -> Int {
        let answer = try Self.ask(port: plainPort, path: "/count\(path)")
        guard let count = Int(answer) else { throw TestSupportError("unexpected answer: \(answer)") }
        return count
    }

    /// The body of a plain-http GET to 127.0.0.1:port, over a socket (Foundation on Linux has no
    /// HTTP without FoundationNetworking).
    public static func ask(port: Int, path: String) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestSupportError("no socket") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw TestSupportError("cannot connect to the test server") }
        let request = "GET \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), 0) }
        var response = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<10_000 {
            let got = recv(fd, &buffer, buffer.count, 0)
            if got <= 0 { break }
            response += buffer[0..<got]
        }
        let text = String(decoding: response, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw TestSupportError("unexpected answer: \(text)") }
        return String(text[split.upperBound...])
    }
}

/// A self-signed certificate for 127.0.0.1, made with openssl in a temporary folder (removed
/// when the tests exit: a client may read the files after the test's last word about them).
public struct TestCertificate: Sendable {
    public let certificate: String
    public let key: String
    public let folder: String

    public init() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cyd-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        self.folder = folder.path
        RemovedAtExit.add(folder.path)
        certificate = folder.appendingPathComponent("cert.pem").path
        key = folder.appendingPathComponent("key.pem").path
        let made = try ChildProcess.run([
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
        ])
        guard made.status == 0 else { throw TestSupportError("openssl could not make a certificate") }
    }
}
