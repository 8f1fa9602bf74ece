import ArgumentParser
import CydWords
import StoryCheck
import StoryFormat
import StoryStore
import Transport
import Foundation
import TerminalUI

@main
struct CYD: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "cyd",
        abstract: "Read, check and collect branching \"choose your destiny\" stories.",
        discussion: Help.cyd,
        version: CydVersion.current,
        subcommands: [Read.self, Validate.self, Rules.self, Explain.self, Stats.self, Graph.self, Diff.self, Preview.self, Test.self, Fix.self, Init.self, Add.self, List.self, Remove.self, Search.self, Sync.self, Get.self, Update.self, CatalogueCommand.self, Build.self, Serve.self, ImportCommand.self, ExportCommand.self, L10n.self, LanguageServerCommand.self]
    )

    /// Runs the command with cyd's exit codes: usage errors exit 2, not ArgumentParser's 64.
    static func main() {
        GitRepository.Limits.current = GitRepository.Limits.current.overridden(by: ProcessInfo.processInfo.environment)
        Terminal.reportTruncatedFiles()
        // `cyd --version` names the libraries too; answered here so that no other command loads
        // libcurl just to describe it.
        if Array(CommandLine.arguments.dropFirst()) == ["--version"] {
            print(versionReport())
            Terminal.end(0)
        }
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let exit as ExitCode {
            Terminal.end(exit.rawValue)
        } catch let error as any Error & CustomStringConvertible where error is CLIError || error is FileWriter.WriteError || error is ValidationTarget.InputError {
            // cyd's own sentences, a file named on the command line, a story path that cannot be read
            Terminal.standardError.write("cyd: \(error.description)\n")
            Terminal.end(2)
        } catch {
            if LibraryError.words(for: error) != nil {  // any storage error, worded by cyd
                Terminal.standardError.write("cyd: \(VisibleText.escape(Words.of(error)))\n")
                Terminal.end(2)
            }
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { print(message) }
                Terminal.end(0)
            }
            Terminal.standardError.write(message + "\n")
            Terminal.end(2)
        }
    }
}

/// What `cyd --version` prints, with the features this cyd was built with.
func versionReport() -> String {
    VersionWords.report(libgit2: LibraryVersions.libgit2, libcurl: LibraryVersions.libcurl, sqlite: StoryLibrary.sqliteVersion, browserReader: Serve.isBuiltIn)
}

/// cyd's exit codes.
enum Exit {
    static let problemsFound = ExitCode(1)
    static let failure = ExitCode(2)
}

/// Large values a command is done with, kept until the process exits, as compilers keep theirs:
/// the system takes the memory back whole when cyd exits, where freeing a 100,000-chapter
/// story's 600,000 strings one by one takes a tenth of a second. Only for values made once per
/// command (never in a loop, nor in the long-running reader, server or language server).
enum KeptToExit {
    // The command runs on the main thread; nothing else touches this.
    nonisolated(unsafe) private static var values: [Any] = []

    static func keep(_ value: Any) { values.append(value) }
}
