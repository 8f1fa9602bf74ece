import ArgumentParser
import CydWords
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StoryCheck
import StoryFormat
import StoryStore
import Transport
import Foundation
import TerminalUI

@main
struct CYD: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cyd",
        abstract: "Read, check and collect branching \"choose your destiny\" stories.",
        discussion: Help.cyd,
        version: CydVersion.current,
        subcommands: [Read.self, Validate.self, Rules.self, Explain.self, Stats.self, Graph.self, Test.self, Fix.self, Init.self, Add.self, List.self, Remove.self, Search.self, Sync.self, Get.self, Update.self, CatalogueCommand.self, Build.self, Serve.self, ImportCommand.self, ExportCommand.self, L10n.self, LanguageServerCommand.self]
    )

    /// Runs the command with cyd's exit codes: usage errors exit 2, not ArgumentParser's 64.
    static func main() {
        GitRepository.Limits.current = GitRepository.Limits.current.overridden(by: ProcessInfo.processInfo.environment)
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
        } catch let error as any Error & CustomStringConvertible where error is CLIError || error is FileWriter.WriteError || error is ValidationTarget.InputError {
            // cyd's own sentences, a file named on the command line, a story path that cannot be read
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

/// What `cyd --version` prints: cyd's version, the C libraries it is running with, and the
/// features it was built with (`cyd serve` is the BrowserReader trait's).
func versionReport() -> String {
    #if BrowserReader
    let features = "features: BrowserReader (cyd serve)"
    #else
    let features = "features: none (cyd serve needs a build with --traits BrowserReader)"
    #endif
    return """
        cyd \(CydVersion.current)
        libgit2 \(LibraryVersions.libgit2)
        libcurl \(LibraryVersions.libcurl)
        SQLite \(StoryLibrary.sqliteVersion)
        \(features)
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

