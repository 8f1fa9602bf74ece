import Foundation

/// Temporary folders removed when the test process exits normally: those a test value cannot
/// remove itself when it is released (a suite's corpus kept in a `static let`, which is never
/// released; a certificate whose files a client may still read after the test's last word
/// about it), so that a run of the suite leaves nothing behind in the system's temporary folder.
public enum RemovedAtExit {
    private static let state = Registry()

    /// Removes `path` (recursively) when the process exits.
    public static func add(_ path: String) { state.add(path) }

    /// Whether `path` is to be removed at exit.
    public static func holds(_ path: String) -> Bool { state.holds(path) }

    private final class Registry: @unchecked Sendable {
        private let lock = NSLock()
        private var paths: [String] = []
        private var installed = false

        func add(_ path: String) {
            lock.lock()
            defer { lock.unlock() }
            paths.append(path)
            guard !installed else { return }
            installed = true
            atexit { RemovedAtExit.state.removeAll() }
        }

        func holds(_ path: String) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            return paths.contains(path)
        }

        func removeAll() {
            lock.lock()
            let taken = paths
            paths = []
            lock.unlock()
            for path in taken { try? FileManager.default.removeItem(atPath: path) }
        }
    }
}
