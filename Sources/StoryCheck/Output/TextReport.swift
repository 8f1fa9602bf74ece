import StoryFormat

/// rustc-like text: `error[CODE]: message`, `--> file:line:col`, the line with a caret, `= help:`.
struct TextReport {
    let style: TextStyle
    var hints: ReportHints = .none
    /// Source lines longer than this many cells are shown as a window around the finding.
    let maximumLineWidth = 110

    func render(_ reports: [ResolvedReport]) -> String {
        var bytes: [UInt8] = []
        write(reports) { bytes.append(contentsOf: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    func write(_ reports: [ResolvedReport], to sink: @escaping ReportSink) {
        var out = ChunkedText(sink)
        for report in reports {
            // The findings past each rule's limit were left out as the report was resolved.
            if report.diagnostics.count >= Self.findingsMadeAhead {
                // Many findings are made in pieces on both cores while the last piece is written.
                out.flush()
                for piece in pieces(of: report) { sink(piece) }
            } else {
                for item in report.diagnostics { out += diagnostic(item, in: report) + "\n" }
            }
            for (code, more) in report.leftOut {
                let name = RuleCatalogue.description(of: code).map { " (\($0.name))" } ?? ""
                out += style.dim(
                    "… and \(plural(more, "more finding")) of \(code)\(name) in \(VisibleText.escape(report.report.path)), "
                        + "not shown" + (hints.seeingEveryFinding.map { ": \($0)" } ?? "")) + "\n\n"
            }
        }
        for report in reports { out += summary(report) + "\n" }
        if reports.count > 1 {
            let totals = ReportTotals(reports.map(\.report))
            out += style.bold("checked \(plural(totals.files, "file")): \(totals.phrase)") + "\n"
        }
        out.flush()
    }

    /// From this many findings in a file, the text of its findings is made ahead in pieces.
    static let findingsMadeAhead = 2_000

    /// The text of a report's findings, each followed by a blank line, in pieces made ahead on
    /// other threads (at most three held at once), in order.
    func pieces(of report: ResolvedReport) -> PiecesMadeAhead {
        // A finding's text holds at least its severity, code and place ("error[CYD101]: ", "--> ").
        PiecesMadeAhead(count: report.diagnostics.count, pieceSize: 64 << 10, leastSize: { _ in 24 }) {
            [self] index, out in
            out += (diagnostic(report.diagnostics[index], in: report) + "\n").utf8
        }
    }

    func diagnostic(_ item: ResolvedDiagnostic, in report: ResolvedReport) -> String {
        let d = item.diagnostic
        let name = item.rule.map { " " + style.dim("(\($0.name))") } ?? ""
        // Every text from the file reaches the terminal through VisibleText, here, once.
        var lines = [style.severity(d.severity, "\(d.severity.rawValue)[\(d.code)]") + style.bold(": \(VisibleText.escape(d.message))") + name]
        let gutter = String(repeating: " ", count: String(item.start.line).count)
        lines.append("\(gutter)\(style.blue("-->")) \(VisibleText.escape(report.report.path)):\(item.start.line):\(item.start.column)")
        if !report.report.bytes.isEmpty {
            let (source, caret) = sourceAndCaret(item, in: report)
            lines.append("\(gutter) \(style.blue("|"))")
            lines.append("\(style.blue(String(item.start.line))) \(style.blue("|")) \(source)")
            lines.append("\(gutter) \(style.blue("|")) \(style.severity(d.severity, caret))")
        }
        for related in item.related {
            lines.append("\(gutter) \(style.blue("=")) \(style.bold("note")): \(VisibleText.escape(related.message)) at \(VisibleText.escape(report.report.path)):\(related.position)")
        }
        if let help = d.help { lines.append("\(gutter) \(style.blue("=")) \(style.green(style.bold("help")))\(style.green(":")) \(VisibleText.escape(help))") }
        if d.severity == .error, item.rule?.lenientSeverity != nil, let lenient = hints.readingLeniently {
            lines.append("\(gutter) \(style.blue("=")) \(style.bold("note")): \(lenient)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The finding's line, made safe and cut to a window, with carets under the range. Only a
    /// bounded piece of the line around the finding is decoded, so a finding on a 150 MB line
    /// (a minified file) costs as little as one on a short line.
    /// - Parameter byScalars: cut the window by its scalars even when it is printable ASCII
    ///   (which is cut by its bytes, to the same text).
    func sourceAndCaret(_ item: ResolvedDiagnostic, in report: ResolvedReport, byScalars: Bool = false) -> (String, String) {
        let bytes = report.report.bytes
        let lineStart = min(item.lineStart, bytes.count)
        let startByte = min(max(item.diagnostic.range.lowerBound, lineStart), bytes.count)
        // The line ends at the next line feed (a CR before it is not shown), looked for only as
        // far as the window reaches: a 150 MB line is never scanned whole.
        let reach = min(bytes.count, startByte + 4 * (maximumLineWidth + 8))
        var lineEnd = startByte
        while lineEnd < reach, bytes[lineEnd] != 0x0A { lineEnd += 1 }
        let lineContinues = lineEnd == reach && reach < bytes.count && bytes[reach] != 0x0A
        if !lineContinues, lineEnd > lineStart, bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
        let line = lineStart..<max(lineStart, lineEnd)
        let endByte = item.end.line == item.start.line ? min(max(item.diagnostic.range.upperBound, startByte), line.upperBound) : line.upperBound
        // A window of bytes: enough before the finding for context, enough after to fill a line.
        var windowStart = max(line.lowerBound, startByte - 4 * 40)
        while windowStart > line.lowerBound, windowStart < bytes.count, bytes[windowStart] & 0xC0 == 0x80 { windowStart -= 1 }
        var windowEnd = line.upperBound
        while windowEnd > startByte, windowEnd < bytes.count, bytes[windowEnd] & 0xC0 == 0x80, lineContinues { windowEnd -= 1 }
        if !byScalars, isPrintableASCII(bytes, windowStart..<windowEnd) {
            return asciiSourceAndCaret(
                bytes, window: windowStart..<windowEnd, start: startByte, end: endByte, cutBefore: windowStart > line.lowerBound, lineContinues: lineContinues)
        }
        func scalarCount(_ range: Range<Int>) -> Int {
            range.isEmpty ? 0 : String(decoding: bytes[range], as: UTF8.self).unicodeScalars.count
        }
        let scalars = Array(String(decoding: bytes[windowStart..<windowEnd], as: UTF8.self).unicodeScalars)
        let startIndex = min(scalarCount(windowStart..<startByte), scalars.count)
        let endIndex = max(startIndex + 1, min(scalarCount(windowStart..<min(endByte, windowEnd)), scalars.count))
        let shown = scalars.map(DisplayWidth.shown)
        var first = 0
        var last = shown.count
        let total = shown.reduce(0) { $0 + $1.width }
        if total > maximumLineWidth || windowStart > line.lowerBound || lineContinues {
            first = max(0, startIndex - 30)
            var width = 0
            last = first
            while last < shown.count, width + shown[last].width <= maximumLineWidth - 2 {
                width += shown[last].width
                last += 1
            }
        }
        let cutBefore = first > 0 || windowStart > line.lowerBound
        var source = cutBefore ? "…" : ""
        var caret = cutBefore ? " " : ""
        for index in first..<last {
            source += shown[index].text
            if index < endIndex {
                caret += String(repeating: index >= startIndex ? "^" : " ", count: shown[index].width)
            }
        }
        if last < shown.count || lineContinues { source += "…" }
        if !caret.contains("^") { caret += "^" }  // a point at the end of the line, or zero-width text
        return (source, caret)
    }

    /// Whether every byte of `range` is a printable ASCII character (a cell each, shown as it is).
    func isPrintableASCII(_ bytes: SourceBytes, _ range: Range<Int>) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            for index in range where buffer[index] < 0x20 || buffer[index] >= 0x7F { return false }
            return true
        }
    }

    /// `sourceAndCaret` for a window of printable ASCII, where a byte is a scalar and a cell:
    /// the same cut, counted in bytes, without a string a character.
    func asciiSourceAndCaret(
        _ bytes: SourceBytes, window: Range<Int>, start: Int, end: Int, cutBefore windowCut: Bool, lineContinues: Bool
    ) -> (String, String) {
        let count = window.count
        let startIndex = min(max(start - window.lowerBound, 0), count)
        let endIndex = max(startIndex + 1, min(max(min(end, window.upperBound) - window.lowerBound, 0), count))
        var first = 0
        var last = count
        if count > maximumLineWidth || windowCut || lineContinues {
            first = max(0, startIndex - 30)
            last = min(count, first + max(maximumLineWidth - 2, 0))
        }
        let cutBefore = first > 0 || windowCut
        var source = cutBefore ? "…" : ""
        var caret = cutBefore ? " " : ""
        source += bytes.withUnsafeBufferPointer { String(decoding: $0[(window.lowerBound + first)..<(window.lowerBound + last)], as: UTF8.self) }
        caret += String(repeating: " ", count: max(0, min(startIndex, last) - first))
        caret += String(repeating: "^", count: max(0, min(last, endIndex) - startIndex))
        if last < count || lineContinues { source += "…" }
        if !caret.contains("^") { caret += "^" }
        return (source, caret)
    }

    func summary(_ report: ResolvedReport) -> String {
        let r = report.report
        let totals = ReportTotals([r])
        var parts = ["\(VisibleText.escape(r.path)): \(totals.phrase)"]
        if let summary = r.summary {
            if let authors = summary.authors {
                parts.append(plural(authors, "author"))
            } else {
                parts.append(plural(summary.chapters, "chapter"))
                if let start = summary.start { parts.append("starts at '\(VisibleText.escape(start))'") }
                let endings = summary.endings.prefix(8).map { "'\(VisibleText.escape($0))'" }.joined(separator: ", ")
                if summary.start != nil {
                    parts.append(
                        "\(plural(summary.endings.count, "ending")) reachable" + (summary.endings.isEmpty ? "" : ": \(endings)")
                            + (summary.endings.count > 8 ? ", …" : ""))
                }
                if summary.unreachable > 0 { parts.append("\(summary.unreachable) unreachable") }
            }
        }
        let line = parts.joined(separator: " · ")
        return totals.errors > 0 ? style.severity(.error, line) : (totals.warnings > 0 ? style.severity(.warning, line) : style.bold(line))
    }
}
