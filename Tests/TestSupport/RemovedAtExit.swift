import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Temporary folders removed, and servers' process groups stopped, when the test process exits
/// normally: those a test value cannot clean up itself when it is released (a suite's corpus or
/// git server kept in a `static let`, which is never released; a certificate whose files a
/// client may still read after the test's last word about it), so that a run of the suite
/// leaves nothing behind: no folder in the system's temporary folder, no daemon running.
public enum RemovedAtExit {
    private static let state = Registry()

    /// Removes `path` (recursively) when the process exits.
    public static func add(_ path: String) { state.add(path) }

    /// Whether `path` is to be removed at exit.
    public static func holds(_ path: String) -> Bool { state.holds(path) }

    /// Stops the process group `group` (a child started in a group of its own, whose id is its
    /// pid) when the process exits, unless `release` says it was stopped first.
    public static func stop(group: pid_t) { state.stop(group) }

    /// The group was stopped by its owner: nothing to stop at exit (its id may be another's then).
    public static func release(group: pid_t) { state.release(group) }

    /// Whether process group `group` is to be stopped at exit.
    public static func stops(group: pid_t) -> Bool { state.stops(group) }

    private final class Registry: @unchecked Sendable {
        private let lock = NSLock()
        private var paths: [String] = []
        private var groups: Set<pid_t> = []
        private var installed = false

        func add(_ path: String) {
            lock.lock()
            defer { lock.unlock() }
            paths.append(path)
            install()
        }

        func stop(_ group: pid_t) {
            lock.lock()
            defer { lock.unlock() }
            groups.insert(group)
            install()
        }

        func release(_ group: pid_t) {
            lock.lock()
            defer { lock.unlock() }
            groups.remove(group)
        }

        func stops(_ group: pid_t) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            return groups.contains(group)
        }

        /// Called with the lock held.
        private func install() {
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
            let stopped = groups
            paths = []
            groups = []
            lock.unlock()
            // The servers first: a daemon may still be writing in a folder about to go.
            for group in stopped {
                kill(-group, SIGKILL)
                var status: Int32 = 0
                while waitpid(group, &status, 0) < 0, errno == EINTR {}
            }
            for path in taken { try? FileManager.default.removeItem(atPath: path) }
        }
    }
}
