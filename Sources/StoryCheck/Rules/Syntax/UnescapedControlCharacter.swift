import StoryFormat

enum UnescapedControlCharacter: Rule {
    static let description = RuleDescription(
        code: .unescapedControlCharacter, name: "unescaped-control-character", category: .syntax, severity: .error,
        lenientSeverity: .warning,
        summary: "a raw tab or other control character inside a string",
        rationale: """
            JSON requires control characters inside strings to be escaped (\\t, \\n, \\u0007). \
            Strict readers refuse the file; editors that paste text with tabs cause it.
            """,
        triggering: [
            RuleExample(#"{ "story": { "name": "The↓⟨09⟩Tide" } }"#),
            RuleExample(#"{ "story": { "name": "Bell↓⟨07⟩" } }"#, lenient: true),
        ],
        nonTriggering: [
            RuleExample(#"{ "story": { "name": "The\tTide" } }"#)
        ])
}
