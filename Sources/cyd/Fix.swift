import ArgumentParser
import CydWords
import LocalFiles
import StoryAnalysis
import StoryCheck
import StoryFormat
import TerminalUI

struct Fix: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "fix",
        abstract: "Make the mechanical repairs: trailing commas, comments, quoted booleans, http links, misspelt choice targets.",
        discussion: Help.fix)

    @Argument(help: "A story folder, story.json or authors.json (default: the current folder).") var path = "."
    @Flag(help: "Print the changes as a unified diff; change nothing.") var dryRun = false
    @Flag(help: "Report the edits as one JSON object (with --dry-run, nothing is changed).") var json = false

    func run() throws {
        let target = try ValidationTarget.resolve(path)
        let original: AtomicFile.Original
        do {
            // Read whole into memory, never mapped: the output must be built from what was read,
            // not from pages another program may be rewriting.
            original = try AtomicFile.readForReplacing(target.fileURL.path, limit: JSONParser.Options().maximumSize)
        } catch {
            throw CLIError(FileWriter.sentence(error, path: path))
        }
        let bytes = SourceBytes(original.bytes)
        let (edits, skipped) = Fixes.edits(for: bytes, path: target.displayPath)
        let (out, shown) = (Terminal.standardOutput, VisibleText.escape(target.displayPath))
        let writes = !dryRun && !edits.isEmpty
        if writes { try FileWriter.replace(original, with: Fixes.apply(edits, to: bytes), shownAs: target.displayPath) }
        if json {
            return out.write(FixWords.json(edits, skipped, in: bytes, path: target.displayPath, written: writes).encoded + "\n")
        }
        out.write(edits.isEmpty ? "nothing to fix in \(shown)\n" : dryRun ? Fixes.diff(bytes, edits: edits, path: target.displayPath) : FixWords.fixed(edits, shown: shown))
        out.write(FixWords.notFixed(skipped, in: bytes, shown: shown))
    }
}
