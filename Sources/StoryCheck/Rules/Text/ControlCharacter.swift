import StoryFormat

enum ControlCharacter: Rule {
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
        for finding in scan.findings where finding.kind == .control && !context.isIdentifier(finding.node) {
            findings.add(
                "control character \(TextRules.name(finding.scalar)) in text",
                help: "remove it; it is invisible or disruptive on screen", range: finding.range, node: finding.node)
        }
    }
}

enum TextRules {
    static func name(_ scalar: Unicode.Scalar?) -> String {
        guard let scalar else { return "?" }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
