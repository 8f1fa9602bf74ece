import ArgumentParser
import CydWords
import Foundation
import LocalFiles
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
        discussion: Help.serve)

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
                throw CLIError(ServeWords.cannotListen(host: host, port: port, code: code))
            case ServeFailure.unknownAddress(let host, _):
                throw CLIError(ServeWords.unknownAddress(host))
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
        let hosts = host == "0.0.0.0" || host == "::" ? NetworkAddresses.external() : [host]
        let token: String? = if case .token(let token) = access { token } else { nil }
        let links = ServeWords.links(hosts: hosts, port: port, token: token)
        let code = drawCode ? links.first.flatMap { QRCode($0) }?.terminalDrawing() : nil
        Terminal.standardOutput.write(ServeWords.announcement(links: links, keyed: token != nil, loopback: ServeConfiguration.isLoopback(host), added: added, code: code))
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

#endif
