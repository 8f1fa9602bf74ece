import StoryAnalysis
import StoryCheck
import StoryFormat
import StoryValidation

/// Why a path could not be validated, in cyd's words.
public enum ValidationWords {
    /// Why a path could not be validated, in cyd's words.
    public static func words(_ error: Validation.InputError) -> String {
        switch error {
        case .unreadable(let input): input.description
        case .noTranslation(let folder, let language):
            "'\(VisibleText.escape(folder))' has no translation into \(VisibleText.escape(language)) (.po or .xlf); `cyd l10n init \(VisibleText.escape(language))` starts one"
        case .noStoryBeside(let translation, let story):
            "'\(VisibleText.escape(translation))' is checked against the story it translates, but '\(VisibleText.escape(story))' does not exist; keep translations in the story's translations/ folder"
        }
    }
}

/// What `cyd fix` says of the edits it made, or would make, and the findings it left.
public enum FixWords {
    public static func json(_ edits: [Fixes.Edit], _ skipped: [Fixes.Skipped], in bytes: SourceBytes, path: String, written: Bool) -> JSONValue {
        let lines = LineIndex(bytes.array)
        return .object([
            "file": .string(path), "written": .bool(written),
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
        ])
    }

    /// "fixed 3 findings in story.json (2 CYD104, 1 CYD301)".
    public static func fixed(_ edits: [Fixes.Edit], shown: String) -> String {
        var counts: [DiagnosticCode: Int] = [:]
        for edit in edits { counts[edit.code, default: 0] += 1 }
        let parts = counts.keys.sorted { $0.rawValue < $1.rawValue }.map { "\(counts[$0]!) \($0)" }
        return "fixed \(plural(edits.count, "finding")) in \(shown) (\(parts.joined(separator: ", ")))\n"
    }

    /// A line for each finding left as it was, with why.
    public static func notFixed(_ skipped: [Fixes.Skipped], in bytes: SourceBytes, shown: String) -> String {
        guard !skipped.isEmpty else { return "" }
        let lines = LineIndex(bytes.array)
        return skipped.map { "not fixed: \(shown):\(lines.position(of: $0.offset)): \($0.code) \(VisibleText.escape($0.reason))\n" }.joined()
    }
}
