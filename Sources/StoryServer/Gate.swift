// The browser reader is built with the package trait BrowserReader only.
#if BrowserReader
import LocalFiles
import HTTPTypes
import Hummingbird
import InterfaceWords
import HummingbirdCore
import NIOCore
import NIOHTTPTypes
import StoryWeb
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every request passes here first. In order: the Host header must name this server (no DNS
/// rebinding: only IP literals and localhost, on our port); on a LAN, the access token must come
/// (once in the URL, then in an HttpOnly SameSite=Lax cookie: a link to the reader opened from
/// another site, a web chat, is a top-level GET that must carry it, and no POST from another
/// site does); the profile is settled (a
/// picker when there are several); a POST's body is read within its limit and must carry the
/// anti-forgery token and come from this origin. A GET whose page is kept (`PageCache`) is
/// answered here, without going through the router; everything else goes on to the routes.
/// Every answer gets the security headers.
struct Gate<Routes: HTTPResponder>: HTTPResponder where Routes.Context == ReaderContext {
    typealias Context = ReaderContext
    let server: ReaderServer
    let routes: Routes

    func respond(to request: Request, context: Context) async throws -> Response {
        // HEAD is a GET whose answer has no body: the same gate, the same page, its length said.
        if request.method == .head {
            var head = request.head
            head.method = .get
            var response = try await respond(to: Request(head: head, body: .init(buffer: ByteBuffer())), context: context)
            let length = response.body.contentLength
            response.body = ResponseBody()
            response.headers[.contentLength] = length.map(String.init)
            return response
        }
        if let problem = Guards.malformed(request.head) { return Guards.refusal(.badRequest, problem) }
        // Most kept pages are answered before they get here (`KeptPages`); one that comes while
        // another answer on the connection is being made is answered here, the same way.
        if let page = server.keptPage(request.head) { return ReaderServer.html(page) }
        return try await handle(request, context: context) { request, context in
            try await routes.respond(to: request, context: context)
        }
    }


    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await admit(request, context: context, next: next)
        Guards.secure(&response.headers)
        return response
    }

    private func admit(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let cookies = Forms.cookies(request.headers[.cookie])
        let path = request.uri.path
        let accepted = ReaderServer.acceptedLanguages(request.headers[.acceptLanguage] ?? "")
        let reading: ReaderServer.Reading
        switch try server.admission(method: request.method, authority: request.head.authority, path: path, query: request.uri.query, cookies: cookies) {
        case .misdirected:
            return Guards.refusal(.misdirectedRequest, "This server answers only to its own address (the Host header named another).")
        case .needsLink:
            let words = Phrasebook(preferring: accepted)
            return ReaderServer.html(
                Pages.message(
                    title: words[.serveNeedsLinkTitle], [words(.serveNeedsLinkOpen, ["server": server.configuration.words.server]), words[.serveNeedsLinkOld]],
                    links: [], reader: nil, words: words, siteLinks: false), status: .forbidden)
        case .takeKey(let token):
            // The token leaves the URL (and the history) at once; the cookie carries it from now on.
            var response = ReaderServer.redirect(path)
            response.headers.append(HTTPField(name: .setCookie, value: "\(Cookies.access)=\(token); Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000"))
            return response
        case .asset:
            return try await next(request, context)
        case .admitted(let settled):
            reading = settled
        }
        let authority = request.head.authority ?? ""

        var context = context
        if request.method == .post {
            let body: ByteBuffer
            do {
                body = try await request.body.collect(upTo: ReaderServer.bodyLimit)
            } catch {
                return Guards.refusal(.contentTooLarge, "That form was larger than \(ReaderServer.bodyLimit / 1024) KiB, so it was not read.")
            }
            context.form = Form(Forms.fields(body.readableBytesView))
            let origin = request.headers[.origin]
            let site = request.headers[Guards.fetchSite]
            guard Forms.sameSecret(context.form.carried("token"), server.formToken),
                origin == nil || origin == "http://" + authority,
                site == nil || site == "same-origin" || site == "none"
            else {
                let words = Phrasebook(preferring: accepted)
                return ReaderServer.html(
                    Pages.message(
                        title: words[.serveFormExpiredTitle], [words(.serveFormExpired, ["server": server.configuration.words.server])], reader: nil, words: words),
                    status: .forbidden)
            }
        }

        // A browser that has not chosen reads as the default profile, unless others exist: then
        // a page it asks for is the picker first.
        context.version = reading.version
        context.canChangeProfile = reading.canChangeProfile
        context.language = cookies[Cookies.language].flatMap(LanguageChoice.init)
        context.accepted = accepted
        context.words = server.words(chosen: context.language, accepted: accepted)
        if request.method == .get || request.method == .head { context.path = path }
        if let profile = reading.profile {
            context.profile = profile
        } else if request.method == .get, path != "/profiles" {
            return ReaderServer.redirect("/profiles")
        } else {
            context.profile = server.configuration.defaultProfile
        }

        do {
            let response = try await next(request, context)
            // An address no route knows gets the router's bare 404: it gets words too.
            if response.status == .notFound, response.headers[.contentType] == nil {
                return ReaderServer.html(server.notFound(context), status: .notFound)
            }
            return response
        } catch let error as HTTPError where error.status == .notFound {
            return ReaderServer.html(server.notFound(context), status: .notFound)
        } catch {
            return ReaderServer.html(
                Pages.message(title: context.words[.serveWentWrong], [server.configuration.describe(error)], reader: server.reader(context)),
                status: .internalServerError)
        }
    }

}

extension ReaderServer {
    /// The profile the browser chose, when its cookie is one this server made (`ProfileSeal`).
    func chosenProfile(_ cookies: [String: String]) -> String? {
        guard let chosen = cookies[Cookies.profile].flatMap(profileSeal.open), !chosen.isEmpty, chosen.count <= ReaderServer.nameLimit else { return nil }
        return chosen
    }

    /// Who reads, once the gate has let a request in: the library's version seen, the profile
    /// (nil when others exist and the browser has not chosen: it is asked), and whether the page
    /// offers to change it.
    struct Reading {
        var version: Int?
        var profile: String?
        var canChangeProfile: Bool
    }

    /// What the gate decides from a request's head alone, in order: the Host must name this
    /// server; on a LAN, the access key must come (once in the URL of a GET, then in its cookie);
    /// assets need nothing more; everything else settles who reads. The one decision both ways
    /// in use: `Gate.admit` (the routes) and `keptPage` (the event loop's fast path).
    enum Admission {
        case misdirected
        case needsLink
        /// A GET carrying the right key in its URL: it becomes the cookie, and the URL loses it.
        case takeKey(String)
        case asset
        case admitted(Reading)
    }

    func admission(method: HTTPRequest.Method, authority: String?, path: String, query: String?, cookies: [String: String]) throws -> Admission {
        // The address as the server printed it is the common case, compared whole before parsing.
        guard let authority, authority == printedAuthority || Guards.isOurHost(authority, port: boundPort) else { return .misdirected }
        // The stylesheet and script hold nothing of the library: the page that asks for the link
        // is styled too.
        if path.hasPrefix("/assets/") { return .asset }
        if case .token(let token) = configuration.access, !Forms.sameSecret(cookies[Cookies.access], token) {
            guard method == .get, Forms.sameSecret(Forms.fields(Array((query ?? "").utf8))["token"], token) else { return .needsLink }
            return .takeKey(token)
        }
        let version = cache.settle()
        if let chosen = chosenProfile(cookies) { return .admitted(Reading(version: version, profile: chosen, canChangeProfile: true)) }
        let others = try cache.otherProfiles(at: version) { try library.hasProfile(besides: configuration.defaultProfile) }
        return .admitted(Reading(version: version, profile: others ? nil : configuration.defaultProfile, canChangeProfile: others))
    }

    /// The page a GET asks for, when it is kept (`PageCache`) and the gate lets the request in as
    /// it is (`admission`) with its reader settled. Nil sends the request through the gate and
    /// the routes, which say what is wrong or make the page. Made without waiting on anything,
    /// so an event loop can answer with it at once.
    func keptPage(_ head: HTTPRequest) -> ByteBuffer? {
        guard head.method == .get, Guards.malformed(head) == nil, let target = head.path else { return nil }
        let uri = URI(target)
        let cookies = Forms.cookies(head.headerFields[.cookie])
        guard case .admitted(let reading)? = try? admission(method: .get, authority: head.authority, path: uri.path, query: uri.query, cookies: cookies),
            let profile = reading.profile
        else { return nil }  // a refusal, an asset, a picker first, or the library could not say
        let languages = Self.languageKey(chosen: cookies[Cookies.language].flatMap(LanguageChoice.init), accepted: head.headerFields[.acceptLanguage])
        return cache.page(Self.cacheKey(profile: profile, path: uri.path, query: uri.query, languages: languages), at: reading.version)
    }
}

/// Answers a GET whose page is kept on the event loop it came in on, before Hummingbird makes a
/// request of it: no task is started and no router consulted (the gate's rules are the same:
/// `ReaderServer.keptPage`). Only when no other answer on the connection is being made, so
/// answers keep the order of their requests; the answer is written when the request has ended,
/// so `RequestDeadline` sees the request end before its answer.
final class KeptPages: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let server: ReaderServer
    /// Requests passed on whose answers have not ended.
    private var passedOn = 0
    /// The page for the request being read, answered here when it ends.
    private var answer: ByteBuffer?

    init(server: ReaderServer) { self.server = server }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if passedOn == 0, head.headerFields[.connection].map({ $0.lowercased() != "close" }) ?? true, let page = server.keptPage(head) {
                answer = page
                return
            }
            answer = nil
            passedOn += 1
            context.fireChannelRead(data)
        case .body:
            if answer == nil { context.fireChannelRead(data) }
        case .end:
            guard let page = answer else {
                context.fireChannelRead(data)
                return
            }
            answer = nil
            var response = HTTPResponse(status: .ok, headerFields: ReaderServer.pageHeaders)
            response.headerFields[.contentLength] = String(page.readableBytes)
            response.headerFields[.date] = HTTPDate.now()
            context.write(wrapOutboundOut(.head(response)), promise: nil)
            context.write(wrapOutboundOut(.body(page)), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { passedOn = max(0, passedOn - 1) }
        context.write(data, promise: promise)
    }
}

/// The Date header's value (RFC 9110's IMF-fixdate), made once a second.
enum HTTPDate {
    private static let made = Mutex((second: 0, text: ""))

    static func now() -> String {
        let second = time(nil)
        return made.withLock { made in
            if made.second != second { made = (second, UTCTime(Double(second)).httpDate) }
            return made.text
        }
    }
}

/// The gate's rules that depend on nothing but their inputs.
enum Guards {
    /// A Host header names us when it is localhost or an IP literal, with our port. A DNS name
    /// is refused: a page on another site can point its own name at 127.0.0.1 (rebinding), but it
    /// cannot make the browser send an IP address as the Host.
    static func isOurHost(_ authority: String, port: Int) -> Bool {
        let host: Substring, given: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return false }
            host = authority[authority.index(after: authority.startIndex)..<close]
            given = authority[authority.index(after: close)...]
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            given = authority[colon...]
        } else {
            host = authority[...]
            given = ""
        }
        let portMatches = given.isEmpty ? port == 80 : given == ":\(port)"
        guard portMatches else { return false }
        if host.lowercased() == "localhost" { return true }
        if authority.hasPrefix("[") { return host.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." } && host.contains(":") }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in part.count <= 3 && !part.isEmpty && part.allSatisfy(\.isASCII) && UInt8(part) != nil }
    }

    /// What makes a request's head one this server does not answer (RFC 9112: a request with
    /// two Host fields gets 400), or nil. The first Host is the request's authority; any other
    /// stays among the fields.
    static func malformed(_ head: HTTPRequest) -> String? {
        if head.headerFields[hostField] != nil { return "That request named its host twice (two Host headers), so it was not answered." }
        return nil
    }

    static let hostField = HTTPField.Name("Host")!

    static func refusal(_ status: HTTPResponse.Status, _ sentence: String) -> Response {
        ReaderServer.html(Pages.message(title: status.reasonPhrase, [sentence], links: [], reader: nil, siteLinks: false), status: status)
    }

    /// No inline script, no other origin's script, no framing, no sniffing, no referrer to other sites
    /// (same-origin, not no-referrer: with no-referrer a browser sends `Origin: null` on a form POST).
    static func secure(_ headers: inout HTTPFields) {
        if headers[contentTypeOptions] != nil { return }  // made with them (a kept page's headers)
        if headers[.contentSecurityPolicy] == nil { headers[.contentSecurityPolicy] = pagePolicy }
        headers[contentTypeOptions] = "nosniff"
        headers[referrerPolicy] = "same-origin"
        headers[resourcePolicy] = "same-origin"
    }

    static let pagePolicy = ContentPolicy.page(pictures: .ownOrigin, asHeader: true)
    static let contentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    static let resourcePolicy = HTTPField.Name("Cross-Origin-Resource-Policy")!
    static let fetchSite = HTTPField.Name("Sec-Fetch-Site")!
}

/// The cookies the served reader sets.
enum Cookies {
    static let access = "cyd_access"
    static let profile = "cyd_profile"
    /// The language chosen on a page: `original` or a language tag.
    static let language = "cyd_lang"
}

/// Closes a connection whose client does not send a whole request (headers and body) within
/// the deadline, counted from the connection's start and from the end of each answer: a client
/// that trickles a byte at a time cannot hold a connection open. A request only notes the time
/// (no timer is made or cancelled per request); one timer a connection looks at the note when it
/// fires and waits again for whatever is left.
final class RequestDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let limit: TimeAmount
    /// When the request being waited for started to be due; nil while one is being answered.
    private var due: NIODeadline?
    private var timer: Scheduled<Void>?
    /// Set while the client reads nothing of an answer (the channel is not writable: more than
    /// NIO's high-water mark waits): it is closed if it still reads nothing after `limit`, so a
    /// reader that never reads cannot keep an answer in memory.
    private var stalled: Scheduled<Void>?

    init(limit: TimeAmount) { self.limit = limit }

    func handlerAdded(context: ChannelHandlerContext) {
        due = .now()
        watch(context, after: limit)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        stalled?.cancel()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        stalled?.cancel()
        context.fireChannelInactive()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            stalled?.cancel()
            stalled = nil
        } else if stalled == nil {
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            stalled = context.eventLoop.scheduleTask(in: limit) { bound.value.close(promise: nil) }
        }
        context.fireChannelWritabilityChanged()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) { due = nil }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { due = .now() }
        context.write(data, promise: promise)
    }

    private func watch(_ context: ChannelHandlerContext, after delay: TimeAmount) {
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: delay) {
            let (handler, context) = bound.value
            guard let due = handler.due else {
                handler.watch(context, after: handler.limit)  // an answer is being made: not the client's time
                return
            }
            let left = due + handler.limit - .now()
            if left.nanoseconds <= 0 {
                context.close(promise: nil)
            } else {
                handler.watch(context, after: left)
            }
        }
    }
}
#endif
