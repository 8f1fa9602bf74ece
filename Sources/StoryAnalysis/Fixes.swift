import StoryCheck
import StoryFormat

/// Mechanical repairs, each tied to a rule: minimal byte-range replacements, so everything else
/// in the file (indentation, key order, unusual spacing) stays byte for byte.
public enum Fixes {
    /// The rules with a repair, and what it does: declared by each rule beside its examples
    /// (`RuleDescription.repair`), so a repair and its words cannot drift apart.
    public static let descriptions: [DiagnosticCode: String] = Dictionary(
        uniqueKeysWithValues: RuleCatalogue.descriptions.compactMap { rule in rule.repair.map { (rule.code, $0.does) } })

    public struct Edit: Sendable, Hashable {
        public var range: Range<Int>
        public var replacement: [UInt8]
        public var code: DiagnosticCode
    }

    /// A fix that was not made, and why.
    public struct Skipped: Sendable, Hashable {
        public var offset: Int
        public var code: DiagnosticCode
        public var reason: String
    }

    /// The edits that repair what can be repaired in a story or authors file.
    public static func edits(for bytes: SourceBytes, path: String) -> (edits: [Edit], skipped: [Skipped]) {
        let file = LoadedFile.asReadersRead(bytes, fileName: path)
        let reports = Checker.check(file, path: path, options: CheckOptions(lenient: true, pointers: false))
        let diagnostics = reports.first?.diagnostics ?? []
        var edits: [Edit] = []
        var skipped: [Skipped] = []
        var ids: [String]?
        var suggestions: SuggestionIndex?
        var folded: [String: Int]?
        var oneEdit: OneEditIndex?
        // Checking a suggestion of two or three edits for a rival compares it with the ids of
        // about its length; across all targets that work is capped, so a story with 50,000
        // misspelt targets costs seconds, not hours (the rest are left for a second run).
        var budget = 20_000_000
        for diagnostic in diagnostics where descriptions[diagnostic.code] != nil {
            let range = diagnostic.range
            switch diagnostic.code {
            case .trailingComma, .comment:
                edits.append(Edit(range: range, replacement: [], code: diagnostic.code))
            case .wrongType:
                // Only a boolean written as text, as the finding itself says.
                guard case .booleanWrittenAsText(let value)? = diagnostic.detail else { continue }
                edits.append(Edit(range: range, replacement: Array((value ? "true" : "false").utf8), code: diagnostic.code))
            case .httpMediaLink:
                // The string's contents start after the quote.
                let start = range.lowerBound + 1
                guard start + 7 <= range.upperBound, String(decoding: bytes[start..<(start + 7)], as: UTF8.self).lowercased() == "http://" else { continue }
                edits.append(Edit(range: start..<(start + 7), replacement: Array("https://".utf8), code: diagnostic.code))
            case .missingChoiceTarget:
                guard let story = file.story else { continue }
                if ids == nil {
                    let all = story.chapters.compactMap { $0.id?.value }
                    ids = all
                    suggestions = SuggestionIndex(all)
                    var counts: [String: Int] = [:]
                    for id in all { counts[fold(id), default: 0] += 1 }
                    folded = counts
                    oneEdit = OneEditIndex(all)
                }
                let contents = (range.lowerBound + 1)..<max(range.lowerBound + 1, range.upperBound - 1)
                guard bytes[range.lowerBound] == UInt8(ascii: "\"") else { continue }
                let target = String(decoding: bytes[contents], as: UTF8.self)
                guard let suggestion = suggestions?.nearest(to: target) else {
                    skipped.append(Skipped(offset: range.lowerBound, code: diagnostic.code, reason: "no chapter id is close to '\(target)'"))
                    continue
                }
                // Exactly one close match: the suggestion, and no other id as close.
                let distance = KeySuggestion.editDistance(Array(target.lowercased().unicodeScalars), Array(suggestion.lowercased().unicodeScalars), limit: 3)
                let rivals: Int
                if distance <= 1, let oneEdit {
                    rivals = oneEdit.within(1, of: target).filter { $0 != suggestion }.count
                        + ((folded?[fold(target)] ?? 0) > (fold(suggestion) == fold(target) ? 1 : 0) ? 1 : 0)
                } else {
                    guard budget > 0 else {
                        skipped.append(Skipped(offset: range.lowerBound, code: diagnostic.code, reason: "too many misspelt targets to check '\(target)' for a rival this run; fix again to check it"))
                        continue
                    }
                    budget -= ids?.count ?? 0
                    rivals = Self.rivals(of: target, within: distance, besides: suggestion, in: ids ?? [], folded: folded ?? [:])
                }
                guard rivals == 0 else {
                    skipped.append(Skipped(offset: range.lowerBound, code: diagnostic.code, reason: "'\(target)' is as close to \(rivals + 1) chapter ids; choose by hand"))
                    continue
                }
                // A target written with escapes is left to a person (the edit would rewrite them).
                guard !bytes[contents].contains(UInt8(ascii: "\\")) else { continue }
                edits.append(Edit(range: contents, replacement: jsonStringContents(suggestion), code: diagnostic.code))
            default:
                continue
            }
        }
        // Non-overlapping, in file order (the first of two overlapping edits wins).
        edits.sort { $0.range.lowerBound < $1.range.lowerBound }
        var kept: [Edit] = []
        for edit in edits where kept.last.map({ $0.range.upperBound <= edit.range.lowerBound }) ?? true { kept.append(edit) }
        return (kept, skipped)
    }

    /// How many ids other than `suggestion` are within `distance` edits of `target`. Ids of a
    /// length too different are skipped without computing anything, so the cost stays near the
    /// number of ids of about the same length.
    static func rivals(of target: String, within distance: Int, besides suggestion: String, in ids: [String], folded: [String: Int]) -> Int {
        let query = Array(target.lowercased().unicodeScalars)
        var count = 0
        for id in ids where id != suggestion && abs(id.unicodeScalars.count - query.count) <= distance {
            if KeySuggestion.editDistance(query, Array(id.lowercased().unicodeScalars), limit: distance) <= distance { count += 1 }
        }
        // The same letters but for case, '-', '_' and spaces count as close too.
        if (folded[fold(target)] ?? 0) > (fold(suggestion) == fold(target) ? 1 : 0) { count += 1 }
        return count
    }

    static func fold(_ text: String) -> String { KeySuggestion.fold(text) }

    /// The bytes of `text` inside a JSON string's quotes.
    static func jsonStringContents(_ text: String) -> [UInt8] {
        let quoted = Array(JSONQuoting.quoted(text).utf8)
        return Array(quoted.dropFirst().dropLast())
    }

    /// `bytes` with the edits made.
    public static func apply(_ edits: [Edit], to bytes: SourceBytes) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var cursor = 0
        bytes.withUnsafeBufferPointer { buffer in
            for edit in edits {
                out.append(contentsOf: buffer[cursor..<edit.range.lowerBound])
                out.append(contentsOf: edit.replacement)
                cursor = edit.range.upperBound
            }
            out.append(contentsOf: buffer[cursor..<buffer.count])
        }
        return out
    }

    /// A unified diff (no context lines) of the lines the edits touch, worked out from the edits
    /// themselves: each hunk is the old lines an edit (or a run of neighbouring edits) touches and
    /// the same lines with the edits made.
    public static func diff(_ old: SourceBytes, edits: [Edit], path: String) -> String {
        var lineStarts = [0]
        old.withUnsafeBufferPointer { buffer in
            for (offset, byte) in buffer.enumerated() where byte == UInt8(ascii: "\n") { lineStarts.append(offset + 1) }
        }
        func line(of offset: Int) -> Int {
            var low = 0
            var high = lineStarts.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
            }
            return low
        }
        func lineEnd(_ line: Int) -> Int { line + 1 < lineStarts.count ? lineStarts[line + 1] - 1 : old.count }
        // Spans of lines, merged where edits share or touch a line.
        var spans: [(first: Int, last: Int, edits: [Edit])] = []
        for edit in edits {
            let first = line(of: edit.range.lowerBound)
            let last = line(of: max(edit.range.lowerBound, edit.range.upperBound - 1))
            if let previous = spans.last, first <= previous.last + 1 {
                spans[spans.count - 1].last = max(previous.last, last)
                spans[spans.count - 1].edits.append(edit)
            } else {
                spans.append((first, last, [edit]))
            }
        }
        func text(_ bytes: ArraySlice<UInt8>) -> [String] {
            bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
                VisibleText.escape(String(decoding: $0, as: UTF8.self), keepTabs: true)
            }
        }
        // The same name on both sides, as `diff -u` writes it for one file: `patch -p0` (or
        // `git apply -p0`) in the folder it was made from applies it.
        var out = "--- \(path)\n+++ \(path)\n"
        var shift = 0  // lines gained (or lost) before this hunk
        for span in spans {
            let start = lineStarts[span.first]
            let end = lineEnd(span.last)
            var before: [UInt8] = []
            old.withUnsafeBufferPointer { before = Array($0[start..<end]) }
            var after: [UInt8] = []
            var cursor = start
            for edit in span.edits {
                after += before[(cursor - start)..<(edit.range.lowerBound - start)]
                after += edit.replacement
                cursor = edit.range.upperBound
            }
            after += before[(cursor - start)...]
            let oldLines = text(before[...])
            let newLines = text(after[...])
            out += "@@ -\(span.first + 1),\(oldLines.count) +\(span.first + 1 + shift),\(newLines.count) @@\n"
            for line in oldLines { out += "-\(line)\n" }
            for line in newLines { out += "+\(line)\n" }
            shift += newLines.count - oldLines.count
        }
        return out
    }
}

/// Every id within one edit of a text, found through deletions (an id and a text one edit
/// apart share a one-deletion form, or one is a deletion of the other): an index of each id's
/// deletions, built in time linear in the ids' total length.
struct OneEditIndex {
    private var byDeletion: [String: [Int32]] = [:]
    private let ids: [String]

    init(_ ids: [String]) {
        self.ids = ids
        for (index, id) in ids.enumerated() {
            for key in Self.keys(id.lowercased()) { byDeletion[key, default: []].append(Int32(index)) }
        }
    }

    /// The text itself and each form with one character deleted.
    static func keys(_ text: String) -> Set<String> {
        let characters = Array(text.unicodeScalars)
        var keys: Set<String> = [text]
        for skip in characters.indices {
            var view = String.UnicodeScalarView()
            for (index, scalar) in characters.enumerated() where index != skip { view.append(scalar) }
            keys.insert(String(view))
        }
        return keys
    }

    /// The ids within `limit` (0 or 1) edits of `text`, compared without case.
    func within(_ limit: Int, of text: String) -> [String] {
        let query = Array(text.lowercased().unicodeScalars)
        var seen = Set<Int32>()
        var found: [String] = []
        for key in Self.keys(text.lowercased()) {
            for index in byDeletion[key] ?? [] where seen.insert(index).inserted {
                let id = ids[Int(index)]
                if KeySuggestion.editDistance(query, Array(id.lowercased().unicodeScalars), limit: limit) <= limit { found.append(id) }
            }
        }
        return found
    }
}
