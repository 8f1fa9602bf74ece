import StoryFormat

enum ControlCharacter: CheckedRule {
    static let checks = DocumentKind.story
    static let readsTextScan = true
    static let description = RuleDescription(
        code: "CYD703", name: "control-character", category: .text, severity: .warning,
        summary: "an invisible control character in text",
        rationale: """
            Characters such as U+0007 (bell) or U+0000 are invisible or disruptive on screen and \
            usually come from copy and paste. Line breaks and tabs are fine.
            """,
        triggering: [
            .chapters(#"        { "id": "a", "name": "A", "text": "Ring↓\u0007", "is_first_chapter": true }"#)
        ],
        nonTriggering: [
            .chapters(#"        { "id": "a", "name": "A", "text": "One\n\nTwo\tthree", "is_first_chapter": true }"#)
        ])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        guard let scan = context.text else { return }
        for (finding, count) in TextRules.perString(scan, { $0.kind == .control && !context.isIdentifier($0.node) }) {
            findings.add(
                "control character \(TextRules.name(finding.scalar)) in text\(TextRules.more(count))",
                help: "remove it; it is invisible or disruptive on screen", range: finding.range, node: finding.node)
        }
    }
}

enum TextRules {
    /// The scan's findings of one kind, one per string: the first of each string with how many
    /// the string holds. A string of 100,000 escape characters is one finding, not 100,000 (the
    /// reports of a flood would otherwise be megabytes saying the same thing).
    static func perString(_ scan: TextScan, _ keep: (TextScan.Finding) -> Bool) -> [(first: TextScan.Finding, count: Int)] {
        var groups: [(first: TextScan.Finding, count: Int)] = []
        var index: [Int: Int] = [:]
        for finding in scan.findings where keep(finding) {
            if let at = index[finding.node] {
                groups[at].count += 1
            } else {
                index[finding.node] = groups.count
                groups.append((finding, 1))
            }
        }
        return groups
    }

    /// " and N more in the same string", or nothing for one.
    static func more(_ count: Int) -> String { count > 1 ? " and \(count - 1) more in the same string" : "" }

    static func name(_ scalar: Unicode.Scalar?) -> String {
        guard let scalar else { return "?" }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
