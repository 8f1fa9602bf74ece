import StoryFormat
import Testing

@testable import StoryCheck

/// A text report of many findings is made in pieces on both cores, and the source line under a
/// finding is cut by its bytes when it is printable ASCII: neither may change a byte of what a
/// reader of the report sees.
@Suite("A text report of many findings")
struct TextReportPiecesTests {
    /// Lines of every kind a finding can sit on: short and long printable ASCII (longer than the
    /// 110-cell window), tabs, escape sequences, accents, wide characters, an empty line, a CR.
    static func file(lines count: Int, seed: UInt64) -> [UInt8] {
        var random = SplitMix64(state: seed)
        let words = ["tide", "lamp", "gull", "rock", "bell", "{\"id\": \"x\"}", "\t", "\u{1B}[2J", "Café", "灯台", "🦊", " ", "\u{202E}"]
        var bytes: [UInt8] = []
        for _ in 0..<count {
            let ascii = random.next() % 3 != 0
            let length = Int(random.next() % 90)
            for _ in 0..<length {
                let word = words[Int(random.next() % UInt64(ascii ? 6 : words.count))]
                bytes += Array((word + " ").utf8)
            }
            if random.next() % 17 == 0 { bytes.append(0x0D) }
            bytes.append(0x0A)
        }
        return bytes
    }

    /// Findings at random places: points and ranges, within a line and across lines, at a line's
    /// end, at the file's end, some with a related place and a help line.
    static func findings(in bytes: [UInt8], count: Int, seed: UInt64) -> [Diagnostic] {
        var random = SplitMix64(state: seed)
        return (0..<count).map { number in
            let start = Int(random.next() % UInt64(bytes.count + 1))
            let end = min(bytes.count, start + Int(random.next() % 4 == 0 ? random.next() % 400 : random.next() % 12))
            let related = number % 5 == 0 ? [RelatedLocation(message: "first here", range: (start / 2)..<(start / 2))] : []
            return Diagnostic(
                code: number % 3 == 0 ? "CYD101" : "CYD302", severity: number % 3 == 0 ? .error : .warning, message: "finding \(number)",
                help: number % 2 == 0 ? "fix \(number)" : nil, range: start..<end, related: related)
        }
    }

    @Test("a file's thousands of findings are written in order, each once, as one after another")
    func piecesInOrder() {
        let bytes = Self.file(lines: 3_000, seed: 11)
        let diagnostics = Self.findings(in: bytes, count: TextReport.findingsMadeAhead * 6 + 17, seed: 12).sortedByPosition()
        let report = ResolvedReport(FileReport(path: "stories/tide/story.json", bytes: bytes, kind: .story, diagnostics: diagnostics))
        let text = TextReport(style: .plain)
        var written: [[UInt8]] = []
        text.write([report]) { written.append($0) }
        let oneAfterAnother = report.diagnostics.map { text.diagnostic($0, in: report) + "\n" }.joined() + text.summary(report) + "\n"
        #expect(String(decoding: written.joined(), as: UTF8.self) == oneAfterAnother)
        // Written a piece at a time, never whole.
        let total = written.reduce(0) { $0 + $1.count }
        #expect(written.count > 3)
        #expect(written.allSatisfy { $0.count < total / 3 })
    }

    @Test("below the threshold, and past each rule's limit, the report is what it always was")
    func fewFindings() {
        let bytes = Self.file(lines: 200, seed: 21)
        let diagnostics = Self.findings(in: bytes, count: 5_000, seed: 22).sortedByPosition()
        let file = FileReport(path: "s/story.json", bytes: bytes, kind: .story, diagnostics: diagnostics)
        let limited = ReportFormat.text.render([file], maximumPerRule: 20)
        let report = ResolvedReport(file, atMostPerRule: 20)
        let text = TextReport(style: .plain)
        #expect(report.diagnostics.count == 40)
        #expect(limited.hasPrefix(report.diagnostics.map { text.diagnostic($0, in: report) + "\n" }.joined()))
        #expect(limited.contains("more findings of CYD302"))
    }

    @Test("a printable-ASCII line is cut and marked by its bytes exactly as by its scalars")
    func asciiWindow() {
        let bytes = Self.file(lines: 4_000, seed: 31)
        let diagnostics = Self.findings(in: bytes, count: 8_000, seed: 32)
        let report = ResolvedReport(FileReport(path: "s/story.json", bytes: bytes, kind: .story, diagnostics: diagnostics))
        let text = TextReport(style: .plain)
        var ascii = 0
        for item in report.diagnostics {
            let fast = text.sourceAndCaret(item, in: report)
            let scalars = text.sourceAndCaret(item, in: report, byScalars: true)
            #expect(fast == scalars, "finding at \(item.start.line):\(item.start.column), bytes \(item.diagnostic.range)")
            if fast != scalars { return }
            if !fast.0.unicodeScalars.contains(where: { $0.value >= 0x7F && $0 != "…" }), !fast.0.contains("\\") { ascii += 1 }
        }
        // Most lines are ASCII, many longer than the window: the byte path was taken, and cut.
        #expect(ascii > 3_000)
        #expect(report.diagnostics.contains { text.sourceAndCaret($0, in: report).0.hasPrefix("…") })
        #expect(report.diagnostics.contains { text.sourceAndCaret($0, in: report).0.hasSuffix("…") })
    }
}
