import ArgumentParser
import CydWords
import Foundation
import LocalFiles
import StoryCheck
import StoryFormat
import StoryTranslation
import StoryValidation
import TerminalUI

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "validate",
        abstract: "Check story.json files (and authors.json) for mistakes.",
        discussion: Help.validate)

    @Argument(help: "Story files, authors files or story folders (default: the current folder); also a catalogue id (author/repository), a git URL or an https URL of a story.json, read as `cyd get` would read it, without storing it.") var paths: [String] = []
    @OptionGroup var library: LibraryOptions
    @Option(help: "Output format: text, json, github (workflow annotations) or sarif (code scanning). Default: text, or github when GITHUB_ACTIONS=true.") var format: ReportFormat?
    @Option(name: .shortAndLong, help: "Write the report to FILE instead of standard output.") var output: String?
    @Flag(help: "Fail (exit 1) on warnings too.") var strict = false
    @Flag(help: "Accept trailing commas, comments and raw control characters as warnings, as readers do.") var lenient = false
    @Option(name: .customLong("select"), parsing: .singleValue, help: ArgumentHelp("Report only these codes, rule names or categories (comma-separated, repeatable).", valueName: "codes")) var selected: [String] = []
    @Option(name: .customLong("ignore"), parsing: .singleValue, help: ArgumentHelp("Do not report these codes, rule names or categories (comma-separated, repeatable).", valueName: "codes")) var ignored: [String] = []
    @Option(help: ArgumentHelp("Text format: show at most N findings of each rule per file, then one line counting the rest (0 shows all; json, github and sarif always list every finding).", valueName: "N")) var maxPerRule: Int = 50
    @Option(help: "Colour: auto (on a terminal, per NO_COLOR and CLICOLOR), always or never.") var color: Terminal.ColorChoice = .auto
    @Option(name: .customLong("lang"), help: ArgumentHelp("Check only this language's translation, and report its untranslated strings too (repeatable).", valueName: "tag")) var languages: [String] = []

    func validate() throws {
        for language in languages where !LanguageTag.isWellFormed(LanguageTag.normalise(language)) {
            throw ValidationError("--lang takes a language tag such as fr or pt-BR, not '\(VisibleText.escape(language))'")
        }
        guard maxPerRule >= 0 else { throw ValidationError("--max-per-rule takes 0 (show all) or a positive number") }
        for name in CheckOptions.names(in: selected + ignored) where !CheckOptions.isKnown(name) {
            throw ValidationError("unknown code, rule or category '\(VisibleText.escape(name))'; see `cyd rules`")
        }
    }

    func run() throws {
        let format = format ?? (ProcessInfo.processInfo.environment["GITHUB_ACTIONS"] == "true" ? .github : .text)
        let check = CheckOptions(
            lenient: lenient, select: selected.isEmpty ? nil : Set(CheckOptions.names(in: selected)), ignore: Set(CheckOptions.names(in: ignored)),
            pointers: format == .json)  // only the json format shows them
        let options = Validation.Options(check: check, languages: languages)
        var reports: [FileReport] = []
        var inputFailed = false
        for path in paths.isEmpty ? ["."] : paths {
            do {
                if FileStatus(path) == nil, let remote = try CatalogueLookup.fetchUnstored(path, importer: library.importer) {
                    reports += Validation.check(bytes: remote.bytes, path: remote.displayName, options: options)
                } else {
                    reports += try Validation.check(path: path, options: options)
                }
            } catch {
                Terminal.standardError.write("cyd: \((error as? Validation.InputError).map(ValidationWords.words) ?? String(describing: error))\n")
                inputFailed = true
            }
        }
        let colors = output == nil && format == .text && Terminal.useColor(color, for: Terminal.standardOutput)
        // The report streams: a piece at a time to the file (replaced whole at the end) or to
        // standard output, so 200,000 findings are never one string in memory.
        func report(to sink: @escaping ReportSink) {
            format.write(reports, style: .terminal(colors: colors), maximumPerRule: maxPerRule > 0 ? maxPerRule : nil, hints: .cyd, to: sink)
        }
        if let output {
            try FileWriter.write(to: output) { write in withoutActuallyEscaping(write) { report(to: $0) } }
        } else {
            let out = Terminal.standardOutput
            report { out.write($0) }
        }
        let totals = ReportTotals(reports)
        if inputFailed { throw Exit.failure }
        if totals.errors > 0 || (strict && totals.warnings > 0) { throw Exit.problemsFound }
    }
}
