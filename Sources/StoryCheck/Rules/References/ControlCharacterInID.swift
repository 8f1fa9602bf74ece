import StoryFormat

enum ControlCharacterInID: CheckedRule {
    static let checks = DocumentKind.story
    static let readsTextScan = true
    static let description = RuleDescription(
        code: "CYD305", name: "control-character-in-id", category: .references, severity: .error,
        summary: "a chapter id or a choice target holds a control character",
        rationale: """
            Ids are keys: a NUL cuts them short in storage (ids 'a\\u0000x' and 'a\\u0000y' would \
            both become 'a'), and an escape character in an id reaches every screen that names \
            the chapter. cyd refuses to add a story whose ids hold one; use letters, digits, '-' \
            and '_'.
            """,
        triggering: [
            .chapters(
                #"""
                        { "id": "a↓\u0000x", "name": "A", "text": "Hi.", "is_first_chapter": true }
                """#)
        ],
        nonTriggering: [
            .chapters(#"        { "id": "a-x", "name": "A", "text": "Hi\u0007.", "is_first_chapter": true }"#)
        ])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        guard let scan = context.text else { return }
        for finding in scan.findings where finding.kind == .control || finding.kind == .escapeIntroducer {
            guard context.isIdentifier(finding.node) else { continue }
            findings.add(
                "control character \(TextRules.name(finding.scalar)) in an id",
                help: "ids are keys that are stored and shown: write them with letters, digits, '-' and '_'",
                range: finding.range, node: finding.node)
        }
    }
}
