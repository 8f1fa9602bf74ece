// The browser reader is built with the package trait BrowserReader only.
#if BrowserReader
import Dispatch
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import InterfaceWords
import StoryFormat
import StoryReader
import StorySources
import StoryStore
import StoryWeb
import StoryTranslation
import Synchronization

/// What a request carries past the gate: who is reading and, for a POST, its checked form.
struct ReaderContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    var profile = ""
    var canChangeProfile = false
    var form = Form()
    /// The library's version when the request came (`PageCache`).
    var version: Int?
    /// The language this browser chose on a page (its cookie), if it chose.
    var language: LanguageChoice?
    /// A GET's path: where the language switch comes back to.
    var path = "/"
    /// The languages the browser asks for (Accept-Language), most wanted first.
    var accepted: [String] = []
    /// cyd's words for this reader (`ReaderServer.words`), settled once by the gate.
    var words: Phrasebook = .english

    init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }

    /// Forms are small; a larger body is refused before it is read whole.
    var maxUploadSize: Int { ReaderServer.bodyLimit }
}

/// The browser reader: pages from the library, places shared with `cyd read` (one SQLite library
/// in WAL mode, so browsers and terminals read and write it at once), pictures fetched lazily.
/// Changes are POSTs answered by a redirect (post/redirect/get); GETs change nothing.
public final class ReaderServer: Sendable {
    public let library: StoryLibrary
    public let configuration: ServeConfiguration
    /// The anti-forgery token every form carries; new each time the server starts.
    let formToken: String
    let pictures: PictureFetcher
    let importer: StoryImporter
    /// Pages kept while the library does not change.
    let cache: PageCache
    /// Signs and opens the profile cookie.
    let profileSeal: ProfileSeal
    private let port: Atomic<Int>
    private let authority = Mutex("")
    /// The port the server listens on (known once it runs, when the configuration asked for 0).
    var boundPort: Int { port.load(ordering: .relaxed) }

    static let bodyLimit = 64 * 1024
    /// Profile names, bookmark names and the reader's name are at most this long.
    static let nameLimit = 60
    static let noteLimit = 4000

    public init(library: StoryLibrary, configuration: ServeConfiguration) {
        self.library = library
        self.configuration = configuration
        formToken = Forms.secret()
        let context = SourceContext(location: library.location, certificateAuthorities: configuration.certificateAuthorities)
        pictures = PictureFetcher(library: library, source: LibraryPictures(context: context))
        importer = StoryImporter(library: library, certificateAuthorities: configuration.certificateAuthorities)
        port = Atomic(configuration.port)
        cache = PageCache(library)
        profileSeal = ProfileSeal.load(in: library.location.dataDirectory)
    }

    /// Makes Swift's concurrency run its tasks on SwiftNIO's event loops, so a request is not
    /// handed between NIO's threads and the concurrency pool's on its way (measured: 16,000 to
    /// 25,000-33,000 requests a second for a kept chapter page). Call it once, first thing, before any task
    /// starts; false when it is too late. Blocking work (downloads, picture waits) goes to
    /// Dispatch's threads all the same (`offThread`).
    public static func runTasksOnEventLoops() -> Bool {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }

    /// `run`, for a caller that is not async: blocks this thread until the server stops, then
    /// throws what stopped it, if anything did.
    public func runBlocking(onStarted: @escaping @Sendable (Int) -> Void) throws {
        let failure = Mutex<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            do { try await run(onStarted: onStarted) } catch { failure.withLock { $0 = error } }
            done.signal()
        }
        done.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// Serves until the process is asked to stop (SIGINT, SIGTERM). `onStarted` gets the port
    /// bound, before the first request is answered.
    public func run(onStarted: @escaping @Sendable (Int) -> Void) async throws {
        let router = Router(context: ReaderContext.self)
        routes(router)
        let deadline = TimeAmount.milliseconds(Int64(configuration.requestDeadline * 1000))
        let http = HTTP1Channel.Configuration(
            additionalChannelHandlers: [RequestDeadline(limit: deadline), KeptPages(server: self)],
            idleTimeout: deadline,
            httpDecoderConfiguration: .init(maxHeaderFieldSize: 8 * 1024, maxHeaderListSize: 32 * 1024, maxHeaderFieldCount: 100))
        let app = Application(
            responder: Gate(server: self, routes: router.buildResponder()),
            server: HTTPServerBuilder { responder in ReaderChannel(http: HTTP1Channel(responder: responder, configuration: http)) },
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil, backlog: 512),
            onServerRunning: { [self] channel in
                let bound = channel.localAddress?.port ?? configuration.port
                noteBound(bound)
                onStarted(bound)
            },
            logger: Logger(label: "cyd-serve", factory: { _ in SwiftLogNoOpLogHandler() }))
        do {
            try await app.runService()
        } catch let error as IOError {
            throw ServeFailure.cannotListen(host: configuration.host, port: configuration.port, errno: error.errnoCode)
        } catch let error as SocketAddressError {
            throw ServeFailure.unknownAddress(host: configuration.host, detail: String(describing: error))
        }
    }

    // MARK: Routes

    func routes(_ router: Router<ReaderContext>) {
        router.get("/") { [self] request, context in try cached(request, context) { try library(request, context) } }
        router.get("/search") { [self] request, context in try cached(request, context) { try library(request, context) } }
        router.get("/profiles") { [self] request, context in try cached(request, context) { try profilesPage(context) } }
        router.post("/profiles") { [self] _, context in try chooseProfile(context) }  // changes no page: a cookie
        router.post("/language") { [self] _, context in chooseLanguage(context) }  // a cookie, which pages are kept by
        router.get("/catalogue") { [self] request, context in try cached(request, context) { try cataloguePage(request, context) } }
        router.post("/catalogue/get") { [self] _, context in await getStory(context) }
        router.get("/assets/:name") { _, context in Self.asset(context.parameters.get("name") ?? "") }
        router.get("/stories/:id") { [self] request, context in try cached(request, context) { try withStory(context) { try storyPage($0, request, context) } } }
        router.get("/stories/:id/:chapter") { [self] request, context in
            try cached(request, context) { try withStory(context) { try chapterPage($0, request, context) } }
        }
        router.get("/stories/:id/-/marks") { [self] request, context in
            try cached(request, context) { try withStory(context) { try marksPage($0, request, context) } }
        }
        router.get("/stories/:id/-/restart") { [self] request, context in
            try cached(request, context) { try withStory(context) { try restartPage($0, context) } }
        }
        router.get("/stories/:id/-/path") { [self] request, context in try cached(request, context) { try withStory(context) { try pathPage($0, context) } } }
        router.get("/stories/:id/-/picture/:chapter") { [self] _, context in
            guard let id = context.parameters.get("id").flatMap({ Int64($0) }), let story = try library.story(id: id) else { return Response(status: .notFound) }
            return await picture(story, context)
        }
        for action in Self.postedActions {
            router.post("/stories/:id/-/\(action.rawValue)") { [self] _, context in
                defer { cache.changed() }
                var answer: Response?
                let page = try withStory(context) { story in
                    answer = try perform(action, on: story, context)
                    return Rendered("")
                }
                return answer ?? page.response
            }
        }
    }

    /// A page as made, before it is sent: its bytes (which the cache keeps) and its status.
    struct Rendered {
        var body: ByteBuffer
        var status: HTTPResponse.Status

        init(_ html: String, status: HTTPResponse.Status = .ok) {
            body = ByteBuffer(string: html)
            self.status = status
        }

        var response: Response { ReaderServer.html(body, status: status) }
    }

    /// A GET's page from the cache when the library has not changed since it was made (for this
    /// profile, at this address), else made now and kept if it is a 200.
    private func cached(_ request: Request, _ context: ReaderContext, _ make: () throws -> Rendered) throws -> Response {
        let key = Self.cacheKey(request, context)
        if let page = cache.page(key, at: context.version) { return Self.html(page) }
        let page = try make()
        if page.status == .ok { cache.keep(page.body, as: key, at: context.version) }
        return page.response
    }

    /// Where a GET's page is kept: who reads it, its address, and the languages the browser
    /// asks for (a story is shown in the first it has).
    static func cacheKey(_ request: Request, _ context: ReaderContext) -> String {
        cacheKey(profile: context.profile, path: request.uri.path, query: request.uri.query, languages: languageKey(chosen: context.language, accepted: request.headers[.acceptLanguage]))
    }

    /// What decides a page's language: the reader's choice on a page, else the browser's.
    static func languageKey(chosen: LanguageChoice?, accepted: String?) -> String {
        (chosen?.value ?? "") + "\u{0}" + (accepted ?? "")
    }

    static func cacheKey(profile: String, path: String, query: String?, languages: String?) -> String {
        profile + "\u{0}" + path + "?" + pageQuery(query) + "\u{0}" + (languages ?? "")
    }

    /// The part of a query that makes a page what it is: the notice (`said`) and the search
    /// (`q`), nothing else. Any other field changes nothing on the page, so it never makes a page
    /// of its own: a thousand addresses that differ only in junk share one kept page (and one
    /// buffer in every connection that is sent it).
    static func pageQuery(_ query: String?) -> String {
        guard let query, !query.isEmpty else { return "" }
        let fields = Forms.fields(Array(query.utf8))
        return (fields["said"].flatMap(Notice.init(rawValue:)).map { "said=" + $0.rawValue } ?? "") + "&" + (fields["q"].map { "q=" + Forms.carry(String($0.prefix(200))) } ?? "")
    }

    /// The story a URL names, or the page saying it is not (or no longer) in the library.
    private func withStory(_ context: ReaderContext, _ body: (StoryRecord) throws -> Rendered) throws -> Rendered {
        guard let id = context.parameters.get("id").flatMap({ Int64($0) }), let story = try library.story(id: id) else {
            let words = context.words
            return Rendered(
                Pages.message(title: words[.serveStoryNotFoundTitle], [words(.serveStoryNotFound, ["command": configuration.words.removal])], reader: reader(context)),
                status: .notFound)
        }
        do {
            return try body(story)
        } catch LibraryError.storyRemoved {
            let words = context.words
            return Rendered(
                Pages.message(title: words[.serveStoryRemovedTitle], [words(.serveStoryRemoved, ["story": story.title])], reader: reader(context)), status: .gone)
        }
    }

    func reader(_ context: ReaderContext) -> Pages.Reader {
        let languages = ((try? library.languagesByStory()) ?? [:]).values.flatMap { $0.map(\.language) }
        return Pages.Reader(
            profile: context.profile, canChangeProfile: context.canChangeProfile, formToken: formToken, languages: Array(Set(languages)).sorted(),
            language: context.language, serverLanguage: configuration.language, path: context.path, words: context.words)
    }

    /// The page for an address with no page, in the reader's words.
    func notFound(_ context: ReaderContext) -> String {
        let words = context.words
        return Pages.message(title: words[.servePageNotFoundTitle], [words[.servePageNotFound]], reader: reader(context))
    }

    /// cyd's words for a reader: the language chosen on a page, else the server's, then the
    /// browser's (Accept-Language), each phrase in the first of them that has it.
    func words(chosen: LanguageChoice?, accepted: [String]) -> Phrasebook {
        var preferred: [String] = []
        if case .language(let tag)? = chosen ?? configuration.language { preferred.append(tag) }
        return Phrasebook(preferring: preferred + accepted)
    }

    private func session(_ story: StoryRecord, _ context: ReaderContext, language: String? = nil) throws -> ReadingSession {
        let name = try library.firstName(profile: context.profile)
        return try ReadingSession(library: library, story: story, profile: context.profile, firstName: name ?? ReaderName.fallback, pictures: pictures, language: language)
    }

    /// The language to show a story in: the one the reader chose on a page, else the server's
    /// (`ServeConfiguration.language`), else the first of the browser's (Accept-Language, by weight) that the story
    /// has a translation into; nil for the story as written. The original counts as English
    /// (story.json names no language; cyd's templates say `en`), so a browser that prefers
    /// English to French reads the original.
    func language(of story: StoryRecord, _ context: ReaderContext) throws -> StoryLanguage? {
        let languages = try library.languages(of: story)
        guard !languages.isEmpty else { return nil }
        if let choice = context.language ?? configuration.language {
            guard case .language(let tag) = choice, let match = LanguageTag.best(for: tag, among: languages.map(\.language)) else { return nil }
            return languages.first { $0.language == match }
        }
        for tag in context.accepted {
            if let match = LanguageTag.best(for: tag, among: languages.map(\.language)) { return languages.first { $0.language == match } }
            if LanguageTag.isEnglish(tag) { return nil }
        }
        return nil
    }

    /// The tags of an Accept-Language header, most wanted first (`*` and q=0 left out; at most 20).
    static func acceptedLanguages(_ header: String) -> [String] {
        var weighted: [(tag: String, weight: Double, order: Int)] = []
        for (order, part) in header.split(separator: ",").prefix(20).enumerated() {
            let pieces = part.split(separator: ";")
            let tag = pieces.first.map { String($0).trimmingBlanks } ?? ""
            var weight = 1.0
            for piece in pieces.dropFirst() {
                let parameter = String(piece).trimmingBlanks
                if parameter.hasPrefix("q="), let value = Double(parameter.dropFirst(2)) { weight = value }
            }
            guard tag != "*", weight > 0, LanguageTag.isWellFormed(tag) else { continue }
            weighted.append((tag, weight, order))
        }
        return weighted.sorted { ($0.weight, -$0.order) > ($1.weight, -$1.order) }.map(\.tag)
    }

    /// The record as shown in `language`: its title and summary translated.
    static func shown(_ story: StoryRecord, in language: StoryLanguage?) -> StoryRecord {
        guard let language else { return story }
        var shown = story
        shown.title = language.title
        shown.summary = language.summary
        return shown
    }

    // MARK: Pages

    private func library(_ request: Request, _ context: ReaderContext) throws -> Rendered {
        let query = Forms.fields(Array((request.uri.query ?? "").utf8))["q"].map { String($0.prefix(200)) } ?? ""
        let languages = try library.languagesByStory()
        let shelves = try library.stories().map { story in
            let language = try language(of: story, context)
            let place = try library.progress(profile: context.profile, story: story).flatMap { try library.chapter($0.chapterKey, of: story, language: language?.language) }
            return Pages.Shelf(
                story: Self.shown(story, in: language), place: place.map { Pages.title($0, context.words) },
                endingsFound: try library.endingsFound(profile: context.profile, story: story).count,
                languages: languages[story.id] ?? [], language: language?.language)
        }
        let found = query.isEmpty ? nil : try searchResults(query, context)
        return Rendered(Pages.library(shelves, reader: reader(context), query: query, found: found))
    }

    /// What a search finds, as this reader may see it: a hit in an ending they have not reached
    /// names the story only.
    private func searchResults(_ query: String, _ context: ReaderContext) throws -> [Pages.Found] {
        var reached: [Int64: Set<String>] = [:]
        return try library.search(query).map { hit in
            guard let key = hit.chapterKey, let chapter = try library.chapter(key, of: hit.story), chapter.endsReading else { return Pages.Found(hit: hit) }
            if reached[hit.story.id] == nil { reached[hit.story.id] = Set(try library.endingsFound(profile: context.profile, story: hit.story)) }
            return Pages.Found(hit: hit, isUnreachedEnding: reached[hit.story.id]?.contains(key) != true)
        }
    }

    private func profilesPage(_ context: ReaderContext) throws -> Rendered {
        var names = try library.profiles()
        if !names.contains(configuration.defaultProfile) { names.insert(configuration.defaultProfile, at: 0) }
        return Rendered(Pages.profiles(names, current: context.profile.isEmpty ? nil : context.profile, option: configuration.words.profileOption, reader: reader(context)))
    }

    /// The language switch of every page: kept in a cookie (the pages are kept by it), then back
    /// to the page it was on.
    private func chooseLanguage(_ context: ReaderContext) -> Response {
        let back = context.form.carried("back").flatMap { Self.isOwnPath($0) ? $0 : nil } ?? "/"
        var response = Self.redirect(back)
        if let choice = context.form.carried("lang").flatMap(LanguageChoice.init) {
            response.headers.append(HTTPField(name: .setCookie, value: "\(Cookies.language)=\(choice.value); Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000"))
        } else {
            response.headers.append(HTTPField(name: .setCookie, value: "\(Cookies.language)=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0"))
        }
        return response
    }

    /// A path of this server's, as a request carries it (percent-encoded, printable ASCII): one
    /// `/` first, never `//` or a backslash (which a browser reads as another host).
    static func isOwnPath(_ path: String) -> Bool {
        path.hasPrefix("/") && !path.hasPrefix("//") && !path.contains("\\") && path.utf8.count <= 2048
            && path.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    private func chooseProfile(_ context: ReaderContext) throws -> Response {
        let name = (context.form.carried("chosen") ?? context.form.typed("profile") ?? "").trimmingBlanks
        guard !name.isEmpty, name.count <= Self.nameLimit else {
            return Self.html(
                Pages.message(
                    title: context.words[.serveNoSuchProfileTitle], [context.words(.serveNoSuchProfile, ["count": String(Self.nameLimit)])],
                    links: [("/profiles", context.words[.serveChooseAgain])], reader: nil, words: context.words),
                status: .badRequest)
        }
        var response = Self.redirect("/")
        response.headers.append(HTTPField(name: .setCookie, value: "\(Cookies.profile)=\(profileSeal.seal(name)); Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000"))
        return response
    }

    private func storyPage(_ story: StoryRecord, _ request: Request, _ context: ReaderContext) throws -> Rendered {
        let language = try language(of: story, context)
        let place = try library.progress(profile: context.profile, story: story).flatMap { try library.chapter($0.chapterKey, of: story, language: language?.language) }
        let endings = try library.endingsFound(profile: context.profile, story: story).count
        let name = try library.firstName(profile: context.profile)
        return Rendered(
            Pages.story(
                Self.shown(story, in: language), place: place, endings: endings, firstName: name, reader: reader(context),
                notice: Notice.from(request)?.words(context.words), language: language))
    }

    private func chapterPage(_ story: StoryRecord, _ request: Request, _ context: ReaderContext) throws -> Rendered {
        let key = Pages.chapterKey(fromSegment: context.parameters.get("chapter") ?? "")
        let language = try language(of: story, context)
        let session = try session(story, context, language: language?.language)
        guard let chapter = try library.chapter(key, of: story, language: language?.language) else {
            return Rendered(
                Pages.message(
                    title: context.words[.serveChapterNotFoundTitle], [context.words(.serveChapterNotFound, ["story": story.title, "chapter": key])],
                    links: [(Pages.storyURL(story), context.words[.serveStoryPage])], reader: reader(context)), status: .notFound)
        }
        let place = try library.progress(profile: context.profile, story: story).flatMap { try library.chapter($0.chapterKey, of: story, language: language?.language) }
        let endings = (try library.endingsFound(profile: context.profile, story: story).count, story.endingCount)
        return Rendered(
            Pages.chapter(
                session.view(chapter), of: Self.shown(story, in: language), isPlace: place?.key == chapter.key, place: place, endings: endings,
                reader: reader(context), notice: Notice.from(request)?.words(context.words), language: language?.language))
    }

    private func marksPage(_ story: StoryRecord, _ request: Request, _ context: ReaderContext) throws -> Rendered {
        let bookmarks = try library.bookmarks(profile: context.profile, story: story)
        let notes = try library.notes(profile: context.profile, story: story)
        let titles = try library.chapterNames(bookmarks.map(\.chapterKey) + notes.map(\.chapterKey), of: story)
        return Rendered(Pages.marks(story, bookmarks: bookmarks, notes: notes, titles: titles, reader: reader(context), notice: Notice.from(request)?.words(context.words)))
    }

    private func pathPage(_ story: StoryRecord, _ context: ReaderContext) throws -> Rendered {
        guard try library.progress(profile: context.profile, story: story) != nil else {
            return Rendered(Pages.path(story, steps: [], reader: reader(context)))
        }
        let session = try session(story, context)
        try session.begin()
        return Rendered(Pages.path(story, steps: try session.path(), reader: reader(context)))
    }

    /// Start again asks first when there is a place to lose; with none it is the story's page.
    private func restartPage(_ story: StoryRecord, _ context: ReaderContext) throws -> Rendered {
        guard let progress = try library.progress(profile: context.profile, story: story), let place = try library.chapter(progress.chapterKey, of: story) else {
            let words = context.words
            return Rendered(
                Pages.message(
                    title: words[.serveNotStartedTitle], [words[.serveNoPlaceToRestart]], links: [(Pages.storyURL(story), words[.serveBeginIt])], reader: reader(context)))
        }
        return Rendered(Pages.restart(story, place: place, steps: progress.history.count, reader: reader(context)))
    }

    private func cataloguePage(_ request: Request, _ context: ReaderContext) throws -> Rendered {
        let entries = try library.catalogue().filter { $0.isStory == true }
        var stored: [String: StoryRecord] = [:]
        for story in try library.stories() { stored[story.source.location] = story }
        return Rendered(Pages.catalogue(entries, inLibrary: stored, fetchedBy: configuration.words.catalogueFetch, reader: reader(context), notice: Notice.from(request)?.words(context.words)))
    }

    private func getStory(_ context: ReaderContext) async -> Response {
        defer { cache.changed() }
        let url = context.form.carried("url") ?? ""
        let entry: CatalogueEntry?
        do { entry = try library.catalogueEntry(url: url) } catch { entry = nil }
        guard let entry, entry.isStory == true else {
            return Self.html(
                Pages.message(
                    title: context.words[.serveNotInCatalogueTitle], [context.words[.serveNotInCatalogue]], links: [("/catalogue", context.words[.serveTheCatalogue])],
                    reader: reader(context)),
                status: .notFound)
        }
        // A download is slow work (git, https): it runs off the server's threads.
        let importer = importer
        let result: Result<ImportResult, SourceError> = await Self.offThread {
            do throws(SourceError) { return .success(try importer.importStory(from: entry.source, author: entry.author)) } catch { return .failure(error) }
        }
        switch result {
        case .success(let imported): return Self.redirect(Pages.storyURL(imported.story))
        case .failure(let error):
            return Self.html(
                Pages.message(
                    title: context.words[.serveCouldNotGetTitle], [context.words(.serveCouldNotGet, ["story": entry.title ?? entry.id, "reason": configuration.describe(error)])],
                    links: [("/catalogue", context.words[.serveTheCatalogue])], reader: reader(context)), status: .badGateway)
        }
    }

    private func picture(_ story: StoryRecord, _ context: ReaderContext) async -> Response {
        let key = Pages.chapterKey(fromSegment: context.parameters.get("chapter") ?? "")
        guard let chapter = try? library.chapter(key, of: story), let path = chapter.picPath else { return Response(status: .notFound) }
        let pictures = pictures
        let state = await Self.offThread { () -> PictureState in
            if case .loading = pictures.request(path, of: story) { return pictures.wait(path, of: story, timeout: 20) }
            return pictures.request(path, of: story)
        }
        // Only the four picture formats readers show, known by their first bytes; never what a
        // server called the file (an SVG or HTML "picture" is not served).
        guard case .ready(let picture) = state, let type = PictureFormat.mediaType(Array(picture.data.prefix(12))) else {
            return Response(status: .notFound)
        }
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "private, max-age=3600"
        // A picture opened on its own (an SVG, say) is a sandboxed document that runs nothing.
        headers[.contentSecurityPolicy] = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: picture.data)))
    }

    // MARK: Changes (POST, then a redirect)

    /// The actions a page's forms post (`/stories/ID/-/ACTION`); the rest are pages of their own
    /// (history, picture, help) or have no place in a browser (quit).
    static let postedActions: [ReaderAction] = ReaderAction.allCases.filter { action in
        switch action {
        case .choose, .back, .restart, .bookmark, .unmark, .jump, .note, .unnote, .name: true
        case .history, .picture, .help, .quit: false
        }
    }

    private func perform(_ action: ReaderAction, on story: StoryRecord, _ context: ReaderContext) throws -> Response {
        let session = try session(story, context)
        let form = context.form
        var notice: Notice?
        switch action {
        case .restart:
            try session.restart()
        case .choose:
            try session.begin()
            // A choice is taken from the chapter its page showed: if the place has moved on since
            // (another window, the terminal), the reader goes on from that page all the same.
            if let from = form.carried("from"), from != session.current.record.key {
                do { try session.jump(toChapter: from) } catch ReadingError.chapterMissing { return Self.redirect(Pages.storyURL(story), .chapterGone) }
                // The page was shown as the place, and the place moved since (a terminal, another
                // window): the reader goes on from the page they chose on, and is told.
                if form.carried("at") == from { notice = .placeMoved }
            }
            guard let number = form.carried("choice").flatMap({ Int($0) }) else { return Self.redirect(chapter: session, story) }
            do { try session.choose(number) } catch let error as ReadingError {
                switch error {
                case .unavailableChoice: notice = .unavailable
                default: notice = .noSuchChoice
                }
            }
        case .back:
            try session.begin()
            if try !session.back() { notice = .atStart }
        case .bookmark:
            try session.begin()
            if let from = form.carried("from"), from != session.current.record.key { try? session.jump(toChapter: from) }
            let name = form.typed("name").map { String($0.trimmingBlanks.prefix(Self.nameLimit)) }
            let placed = try session.placeBookmark(name)
            switch placed.change {
            case .added: notice = .bookmarked
            case .alreadyHere: notice = .bookmarkKept
            case .moved: notice = .bookmarkMoved
            }
        case .unmark:
            _ = try session.removeBookmark(form.carried("bookmark") ?? "")
            return Self.redirect(Pages.storyURL(story) + "/-/marks", .bookmarkRemoved)
        case .jump:
            try session.begin()
            if let chapter = form.carried("chapter") {
                // "Go on from here" on a chapter that is not the place.
                do { try session.jump(toChapter: chapter) } catch is ReadingError { return Self.redirect(Pages.storyURL(story), .chapterGone) }
                notice = .goneOnFromHere
            } else {
                do { try session.jump(to: form.carried("bookmark") ?? "") } catch is ReadingError { return Self.redirect(Pages.storyURL(story) + "/-/marks", .bookmarkGone) }
            }
        case .note:
            try session.begin()
            if let from = form.carried("from"), from != session.current.record.key { try? session.jump(toChapter: from) }
            let text = (form.typed("text") ?? "").trimmingBlanks
            guard !text.isEmpty else { return Self.redirect(chapter: session, story, .emptyNote) }
            try session.addNote(String(text.prefix(Self.noteLimit)))
            notice = .noted
        case .unnote:
            _ = try session.removeNote(Int64(form.carried("note") ?? "") ?? -1)
            return Self.redirect(Pages.storyURL(story) + "/-/marks", .noteRemoved)
        case .name:
            let name = (form.typed("name") ?? "").trimmingBlanks
            if !name.isEmpty { try library.setFirstName(String(name.prefix(Self.nameLimit)), profile: context.profile) }
            return Self.redirect(Pages.storyURL(story), .nameKept)
        case .history, .picture, .help, .quit:
            return Response(status: .notFound)  // never routed: see postedActions
        }
        if let unsaved = session.unsaved {
            return Self.html(
                Pages.message(
                    title: context.words[.servePlaceNotSavedTitle], [context.words(.servePlaceNotSaved, ["reason": configuration.describe(unsaved)])],
                    links: [(Pages.chapterURL(story, session.current.record.key), context.words[.serveGoOnReading])], reader: reader(context)), status: .internalServerError)
        }
        return Self.redirect(chapter: session, story, notice)
    }

    // MARK: Responses

    static func html(_ page: String, status: HTTPResponse.Status = .ok) -> Response { html(ByteBuffer(string: page), status: status) }

    static func html(_ page: ByteBuffer, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: pageHeaders, body: .init(byteBuffer: page))
    }

    /// Every page's headers, made once: its type, no caching by the browser (a page is one
    /// reader's), and the security headers.
    static let pageHeaders: HTTPFields = {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[.vary] = "Accept-Language"
        Guards.secure(&headers)
        return headers
    }()

    /// "HOST:PORT" as the printed link names this server (the Host header browsers send for it).
    var printedAuthority: String { authority.withLock { $0 } }

    func noteBound(_ port: Int) {
        self.port.store(port, ordering: .relaxed)
        authority.withLock { $0 = (configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host) + ":\(port)" }
    }

    static func redirect(_ location: String, _ notice: Notice? = nil) -> Response {
        let target = notice.map { location + "?said=" + $0.rawValue } ?? location
        return Response(status: .seeOther, headers: [.location: target, .cacheControl: "no-store"])
    }

    static func redirect(chapter session: ReadingSession, _ story: StoryRecord, _ notice: Notice? = nil) -> Response {
        redirect(Pages.chapterURL(story, session.current.record.key), notice)
    }

    static func asset(_ name: String) -> Response {
        let (body, type): (String, String)
        switch name {
        case "cyd.css": (body, type) = (SiteAssets.stylesheet + ServeAssets.stylesheet, "text/css; charset=utf-8")
        case "serve.js": (body, type) = (ServeAssets.script, "text/javascript; charset=utf-8")
        default: return Response(status: .notFound)
        }
        return Response(
            status: .ok, headers: [.contentType: type, .cacheControl: "public, max-age=300"], body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// Runs blocking work (a download, a wait for a picture) on Dispatch's threads, not the
    /// server's.
    static func offThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }
}

/// Why the server could not start.
public enum ServeFailure: Error, Sendable, Equatable {
    /// Binding the address failed (`errno`: in use, not this machine's, a privileged port).
    case cannotListen(host: String, port: Int, errno: Int32)
    /// The address is not one this machine can listen on.
    case unknownAddress(host: String, detail: String)
}

/// What a redirect tells the next page, by a fixed word in its URL (never a text of the reader's).
enum Notice: String {
    case bookmarked, bookmarkKept = "bookmark-kept", bookmarkRemoved = "bookmark-removed", bookmarkGone = "bookmark-gone"
    case noted, noteRemoved = "note-removed", emptyNote = "empty-note", atStart = "at-start", nameKept = "name-kept"
    case unavailable, noSuchChoice = "no-such-choice", chapterGone = "chapter-gone"
    case placeMoved = "place-moved", goneOnFromHere = "gone-on", bookmarkMoved = "bookmark-moved"

    static func from(_ request: Request) -> Notice? {
        Forms.fields(Array((request.uri.query ?? "").utf8))["said"].flatMap(Notice.init(rawValue:))
    }

    func words(_ book: Phrasebook) -> String {
        switch self {
        case .bookmarked: book[.serveNoticeBookmarked]
        case .bookmarkKept: book[.serveNoticeBookmarkKept]
        case .bookmarkRemoved: book[.serveNoticeBookmarkRemoved]
        case .bookmarkGone: book[.serveNoticeBookmarkGone]
        case .noted: book[.serveNoticeNoted]
        case .noteRemoved: book[.serveNoticeNoteRemoved]
        case .emptyNote: book[.serveNoticeEmptyNote]
        case .atStart: book[.serveNoticeAtStart]
        case .nameKept: book[.serveNoticeNameKept]
        case .unavailable: book[.serveNoticeUnavailable]
        case .noSuchChoice: book[.serveNoticeNoSuchChoice]
        case .chapterGone: book[.serveNoticeChapterGone]
        case .placeMoved: book[.serveNoticePlaceMoved]
        case .goneOnFromHere: book[.serveNoticeGoneOnFromHere]
        case .bookmarkMoved: book[.serveNoticeBookmarkMoved]
        }
    }
}

extension String {
    var trimmingBlanks: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
#endif
