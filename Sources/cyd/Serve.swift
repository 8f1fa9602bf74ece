import ArgumentParser
import CydWords
import Foundation
import LocalFiles
import StoryFormat
import StorySources
import StoryTranslation
import TerminalUI
import Transport

#if BrowserReader
import StoryServer
#endif

struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve",
        abstract: "Read the library's stories in a browser, on this machine or on phones nearby.",
        discussion: Help.serve)

    @Option(help: ArgumentHelp("Where to listen, ADDRESS:PORT. A non-loopback address (0.0.0.0:8080, 192.168.1.5:8080) lets other machines in, with a key.", valueName: "address:port")) var listen = "127.0.0.1:8080"
    @Option(help: "The profile browsers read as until they pick another (profiles are shared with cyd read --profile).") var profile = "default"
    @Flag(help: "Ask for the key even on this machine's own address (behind a proxy, or on a machine others log in to).") var key = false
    @Flag(name: .customLong("new-key"), help: "Make a new key first: every link and browser given the old one is refused (a link shared too widely, a lost phone).") var newKey = false
    @Option(name: .customLong("request-timeout"), help: ArgumentHelp("Seconds a browser has to send a whole request; a slower one is disconnected.", valueName: "seconds")) var requestTimeout: Double = 10
    @Option(help: "Show stories in this language where they are translated (a tag such as fr, or original); a reader may choose another on the page.") var lang: String?
    @Flag(inversion: .prefixedNo, help: "Draw the link as a QR code (default: when listening beyond this machine and printing to a terminal).") var qr: Bool?
    @OptionGroup var library: LibraryOptions

    func validate() throws {
        guard ListenAddress.split(listen) != nil else { throw ValidationError("--listen takes ADDRESS:PORT, such as 127.0.0.1:8080 or 0.0.0.0:8080 (port 0 picks a free one)") }
        if profile.isEmpty { throw ValidationError("--profile needs a name") }
        if !(0.5...600).contains(requestTimeout) { throw ValidationError("--request-timeout takes 0.5 to 600 seconds") }
        if let lang, lang != "original", !LanguageTag.isWellFormed(LanguageTag.normalise(lang)) { throw ValidationError(ServeWords.badLanguage(lang)) }
    }

    #if BrowserReader
    static let isBuiltIn = true

    func run() throws {
        _ = ReaderServer.runTasksOnEventLoops()
        let (host, port) = ListenAddress.split(listen)!
        let importer = try library.importer()
        let loopback = ServeConfiguration.isLoopback(host)
        let folder = importer.library.location.dataDirectory
        let renewed = try newKey ? Self.key(in: folder, renew: true) : nil
        let access: ServeConfiguration.Access = try loopback && !key ? .loopback : .token(renewed ?? Self.key(in: folder))
        let added = try BundledStories.addAll(BundledStories.folders(), toEmpty: importer)
        let configuration = ServeConfiguration(
            host: host, port: port, access: access, defaultProfile: profile, requestDeadline: requestTimeout, certificateAuthorities: HTTPClient.caBundle,
            words: .init(server: "cyd serve", removal: "cyd remove", catalogueFetch: "cyd sync", profileOption: "--profile"),
            describe: { error in (error as? SourceError).map(Words.source) ?? Words.of(error) }, language: lang.flatMap(LanguageChoice.init))
        let drawCode = qr ?? (access != .loopback && !loopback && Terminal.standardOutput.isTerminal)
        do {
            try ReaderServer(library: importer.library, configuration: configuration).runBlocking { bound in
                let hosts = host == "0.0.0.0" || host == "::" ? NetworkAddresses.external() : [host]
                let token: String? = if case .token(let token) = access { token } else { nil }
                let links = ServeWords.links(hosts: hosts, port: bound, token: token)
                let code = drawCode ? links.first.flatMap { QRCode($0) }?.terminalDrawing() : nil
                Terminal.standardOutput.write(
                    (renewed != nil ? ServeWords.keyRenewed : "") + ServeWords.announcement(links: links, keyed: token != nil, loopback: loopback, added: added, code: code))
            }
        } catch ServeFailure.cannotListen(let host, let port, let code) {
            throw CLIError(ServeWords.cannotListen(host: host, port: port, code: code))
        } catch ServeFailure.unknownAddress(let host, _) {
            throw CLIError(ServeWords.unknownAddress(host))
        } catch {
            throw CLIError("the server stopped: \(VisibleText.escape(Words.of(error)))")
        }
        Terminal.standardOutput.write("Stopped.\n")
    }

    /// The LAN key kept in the library's folder (made the first time, or anew), its problems in words.
    static func key(in folder: String, renew: Bool = false) throws -> String {
        do {
            return try renew ? ServeToken.renew(in: folder) : ServeToken.load(in: folder)
        } catch {
            switch error {
            case .cannotKeep(let path, let reason): throw CLIError("cannot keep the reader's key in \(VisibleText.escape(path)): \(reason)")
            case .unreadable(let path): throw CLIError("\(VisibleText.escape(path)) does not hold a key; remove it and a new one is made")
            }
        }
    }
    #else
    static let isBuiltIn = false
    func run() throws { throw CLIError(ServeWords.builtWithout) }
    #endif
}

struct Preview: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "preview", abstract: "Show a story folder in a browser as readers will see it, following every save, with its findings beside each chapter.", discussion: Help.preview)
    @Argument(help: ArgumentHelp("The story folder (default: the current folder).", valueName: "folder")) var folder = "."
    @Option(help: ArgumentHelp("Open at this chapter (default: the first).", valueName: "id")) var chapter: String?
    @Option(help: ArgumentHelp("Preview this translation (a tag such as fr).", valueName: "tag")) var lang: String?
    @Option(help: "The port on 127.0.0.1 (default: any free one).") var port = 0
    @Flag(help: "Look at the files every 0.1 s instead of asking the system (folders inotify does not see: network mounts).") var poll = false
    func validate() throws { if let lang, !LanguageTag.isWellFormed(LanguageTag.normalise(lang)) { throw ValidationError(ServeWords.badLanguage(lang)) } }

    func run() throws {
        guard FileStatus(folder + "/story.json")?.isRegularFile == true else { throw CLIError(ServeWords.noStoryToPreview(folder)) }
        #if BrowserReader
        let server = PreviewServer(configuration: .init(folder: folder, port: port, language: lang.map(LanguageTag.normalise), chapter: chapter, forcePolling: poll, environment: ProcessInfo.processInfo.environment))
        do { try server.runBlocking { port, method in Terminal.standardOutput.write(ServeWords.previewing(folder, port: port, polling: method == .polling)) } } catch ServeFailure.cannotListen(let host, let port, let code) { throw CLIError(ServeWords.cannotListen(host: host, port: port, code: code)) }
        #else
        throw CLIError(ServeWords.builtWithout)
        #endif
    }
}
