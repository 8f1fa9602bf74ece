import StoryFormat

enum DuplicateChapterID: CheckedRule {
    static let checks = DocumentKind.story
    static let description = RuleDescription(
        code: "CYD301", name: "duplicate-chapter-id", category: .references, severity: .error,
        summary: "two chapters share an id",
        rationale: """
            Choices name chapters by id, so only one of the two can ever be reached; which one \
            depends on the reader. cyd follows the first, as the original reader did. Ids are \
            compared as text, as Swift compares it: an accented letter written composed (NFC) or \
            as a letter and a combining accent (NFD) is the same id, and is said to be so.
            """,
        triggering: [
            .chapters(
                """
                        { "id": "hall", "name": "Hall", "text": "A hall.", "is_first_chapter": true },
                        { "id": ↓"hall", "name": "Another hall", "text": "Another." }
                """)
        ],
        nonTriggering: [
            .chapters(
                """
                        { "id": "hall", "name": "Hall", "text": "A hall.", "is_first_chapter": true },
                        { "id": "hall-2", "name": "Another hall", "text": "Another." }
                """)
        ])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        guard let story = context.story, let graph = context.graph else { return }
        for (position, first) in graph.index.repeats {
            guard let id = story.chapters[position].id, let firstNode = story.chapters[first].id?.node else { continue }
            // Equivalent but not the same characters: the author cannot see why, so it is said.
            let spelling = id.value.unicodeScalars.elementsEqual(story.chapters[first].idValue.unicodeScalars) ? "" : " (the same letters, their accents encoded another way: Unicode NFC and NFD)"
            findings.add(
                "chapter id '\(VisibleText.escape(id.value))' is used by another chapter\(spelling)",
                help: "rename one of them and update the choices that lead to it", at: id.node,
                related: [RelatedLocation(message: "first used here", range: story.document.range(firstNode))])
        }
    }
}
