import ArgumentParser
import LocalFiles
import StoryAnalysis
import StoryCheck
import StoryFormat
import TerminalUI

struct Fix: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fix",
        abstract: "Make the mechanical repairs: trailing commas, comments, quoted booleans, http links, misspelt choice targets.",
        discussion: """
            Each repair belongs to a rule (`cyd explain CODE` says what it does): CYD102 removes a \
            trailing comma, CYD103 a comment, CYD202 writes "true" or "false" in quotes as a \
            boolean, CYD602 changes http:// to https://, CYD302 points a choice at the suggested \
            chapter when exactly one chapter id is that close. Edits replace only the bytes at fault: \
            indentation, key order and spacing stay byte for byte. The file is written whole and \
            renamed into place. --dry-run prints a unified diff instead.
            """)

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
            let lines = LineIndex(bytes.array)
            out.write(JSONValue.object([
                "file": .string(target.displayPath), "written": .bool(!dryRun && !edits.isEmpty),
                "edits": .array(edits.map { edit in
                    let position = lines.position(of: edit.range.lowerBound)
                    return .object([
                        "code": .string(edit.code.rawValue), "line": .number(Double(position.line)), "column": .number(Double(position.column)),
                        "start": .number(Double(edit.range.lowerBound)), "end": .number(Double(edit.range.upperBound)),
                        "replacement": .string(String(decoding: edit.replacement, as: UTF8.self)),
                    ])
                }),
                "notFixed": .array(skipped.map { skip in
                    let position = lines.position(of: skip.offset)
                    return .object(["code": .string(skip.code.rawValue), "line": .number(Double(position.line)), "reason": .string(skip.reason)])
                }),
            ]).encoded + "\n")
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
            var counts: [DiagnosticCode: Int] = [:]
            for edit in edits { counts[edit.code, default: 0] += 1 }
            let parts = counts.keys.sorted { $0.rawValue < $1.rawValue }.map { "\(counts[$0]!) \($0)" }
            out.write("fixed \(plural(edits.count, "finding")) in \(shown) (\(parts.joined(separator: ", ")))\n")
        }
        if !skipped.isEmpty {
            let lines = LineIndex(bytes.array)
            for skip in skipped {
                out.write("not fixed: \(shown):\(lines.position(of: skip.offset)): \(skip.code) \(VisibleText.escape(skip.reason))\n")
            }
        }
    }
}
