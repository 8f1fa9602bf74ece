import StoryFormat

enum TerminalEscapeSequence: CheckedRule {
    static let checks = DocumentKind.story
    static let readsTextScan = true
    static let description = RuleDescription(
        code: "CYD704", name: "terminal-escape-sequence", category: .text, severity: .error,
        summary: "an ESC or C1 control character, which starts a terminal escape sequence",
        rationale: """
            Escape sequences can clear the screen, rewrite what was shown, change the window \
            title or, in some terminals, do worse (see git's CVE-2024-52005). Stories have no use \
            for them; cyd never prints them raw, but other tools might.
            """,
        triggering: [
            .chapters(#"        { "id": "a", "name": "A", "text": "↓\u001b[2JGone", "is_first_chapter": true }"#),
            .chapters(#"        { "id": "a", "name": "A", "text": "↓\u009b31m", "is_first_chapter": true }"#),
        ],
        nonTriggering: [
            .chapters(#"        { "id": "a", "name": "A", "text": "[2J is harmless without ESC", "is_first_chapter": true }"#)
        ])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        guard let scan = context.text else { return }
        for (finding, count) in TextRules.perString(scan, { $0.kind == .escapeIntroducer && !context.isIdentifier($0.node) }) {
            findings.add(
                "terminal escape character \(TextRules.name(finding.scalar)) in text\(TextRules.more(count))",
                help: "remove it; story text cannot style or control the reader's screen", range: finding.range, node: finding.node)
        }
    }
}
