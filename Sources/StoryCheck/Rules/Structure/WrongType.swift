import StoryFormat

enum WrongType: Rule {
    static let description = RuleDescription(
        code: .wrongType, name: "wrong-type", category: .structure, severity: .error,
        summary: "a value of the wrong type",
        rationale: """
            "is_first_chapter": "true" is a string, not a boolean: the original reader treated it \
            as false, so the story had no start. Ids must be strings, chapters and choices arrays.
            """,
        triggering: [
            .chapters(#"        { "id": "start", "name": "Start", "text": "Go.", "is_first_chapter": ↓"true" }"#),
            .chapters(#"        { "id": ↓1, "name": "Start", "text": "Go.", "is_first_chapter": true }"#),
        ],
        nonTriggering: [
            .chapters(#"        { "id": "start", "name": "Start", "text": "Go.", "is_first_chapter": true }"#)
        ],
        repair: Repair(
            "writes \"true\" or \"false\" in quotes as the boolean true or false (other wrong types need a person)",
            examples: [
                Repair.Example(
                    RuleExample(#"{ "story": { "chapters": [ { "id": "a", "is_first_chapter": "TRUE", "is_ending": "false" }, { "id": 1 } ] } }"#),
                    becomes: #"{ "story": { "chapters": [ { "id": "a", "is_first_chapter": true, "is_ending": false }, { "id": 1 } ] } }"#)
            ]))
}
