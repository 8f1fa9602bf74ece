#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import LocalFiles
import StoryFormat
import StorySources
import StoryStore
import Transport

/// Where authors.json comes from: a path (the file, or a folder holding it), an http(s) URL of
/// the file (asked for conditionally, cached), or a git repository holding it at the root of its
/// default branch (cloned bare into the cache, fetched after).
public enum CatalogueSource {
    /// The catalogue `cyd sync` reads when given none (override: --catalogue or $CYD_CATALOGUE): the
    /// original reader's, authors.json at the root of this repository's default branch (master).
    public static let defaultLocation = "https://github.com/jonathandgrubb/ChooseYourDestiny-authors"

    /// The largest catalogue read, from a file or over https: an index of 100,000 stories is
    /// about 40 MB.
    public static let maximumBytes = 256 << 20

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
                for name in ["authors.json", "index.json"] {
                    if let bytes = try repository.file(name, at: commit) { return Contents(bytes: bytes, displayName: "\(source) \(name)") }
                }
                throw SyncError.unavailable(source: source, reason: "it has no authors.json (nor index.json) at the root of its default branch")
            } catch let error as SyncError {
                throw error
            } catch {
                throw .unavailable(source: source, reason: String(describing: error))
            }
        }
        var path = source
        if FileStatus(path)?.isDirectory == true {
            path = ["authors.json", "index.json"].map { source + "/" + $0 }.first { FileStatus($0) != nil } ?? source + "/authors.json"
        }
        do {
            return Contents(bytes: try LocalFile.read(path, limit: maximumBytes), displayName: path)
        } catch .missing {
            throw .missing(path: path)
        } catch {
            throw .unavailable(source: path, reason: error.description)
        }
    }

    static func download(_ url: String, library: StoryLibrary) throws(SyncError) -> Contents {
        var request = HTTPRequest(url: url)
        request.maximumBytes = maximumBytes
        let response: HTTPResponse
        do {
            response = try HTTPClient().getConditionally(request, cache: library, retrying: RetryPolicy())
        } catch {
            throw .unavailable(source: url, reason: error.description)
        }
        guard response.status == 200 else { throw .unavailable(source: url, reason: "the server answered \(response.status)") }
        return Contents(bytes: response.body, displayName: url)
    }
}

public enum SyncError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The catalogue itself cannot be had: nothing was synced.
    case unavailable(source: String, reason: String)
    /// The catalogue was given as a file that does not exist (nor a folder holding one).
    case missing(path: String)
    /// authors.json was read but cannot be used; the findings say where and why.
    case invalidCatalogue(file: String, findings: [SyncReport.Finding])
    /// A published index was read but cannot be used as a whole; the findings say where and why.
    case invalidIndex(file: String, findings: [SyncReport.Finding])
    /// The library or the published file could not be read or written.
    case storage(StorageProblem)

    public var description: String {
        switch self {
        case .unavailable(let source, let reason): "cannot read the catalogue \(source): \(reason)"
        case .missing(let path): "cannot read the catalogue \(path): no such file"
        case .invalidCatalogue(let file, let findings):
            (["\(file) is not a usable authors.json (it should look like { \"authors\": [ { \"name\": \"alice\" } ] })"] + findings.map { "\($0)" })
                .joined(separator: "\n  ")
        case .invalidIndex(let file, let findings):
            (["\(file) is not a usable catalogue index"] + findings.map { "\($0)" }).joined(separator: "\n  ")
        case .storage(let problem): problem.description
        }
    }
}
