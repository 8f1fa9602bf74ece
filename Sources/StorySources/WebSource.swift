import StoryFormat
import StoryStore
import Transport

/// Stories published as a story.json at an https URL: downloaded with libcurl (limits, retries);
/// their repository pictures are fetched from beside that URL.
public enum WebSource: SourceKind {
    public static let kind = StorySource.Kind.url

    /// An https URL whose path ends in .json (plain http only to this machine).
    public static func recognise(_ text: String) throws(SourceError) -> StorySource? {
        if isPlainHTTP(text) { throw .plainHTTP(url: text) }
        return isStoryURL(text) ? StorySource(kind: kind, location: text) : nil
    }

    /// An http(s) URL whose path ends in .json: a story file rather than a git repository.
    public static func isStoryURL(_ source: String) -> Bool {
        let lower = source.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://") else { return false }
        let path = lower.split(separator: "?", maxSplits: 1).first.map(String.init) ?? lower
        return path.hasSuffix(".json")
    }

    /// Plain http to another machine: refused by name rather than mistaken for a missing folder.
    public static func isPlainHTTP(_ url: String) -> Bool {
        url.lowercased().hasPrefix("http://") && !isLoopbackHTTP(url)
    }

    public static func fetch(_ source: StorySource, in context: SourceContext) throws(SourceError) -> FetchedStory {
        let url = source.location
        let bytes = try download(url, limit: context.maximumStoryBytes, httpsOnly: !isLoopbackHTTP(url), context: context, totalSeconds: 300)
        return FetchedStory(hashing: bytes, displayName: url)
    }

    public static func file(_ path: String, of source: StorySource, at version: String, limit: Int, in context: SourceContext) throws(SourceError) -> [UInt8]? {
        let base = source.location
        do {
            return try download(
                url(of: path, besideStoryAt: base), limit: limit, httpsOnly: base.lowercased().hasPrefix("https://"),
                context: context, totalSeconds: 60)
        } catch .httpStatus(_, 404) {
            return nil
        }
    }

    /// One GET: 5xx, 429 and dropped connections retried; anything but 200 an error.
    static func download(_ url: String, limit: Int, httpsOnly: Bool, context: SourceContext, totalSeconds: Int) throws(SourceError) -> [UInt8] {
        if isPlainHTTP(url) { throw .plainHTTP(url: url) }
        var request = HTTPRequest(url: url)
        request.httpsOnly = httpsOnly
        request.maximumBytes = limit
        request.connectTimeout = 10
        request.totalTimeout = totalSeconds
        request.lowSpeedSeconds = context.stallSeconds
        request.certificateAuthorities = context.certificateAuthorities
        let response: HTTPResponse
        do {
            response = try HTTPClient().get(request, retrying: RetryPolicy(attempts: 2, initialDelay: 0.5, maximumDelay: 5))
        } catch {
            throw .transport(source: url, failure: .http(error))
        }
        guard response.status == 200 else { throw .httpStatus(url: url, status: response.status) }
        return response.body
    }

    /// The URL of the file at `relative` (already checked to stay inside) beside the story.json
    /// at `base`, each path segment percent-encoded.
    public static func url(of relative: String, besideStoryAt base: String) -> String {
        let withoutQuery = base.split(separator: "?", maxSplits: 1).first.map(String.init) ?? base
        let directory = withoutQuery[...(withoutQuery.lastIndex(of: "/") ?? withoutQuery.startIndex)]
        let segments = relative.split(separator: "/", omittingEmptySubsequences: false).map { PercentEncoding.encode($0) }
        return directory + segments.joined(separator: "/")
    }
}
