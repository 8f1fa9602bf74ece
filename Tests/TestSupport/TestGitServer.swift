import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Story repositories made with the git command line in a temporary folder, served by
/// `git daemon` on 127.0.0.1 (a port of its own) and reachable by file:// too.
public final class TestGitServer: @unchecked Sendable {
    public let root: URL
    public let port: Int
    private var daemon: ChildProcess?

    public init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("cyd-git-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("work"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("served"), withIntermediateDirectories: true)
        // A port found free can be taken before the daemon binds it (as the local port of any
        // connection the other suites open): a daemon that exits is started again on another.
        var started: (port: Int, daemon: ChildProcess)?
        for _ in 0..<5 where started == nil {
            let candidate = try Self.freePort()
            let daemon = try ChildProcess(
                [
                    "git", "daemon", "--reuseaddr", "--export-all", "--listen=127.0.0.1", "--port=\(candidate)",
                    "--base-path=\(root.appendingPathComponent("served").path)", root.appendingPathComponent("served").path,
                ], takesInput: false, output: .discarded, errors: .discarded, ownGroup: true)
            // Bounded wait until it accepts connections (generous: a loaded 2-core machine running
            // every suite at once can take seconds to start a process).
            var tries = 0
            while tries < 400, daemon.poll() == nil, !Self.accepts(candidate) {
                tries += 1
                Thread.sleep(forTimeInterval: 0.05)
            }
            if daemon.poll() == nil, Self.accepts(candidate) { started = (candidate, daemon) }
        }
        guard let started else {
            throw NSError(domain: "TestGitServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "git daemon did not start in five tries of 20 s"])
        }
        port = started.port
        daemon = started.daemon
        // A server kept for a whole suite (a `static let`) is never released: it goes at exit.
        RemovedAtExit.stop(group: started.daemon.pid)
        RemovedAtExit.add(root.path)
    }

    /// The daemon's process id (its process group's too).
    public var daemonID: pid_t? { daemon?.pid }

    deinit {
        if let daemon { RemovedAtExit.release(group: daemon.pid) }
        daemon = nil
        try? FileManager.default.removeItem(at: root)
    }

    /// Creates (or updates) repository `name` with the given files, committed on `branch` (the
    /// served repository's default). With `force`, history is replaced (as by a force-push).
    @discardableResult
    public func publish(_ name: String, files: [String: [UInt8]], message: String = "update", force: Bool = false, branch: String = "main") throws -> String {
        let work = root.appendingPathComponent("work/\(name)")
        let served = root.appendingPathComponent("served/\(name).git")
        if force { try? FileManager.default.removeItem(at: work) }
        if !FileManager.default.fileExists(atPath: work.path) {
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            try git(["init", "-q", "-b", branch], in: work)
        }
        for (path, bytes) in files {
            let file = work.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: file)
        }
        try git(["add", "-A"], in: work)
        try git(["-c", "user.name=Test", "-c", "user.email=test@example.invalid", "commit", "-q", "--allow-empty", "-m", message], in: work)
        if !FileManager.default.fileExists(atPath: served.path) {
            try git(["init", "-q", "--bare", "-b", branch, served.path], in: root)
        }
        try git(["push", "-q", force ? "--force" : "--quiet", served.path, branch], in: work)
        return try git(["rev-parse", "HEAD"], in: work).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A repository with no commits at all.
    public func createEmpty(_ name: String) throws {
        try git(["init", "-q", "--bare", "-b", "main", root.appendingPathComponent("served/\(name).git").path], in: root)
    }

    public func gitURL(_ name: String) -> String { "git://127.0.0.1:\(port)/\(name).git" }
    public func fileURL(_ name: String) -> String { "file://" + root.appendingPathComponent("served/\(name).git").path }

    @discardableResult
    func git(_ arguments: [String], in directory: URL) throws -> String {
        let result = try ChildProcess.run(["git"] + arguments, in: directory.path)
        guard result.status == 0 else { throw TestSupportError("git \(arguments.joined(separator: " ")) failed: \(result.standardError)") }
        return result.standardOutput
    }

    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw TestSupportError("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    public static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
