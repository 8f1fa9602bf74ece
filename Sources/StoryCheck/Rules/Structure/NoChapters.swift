import StoryFormat

enum NoChapters: Rule {
    static let description = RuleDescription(
        code: .noChapters, name: "no-chapters", category: .structure, severity: .error,
        summary: "the chapters array is empty",
        rationale: "A story without chapters cannot be read; it is usually an unfinished draft.",
        triggering: [
            RuleExample(#"{ "story": { "id": "a", "name": "A", "rating": "G", "summary": "S", "chapters": ↓[] } }"#)
        ],
        nonTriggering: [
            .chapters(#"        { "id": "start", "name": "Start", "text": "Go.", "is_first_chapter": true }"#)
        ])
}
