import StoryFormat

enum SeveralFirstChapters: CheckedRule {
    static let checks = DocumentKind.story
    static let description = RuleDescription(
        code: "CYD402", name: "several-first-chapters", category: .start, severity: .warning,
        summary: "more than one chapter is marked \"is_first_chapter\": true",
        rationale: """
            Only the first marked chapter (in file order) is used as the start; the other marks do \
            nothing and probably hide a mistake.
            """,
        triggering: [
            .chapters(
                """
                        { "id": "one", "name": "One", "text": "Hi.", "is_first_chapter": true },
                        { "id": "two", "name": "Two", "text": "Hi again.", "is_first_chapter": ↓true }
                """)
        ],
        nonTriggering: [
            .chapters(
                """
                        { "id": "one", "name": "One", "text": "Hi.", "is_first_chapter": true },
                        { "id": "two", "name": "Two", "text": "Hi again.", "is_first_chapter": false }
                """)
        ])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        guard let story = context.story, let start = context.graph?.start else { return }
        for chapter in story.chapters[(start + 1)...] {
            guard let mark = chapter.isFirstChapter, mark.value else { continue }
            findings.add(
                "\(chapter.label) is also marked as the first chapter",
                help: "reading starts at \(story.chapters[start].label); remove this mark", at: mark.node,
                related: story.chapters[start].isFirstChapter.map { [RelatedLocation(message: "the start", range: story.document.range($0.node))] } ?? [])
        }
    }
}
