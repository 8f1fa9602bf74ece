import StoryFormat

enum UnknownPlaceholder: CheckedRule {
    static let checks = DocumentKind.story
    static let readsTextScan = true
    static let description = RuleDescription(
        code: "CYD701", name: "unknown-placeholder", category: .text, severity: .warning,
        summary: "a [[placeholder]] in chapter text other than [[name]]",
        rationale: """
            Readers replace exactly [[name]] with the reader's first name; anything else, \
            [[Name]] or [[ name ]] included, is shown to the reader as written.
            """,
        triggering: [
            .chapters(#"        { "id": "a", "name": "A", "text": "Welcome, ↓[[Name]].", "is_first_chapter": true }"#),
            .chapters(#"        { "id": "a", "name": "A", "text": "You see ↓[[hero]].", "is_first_chapter": true }"#),
        ],
        nonTriggering: [
            .chapters(#"        { "id": "a", "name": "A", "text": "Welcome, [[name]]. [Not a placeholder]", "is_first_chapter": true }"#)
        ])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        guard let scan = context.text else { return }
        for finding in scan.findings where finding.kind == .placeholder && finding.placeholder != "name" {
            let inner = finding.placeholder ?? ""
            let nearName = KeySuggestion.nearest(to: inner.trimmingSpaces, among: ["name"]) != nil
            findings.add(
                "unknown placeholder [[\(VisibleText.escape(inner))]]",
                help: nearName ? "write [[name]]: placeholders are case-sensitive and take no spaces" : "only [[name]] is replaced (by the reader's first name)",
                range: finding.range, node: finding.node)
        }
    }
}

extension String {
    var trimmingSpaces: String { trimmingScalars { $0 == " " } }
}
