import StoryFormat

enum UnknownKey: Rule {
    static let description = RuleDescription(
        code: .unknownKey, name: "unknown-key", category: .structure, severity: .warning,
        summary: "a key the format does not define",
        rationale: """
            Readers ignore unknown keys, so a misspelt key silently does nothing: "chapterId" \
            instead of "chapter_id" leaves the choice without a target. Near misses get a \
            "did you mean" hint.
            """,
        triggering: [
            .chapters(#"        { "id": "start", "name": "Start", "text": "Go.", "is_first_chapter": true, ↓"pic-path": "resources/a.png" }"#)
        ],
        nonTriggering: [
            .chapters(#"        { "id": "start", "name": "Start", "text": "Go.", "is_first_chapter": true, "pic_path": "resources/a.png" }"#)
        ])
}
