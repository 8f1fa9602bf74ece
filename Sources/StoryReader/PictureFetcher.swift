import Dispatch
import StoryFormat
import StoryStore

/// Where a chapter's picture stands.
public enum PictureState: Sendable, Equatable {
    case none
    case loading(path: String)
    case ready(StoredPicture)
    case failed(path: String, reason: String)
}

/// Where pictures come from: the reader asks, a source answers. The reader owns this protocol;
/// the source module implements it for every kind of story source (a folder, a git clone, the
/// web), so reading knows nothing of git, HTTP or files.
public protocol PictureSource: Sendable {
    /// The picture a chapter names (`pic_path`), or why it cannot be had, in words.
    func picture(_ path: String, of story: StoryRecord) -> Result<StoredPicture, PictureFailure>
    /// Whether fetching it is quick (a file on disk): done at once rather than in the background.
    func isImmediate(_ path: String, of story: StoryRecord) -> Bool
}

/// Why a picture could not be had, in words for the reader.
public struct PictureFailure: Error, Sendable, Equatable {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
}

/// Fetches pictures lazily, the first time a chapter is shown, and keeps them in the library.
/// Fetches run in the background; reading never waits for one. Without a source, only pictures
/// already in the library are shown.
public final class PictureFetcher: @unchecked Sendable {
    private let library: StoryLibrary
    private let source: (any PictureSource)?
    private let queue = DispatchQueue(label: "cyd.pictures")
    private let lock = Lock()
    private var states: [String: PictureState] = [:]
    private var pending: [String: DispatchGroup] = [:]
    private var settled: (@Sendable (String, PictureState) -> Void)?

    public init(library: StoryLibrary, source: (any PictureSource)?) {
        self.library = library
        self.source = source
    }

    /// The picture's state; starts a fetch when it is neither stored nor being fetched.
    public func request(_ path: String, of story: StoryRecord) -> PictureState {
        if let stored = try? library.picture(path, of: story) { return .ready(stored) }
        // A file in the story's own folder is read at once: there is nothing to wait for.
        if source?.isImmediate(path, of: story) == true {
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

    /// Calls `handler` (on the fetching thread) each time a background fetch ends, with the
    /// picture's path and its new state: the reader draws it in its placeholder.
    public func whenSettled(_ handler: @escaping @Sendable (String, PictureState) -> Void) {
        lock.withLock { settled = handler }
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
            let handler = lock.withLock {
                states[path] = state
                pending[path] = nil
                return settled
            }
            group.leave()
            handler?(path, state)
        }
    }

    /// Stores a fetched picture; the state the reader sees.
    private func settle(_ path: String, _ result: Result<StoredPicture, PictureFailure>, _ story: StoryRecord) -> PictureState {
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
            return .failed(path: path, reason: reason.reason)
        }
    }

    private func fetch(_ path: String, _ story: StoryRecord) -> Result<StoredPicture, PictureFailure> {
        guard let source else { return .failure(PictureFailure("not in the library, and this reader fetches none")) }
        return source.picture(path, of: story)
    }
}
