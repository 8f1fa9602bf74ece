import StoryFormat

enum EmptyChapterText: CheckedRule {
    static let checks = DocumentKind.story
    static let description = RuleDescription(
        code: "CYD702", name: "empty-chapter-text", category: .text, severity: .warning,
        summary: "a chapter's text is empty",
        rationale: "The reader sees a title and choices with nothing to read: usually a chapter still to be written.",
        triggering: [
            .chapters(#"        { "id": "a", "name": "A", "text": ↓"", "is_first_chapter": true }"#),
            .chapters(#"        { "id": "a", "name": "A", "text": ↓"\n\n  ", "is_first_chapter": true }"#),
        ],
        nonTriggering: [
            .chapters(#"        { "id": "a", "name": "A", "text": "Rain.", "is_first_chapter": true }"#)
        ])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        guard let story = context.story else { return }
        // Whether each text is blank was decided by the decoder, so the file is not read again.
        for chapter in story.chapters where chapter.textIsBlank {
            guard let node = chapter.textNode else { continue }
            findings.add("\(chapter.label) has no text", help: "write the chapter, or remove it", at: node)
        }
    }
}
