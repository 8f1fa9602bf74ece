#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import LocalFiles
import StoryFormat
import StoryStore
import Transport

/// Where a chapter's picture stands.
public enum PictureState: Sendable, Equatable {
    case none
    case loading(path: String)
    case ready(StoredPicture)
    case failed(path: String, reason: String)
}

/// Fetches pictures lazily, the first time a chapter is shown, and keeps them in the library:
/// repository paths from the story's folder, https links with libcurl (timeouts, a size limit,
/// bounded redirects). Fetches run in the background; reading never waits for one.
public final class PictureFetcher: @unchecked Sendable {
    public var maximumBytes = 10 * 1024 * 1024
    /// A download that receives almost nothing (under 512 bytes a second) for this long is abandoned.
    public var stallSeconds = 15
    /// Extra certificate authorities (PEM), as for `HTTPRequest`.
    public var certificateAuthorities: String? = HTTPClient.caBundle
    private let library: StoryLibrary
    private let client = HTTPClient()
    private let queue = DispatchQueue(label: "cyd.pictures")
    private let lock = Lock()
    private var states: [String: PictureState] = [:]
    private var pending: [String: DispatchGroup] = [:]

    public init(library: StoryLibrary) { self.library = library }

    /// The picture's state; starts a fetch when it is neither stored nor being fetched.
    public func request(_ path: String, of story: StoryRecord) -> PictureState {
        if let stored = try? library.picture(path, of: story) { return .ready(stored) }
        // A file in the story's own folder is read at once: there is nothing to wait for.
        if case .repository = MediaReference(path), story.source.kind != .url {
            return lock.withLock {
                if let state = states[path], state != .none { return state }
                let state = settle(path, fetch(path, story), story)
                states[path] = state
                return state
            }
        }
        return lock.withLock {
            if let state = states[path], state != .none { return state }
            start(path, story)
            return .loading(path: path)
        }
    }

    /// Forgets a failure and tries again.
    public func retry(_ path: String, of story: StoryRecord) -> PictureState {
        lock.withLock { states[path] = nil }
        return request(path, of: story)
    }

    /// Waits (at most `timeout` seconds) for a fetch in progress; for when the reader asks to see it.
    public func wait(_ path: String, of story: StoryRecord, timeout: Double = 60) -> PictureState {
        let group = lock.withLock { pending[path] }
        _ = group?.wait(timeout: .now() + timeout)
        if let stored = try? library.picture(path, of: story) { return .ready(stored) }
        return lock.withLock { states[path] ?? .none }
    }

    /// Must hold the lock.
    private func start(_ path: String, _ story: StoryRecord) {
        let group = DispatchGroup()
        pending[path] = group
        states[path] = .loading(path: path)
        group.enter()
        queue.async { [self] in
            let state = settle(path, fetch(path, story), story)
            lock.withLock {
                states[path] = state
                pending[path] = nil
            }
            group.leave()
        }
    }

    /// Stores a fetched picture; the state the reader sees.
    private func settle(_ path: String, _ result: Result<StoredPicture, Failure>, _ story: StoryRecord) -> PictureState {
        switch result {
        case .success(let picture):
            do {
                try library.storePicture(picture, of: story)
            } catch {
                // Not kept for offline reading (a read-only library, a full disk), but shown now.
                guard LibraryError.words(for: error) != nil else { return .failed(path: path, reason: "could not store it: \(error)") }
            }
            return .ready(picture)
        case .failure(let reason):
            return .failed(path: path, reason: reason.message)
        }
    }

    struct Failure: Error { var message: String }

    private func fetch(_ path: String, _ story: StoryRecord) -> Result<StoredPicture, Failure> {
        switch MediaReference(path) {
        case .web(let url):
            return download(url, as: path, httpsOnly: true)
        case .repository(let relative):
            guard Self.isSafe(relative) else { return .failure(Failure(message: "the path leaves the story's folder")) }
            switch story.source.kind {
            case .folder, .file: break
            case .git:
                // From the bare clone, at the commit the story was imported from.
                do {
                    let repository = try GitRepository.open(library.location.gitCachePath(for: story.source.location))
                    guard let bytes = try repository.file(relative, at: story.version) else {
                        return .failure(Failure(message: "no file \(relative) in the story's repository"))
                    }
                    guard bytes.count <= maximumBytes else { return .failure(Failure(message: "larger than \(maximumBytes) bytes")) }
                    return .success(StoredPicture(path: path, data: bytes, mediaType: nil))
                } catch {
                    return .failure(Failure(message: error.description))
                }
            case .url:
                // Beside the story.json it was downloaded from, over the same scheme.
                let base = story.source.location
                return download(Self.url(of: relative, besideStoryAt: base), as: path, httpsOnly: base.lowercased().hasPrefix("https://"))
            }
            // Regular files only, and never through a link that leads out of the folder.
            do {
                let bytes = try LocalFile.read(relative, inside: story.source.folder ?? story.source.location, limit: maximumBytes)
                return .success(StoredPicture(path: path, data: bytes, mediaType: nil))
            } catch .missing {
                return .failure(Failure(message: "no file \(relative) in the story's folder"))
            } catch {
                return .failure(Failure(message: "\(relative) in the story's folder cannot be read: \(error.description)"))
            }
        }
    }

    private func download(_ url: String, as path: String, httpsOnly: Bool) -> Result<StoredPicture, Failure> {
        var request = HTTPRequest(url: url)
        request.httpsOnly = httpsOnly
        request.maximumBytes = maximumBytes
        request.connectTimeout = 10
        request.totalTimeout = 60
        request.lowSpeedSeconds = stallSeconds
        request.certificateAuthorities = certificateAuthorities
        do {
            // A busy server (5xx, 429, a reset connection) gets one more try after a short wait.
            let response = try client.get(request, retrying: RetryPolicy(attempts: 2, initialDelay: 0.5, maximumDelay: 5))
            guard response.status == 200 else { return .failure(Failure(message: "the server answered \(response.status)")) }
            return .success(StoredPicture(path: path, data: response.body, mediaType: response.headers["content-type"]))
        } catch {
            return .failure(Failure(message: error.description))
        }
    }

    /// The URL of the picture at `relative` (already checked to stay inside) beside the
    /// story.json at `base`, each path segment percent-encoded.
    static func url(of relative: String, besideStoryAt base: String) -> String {
        let withoutQuery = base.split(separator: "?", maxSplits: 1).first.map(String.init) ?? base
        let directory = withoutQuery[...(withoutQuery.lastIndex(of: "/") ?? withoutQuery.startIndex)]
        let segments = relative.split(separator: "/", omittingEmptySubsequences: false).map(percentEncodedPathSegment)
        return directory + segments.joined(separator: "/")
    }

    /// A relative path that stays inside the folder: no "..", no absolute path, no backslash.
    static func isSafe(_ path: String) -> Bool {
        !path.isEmpty && !path.hasPrefix("/") && !path.contains("\\")
            && !path.split(separator: "/", omittingEmptySubsequences: false).contains("..")
    }
}
