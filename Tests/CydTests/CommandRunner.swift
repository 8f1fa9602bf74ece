import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `cyd` (and other programs) as a user would, capturing what they print.
struct CommandResult {
    var status: Int32
    var standardOutput: String
    var standardError: String
}

enum Command {
    /// The package's root folder, found from this file's path.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The cyd built beside the test bundle (the test target depends on it, so it is built first).
    static let cyd: URL = {
        if let override = ProcessInfo.processInfo.environment["CYD_BINARY"] { return URL(fileURLWithPath: override) }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("cyd")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return packageRoot.appendingPathComponent(".build/debug/cyd")
    }()

    static func cyd(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:], input: String? = nil) throws -> CommandResult {
        try run(cyd, arguments, in: directory, environment: environment, input: input)
    }

    /// Runs `executable` (a path, or a name looked up on PATH).
    static func run(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:], input: String? = nil
    ) throws -> CommandResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? packageRoot
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        env.removeValue(forKey: "GITHUB_ACTIONS")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let output = Pipe()
        let error = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = stdin
        try process.run()
        if let input { ChildInput.write(Data(input.utf8), to: stdin.fileHandleForWriting) }
        try stdin.fileHandleForWriting.close()
        // Read both pipes before waiting, so a large output cannot fill a pipe and block.
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandResult(
            status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self))
    }

    /// Starts cyd, and kills it (SIGKILL, no chance to tidy up) `delay` seconds later, or as soon
    /// after as it is still running.
    static func cydKilled(after delay: Double, _ arguments: [String], environment: [String: String]) throws {
        let process = Process()
        process.executableURL = cyd
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: delay)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// A program found on PATH, or nil.
    static func which(_ name: String) -> URL? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}
