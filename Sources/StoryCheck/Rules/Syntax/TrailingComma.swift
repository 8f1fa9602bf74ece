import StoryFormat

enum TrailingComma: Rule {
    static let description = RuleDescription(
        code: .trailingComma, name: "trailing-comma", category: .syntax, severity: .error, lenientSeverity: .warning,
        summary: "a comma after the last element of an object or array",
        rationale: """
            Strict JSON readers, including the one in the original iPhone reader, refuse the whole \
            file. Published stories contain them, so the reader accepts them with a warning \
            (as does a lenient check), but authors should remove them.
            """,
        triggering: [
            RuleExample(
                """
                { "story": {
                    "pic_path": "resources/title.jpg"↓,
                } }
                """),
            RuleExample(#"{ "story": { "chapters": [ 1, 2↓, ] } }"#, lenient: true),
        ],
        nonTriggering: [
            RuleExample(#"{ "story": { "pic_path": "resources/title.jpg" } }"#),
            RuleExample(#"{ "story": { "text": "one, two, three,", "chapters": [] } }"#),
        ],
        repair: Repair(
            "removes the comma",
            examples: [
                Repair.Example(RuleExample(#"{ "story": { "chapters": [ 1, 2, ], "id": "s", } }"#), becomes: #"{ "story": { "chapters": [ 1, 2 ], "id": "s" } }"#)
            ]))
}
