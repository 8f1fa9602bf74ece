import StoryFormat

/// A finding with its lines and columns worked out, ready for any output format.
public struct ResolvedDiagnostic: Sendable {
    public var diagnostic: Diagnostic
    public var start: SourcePosition
    /// One past the last character (as in SARIF).
    public var end: SourcePosition
    public var related: [(message: String, position: SourcePosition)]
    /// Byte offset where the finding's line starts, for the source excerpt.
    public var lineStart: Int = 0

    public var rule: RuleDescription? { RuleCatalogue.description(of: diagnostic.code) }
}

/// A file's report with positions resolved; the line index is built only if there are findings.
public struct ResolvedReport: Sendable {
    public var report: FileReport
    public var diagnostics: [ResolvedDiagnostic]
    /// The rules whose findings past `atMostPerRule` were left out, in the order they were first
    /// left out, with how many of each.
    public var leftOut: [(code: DiagnosticCode, count: Int)] = []

    public init(_ report: FileReport) { self.init(report, atMostPerRule: nil) }

    /// - Parameter atMostPerRule: resolve only the first this many findings of each rule (those
    ///   a report shows), counting the rest in `leftOut`; nil resolves every one.
    public init(_ report: FileReport, atMostPerRule limit: Int?) {
        self.report = report
        var kept = report.diagnostics
        if let limit {
            var seen: [DiagnosticCode: Int] = [:]
            var cut: [DiagnosticCode] = []
            kept = report.diagnostics.filter { diagnostic in
                let count = seen[diagnostic.code, default: 0]
                seen[diagnostic.code] = count + 1
                if count == limit { cut.append(diagnostic.code) }
                return count < limit
            }
            leftOut = cut.map { ($0, seen[$0]! - limit) }
        }
        guard !kept.isEmpty else {
            diagnostics = []
            return
        }
        // Every offset of every finding, resolved in one sweep over the file.
        var offsets: [Int] = []
        offsets.reserveCapacity(kept.count * 2)
        for diagnostic in kept {
            offsets.append(diagnostic.range.lowerBound)
            offsets.append(diagnostic.range.upperBound)
            for related in diagnostic.related { offsets.append(related.range.lowerBound) }
        }
        let located = LineIndex.locate(offsets, in: report.bytes)
        var next = 0
        diagnostics = kept.map { diagnostic in
            let start = located[next].position
            let end = diagnostic.range.isEmpty ? start : located[next + 1].position
            let lineStart = located[next].lineStart
            next += 2
            let related = diagnostic.related.map { related -> (message: String, position: SourcePosition) in
                defer { next += 1 }
                return (related.message, located[next].position)
            }
            return ResolvedDiagnostic(diagnostic: diagnostic, start: start, end: end, related: related, lineStart: lineStart)
        }
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


/// The output formats of `cyd validate`.
public enum ReportFormat: String, Sendable, CaseIterable {
    case text, json, github, sarif

    /// - Parameter maximumPerRule: text only: findings shown per rule and file before the rest
    ///   are summed up in one line (nil shows all). The other formats always keep every finding.
    /// - Parameter hints: what the program showing the report tells its users to do (its flags
    ///   and commands); a report names none of its own.
    public func render(_ reports: [FileReport], style: TextStyle = .plain, maximumPerRule: Int? = nil, hints: ReportHints = .none) -> String {
        var out: [UInt8] = []
        write(reports, style: style, maximumPerRule: maximumPerRule, hints: hints) { out.append(contentsOf: $0) }
        return String(decoding: out, as: UTF8.self)
    }

    /// The report, handed to `sink` a piece at a time (64 KiB or so, in order) as it is made:
    /// a report of 200,000 findings is written without ever being held whole.
    public func write(_ reports: [FileReport], style: TextStyle = .plain, maximumPerRule: Int? = nil, hints: ReportHints = .none, to sink: @escaping ReportSink) {
        // A text report shows the first findings of each rule (a flood of thousands of
        // unreachable chapters would bury everything else on a terminal): only those are placed.
        let resolved = reports.map { ResolvedReport($0, atMostPerRule: self == .text ? maximumPerRule : nil) }
        switch self {
        case .text: TextReport(style: style, hints: hints).write(resolved, to: sink)
        case .json: JSONReport.write(resolved, to: sink)
        case .github: GitHubReport.write(resolved, to: sink)
        case .sarif: SARIFReport.write(resolved, hints: hints, to: sink)
        }
    }
}

/// Where a report's bytes go as they are made: a file being written, standard output.
public typealias ReportSink = ([UInt8]) -> Void

/// Text gathered for a sink a chunk at a time.
struct ChunkedText {
    private var text = ""
    private let sink: ReportSink
    init(_ sink: @escaping ReportSink) { self.sink = sink }

    static func += (chunks: inout ChunkedText, piece: String) {
        chunks.text += piece
        if chunks.text.utf8.count >= JSONWriter.chunk { chunks.flush() }
    }

    mutating func flush() {
        guard !text.isEmpty else { return }
        sink(Array(text.utf8))
        text = ""
    }
}

/// What the program showing a report tells its users to do: its own flags and commands, which
/// this library never names. `none` says nothing of the kind.
public struct ReportHints: Sendable {
    /// Where a text report leaves findings out: how to see them all.
    public var seeingEveryFinding: String?
    /// Under an error that a lenient reading takes as a warning: how to read leniently.
    public var readingLeniently: String?
    /// After a rule's help in SARIF: how to read more of the rule, given its code.
    public var explainingRule: (@Sendable (DiagnosticCode) -> String)?

    public init(seeingEveryFinding: String? = nil, readingLeniently: String? = nil, explainingRule: (@Sendable (DiagnosticCode) -> String)? = nil) {
        self.seeingEveryFinding = seeingEveryFinding
        self.readingLeniently = readingLeniently
        self.explainingRule = explainingRule
    }

    public static let none = ReportHints()
}
