import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Starts a helper (a server, tmux) in its own process group with signals as a shell
/// would give them: the test runner blocks some signals, and children inherit that mask, so a
/// server started with Process may never die of SIGTERM. Stopped with SIGKILL to the group.
public final class SpawnedProcess: @unchecked Sendable {
    public let pid: pid_t

    public init(_ arguments: [String]) throws {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let code = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ)
        guard code == 0 else { throw TestSupportError("cannot start \(arguments[0]): \(String(cString: strerror(code)))") }
        self.pid = pid
    }

    private var exited = false
    /// The exit status once the process has ended (128 + the signal when a signal ended it).
    public private(set) var exitStatus: Int32?

    /// Waits for the process to end; its exit status.
    public func wait() -> Int32 {
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        markExited(status: status)
        return exitStatus!
    }

    /// Records the status a caller's own waitpid(2) collected.
    public func markExited(status: Int32) {
        exited = true
        let signal = status & 0x7F
        exitStatus = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    deinit {
        guard !exited else { return }
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}

/// A child's standard input, written without the risk of killing the test runner: a child that
/// exits before reading all of it (an error said at once, `q` early in a script) closes the
/// pipe, and a write to it would raise SIGPIPE, which ends the whole test process with no word.
/// SIGPIPE is ignored once for the process, and a write the child did not take is dropped; the
/// child's output and exit status say what happened.
public enum ChildInput {
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Writes `bytes` to `handle`; false when the child had already closed its end.
    @discardableResult
    public static func write(_ bytes: Data, to handle: FileHandle) -> Bool {
        _ = ignoreBrokenPipes
        do {
            try handle.write(contentsOf: bytes)
            return true
        } catch {
            return false
        }
    }
}
