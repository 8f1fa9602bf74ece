import StoryFormat

enum UnreachableChapter: CheckedRule {
    static let checks = DocumentKind.story
    static let description = RuleDescription(
        code: "CYD501", name: "unreachable-chapter", category: .graph, severity: .warning,
        summary: "no path of choices leads from the start to this chapter",
        rationale: """
            The story has no hidden state, so reachability is decided exactly: a reader can never \
            see this chapter. Usually a choice to it is missing or misspelt.
            """,
        triggering: [
            .chapters(
                """
                        { "id": "start", "name": "Start", "text": "Hi.", "is_first_chapter": true },
                        { "id": ↓"lost", "name": "Lost", "text": "Nobody comes here." }
                """)
        ],
        nonTriggering: [
            .chapters(
                """
                        { "id": "start", "name": "Start", "text": "Hi.", "is_first_chapter": true,
                          "choices": [ { "chapter_id": "found", "text": "On" } ] },
                        { "id": "found", "name": "Found", "text": "Here." }
                """)
        ])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        guard let story = context.story, let graph = context.graph, graph.start != nil else { return }
        for (position, chapter) in story.chapters.enumerated() where !graph.reachable[position] {
            findings.add(
                "\(chapter.label) cannot be reached from the start",
                help: "add a choice that leads to it, or remove it", at: chapter.id?.node ?? chapter.node)
        }
    }
}
