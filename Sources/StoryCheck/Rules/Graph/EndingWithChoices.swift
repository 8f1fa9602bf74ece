import StoryFormat

enum EndingWithChoices: CheckedRule {
    static let checks = DocumentKind.story
    static let description = RuleDescription(
        code: "CYD504", name: "ending-with-choices", category: .graph, severity: .warning,
        summary: "a chapter marked \"is_ending\": true has choices",
        rationale: "Reading ends only where there are no choices; the mark and the choices contradict each other.",
        triggering: [
            .chapters(
                """
                        { "id": "start", "name": "Start", "text": "Hi.", "is_first_chapter": true, "is_ending": ↓true,
                          "choices": [ { "chapter_id": "more", "text": "More" } ] },
                        { "id": "more", "name": "More", "text": "More.", "is_ending": true }
                """)
        ],
        nonTriggering: [
            .chapters(
                """
                        { "id": "start", "name": "Start", "text": "Hi.", "is_first_chapter": true,
                          "choices": [ { "chapter_id": "more", "text": "More" } ] },
                        { "id": "more", "name": "More", "text": "More.", "is_ending": true }
                """)
        ])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        guard let story = context.story else { return }
        for chapter in story.chapters where !chapter.hasNoChoices {
            guard let mark = chapter.isEnding, mark.value else { continue }
            findings.add(
                "\(chapter.label) is marked as an ending but has choices",
                help: "remove the mark, or remove the choices", at: mark.node)
        }
    }
}
