import StoryFormat

/// rustc-like text: `error[CODE]: message`, `--> file:line:col`, the line with a caret, `= help:`.
struct TextReport {
    let style: TextStyle
    /// Source lines longer than this many cells are shown as a window around the finding.
    let maximumLineWidth = 110

    func render(_ reports: [ResolvedReport]) -> String {
        var out = ""
        for report in reports {
            for item in report.diagnostics { out += diagnostic(item, in: report) + "\n" }
        }
        for report in reports { out += summary(report) + "\n" }
        if reports.count > 1 {
            let totals = ReportTotals(reports.map(\.report))
            out += style.bold("checked \(plural(totals.files, "file")): \(totals.phrase)") + "\n"
        }
        return out
    }

    func diagnostic(_ item: ResolvedDiagnostic, in report: ResolvedReport) -> String {
        let d = item.diagnostic
        let name = item.rule.map { " " + style.dim("(\($0.name))") } ?? ""
        var lines = [style.severity(d.severity, "\(d.severity.rawValue)[\(d.code)]") + style.bold(": \(d.message)") + name]
        let gutter = String(repeating: " ", count: String(item.start.line).count)
        lines.append("\(gutter)\(style.blue("-->")) \(VisibleText.escape(report.report.path)):\(item.start.line):\(item.start.column)")
        if !report.report.bytes.isEmpty {
            let (source, caret) = sourceAndCaret(item, in: report)
            lines.append("\(gutter) \(style.blue("|"))")
            lines.append("\(style.blue(String(item.start.line))) \(style.blue("|")) \(source)")
            lines.append("\(gutter) \(style.blue("|")) \(style.severity(d.severity, caret))")
        }
        for related in item.related {
            lines.append("\(gutter) \(style.blue("=")) \(style.bold("note")): \(related.message) at \(report.report.path):\(related.position)")
        }
        if let help = d.help { lines.append("\(gutter) \(style.blue("=")) \(style.green(style.bold("help")))\(style.green(":")) \(help)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The finding's line, made safe and cut to a window, with carets under the range.
    func sourceAndCaret(_ item: ResolvedDiagnostic, in report: ResolvedReport) -> (String, String) {
        let scalars = Array(report.lineText(item.start.line).unicodeScalars)
        let startIndex = min(item.start.column - 1, scalars.count)
        let endIndex = item.end.line == item.start.line ? max(startIndex + 1, min(item.end.column - 1, scalars.count)) : scalars.count
        let shown = scalars.map(DisplayWidth.shown)
        // A window around the finding for long (or minified) lines.
        var first = 0
        var last = shown.count
        let total = shown.reduce(0) { $0 + $1.width }
        if total > maximumLineWidth {
            first = max(0, startIndex - 30)
            var width = 0
            last = first
            while last < shown.count, width + shown[last].width <= maximumLineWidth - 2 {
                width += shown[last].width
                last += 1
            }
        }
        var source = first > 0 ? "…" : ""
        var caret = first > 0 ? " " : ""
        for index in first..<last {
            source += shown[index].text
            if index < endIndex {
                caret += String(repeating: index >= startIndex ? "^" : " ", count: shown[index].width)
            }
        }
        if last < shown.count { source += "…" }
        if !caret.contains("^") { caret += "^" }  // a point at the end of the line, or zero-width text
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
