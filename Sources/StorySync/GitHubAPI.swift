#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StoryFormat
import StoryStore
import Transport

/// The parts of GitHub's REST API that discovery uses: a user's repositories (paginated by the
/// Link header) and a repository's README. Every answer is cached with its ETag and asked for
/// again conditionally: GitHub does not count a 304 against the rate limit.
public struct GitHubAPI: Sendable {
    public static let defaultBaseURL = "https://api.github.com"

    public var baseURL: String
    public var token: String?
    var client = HTTPClient()
    var retry = RetryPolicy()
    let cache: StoryLibrary
    /// Pages followed per listing at most (100 repositories a page).
    var maximumPages = 50

    public init(baseURL: String, token: String?, cache: StoryLibrary) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
        self.cache = cache
    }

    /// The API base from --github-api, else $GITHUB_API_URL (the name GitHub Actions sets), else GitHub's.
    public static func baseURL(option: String?, environment: [String: String]) -> String {
        option ?? environment["GITHUB_API_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultBaseURL
    }

    public struct Repository: Sendable, Decodable {
        public var name: String
        public var clone_url: String
        public var fork: Bool?
        public var archived: Bool?
        public var size: Int?
        public var pushed_at: String?
    }

    /// What was asked of GitHub.
    public enum Subject: Sendable, Equatable, CustomStringConvertible {
        case repositories(of: String)
        case readme(owner: String, repository: String)

        public var description: String {
            switch self {
            case .repositories(let user): "the repositories of \(user)"
            case .readme(let owner, let repository): "the README of \(owner)/\(repository)"
            }
        }
    }

    /// Why GitHub gave no usable answer; `apiMessage` is GitHub's own `message` when it sent one.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The rate limit is spent; `reset` is when it refills (Unix time), when GitHub said.
        case rateLimited(reset: Double?, asking: Subject, apiMessage: String?)
        /// 404: no such user (or repository).
        case notFound(Subject)
        /// Another status than 2xx, 304, 404 or a rate limit.
        case status(Int, asking: Subject, apiMessage: String?)
        /// The request did not get an answer (connection, timeout, size).
        case unreachable(baseURL: String, asking: Subject, HTTPError)
        /// The answer is not the JSON GitHub documents.
        case unexpectedAnswer(Subject)

        public var description: String {
            func quoted(_ message: String?) -> String { message.map { ": \($0)" } ?? "" }
            switch self {
            case .rateLimited(_, let subject, let message):
                let text = "GitHub's rate limit is spent (asking for \(subject))\(quoted(message))"
                return text.hasSuffix(".") ? text : text + "."
            case .notFound(let subject): return "GitHub has no \(subject) (404)"
            case .status(let code, let subject, let message): return "GitHub answered \(code) for \(subject)\(quoted(message))"
            case .unreachable(let baseURL, let subject, let error): return "cannot reach \(baseURL) for \(subject): \(error)"
            case .unexpectedAnswer(let subject): return "GitHub's answer for \(subject) is not the expected JSON"
            }
        }
    }

    /// All of `user`'s own repositories.
    public func repositories(of user: String) throws(Failure) -> [Repository] {
        var url: String? = "\(baseURL)/users/\(PercentEncoding.encode(user))/repos?per_page=100&type=owner&sort=full_name"
        var result: [Repository] = []
        var pages = 0
        while let next = url, pages < maximumPages {
            pages += 1
            let (body, headers) = try get(next, asking: .repositories(of: user))
            do {
                result += try JSONDecoder().decode([Repository].self, from: Data(body))
            } catch {
                throw .unexpectedAnswer(.repositories(of: user))
            }
            url = Self.nextLink(in: headers)
        }
        return result
    }

    /// The text of a repository's README, or nil when it has none.
    public func readme(owner: String, repository: String) throws(Failure) -> String? {
        let url = "\(baseURL)/repos/\(PercentEncoding.encode(owner))/\(PercentEncoding.encode(repository))/readme"
        struct Content: Decodable {
            var content: String
            var encoding: String?
        }
        let body: [UInt8]
        do {
            body = try get(url, asking: .readme(owner: owner, repository: repository)).body
        } catch {
            if case .notFound = error { return nil }
            throw error
        }
        guard let content = try? JSONDecoder().decode(Content.self, from: Data(body)),
              let bytes = Data(base64Encoded: content.content, options: .ignoreUnknownCharacters)
        else { throw .unexpectedAnswer(.readme(owner: owner, repository: repository)) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A GET, asked conditionally and answered from the cache when GitHub says 304; GitHub's
    /// rate limit, 404 and other failures as `Failure`s.
    func get(_ url: String, asking subject: Subject) throws(Failure) -> (body: [UInt8], headers: [String: String]) {
        var request = HTTPRequest(url: url)
        request.headers = [("Accept", "application/vnd.github+json"), ("X-GitHub-Api-Version", "2022-11-28")]
        if let token { request.headers.append(("Authorization", "Bearer \(token)")) }
        request.totalTimeout = 60
        let response: HTTPResponse
        do {
            response = try client.getConditionally(request, cache: cache, retrying: retry)
        } catch {
            throw .unreachable(baseURL: baseURL, asking: subject, error)
        }
        if response.isRateLimited {
            let reset = response.rateLimitReset.map(Double.init) ?? response.retryAfter.map { Date().timeIntervalSince1970 + $0 }
            throw .rateLimited(reset: reset, asking: subject, apiMessage: Self.apiMessage(response.body))
        }
        if response.status == 404 { throw .notFound(subject) }
        guard (200..<300).contains(response.status) else {
            throw .status(response.status, asking: subject, apiMessage: Self.apiMessage(response.body))
        }
        return (response.body, response.headers)
    }

    /// `<https://api.github.com/user/1/repos?page=2>; rel="next", <...>; rel="last"` → the next URL.
    static func nextLink(in headers: [String: String]) -> String? {
        guard let link = headers["link"] else { return nil }
        for part in link.split(separator: ",") {
            let fields = part.split(separator: ";")
            guard let target = fields.first, fields.dropFirst().contains(where: { $0.contains("rel=\"next\"") }) else { continue }
            let trimmed = target.drop { $0 == " " || $0 == "<" }.prefix { $0 != ">" }
            return String(trimmed)
        }
        return nil
    }

    static func apiMessage(_ body: [UInt8]) -> String? {
        struct Message: Decodable { var message: String }
        return (try? JSONDecoder().decode(Message.self, from: Data(body)))?.message
    }
}
