#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import StoryFormat
import StorySources
import StoryStore
import Transport

/// Where authors.json comes from: a path (the file, or a folder holding it), an http(s) URL of
/// the file (asked for conditionally, cached), or a git repository holding it at the root of its
/// default branch (cloned bare into the cache, fetched after).
public enum CatalogueSource {
    /// The catalogue repository `cyd sync` reads when given none (override: --catalogue or $CYD_CATALOGUE).
    public static let defaultLocation = "https://github.com/ChooseYourDestiny/authors.git"

    public struct Contents: Sendable {
        public var bytes: [UInt8]
        /// How findings name the file: a path, or "URL authors.json".
        public var displayName: String
    }

    public static func read(_ source: String, library: StoryLibrary) throws(SyncError) -> Contents {
        let lower = source.lowercased()
        if (lower.hasPrefix("https://") || lower.hasPrefix("http://")) && lower.split(separator: "?").first?.hasSuffix(".json") == true {
            return try download(source, library: library)
        }
        if GitSource.isGitURL(source) {
            do {
                let (repository, commit) = try GitSource.update(source, cache: GitSource.cachePath(for: source, cacheDirectory: library.location.cacheDirectory))
                guard let bytes = try repository.file("authors.json", at: commit) else {
                    throw SyncError.catalogue("\(VisibleText.escape(source)) has no authors.json at the root of its default branch")
                }
                return Contents(bytes: bytes, displayName: "\(source) authors.json")
            } catch let error as SyncError {
                throw error
            } catch {
                throw .catalogue("cannot read the catalogue repository \(VisibleText.escape(source)): \(VisibleText.escape(String(describing: error)))")
            }
        }
        var path = source
        var status = stat()
        if stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR { path += "/authors.json" }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .catalogue("cannot read \(VisibleText.escape(path)): no such file (give --catalogue a path to authors.json, a folder holding it, an https URL of it, or a git repository)")
        }
        return Contents(bytes: [UInt8](data), displayName: path)
    }

    static func download(_ url: String, library: StoryLibrary) throws(SyncError) -> Contents {
        var request = HTTPRequest(url: url)
        request.maximumBytes = 8 * 1024 * 1024
        let response: HTTPResponse
        do {
            response = try HTTPClient().getConditionally(request, cache: library, retrying: RetryPolicy())
        } catch {
            throw .catalogue("cannot download \(VisibleText.escape(url)): \(error)")
        }
        guard response.status == 200 else { throw .catalogue("cannot download \(VisibleText.escape(url)): the server answered \(response.status)") }
        return Contents(bytes: response.body, displayName: url)
    }
}

public enum SyncError: Error, Sendable, CustomStringConvertible {
    /// The catalogue itself cannot be had: nothing was synced.
    case catalogue(String)
    /// authors.json was read but cannot be used; the findings say where and why.
    case invalidCatalogue(message: String, findings: [String])

    public var description: String {
        switch self {
        case .catalogue(let message): message
        case .invalidCatalogue(let message, let findings): ([message] + findings).joined(separator: "\n  ")
        }
    }
}
