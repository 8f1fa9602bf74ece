import StoryFormat

/// A finding with its lines and columns worked out, ready for any output format.
public struct ResolvedDiagnostic: Sendable {
    public var diagnostic: Diagnostic
    public var start: SourcePosition
    /// One past the last character (as in SARIF).
    public var end: SourcePosition
    public var related: [(message: String, position: SourcePosition)]

    public var rule: RuleDescription? { RuleCatalogue.description(of: diagnostic.code) }
}

/// A file's report with positions resolved; the line index is built only if there are findings.
public struct ResolvedReport: Sendable {
    public var report: FileReport
    public var diagnostics: [ResolvedDiagnostic]
    let lines: LineIndex?

    public init(_ report: FileReport) {
        self.report = report
        guard !report.diagnostics.isEmpty else {
            lines = nil
            diagnostics = []
            return
        }
        let lines = LineIndex(report.bytes)
        self.lines = lines
        diagnostics = report.diagnostics.map { diagnostic in
            let start = lines.position(of: diagnostic.range.lowerBound)
            let end = diagnostic.range.isEmpty ? start : lines.position(of: diagnostic.range.upperBound)
            return ResolvedDiagnostic(
                diagnostic: diagnostic, start: start, end: end,
                related: diagnostic.related.map { ($0.message, lines.position(of: $0.range.lowerBound)) })
        }
    }

    /// The text of a line, decoded (invalid bytes become U+FFFD).
    func lineText(_ line: Int) -> String {
        guard let lines else { return "" }
        return String(decoding: lines.lineBytes(line), as: UTF8.self)
    }
}

/// Totals over all files, for summaries and exit codes.
public struct ReportTotals: Sendable, Codable, Hashable {
    public var files = 0
    public var errors = 0
    public var warnings = 0
    public var notes = 0

    public init(_ reports: [FileReport]) {
        files = reports.count
        for report in reports {
            errors += report.count(.error)
            warnings += report.count(.warning)
            notes += report.count(.note)
        }
    }

    /// "2 errors, 1 warning" (or "no problems").
    public var phrase: String {
        var parts: [String] = []
        if errors > 0 { parts.append(plural(errors, "error")) }
        if warnings > 0 { parts.append(plural(warnings, "warning")) }
        if notes > 0 { parts.append(plural(notes, "note")) }
        return parts.isEmpty ? "no problems" : parts.joined(separator: ", ")
    }
}

func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

/// The output formats of `cyd validate`.
public enum ReportFormat: String, Sendable, CaseIterable {
    case text, json, github, sarif

    public func render(_ reports: [FileReport], style: TextStyle = .plain) -> String {
        let resolved = reports.map(ResolvedReport.init)
        switch self {
        case .text: return TextReport(style: style).render(resolved)
        case .json: return JSONReport.render(resolved)
        case .github: return GitHubReport.render(resolved)
        case .sarif: return SARIFReport.render(resolved)
        }
    }
}
