import StoryFormat

enum NoFirstChapter: CheckedRule {
    static let checks = DocumentKind.story
    static let description = RuleDescription(
        code: "CYD401", name: "no-first-chapter", category: .start, severity: .error,
        summary: "no chapter is marked \"is_first_chapter\": true",
        rationale: """
            Reading starts at the first chapter marked is_first_chapter; without one the original \
            reader could not open the story. A string "true" does not count.
            """,
        triggering: [
            RuleExample(
                """
                { "story": { "id": "a", "name": "A", "rating": "G", "summary": "S",
                  "chapters": ↓[ { "id": "one", "name": "One", "text": "Hi." } ] } }
                """)
        ],
        nonTriggering: [
            .chapters(#"        { "id": "one", "name": "One", "text": "Hi.", "is_first_chapter": true }"#)
        ])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        guard let story = context.story, let chapters = story.chaptersNode, !story.chapters.isEmpty,
            context.graph?.start == nil
        else { return }
        let quoted = story.chapters.first { $0.isFirstChapter == nil && $0.id != nil && story.document.member($0.node, "is_first_chapter") != nil }
        let document = story.document
        let start = document.range(chapters).lowerBound
        findings.add(
            "no chapter is marked as the first chapter",
            help: quoted.map { "\($0.label) has is_first_chapter as a string; write true without quotes" }
                ?? "add \"is_first_chapter\": true to the chapter where reading starts",
            range: start..<(start + 1), node: chapters)
    }
}
