#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StoryFormat

/// One JSON object: each file with its findings and summary, then the totals.
enum JSONReport {
    struct Output: Encodable {
        var version = 1
        var files: [File]
        var summary: ReportTotals
    }

    struct File: Encodable {
        var path: String
        var kind: String?
        var errors: Int
        var warnings: Int
        var notes: Int
        var diagnostics: [Item]
        var story: StorySummary?
    }

    struct Item: Encodable {
        var code: String
        var name: String?
        var category: String?
        var severity: String
        var message: String
        var help: String?
        var line: Int
        var column: Int
        var endLine: Int
        var endColumn: Int
        var pointer: String
        var related: [Related]
    }

    struct Related: Encodable {
        var message: String
        var line: Int
        var column: Int
    }

    static func render(_ reports: [ResolvedReport]) -> String {
        let output = Output(
            files: reports.map { report in
                File(
                    path: report.report.path,
                    kind: report.report.kind.map { $0 == .authors ? "authors" : "story" },
                    errors: report.report.count(.error), warnings: report.report.count(.warning), notes: report.report.count(.note),
                    diagnostics: report.diagnostics.map { item in
                        Item(
                            code: item.diagnostic.code.rawValue, name: item.rule?.name, category: item.rule?.category.rawValue,
                            severity: item.diagnostic.severity.rawValue, message: item.diagnostic.message, help: item.diagnostic.help,
                            line: item.start.line, column: item.start.column, endLine: item.end.line, endColumn: item.end.column,
                            pointer: item.diagnostic.pointer,
                            related: item.related.map { Related(message: $0.message, line: $0.position.line, column: $0.position.column) })
                    },
                    story: report.report.summary)
            },
            summary: ReportTotals(reports.map(\.report)))
        return encode(output)
    }

    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}\n" }
        return terminalSafe(String(decoding: data, as: UTF8.self)) + "\n"
    }

    /// The encoder leaves DEL, C1 controls and bidi controls raw inside strings, as JSON allows;
    /// written as \u escapes instead they mean the same to a JSON reader and nothing to a
    /// terminal that shows the report.
    static func terminalSafe(_ json: String) -> String {
        // Almost every report has none: a byte scan decides (C1 controls are C2 80..9F in UTF-8,
        // bidi controls E2 80 AA..AE and E2 81 A6..A9).
        var json = json
        let clean = json.withUTF8 { utf8 in
            for index in utf8.indices where utf8[index] == 0x7F || utf8[index] == 0xC2 || utf8[index] == 0xE2 {
                if utf8[index] == 0x7F { return false }
                if index + 1 < utf8.count, utf8[index] == 0xC2, utf8[index + 1] >= 0x80 && utf8[index + 1] <= 0x9F { return false }
                if index + 1 < utf8.count, utf8[index] == 0xE2, utf8[index + 1] == 0x80 || utf8[index + 1] == 0x81 { return false }
            }
            return true
        }
        guard !clean else { return json }
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            let v = scalar.value
            if v == 0x7F || VisibleText.isC1(v) || VisibleText.isBidiControl(v) {
                let hex = String(v, radix: 16)
                // One scalar at a time: append(contentsOf:) on a scalar view copies it each call.
                for piece in ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars { out.append(piece) }
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}
