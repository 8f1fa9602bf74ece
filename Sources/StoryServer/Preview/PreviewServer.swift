// The browser reader is built with the package trait BrowserReader only.
#if BrowserReader
import Dispatch
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import LocalFiles
import NIOCore
import StoryFormat
import StoryWeb
import Synchronization

/// What the live preview serves and watches.
public struct PreviewConfiguration: Sendable {
    /// The story folder (story.json, resources/, translations/).
    public var folder: String
    /// 0 picks a free port; the preview listens on 127.0.0.1 only.
    public var port: Int
    /// The translation to preview, or nil for the story as written.
    public var language: String?
    /// The chapter to open at; nil for the first.
    public var chapter: String?
    /// Look at the files every 0.1 s instead of asking inotify.
    public var forcePolling: Bool
    public var environment: [String: String]

    public init(folder: String, port: Int = 0, language: String? = nil, chapter: String? = nil, forcePolling: Bool = false, environment: [String: String]) {
        self.folder = folder
        self.port = port
        self.language = language
        self.chapter = chapter
        self.forcePolling = forcePolling
        self.environment = environment
    }
}

/// The author's live preview: the story folder served on 127.0.0.1, read again whenever a file
/// in it changes (FolderWatcher), and pages that follow each reading without a reload. The
/// author's place is the page's address, kept by their browser alone: nothing is written to
/// any reader's library.
public final class PreviewServer: Sendable {
    public let configuration: PreviewConfiguration
    private let snapshot: Mutex<PreviewSnapshot>
    private let boundPort = Atomic<Int>(0)
    /// Set when the process is asked to stop: a page waiting for the next reading is answered
    /// at once, so Ctrl-C does not wait for it.
    private let stopping = Atomic<Bool>(false)
    let rendezvous: PreviewRendezvous?

    public init(configuration: PreviewConfiguration) {
        self.configuration = configuration
        snapshot = Mutex(PreviewReading.read(folder: configuration.folder, language: configuration.language, after: PreviewSnapshot()))
        rendezvous = PreviewRendezvous(storyFolder: configuration.folder, environment: configuration.environment)
    }

    /// The reading pages are made from now.
    public var current: PreviewSnapshot { snapshot.withLock { $0 } }

    /// Reads the folder again (a change was seen).
    func reread() {
        let previous = current
        let next = PreviewReading.read(folder: configuration.folder, language: configuration.language, after: previous)
        snapshot.withLock { snapshot in
            let (asked, chapter) = (snapshot.asked, snapshot.askedChapter)
            snapshot = next
            (snapshot.asked, snapshot.askedChapter) = (asked, chapter)
        }
    }

    /// Takes the editor's request, when it left one; true when there was one.
    func takeAsked() -> Bool {
        guard let chapter = rendezvous?.takeAskedChapter() else { return false }
        snapshot.withLock {
            $0.asked += 1
            $0.askedChapter = chapter
        }
        return true
    }

    /// Serves until the process is asked to stop; `onStarted` gets the port and how changes are
    /// seen (inotify or polling).
    public func runBlocking(onStarted: @escaping @Sendable (Int, FolderWatcher.Method) -> Void) throws {
        let folder = configuration.folder
        // resources/ and translations/ are watched even when missing: made later, they are seen.
        let folders = [folder, folder + "/resources", folder + "/translations"]
        try? rendezvous?.prepare()
        let watched = folders + (rendezvous.map { [$0.folder] } ?? [])
        // In the story's folder only story.json matters (not an editor's temporary or backup
        // file); in resources/ and translations/ every file; in the rendezvous, the request.
        let chapterFile = rendezvous.map { String($0.chapterFile.split(separator: "/").last ?? "") }
        let watcher = FolderWatcher(
            folders: watched, forcePolling: configuration.forcePolling,
            matters: { index, name in
                index == 0 ? name == "story.json" : index < folders.count ? !name.hasPrefix(".") && !name.hasSuffix("~") : name == chapterFile
            }
        ) { [self] in
            // The rendezvous folder is watched too: the editor's request is taken first, so
            // the page that follows it is made from the folder as it is now.
            _ = takeAsked()
            reread()
        }
        defer {
            watcher.stop()
            try? rendezvous?.announce(port: nil)
        }
        // The server stops on SIGINT and SIGTERM (Hummingbird's service lifecycle), after the
        // requests in hand: the waiting ones are told to answer now.
        let signals = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in stopping.store(true, ordering: .relaxed) }
            source.resume()
            return source
        }
        defer { signals.forEach { $0.cancel() } }
        let failure = Mutex<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                try await run { port in
                    try? self.rendezvous?.announce(port: port)
                    onStarted(port, watcher.method)
                }
            } catch { failure.withLock { $0 = error } }
            done.signal()
        }
        done.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }

    func run(onStarted: @escaping @Sendable (Int) -> Void) async throws {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: PreviewHostCheck(server: self))
        router.get("/") { [self] _, _ in redirect("/chapter/" + Pages.segment(configuration.chapter ?? current.firstChapter ?? "")) }
        router.get("/chapter/:id") { [self] request, context in
            let id = Pages.chapterKey(fromSegment: context.parameters.get("id") ?? "")
            return page(PreviewPages.chapter(id, in: current, language: configuration.language, folder: configuration.folder, from: request.uri.queryParameters.get("from")))
        }
        router.get("/findings") { [self] _, _ in page(PreviewPages.findings(current, folder: configuration.folder)) }
        router.get("/map") { [self] request, _ in page(PreviewPages.map(current, at: request.uri.queryParameters.get("at"), folder: configuration.folder)) }
        router.get("/changes") { [self] request, _ in await changes(since: Int(request.uri.queryParameters.get("since") ?? "") ?? 0, asked: Int(request.uri.queryParameters.get("asked") ?? "") ?? 0) }
        router.get("/picture") { [self] request, _ in picture(request.uri.queryParameters.get("path") ?? "") }
        router.get("/assets/:name") { _, context in Self.asset(context.parameters.get("name") ?? "") }
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: configuration.port), serverName: nil),
            onServerRunning: { [self] channel in
                let port = channel.localAddress?.port ?? configuration.port
                boundPort.store(port, ordering: .relaxed)
                onStarted(port)
            },
            logger: Logger(label: "cyd-preview", factory: { _ in SwiftLogNoOpLogHandler() }))
        do {
            try await app.runService()
        } catch let error as IOError {
            throw ServeFailure.cannotListen(host: "127.0.0.1", port: configuration.port, errno: error.errnoCode)
        }
    }

    var port: Int { boundPort.load(ordering: .relaxed) }


    /// Waits (at most 25 s, looking every 10 ms) until the folder was read again or the editor
    /// asked for a chapter, then says so: `{"version": N, "asked": K, "chapter": ADDRESS,
    /// "renamed": {OLD ID: ADDRESS}}`.
    func changes(since: Int, asked seen: Int) async -> Response {
        let deadline = Date().addingTimeInterval(25)
        while Date() < deadline, !stopping.load(ordering: .relaxed) {
            let now = current
            if now.version > since || now.asked > seen {
                var members: [String: JSONValue] = [
                    "version": .number(Double(now.version)), "asked": .number(Double(now.asked)),
                    // Old id → the new chapter's address, made as the pages make theirs (an id
                    // a browser would rewrite, `.` or `-`, gets its `~`).
                    "renamed": .object(now.renamed.mapValues { .string("/chapter/" + Pages.segment($0)) }),
                    "seconds": .number(now.seconds),
                ]
                if now.asked > seen, let chapter = now.askedChapter { members["chapter"] = .string("/chapter/" + Pages.segment(chapter)) }
                return json(.object(members))
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return json(.object(["version": .number(Double(current.version)), "asked": .number(Double(seen))]))
    }

    private func picture(_ path: String) -> Response {
        guard let bytes = try? LocalFile.read(path, inside: configuration.folder, limit: 64 * 1024 * 1024),
            let type = PictureFormat.mediaType(Array(bytes.prefix(12)))
        else { return Response(status: .notFound) }
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "no-store"
        headers[.contentSecurityPolicy] = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    private func page(_ html: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[.contentSecurityPolicy] = ContentPolicy.page(pictures: .ownOrigin, asHeader: true)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    private func json(_ value: JSONValue) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"], body: .init(byteBuffer: ByteBuffer(string: value.encoded)))
    }

    private func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }

    static func asset(_ name: String) -> Response {
        let (body, type): (String, String)
        switch name {
        case "cyd.css": (body, type) = (SiteAssets.stylesheet + ServeAssets.stylesheet + PreviewPages.stylesheet, "text/css; charset=utf-8")
        case "preview.js": (body, type) = (PreviewPages.script, "text/javascript; charset=utf-8")
        default: return Response(status: .notFound)
        }
        return Response(status: .ok, headers: [.contentType: type, .cacheControl: "no-store"], body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}

/// Only requests that name this machine's own address: a web page cannot rebind a name to the
/// preview and read the story through it.
struct PreviewHostCheck: RouterMiddleware {
    typealias Context = BasicRequestContext
    let server: PreviewServer

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let authority = request.head.authority, Guards.isOurHost(authority, port: server.port) else {
            return Response(status: .misdirectedRequest)
        }
        return try await next(request, context)
    }
}
#endif
