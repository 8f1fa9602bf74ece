import StoryFormat

/// GitHub Actions workflow commands: one `::error`/`::warning`/`::notice` line per finding, so
/// findings show as annotations on the pull request, then a plain summary line.
enum GitHubReport {
    static func write(_ reports: [ResolvedReport], to sink: @escaping ReportSink) {
        var out = ChunkedText(sink)
        for report in reports {
            for item in report.diagnostics {
                let d = item.diagnostic
                let command =
                    switch d.severity {
                    case .error: "error"
                    case .warning: "warning"
                    case .note: "notice"
                    }
                var properties = [
                    ("file", report.report.path), ("line", String(item.start.line)), ("col", String(item.start.column)),
                ]
                if item.end.line == item.start.line {
                    properties += [("endColumn", String(item.end.column))]
                } else {
                    properties += [("endLine", String(item.end.line))]
                }
                properties.append(("title", "\(d.code) \(item.rule?.name ?? "")".trimmingTrailingSpace))
                let message = d.message + (d.help.map { "\nhelp: \($0)" } ?? "")
                out += "::\(command) " + properties.map { "\($0.0)=\(escapeProperty($0.1))" }.joined(separator: ",")
                    + "::\(escapeData(message))\n"
            }
        }
        let totals = ReportTotals(reports.map(\.report))
        out += "cyd: \(totals.phrase) in \(plural(totals.files, "file"))\n"
        out.flush()
    }

    /// Escaping for a command's message, as the Actions runner reads it.
    static func escapeData(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default:
                if VisibleText.isUnsafe(scalar) {
                    out += VisibleText.escape(String(scalar))
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// Escaping for a property value: also ':' and ','.
    static func escapeProperty(_ text: String) -> String {
        var out = ""
        for scalar in escapeData(text).unicodeScalars {
            switch scalar {
            case ":": out += "%3A"
            case ",": out += "%2C"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension String {
    var trimmingTrailingSpace: String { trimmingScalars(atStart: false) { $0 == " " } }
}
