import StoryFormat

enum EmptyValue: Rule {
    static let description = RuleDescription(
        code: .emptyValue, name: "empty-value", category: .structure, severity: .error,
        summary: "a required string is empty",
        rationale: """
            An empty id cannot be chosen, an empty title shows nothing in the list, and an empty \
            choice label gives the reader a blank button.
            """,
        triggering: [
            .chapters(#"        { "id": "start", "name": ↓"", "text": "Go.", "is_first_chapter": true }"#),
            .chapters(
                #"        { "id": "start", "name": "Start", "text": "Go.", "is_first_chapter": true, "choices": [ { "chapter_id": "start", "text": ↓" " } ] }"#
            ),
        ],
        nonTriggering: [
            .chapters(#"        { "id": "start", "name": "Start", "text": "Go.", "is_first_chapter": true }"#)
        ])
}
