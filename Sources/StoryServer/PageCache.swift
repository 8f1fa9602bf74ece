// The browser reader is built with the package trait BrowserReader only.
#if BrowserReader
import Dispatch
import NIOCore
import StoryStore
import Synchronization

/// Pages made from the library, kept while the library stands still. Every page a GET answers is
/// a function of the library and of who is reading (the profile) and of its address, so it is kept
/// under (profile, path and query) and all of them are dropped once anything is committed to the
/// library: at once for this server's own changes (`changed()`, called before a POST is
/// answered), and within `recheck` for another process's (`cyd read` in a terminal): the library's
/// version (`LibraryChanges`) is asked at most that often, since asking takes file locks.
/// Bounded: at most `limit` bytes are kept; past that, everything is dropped and kept anew.
final class PageCache: Sendable {
    private struct State {
        var version: Int?
        var checkedAt: UInt64 = 0
        var pages: [String: ByteBuffer] = [:]
        var bytes = 0
        /// Whether another profile exists than the default (the gate asks on every request).
        var otherProfiles: Bool?
    }

    private let changes: LibraryChanges
    private let state = Mutex(State())
    let limit: Int
    /// Nanoseconds between two askings of the library's version.
    let recheck: UInt64

    init(_ library: StoryLibrary, limit: Int = 16 * 1024 * 1024, recheck: Double = 0.005) {
        changes = LibraryChanges(library)
        self.limit = limit
        self.recheck = UInt64(recheck * 1_000_000_000)
    }

    /// The library's version now, with everything kept under an older one dropped; nil when it
    /// cannot be told (then nothing is kept or given).
    func settle() -> Int? {
        let now = DispatchTime.now().uptimeNanoseconds
        if let known = state.withLock({ state -> Int?? in
            state.version != nil && now &- state.checkedAt < recheck ? .some(state.version) : .none
        }) {
            return known
        }
        let version = changes.version()
        state.withLock { state in
            if state.version != version || version == nil { state = State(version: version) }
            state.checkedAt = now
        }
        return version
    }

    /// This server changed the library: the next request asks its version again.
    func changed() {
        state.withLock { $0.checkedAt = 0 }
    }

    func page(_ key: String, at version: Int?) -> ByteBuffer? {
        guard let version else { return nil }
        return state.withLock { $0.version == version ? $0.pages[key] : nil }
    }

    func keep(_ page: ByteBuffer, as key: String, at version: Int?) {
        guard let version else { return }
        state.withLock { state in
            guard state.version == version else { return }
            if state.bytes + page.readableBytes > limit {
                state.pages = [:]
                state.bytes = 0
            }
            state.pages[key] = page
            state.bytes += page.readableBytes
        }
    }

    func otherProfiles(at version: Int?, _ ask: () throws -> Bool) rethrows -> Bool {
        if let version, let known = state.withLock({ $0.version == version ? $0.otherProfiles : nil }) { return known }
        let answer = try ask()
        if let version { state.withLock { if $0.version == version { $0.otherProfiles = answer } } }
        return answer
    }
}
#endif
