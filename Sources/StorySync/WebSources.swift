#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StoryFormat
import StoryStore
import Transport

/// Stories published as a story.json at an https URL: downloaded with libcurl (limits, retries),
/// imported like any other source; their repository pictures are fetched relative to that URL.
public enum WebSources {
    /// An http(s) URL whose path ends in .json: a story file rather than a git repository.
    public static func isStoryURL(_ source: String) -> Bool {
        let lower = source.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://") else { return false }
        let path = lower.split(separator: "?", maxSplits: 1).first.map(String.init) ?? lower
        return path.hasSuffix(".json")
    }

    /// Plain http is accepted only to this machine; anything else must be https.
    public static func isAllowed(_ url: String) -> Bool {
        url.lowercased().hasPrefix("https://") || isLoopbackHTTP(url)
    }

    public static func add(
        _ url: String, to library: StoryLibrary, certificateAuthorities: String? = HTTPClient.caBundle, replace: Bool = false
    ) throws -> ImportResult {
        guard isAllowed(url) else {
            throw ImportError.input("\(VisibleText.escape(url)): only https:// URLs are downloaded (plain http can be read and changed on the way)")
        }
        var request = HTTPRequest(url: url)
        request.maximumBytes = 256 * 1024 * 1024
        request.totalTimeout = 300
        request.certificateAuthorities = certificateAuthorities
        let response: HTTPResponse
        do {
            response = try HTTPClient().get(request, retrying: RetryPolicy())
        } catch {
            throw ImportError.input("cannot download \(VisibleText.escape(url)): \(error)")
        }
        guard response.status == 200 else {
            throw ImportError.input("cannot download \(VisibleText.escape(url)): the server answered \(response.status)")
        }
        return try library.importStory(
            bytes: response.body, displayPath: url, source: StorySource(kind: .url, location: url), version: nil, author: nil,
            replace: replace)
    }
}
