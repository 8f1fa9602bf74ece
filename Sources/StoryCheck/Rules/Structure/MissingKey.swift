import StoryFormat

enum MissingKey: Rule {
    static let description = RuleDescription(
        code: .missingKey, name: "missing-key", category: .structure, severity: .error,
        summary: "a required key is missing",
        rationale: """
            The original reader refused a story missing any required key with one generic message. \
            cyd names the key and points at the object that lacks it. Required: story; id, name, \
            rating, summary and chapters of the story; id, name and text of a chapter; chapter_id \
            and text of a choice.
            """,
        triggering: [
            .chapters(#"        ↓{ "id": "start", "name": "The Start", "is_first_chapter": true }"#),
            RuleExample(#"↓{ "stroy": {} }"#),
        ],
        nonTriggering: [
            .chapters(#"        { "id": "start", "name": "The Start", "text": "It begins.", "is_first_chapter": true }"#)
        ])
}
