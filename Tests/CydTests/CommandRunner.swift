import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `cyd` (and other programs) as a user would, capturing what they print.
enum Command {
    /// The package's root folder, found from this file's path.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The cyd built beside the test bundle (the test target depends on it, so it is built
    /// first), or CYD_BINARY. There is no other place to look: a cyd from another build would
    /// test other code, so a missing one stops the run with a sentence.
    static let cyd: URL = {
        if let override = ProcessInfo.processInfo.environment["CYD_BINARY"] { return URL(fileURLWithPath: override) }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("cyd")
        guard FileManager.default.isExecutableFile(atPath: beside.path) else {
            fatalError("no cyd beside the tests at \(beside.path): build it with the tests (scripts/test.sh, or swift build --build-tests), or set CYD_BINARY")
        }
        return beside
    }()

    static func cyd(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:], input: String? = nil) throws -> CommandResult {
        try run(cyd, arguments, in: directory, environment: environment, input: input)
    }

    /// A UTF-8 locale whose words are English, whatever the machine running the tests prefers:
    /// cyd's words follow LANGUAGE, LC_ALL, LC_MESSAGES and LANG (a test sets them to try another).
    static let englishLocale = ["LANG": "C.UTF-8", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""]

    /// Runs `executable` (a path, or a name looked up on PATH) with colour off, English words and
    /// outside GitHub Actions, as the tests expect cyd's plain output.
    static func run(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:], input: String? = nil
    ) throws -> CommandResult {
        try ChildProcess.run(
            [executable.path] + arguments, in: (directory ?? packageRoot).path, environment: englishLocale.merging(["NO_COLOR": "1"]) { $1 }.merging(environment) { $1 },
            removing: ["GITHUB_ACTIONS"], input: input)
    }

    /// Runs like `run`, on a thread of its own, for an async test that waits minutes on a
    /// program (a release build): Swift Testing runs tests on the concurrency pool, whose threads
    /// are as many as the cores (two here), and a test blocked in `waitpid` holds one of them, so
    /// every other test waited behind it. Suspended here, it leaves both to them.
    static func runDetached(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]
    ) async throws -> CommandResult {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try run(executable, arguments, in: directory, environment: environment) })
            }
            thread.start()
        }
    }

    /// Starts cyd, and kills it (SIGKILL, no chance to tidy up) `delay` seconds later, or as soon
    /// after as it is still running.
    static func cydKilled(after delay: Double, _ arguments: [String], environment: [String: String]) throws {
        let child = try ChildProcess([cyd.path] + arguments, environment: environment, takesInput: false, output: .discarded, errors: .discarded)
        Thread.sleep(forTimeInterval: delay)
        child.signal(SIGKILL)
        child.wait()
    }

    /// A program found on PATH, or nil.
    /// A program the test needs, found on PATH; a missing one fails that test alone, in words
    /// (scripts/install-deps.sh installs every program the suite uses).
    static func program(_ name: String) throws -> URL {
        guard let found = which(name) else { throw MissingProgram(name: name) }
        return found
    }

    struct MissingProgram: Error, CustomStringConvertible {
        var name: String
        var description: String { "the test needs \(name), which is not on PATH (scripts/install-deps.sh installs it)" }
    }

    static func which(_ name: String) -> URL? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}
