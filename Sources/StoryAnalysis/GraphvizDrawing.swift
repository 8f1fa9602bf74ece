import Foundation
import StoryFormat
#if canImport(Glibc)
import Glibc
#endif

/// A chapter map drawn as SVG by Graphviz's `dot`, found on PATH, within a time limit: a map
/// large enough to keep dot busy for minutes is stopped, not waited on without end.
public enum GraphvizDrawing {
    public enum Failure: Error, Sendable, Equatable {
        /// No `dot` on PATH.
        case notInstalled
        /// `dot` was found but could not be started.
        case cannotStart(program: String)
        /// `dot` did not finish within the limit and was killed.
        case timedOut(seconds: Double)
        /// `dot` ended with a status or a signal, and what it said on standard error.
        case failed(signal: Int32?, status: Int32, said: String)
    }

    /// Above this many chapters a map is not given to dot at all: dot's layout grows much faster
    /// than the map (a random 200-chapter map with several choices a chapter already takes minutes).
    public static let chapterLimit = 2_000

    /// How long dot may take, in seconds: 60, or CYD_GRAPH_SECONDS (0.1 to 3,600). Past it dot is
    /// stopped and the reason said, rather than leaving the author waiting without end.
    public static func timeLimit(environment: [String: String] = ProcessInfo.processInfo.environment) -> Double {
        environment["CYD_GRAPH_SECONDS"].flatMap(Double.init).map { max(0.1, min($0, 3600)) } ?? 60
    }

    /// `dot -Tsvg` of `dot` text. `whenSlow` is called once, on this thread, when dot has been
    /// drawing for two seconds (a caller may say it is working).
    public static func svg(_ dot: String, timeLimit: Double, environment: [String: String] = ProcessInfo.processInfo.environment, whenSlow: () -> Void = {}) throws(Failure) -> String {
        let candidates = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/dot" }
        guard let program = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { throw .notInstalled }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = ["-Tsvg"]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        do { try process.run() } catch { throw .cannotStart(program: program) }
        // Read and write on other threads: a large map fills the pipes both ways, and a dot that
        // stops reading must not hold the caller past the time limit. A dot that exits before it
        // has read the map closes the pipe: SIGPIPE is ignored so that the caller lives to say
        // why (dot's own words and status), and the write's error is dropped.
        signal(SIGPIPE, SIG_IGN)
        let collected = Collected()
        let reader = Thread {
            collected.set(output.fileHandleForReading.readDataToEndOfFile(), errors.fileHandleForReading.readDataToEndOfFile())
        }
        reader.start()
        let writer = Thread {
            try? input.fileHandleForWriting.write(contentsOf: Data(dot.utf8))
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let started = Date()
        var told = false
        while process.isRunning {
            let elapsed = Date().timeIntervalSince(started)
            if elapsed >= timeLimit {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                throw .timedOut(seconds: timeLimit)
            }
            if !told, elapsed >= 2 {
                whenSlow()
                told = true
            }
            usleep(5_000)
        }
        while !collected.done { usleep(1000) }
        guard process.terminationStatus == 0, process.terminationReason == .exit else {
            let said = String(decoding: collected.errors, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            let signal = process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil
            throw .failed(signal: signal, status: process.terminationStatus, said: said)
        }
        return String(decoding: collected.output, as: UTF8.self)
    }

    private final class Collected: @unchecked Sendable {
        private let lock = Lock()
        private var value: (Data, Data)?
        func set(_ output: Data, _ errors: Data) { lock.withLock { value = (output, errors) } }
        var done: Bool { lock.withLock { value != nil } }
        var output: Data { lock.withLock { value?.0 ?? Data() } }
        var errors: Data { lock.withLock { value?.1 ?? Data() } }
    }
}
