import StoryFormat

enum BidiControl: CheckedRule {
    static let checks = DocumentKind.story
    static let readsTextScan = true
    static let description = RuleDescription(
        code: "CYD705", name: "bidi-control", category: .text, severity: .warning,
        summary: "a bidirectional embedding, override or isolate character",
        rationale: """
            U+202A–U+202E and U+2066–U+2069 reorder the text that follows, so a line can display \
            differently from what it holds. Right-to-left scripts display correctly without them.
            """,
        triggering: [
            .chapters(#"        { "id": "a", "name": "A", "text": "Pay ↓\u202E01$", "is_first_chapter": true }"#)
        ],
        nonTriggering: [
            .chapters(#"        { "id": "a", "name": "A", "text": "مرحبا بك في القصة", "is_first_chapter": true }"#)
        ])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        guard let scan = context.text else { return }
        for (finding, count) in TextRules.perString(scan, { $0.kind == .bidiControl }) {
            findings.add(
                "bidirectional control \(TextRules.name(finding.scalar)) in text\(TextRules.more(count))",
                help: "remove it; it changes how the following text is displayed", range: finding.range, node: finding.node)
        }
    }
}
