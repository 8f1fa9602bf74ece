import ArgumentParser
import Foundation
import StoryFormat
import StorySources
import StoryStore
import TerminalUI
import Transport

#if BrowserReader
import StoryServer
#endif

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read the library's stories in a browser, on this machine or on phones nearby.",
        discussion: """
            Pages are served from the same library as `cyd read`: a place kept in the terminal is \
            the place in the browser, and back. By default only this machine can connect \
            (127.0.0.1). With --listen on a network address, anyone on that network who has the \
            link printed at start (it carries a key, kept in the library folder) can read; the link \
            is also drawn as a QR code for a phone's camera. Ctrl-C stops the server.
            """)

    @Option(help: ArgumentHelp(
        "Where to listen, ADDRESS:PORT. A non-loopback address (0.0.0.0:8080, 192.168.1.5:8080) lets other machines in, with a key.",
        valueName: "address:port"))
    var listen = "127.0.0.1:8080"

    @Option(help: "The profile browsers read as until they pick another (profiles are shared with cyd read --profile).")
    var profile = "default"

    @Flag(help: "Ask for the key even on this machine's own address (behind a proxy, or on a machine others log in to).")
    var key = false

    @Option(name: .customLong("request-timeout"), help: ArgumentHelp(
        "Seconds a browser has to send a whole request; a slower one is disconnected.", valueName: "seconds"))
    var requestTimeout: Double = 10

    @Flag(inversion: .prefixedNo, help: "Draw the link as a QR code (default: when listening beyond this machine and printing to a terminal).")
    var qr: Bool?

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        guard Self.split(listen) != nil else { throw ValidationError("--listen takes ADDRESS:PORT, such as 127.0.0.1:8080 or 0.0.0.0:8080 (port 0 picks a free one)") }
        if profile.isEmpty { throw ValidationError("--profile needs a name") }
        if !(0.5...600).contains(requestTimeout) { throw ValidationError("--request-timeout takes 0.5 to 600 seconds") }
    }

    /// "127.0.0.1:8080", "[::1]:8080" -> (host, port).
    static func split(_ address: String) -> (host: String, port: Int)? {
        guard let colon = address.lastIndex(of: ":"), let port = Int(address[address.index(after: colon)...]), (0...65535).contains(port) else { return nil }
        var host = String(address[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "/" }) else { return nil }
        return (host, port)
    }

    #if BrowserReader
    func run() throws {
        _ = ReaderServer.runTasksOnEventLoops()
        let (host, port) = Self.split(listen)!
        let library = try library.open()
        let loopback = ServeConfiguration.isLoopback(host)
        let access: ServeConfiguration.Access
        if loopback && !key {
            access = .loopback
        } else {
            do {
                access = .token(try ServeToken.load(in: library.location.dataDirectory))
            } catch {
                switch error {
                case .cannotKeep(let path, let reason): throw CLIError("cannot keep the reader's key in \(VisibleText.escape(path)): \(reason)")
                case .unreadable(let path): throw CLIError("\(VisibleText.escape(path)) does not hold a key; remove it and a new one is made")
                }
            }
        }
        let added = try addBundledIfEmpty(library)
        let configuration = ServeConfiguration(
            host: host, port: port, access: access, defaultProfile: profile, requestDeadline: requestTimeout, certificateAuthorities: HTTPClient.caBundle,
            words: .init(server: "cyd serve", removal: "cyd remove", catalogueFetch: "cyd sync", profileOption: "--profile"),
            describe: { error in (error as? SourceError).map(Words.source) ?? Words.of(error) })
        let server = ReaderServer(library: library, configuration: configuration)
        let drawCode = qr ?? (access != .loopback && !loopback && Terminal.standardOutput.isTerminal)
        let failure = LockedBox<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                try await server.run { bound in
                    Self.announce(host: host, port: bound, access: access, added: added, drawCode: drawCode)
                }
            } catch {
                failure.set(error)
            }
            done.signal()
        }
        done.wait()
        if let error = failure.get() {
            switch error {
            case ServeFailure.cannotListen(let host, let port, let code):
                let reason: String
                switch code {
                case EADDRINUSE: reason = "the port is in use (is another cyd serve running? --listen with another port, or port 0 for any free one)"
                case EADDRNOTAVAIL: reason = "this machine has no such address"
                case EACCES: reason = "ports below 1024 need the administrator; use a port from 1024 up"
                default: reason = String(cString: strerror(code))
                }
                throw CLIError("cannot listen on \(VisibleText.escape(host)):\(port): \(reason)")
            case ServeFailure.unknownAddress(let host, _):
                throw CLIError("cannot listen on \(VisibleText.escape(host)): it is not an address of this machine (give an IP address such as 0.0.0.0 or 127.0.0.1)")
            default:
                throw CLIError("the server stopped: \(VisibleText.escape(Words.of(error)))")
            }
        }
        Terminal.standardOutput.write("Stopped.\n")
    }

    /// A library with no stories gets the bundled ones, so a first `cyd serve` has something to read.
    private func addBundledIfEmpty(_ library: StoryLibrary) throws -> Int {
        guard try library.stories().isEmpty else { return 0 }
        let importer = StoryImporter(library: library, certificateAuthorities: HTTPClient.caBundle)
        var added = 0
        for folder in BundledStories.folders() {
            if (try? StoryReferences.findOrAdd(folder, importer: importer)) != nil { added += 1 }
        }
        return added
    }

    private static func announce(host: String, port: Int, access: ServeConfiguration.Access, added: Int, drawCode: Bool) {
        var out = ""
        if added > 0 { out += "The library was empty: added the \(added) bundled \(added == 1 ? "story" : "stories").\n" }
        let hosts: [String]
        if host == "0.0.0.0" || host == "::" {
            hosts = NetworkAddresses.external()
        } else {
            hosts = [host]
        }
        let links = (hosts.isEmpty ? ["127.0.0.1"] : hosts).map { name -> String in
            let shown = name.contains(":") ? "[\(name)]" : name
            if case .token(let token) = access { return "http://\(shown):\(port)/?token=\(token)" }
            return "http://\(shown):\(port)/"
        }
        if case .token = access, ServeConfiguration.isLoopback(host) {
            out += "Reading at this machine's own address, with a key. Open this link (it carries the key):\n"
        } else if case .token = access {
            out += "Reading on the network. Open this link (it carries the key; keep it among people you trust):\n"
        } else {
            out += "Reading at this machine's own address (other machines cannot connect). Open:\n"
        }
        for link in links { out += "  \(link)\n" }
        if drawCode, let first = links.first, let code = QRCode(first) {
            out += "\n" + code.terminalDrawing() + "\n"
        }
        out += "Ctrl-C stops the server.\n"
        Terminal.standardOutput.write(out)
    }
    #else
    func run() throws {
        throw CLIError(
            "this cyd was built without the browser reader; build it with `swift build -c release --traits BrowserReader` (Hummingbird adds a few minutes to the build)"
        )
    }
    #endif
}

#if BrowserReader
/// A value shared between the server's task and the command's thread.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func set(_ value: Value) { lock.withLock { self.value = value } }
    func get() -> Value { lock.withLock { value } }
}

/// This machine's IPv4 addresses other than loopback: where a phone on the same network finds it.
enum NetworkAddresses {
    static func external() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var found: [String] = []
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) else { continue }
            var name = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            guard getnameinfo(address, socklen_t(MemoryLayout<sockaddr_in>.size), &name, socklen_t(name.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            let text = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !text.hasPrefix("127."), !found.contains(text) { found.append(text) }
        }
        return found
    }
}
#endif
