import StoryFormat

enum InvalidJSON: Rule {
    static let description = RuleDescription(
        code: .invalidJSON, name: "invalid-json", category: .syntax, severity: .error,
        summary: "the file is not valid JSON",
        rationale: """
            A reader cannot open a story it cannot parse. The finding points at the first byte that \
            breaks the JSON grammar and says what was expected there; common slips (single quotes, \
            unquoted keys, True/None, missing commas) get a specific hint.
            """,
        triggering: [
            RuleExample(#"{ "story": ↓'The Lighthouse' }"#),
            RuleExample(#"{ "story": { "id": "a" ↓"name": "b" } }"#),
            RuleExample(#"{ "story": { ↓id: "a" } }"#),
            RuleExample(#"{ "story": { "id": "caf↓\xe9" } }"#),
            RuleExample(#"{ "story": { "id": ↓012 } }"#),
        ],
        nonTriggering: [
            RuleExample(#"{ "story": { "id": "caf\u00e9", "name": "\uD83E\uDD8A" } }"#),
        ])
}
