import StoryFormat

enum DuplicateKey: Rule {
    static let description = RuleDescription(
        code: .duplicateKey, name: "duplicate-key", category: .syntax, severity: .warning,
        summary: "the same key twice in one object",
        rationale: """
            JSON readers disagree on which value wins, so the story may read differently in \
            different readers. cyd uses the last one, and points at the first as well.
            """,
        triggering: [
            RuleExample(#"{ "story": { "name": "Draft", ↓"name": "Final" } }"#)
        ],
        nonTriggering: [
            RuleExample(#"{ "story": { "name": "Final", "chapters": [ { "name": "One" }, { "name": "Two" } ] } }"#)
        ])
}
