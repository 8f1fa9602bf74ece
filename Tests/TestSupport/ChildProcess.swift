import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a program run to its end printed, and how it ended.
public struct CommandResult: Sendable {
    public var status: Int32
    public var standardOutput: String
    public var standardError: String

    public init(status: Int32, standardOutput: String, standardError: String) {
        self.status = status
        self.standardOutput = standardOutput
        self.standardError = standardError
    }
}

/// The one way tests start a program: cyd, git, servers, tmux, openssl.
///
/// Started with posix_spawn and the signals a shell would give: the test runner blocks some
/// signals, and a child started with Foundation's Process inherits that mask, so a server might
/// never die of SIGTERM and a reader never see Ctrl-C. Its pipes are close-on-exec in the test
/// runner, so a child started at the same moment by another test cannot hold them open. Writing
/// to a child that has stopped reading cannot kill the runner (SIGPIPE is ignored; the write is
/// dropped). A child still running when its value is released is killed (SIGKILL), with its
/// process group when it has one of its own.
public final class ChildProcess: @unchecked Sendable {
    /// Where a child's output goes.
    public enum Output: Sendable {
        /// Into a pipe the test reads (`finish()`, `readLine()`).
        case captured
        /// To /dev/null.
        case discarded
        /// To the test runner's own (a server's complaints land in the test log).
        case inherited
        /// Standard error only: into the same pipe as standard output, in the order written.
        case intoStandardOutput
    }

    public let pid: pid_t
    private var input: Int32 = -1
    private var output: Int32 = -1
    private var errors: Int32 = -1
    private let ownGroup: Bool
    /// The exit status once the child has ended (128 + the signal when a signal ended it).
    public private(set) var exitStatus: Int32?

    private static let ignoreBrokenPipes: Void = { _ = Glibc.signal(SIGPIPE, SIG_IGN) }()
    /// Held from making a child's pipes to starting it, so no other child inherits them before
    /// they are marked close-on-exec (pipe2 is not visible to Swift here).
    private static let spawning = NSLock()

    /// Starts `arguments[0]` (a path, or a name looked up on PATH).
    /// - Parameters:
    ///   - directory: the working folder (the runner's own when nil).
    ///   - environment: variables set over the runner's environment.
    ///   - removing: variables of the runner's environment left out.
    ///   - takesInput: a pipe for standard input (`send`); else /dev/null.
    ///   - ownGroup: a process group of its own (servers: killed with their children).
    public init(
        _ arguments: [String], in directory: String? = nil, environment: [String: String] = [:], removing: Set<String> = [],
        takesInput: Bool = true, output outputMode: Output = .captured, errors errorMode: Output = .captured, ownGroup: Bool = false
    ) throws {
        _ = Self.ignoreBrokenPipes
        precondition(outputMode != .intoStandardOutput, "standard output cannot go into itself")
        self.ownGroup = ownGroup
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        Self.spawning.lock()
        defer { Self.spawning.unlock() }
        var childEnds: [Int32] = []
        defer { childEnds.forEach { close($0) } }
        func pipeFor(_ target: Int32, childReads: Bool) throws -> Int32 {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { throw TestSupportError("cannot make a pipe: \(String(cString: strerror(errno)))") }
            ends.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
            let (childEnd, ourEnd) = childReads ? (ends[0], ends[1]) : (ends[1], ends[0])
            posix_spawn_file_actions_adddup2(&actions, childEnd, target)
            childEnds.append(childEnd)
            return ourEnd
        }
        if takesInput { input = try pipeFor(0, childReads: true) } else { posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0) }
        switch outputMode {
        case .captured: output = try pipeFor(1, childReads: false)
        case .discarded, .intoStandardOutput: posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        case .inherited: break
        }
        switch errorMode {
        case .captured: errors = try pipeFor(2, childReads: false)
        case .discarded: posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        case .intoStandardOutput: posix_spawn_file_actions_adddup2(&actions, 1, 2)
        case .inherited: break
        }

        var variables = ProcessInfo.processInfo.environment
        for key in removing { variables.removeValue(forKey: key) }
        for (key, value) in environment { variables[key] = value }
        // env -C: the working folder (posix_spawn_file_actions_addchdir_np is not visible to Swift here).
        let argv = ((directory.map { ["/usr/bin/env", "-C", $0, "--"] } ?? []) + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let code = posix_spawnp(&pid, argv[0]!, &actions, &attributes, argv, envp)
        guard code == 0 else {
            [input, output, errors].filter { $0 >= 0 }.forEach { close($0) }
            throw TestSupportError("cannot start \(arguments[0]): \(String(cString: strerror(code)))")
        }
        self.pid = pid
    }

    /// Runs a program to its end with `input` on its standard input.
    public static func run(
        _ arguments: [String], in directory: String? = nil, environment: [String: String] = [:], removing: Set<String> = [], input: String? = nil
    ) throws -> CommandResult {
        let child = try ChildProcess(arguments, in: directory, environment: environment, removing: removing)
        if let input { child.send(input) }
        return child.finish()
    }

    /// Writes to the child's standard input; false when the child had closed it.
    @discardableResult
    public func send(_ text: String) -> Bool {
        guard input >= 0 else { return false }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return false  // EPIPE: the child stopped reading
            }
            bytes = bytes.dropFirst(written)
        }
        return true
    }

    /// Closes the child's standard input: it reads end of file.
    public func closeInput() {
        if input >= 0 { close(input) }
        input = -1
    }

    /// One line of standard output, without its line feed; nil at end of output.
    public func readLine() -> String? {
        guard output >= 0 else { return nil }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(output, &byte, 1)
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
            if byte == 0x0A { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
    }

    /// Closes standard input, reads both outputs to their end (standard error on a thread of its
    /// own, so neither pipe can fill and block the child), and waits for the child.
    public func finish() -> CommandResult {
        closeInput()
        let errorText = ErrorCollector(errors)
        errors = -1
        let out = Self.readAll(output)
        output = -1
        let status = wait()
        return CommandResult(status: status, standardOutput: String(decoding: out, as: UTF8.self), standardError: String(decoding: errorText.result(), as: UTF8.self))
    }

    /// Waits for the child to end; its exit status.
    @discardableResult
    public func wait() -> Int32 {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        record(status)
        return exitStatus!
    }

    /// The exit status if the child has ended, without waiting.
    public func poll() -> Int32? {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        record(status)
        return exitStatus
    }

    /// Sends `signal` to the child (and its group when it has one of its own).
    public func signal(_ number: Int32) {
        guard exitStatus == nil else { return }
        kill(ownGroup ? -pid : pid, number)
    }

    private func record(_ status: Int32) {
        let signal = status & 0x7F
        exitStatus = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    fileprivate static func readAll(_ fd: Int32) -> [UInt8] {
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return all }
            all.append(contentsOf: buffer[0..<count])
        }
    }

    deinit {
        closeInput()
        if output >= 0 { close(output) }
        if errors >= 0 { close(errors) }
        guard exitStatus == nil else { return }
        kill(ownGroup ? -pid : pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class ErrorCollector: @unchecked Sendable {
    private var bytes: [UInt8] = []
    private let done = DispatchSemaphore(value: 0)

    init(_ fd: Int32) {
        guard fd >= 0 else {
            done.signal()
            return
        }
        Thread.detachNewThread { [self] in
            bytes = ChildProcess.readAll(fd)
            done.signal()
        }
    }

    func result() -> [UInt8] {
        done.wait()
        return bytes
    }
}

public struct TestSupportError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
