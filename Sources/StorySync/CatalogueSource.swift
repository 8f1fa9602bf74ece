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
        /// Where it was read, so files beside it (a catalogue's shards) can be read the same way.
        public var location: Location = .none

        public init(bytes: [UInt8], displayName: String, location: Location = .none) {
            self.bytes = bytes
            self.displayName = displayName
            self.location = location
        }
    }

    /// Where a catalogue file was read: its folder, and the file's name in it.
    public enum Location: Sendable, Equatable {
        case none
        /// A local folder (no trailing slash).
        case folder(String, file: String)
        /// An http(s) URL of the folder (ending in "/").
        case web(String, file: String)
        /// A git repository's root at a commit.
        case git(url: String, cache: String, commit: String, file: String)

        /// The folder, as trust is remembered for it (the same for catalogue.json and catalogue.sig).
        public var base: String {
            switch self {
            case .none: ""
            case .folder(let folder, _): folder + "/"
            case .web(let folder, _): folder
            case .git(let url, _, _, _): url + " "
            }
        }

        public var file: String {
            switch self {
            case .none: ""
            case .folder(_, let file), .web(_, let file), .git(_, _, _, let file): file
            }
        }
    }

    /// The names a folder or repository is searched for, in order: the keeper's authors.json,
    /// then a published catalogue (signed root, root, the one-file index of older readers).
    static let fileNames = ["authors.json", "catalogue.sig", "catalogue.json", "index.json"]

    public static func read(_ source: String, library: StoryLibrary) throws(SyncError) -> Contents {
        let lower = source.lowercased()
        if lower.hasPrefix("https://") || lower.hasPrefix("http://"), let path = lower.split(separator: "?").first, path.hasSuffix(".json") || path.hasSuffix(".sig") {
            return try download(source, library: library)
        }
        if lower.hasPrefix("https://") || lower.hasPrefix("http://"), let path = lower.split(separator: "?").first, path.hasSuffix("/"),
            let found = try publishedFile(in: source, library: library)
        {
            // A folder URL (http://host/site/): the catalogue published in it, signed first.
            return found
        }
        if GitSource.isGitURL(source) {
            do {
                let cache = GitSource.cachePath(for: source, cacheDirectory: library.location.cacheDirectory)
                let (repository, commit) = try GitSource.update(source, cache: cache)
                for name in fileNames {
                    if let bytes = try repository.file(name, at: commit) {
                        return Contents(bytes: bytes, displayName: "\(source) \(name)", location: .git(url: source, cache: cache, commit: commit, file: name))
                    }
                }
                throw SyncError.unavailable(source: source, reason: "it has no authors.json (nor a published catalogue) at the root of its default branch")
            } catch let error as SyncError {
                throw error
            } catch {
                throw .unavailable(source: source, reason: String(describing: error))
            }
        }
        var path = source
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        if FileStatus(path)?.isDirectory == true {
            let folder = path
            path = fileNames.map { folder + "/" + $0 }.first { FileStatus($0) != nil } ?? folder + "/authors.json"
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        do {
            return Contents(bytes: try LocalFile.read(path, limit: maximumBytes), displayName: path, location: .folder(folder, file: name))
        } catch .missing {
            throw .missing(path: path)
        } catch {
            throw .unavailable(source: path, reason: error.description)
        }
    }

    /// The names a folder URL is asked for, in order: the signed root first, so a reader who
    /// names a keeper's folder gets what the keeper signed; then the unsigned files.
    static let folderURLNames = ["catalogue.sig", "catalogue.json", "index.json", "authors.json"]

    /// The first catalogue file a folder URL serves (404s skipped); nil when it serves none,
    /// so the URL can still be tried as a git repository.
    static func publishedFile(in folder: String, library: StoryLibrary) throws(SyncError) -> Contents? {
        let base = String(folder.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0])
        for name in folderURLNames {
            do {
                return try download(base + name, library: library)
            } catch .unavailable(_, let reason) where reason.hasSuffix("answered 404") || reason.hasSuffix("answered 410") {
                continue
            }
        }
        return nil
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
        let path = url.split(separator: "?", maxSplits: 1)[0]
        let slash = path.lastIndex(of: "/") ?? path.startIndex
        return Contents(bytes: response.body, displayName: url, location: .web(String(path[...slash]), file: String(path[path.index(after: slash)...])))
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
    /// A published catalogue that cannot be trusted (a signature, an expiry, a version, a shard).
    case untrusted(source: String, TrustFailure)

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
        case .untrusted(let source, let failure): "the catalogue \(source) is not trusted, and nothing of it was used: \(SyncWords.trust(failure))"
        }
    }
}
