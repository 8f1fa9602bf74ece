import StoryFormat

enum Comment: Rule {
    static let description = RuleDescription(
        code: .comment, name: "comment", category: .syntax, severity: .error, lenientSeverity: .warning,
        summary: "a // or /* */ comment",
        rationale: """
            JSON has no comments and strict readers refuse the file. A lenient reading takes them \
            as a warning; keep notes in a README instead.
            """,
        triggering: [
            RuleExample("↓// draft two\n{ \"story\": {} }"),
            RuleExample("{ \"story\": ↓/* draft */ {} }", lenient: true),
        ],
        nonTriggering: [
            RuleExample(#"{ "story": { "text": "see http://example.com // not a comment" } }"#)
        ],
        repair: Repair(
            "removes the comment",
            examples: [
                Repair.Example(RuleExample("{ \"story\": /* draft */ {} } // last\n"), becomes: "{ \"story\":  {} } \n")
            ]))
}
