import ArgumentParser
import CydWords
import LocalFiles
import StoryAnalysis
import StoryCheck
import StoryFormat
import TerminalUI

struct Fix: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fix",
        abstract: "Make the mechanical repairs: trailing commas, comments, quoted booleans, http links, misspelt choice targets.",
        discussion: Help.fix)

    @Argument(help: "A story folder, story.json or authors.json (default: the current folder).")
    var path = "."

    @Flag(help: "Print the changes as a unified diff; change nothing.")
    var dryRun = false

    @Flag(help: "Report the edits as one JSON object (with --dry-run, nothing is changed).")
    var json = false

    func run() throws {
        let target: ValidationTarget
        let original: AtomicFile.Original
        do {
            target = try ValidationTarget.resolve(path)
            // Read whole into memory, never mapped: the output must be built from what was read,
            // not from pages another program may be rewriting.
            original = try AtomicFile.readForReplacing(target.fileURL.path, limit: JSONParser.Options().maximumSize)
        } catch let error as ValidationTarget.InputError {
            throw CLIError(error.description)
        } catch let error as AtomicFile.Failure {
            throw CLIError(FileWriter.sentence(error, path: path))
        }
        let bytes = SourceBytes(original.bytes)
        let (edits, skipped) = Fixes.edits(for: bytes, path: target.displayPath)
        let out = Terminal.standardOutput
        let shown = VisibleText.escape(target.displayPath)
        if json {
            if !dryRun && !edits.isEmpty {
                do { try FileWriter.replace(original, with: Fixes.apply(edits, to: bytes), shownAs: target.displayPath) } catch { throw CLIError(error.description) }
            }
            out.write(FixWords.json(edits, skipped, in: bytes, path: target.displayPath, written: !dryRun && !edits.isEmpty).encoded + "\n")
            return
        }
        if edits.isEmpty {
            out.write("nothing to fix in \(shown)\n")
        } else if dryRun {
            out.write(Fixes.diff(bytes, edits: edits, path: target.displayPath))
        } else {
            let fixed = Fixes.apply(edits, to: bytes)
            do {
                try FileWriter.replace(original, with: fixed, shownAs: target.displayPath)
            } catch {
                throw CLIError(error.description)
            }
            out.write(FixWords.fixed(edits, shown: shown))
        }
        out.write(FixWords.notFixed(skipped, in: bytes, shown: shown))
    }
}
