import ArgumentParser
import CydWords
#if canImport(Glibc)
import Glibc
#endif
import StoryLanguageServer

struct LanguageServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "lsp",
        abstract: "Serve the Language Server Protocol on standard input and output, for editors.",
        discussion: Help.languageServerCommand)

    @Option(name: .long, help: "Quiet time after a change before the document is checked, in milliseconds.") var debounce = 50

    func run() throws {
        guard debounce >= 0, debounce <= 10_000 else { throw ValidationError("--debounce must be between 0 and 10000 milliseconds") }
        let code = LanguageServer(input: STDIN_FILENO, output: STDOUT_FILENO, options: .init(debounceMilliseconds: debounce)).run()
        throw ExitCode(code)
    }
}
