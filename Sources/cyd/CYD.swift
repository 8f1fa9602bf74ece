import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StoryCheck

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
        subcommands: [Read.self, Validate.self, Rules.self, Explain.self, Add.self, List.self, Remove.self, Search.self, Sync.self, Get.self, Update.self]
    )

    /// Runs the command with cyd's exit codes: usage errors exit 2, not ArgumentParser's 64.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let exit as ExitCode {
            Glibc.exit(exit.rawValue)
        } catch let error as CLIError {
            Terminal.standardError.write("cyd: \(error.description)\n")
            Glibc.exit(2)
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { print(message) }
                Glibc.exit(0)
            }
            Terminal.standardError.write(message + "\n")
            Glibc.exit(2)
        }
    }
}

/// cyd's exit codes.
enum Exit {
    static let problemsFound = ExitCode(1)
    static let failure = ExitCode(2)
}
