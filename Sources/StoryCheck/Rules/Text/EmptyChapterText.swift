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
        let document = story.document
        document.bytes.beginPass()
        for chapter in story.chapters {
            guard let node = chapter.textNode else { continue }
            document.bytes.release(upTo: Int(document.nodes[node].start))
            guard document.isBlank(node) else { continue }
            findings.add("\(chapter.label) has no text", help: "write the chapter, or remove it", at: node)
        }
        document.bytes.endPass()
    }
}
