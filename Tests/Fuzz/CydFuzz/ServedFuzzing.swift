#if BrowserReader && DEBUG
import Dispatch
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import StorySources
import StoryStore
@testable import StoryServer

/// `cyd serve` fed raw bytes, and its readers of what a browser sends.
enum ServedFuzzing {
    /// A library of one story in a temporary folder, the server over it, and its gate.
    struct World: @unchecked Sendable {
        let server: ReaderServer
        let gate: Gate<RouterResponder<ReaderContext>>
        let changes: LibraryChanges
    }

    static let port = 8080

    static let world: World = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cyd-fuzz-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try! FileManager.default.createDirectory(at: folder.appendingPathComponent("story"), withIntermediateDirectories: true)
        // Gone when the fuzzer or the replay exits: nothing is left in the temporary folder.
        atexit { try? FileManager.default.removeItem(atPath: FileManager.default.temporaryDirectory.appendingPathComponent("cyd-fuzz-\(getpid())").path) }
        let story = """
            {"story": {"id": "s", "name": "Tide", "rating": "G", "summary": "A tale", "chapters": [
              {"id": "a", "name": "Start", "is_first_chapter": true, "text": "Hello, [[name]].", "choices": [{"chapter_id": "tab\\there", "text": "On"}, {"chapter_id": "..", "text": "Up"}]},
              {"id": "tab\\there", "name": "Tab", "text": "Here.", "choices": [{"chapter_id": "a", "text": "Back"}]},
              {"id": "..", "name": "Dots", "text": "The end."}]}}
            """
        try! Data(story.utf8).write(to: folder.appendingPathComponent("story/story.json"))
        let library = try! StoryLibrary(location: LibraryLocation(home: folder.appendingPathComponent("library").path))
        _ = try! StoryImporter(library: library).add(folder.appendingPathComponent("story").path, replace: false)
        let server = ReaderServer(library: library, configuration: ServeConfiguration(
                host: "127.0.0.1", port: port, access: .loopback, words: .init(server: "cyd serve", removal: "cyd remove", catalogueFetch: "cyd sync", profileOption: "--profile"),
                describe: { String(describing: $0) }))
        server.noteBound(port)
        let router = Router(context: ReaderContext.self)
        server.routes(router)
        return World(server: server, gate: Gate(server: server, routes: router.buildResponder()), changes: LibraryChanges(library))
    }()

    static let logger = Logger(label: "fuzz", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Raw bytes through HTTP/1's decoder and the server's own handlers, then each request that
    /// comes out through the gate: nothing crashes, every answer has a status, a request for
    /// another host is never answered with a page, and no request changes the library (the
    /// fuzzer cannot know the anti-forgery token).
    static func request(_ bytes: [UInt8]) {
        let world = world
        let before = world.changes.version()
        let channel = EmbeddedChannel()
        try! channel.pipeline.syncOperations.addHandlers([
            ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)), RequestLine(), HTTP1ToHTTPServerCodec(secure: false),
            RequestDeadline(limit: .seconds(10)), KeptPages(server: world.server),
        ])
        do { try channel.writeInbound(ByteBuffer(bytes: bytes)) } catch {
            // HTTP/1's decoder refused the bytes: a connection would be answered 400 and closed.
        }
        var requests: [(head: HTTPRequest, body: ByteBuffer)] = []
        var current: (head: HTTPRequest, body: ByteBuffer)?
        while let part = try? channel.readInbound(as: HTTPRequestPart.self) {
            switch part {
            case .head(let head): current = (head, ByteBuffer())
            case .body(var piece): current?.body.writeBuffer(&piece)
            case .end: if let done = current { requests.append(done) }; current = nil
            }
        }
        while let answer = try? channel.readOutbound(as: HTTPResponsePart.self) {
            if case .head(let head) = answer { precondition(head.status == .ok, "a kept page is answered 200") }
        }
        for request in requests.prefix(8) {
            let response = blocking {
                try await world.gate.respond(
                    to: Request(head: request.head, body: .init(buffer: request.body)),
                    context: ReaderContext(source: ApplicationRequestContextSource(channel: channel, logger: logger)))
            }
            guard let response else { continue }
            precondition((100...599).contains(response.status.code))
            let ours = request.head.authority.map { $0 == world.server.printedAuthority || Guards.isOurHost($0, port: port) } ?? false
            if !ours { precondition(response.status.code >= 400, "a request for another host was answered \(response.status.code)") }
        }
        _ = try? channel.finish()
        precondition(world.changes.version() == before, "a request the fuzzer made changed the library")
    }

    /// The readers of forms, queries and cookies, and the values the server carries through a
    /// page: a carried value, a chapter's address and a sealed profile come back exactly; a
    /// cookie the server did not seal names no profile.
    static func forms(_ bytes: [UInt8]) {
        let fields = Forms.fields(bytes)
        precondition(fields.count <= Forms.fieldLimit)
        let form = Form(fields)
        for name in fields.keys { _ = form.carried(name) }
        let text = String(decoding: bytes, as: UTF8.self)
        _ = Forms.cookies(text)
        precondition(Forms.uncarry(Forms.carry(text)) == text, "a carried value does not come back")
        let segment = Pages.segment(text)
        precondition(!segment.isEmpty && segment != "." && segment != ".." && segment != "-" && !segment.contains("/"), "an address a browser rewrites: \(segment)")
        precondition(Pages.chapterKey(fromSegment: segment) == text, "a chapter's address names another chapter")
        let seal = world.server.profileSeal
        precondition(seal.open(seal.seal(text)) == text, "a sealed profile does not open")
        if let opened = seal.open(text) { precondition(seal.seal(opened) == text, "a cookie the server did not make was opened") }
        _ = RequestLine.absoluteForm(text)
        _ = Guards.isOurHost(text, port: port)
        _ = ReaderServer.pageQuery(text)
        _ = ReaderServer.acceptedLanguages(text)
    }

    /// Runs async work to its end from the fuzzer's thread.
    static func blocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) -> T? {
        let box = Box<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            box.value = try? await work()
            done.signal()
        }
        done.wait()
        return box.value
    }

    final class Box<T>: @unchecked Sendable { var value: T? }
}
#endif
