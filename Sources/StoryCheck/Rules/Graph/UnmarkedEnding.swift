import StoryFormat

enum UnmarkedEnding: CheckedRule {
    static let checks = DocumentKind.story
    static let description = RuleDescription(
        code: "CYD503", name: "unmarked-ending", category: .graph, severity: .warning,
        summary: "a chapter without choices is not marked \"is_ending\": true",
        rationale: """
            Once a story marks its intended endings with the is_ending extension, any other \
            chapter without choices is probably unfinished. Stories that mark no ending at all \
            are not checked, so files written for the original reader stay clean.
            """,
        triggering: [
            .chapters(
                """
                        { "id": "start", "name": "Start", "text": "Hi.", "is_first_chapter": true,
                          "choices": [ { "chapter_id": "win", "text": "Win" }, { "chapter_id": "draft", "text": "Wait" } ] },
                        { "id": "win", "name": "Win", "text": "You win.", "is_ending": true },
                        { "id": ↓"draft", "name": "Draft", "text": "To be written" }
                """)
        ],
        nonTriggering: [
            .chapters(
                """
                        { "id": "start", "name": "Start", "text": "Hi.", "is_first_chapter": true,
                          "choices": [ { "chapter_id": "win", "text": "Win" } ] },
                        { "id": "win", "name": "Win", "text": "You win." }
                """)
        ])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        guard let story = context.story, story.chapters.contains(where: { $0.isEnding?.value == true }) else { return }
        for chapter in story.chapters where chapter.hasNoChoices && chapter.isEnding?.value != true {
            findings.add(
                "\(chapter.label) has no choices but is not marked as an ending",
                help: "add \"is_ending\": true if the story ends here, or add choices", at: chapter.id?.node ?? chapter.node)
        }
    }
}
