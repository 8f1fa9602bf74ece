import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StoryCheck
import StoryFormat
import StoryStore
import Transport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TerminalUI

@main
struct CYD: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cyd",
        abstract: "Read, check and collect branching \"choose your destiny\" stories.",
        discussion: """
            Stories are story.json chapter graphs that authors publish as git repositories.
            Exit codes: 0 success; 1 the command worked and found problems; 2 usage, I/O or internal error.
            """,
        version: CydVersion.current,
        subcommands: [Read.self, Validate.self, Rules.self, Explain.self, Stats.self, Graph.self, Test.self, Fix.self, Init.self, Add.self, List.self, Remove.self, Search.self, Sync.self, Get.self, Update.self, CatalogueCommand.self, Build.self, Serve.self, ImportCommand.self, ExportCommand.self, L10n.self, LanguageServerCommand.self]
    )

    /// Runs the command with cyd's exit codes: usage errors exit 2, not ArgumentParser's 64.
    static func main() {
        GitLimitsFromEnvironment.apply()
        Terminal.reportTruncatedFiles()
        // `cyd --version` names the libraries too; answered here so that no other command loads
        // libcurl just to describe it.
        if Array(CommandLine.arguments.dropFirst()) == ["--version"] {
            print(versionReport())
            terminate(0)
        }
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let exit as ExitCode {
            terminate(exit.rawValue)
        } catch let error as CLIError {
            Terminal.standardError.write("cyd: \(error.description)\n")
            terminate(2)
        } catch {
            if LibraryError.words(for: error) != nil {  // any storage error, worded by cyd
                Terminal.standardError.write("cyd: \(VisibleText.escape(Words.of(error)))\n")
                terminate(2)
            }
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { print(message) }
                terminate(0)
            }
            Terminal.standardError.write(message + "\n")
            terminate(2)
        }
    }
}

/// What `cyd --version` prints: cyd's version, then the C libraries it is running with.
func versionReport() -> String {
    """
    cyd \(CydVersion.current)
    libgit2 \(LibraryVersions.libgit2)
    libcurl \(LibraryVersions.libcurl)
    SQLite \(StoryLibrary.sqliteVersion)
    """
}

/// Ends the process with a status, on either C library.
func terminate(_ status: Int32) -> Never {
    #if canImport(Glibc)
    Glibc.exit(status)
    #elseif canImport(Darwin)
    Darwin.exit(status)
    #endif
}

/// cyd's exit codes.
enum Exit {
    static let problemsFound = ExitCode(1)
    static let failure = ExitCode(2)
}

/// What a git server may send, overridable for tuning and tests (defaults in docs/reading.md):
/// CYD_GIT_TOTAL_SECONDS, CYD_GIT_MAX_BYTES, CYD_GIT_MAX_REFS, CYD_GIT_MAX_REFS_BYTES, CYD_GIT_MAX_OBJECTS and
/// CYD_GIT_LOW_SPEED ("BYTES/SECONDS": abandoned below BYTES a second for SECONDS).
enum GitLimitsFromEnvironment {
    static func apply(_ environment: [String: String] = ProcessInfo.processInfo.environment) {
        var limits = GitRepository.Limits.current
        if let value = environment["CYD_GIT_TOTAL_SECONDS"].flatMap(Double.init), value > 0 { limits.totalSeconds = value }
        if let value = environment["CYD_GIT_MAX_BYTES"].flatMap(Int64.init), value > 0 { limits.maximumBytes = value }
        if let value = environment["CYD_GIT_MAX_REFS_BYTES"].flatMap(Int64.init), value > 0 { limits.maximumAdvertisementBytes = value }
        if let value = environment["CYD_GIT_MAX_OBJECTS"].flatMap(Int.init), value > 0 { limits.maximumObjects = value }
        if let value = environment["CYD_GIT_MAX_REFS"].flatMap(Int.init), value > 0 { limits.maximumRefs = value }
        if let value = environment["CYD_GIT_LOW_SPEED"] {
            let parts = value.split(separator: "/")
            if parts.count == 2, let bytes = Int(parts[0]), let seconds = Double(parts[1]), bytes >= 0, seconds > 0 {
                limits.lowSpeedBytesPerSecond = bytes
                limits.lowSpeedSeconds = seconds
            }
        }
        GitRepository.Limits.current = limits
    }
}
