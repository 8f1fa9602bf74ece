import StoryFormat

enum SelfChoice: CheckedRule {
    static let checks = DocumentKind.story
    static let description = RuleDescription(
        code: "CYD303", name: "self-choice", category: .references, severity: .warning,
        summary: "a chapter offers a choice that leads back to itself",
        rationale: """
            Choosing it shows the same chapter again, which readers take for a bug. If waiting is \
            the point, a separate chapter ("You wait.") reads better.
            """,
        triggering: [
            .chapters(
                """
                        { "id": "well", "name": "Well", "text": "A well.", "is_first_chapter": true,
                          "choices": [ { "chapter_id": ↓"well", "text": "Wait" }, { "chapter_id": "end", "text": "Leave" } ] },
                        { "id": "end", "name": "End", "text": "Gone." }
                """)
        ],
        nonTriggering: [
            .chapters(
                """
                        { "id": "well", "name": "Well", "text": "A well.", "is_first_chapter": true,
                          "choices": [ { "chapter_id": "end", "text": "Leave" } ] },
                        { "id": "end", "name": "End", "text": "Gone." }
                """)
        ])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        guard let story = context.story, let graph = context.graph else { return }
        for (index, choice) in story.choices.enumerated() {
            let chapter = story.chapters[choice.chapter]
            // The target as resolved by the graph (a duplicated id resolves to its first chapter,
            // so a choice naming the chapter's own id is compared by text too).
            let resolved = Int(graph.choiceTargets[index])
            guard chapter.id != nil, resolved >= 0,
                resolved == choice.chapter || (story.chapters[resolved].idValue == chapter.idValue),
                let target = story.target(of: choice)
            else { continue }
            do {
                findings.add(
                    "\(chapter.label) has a choice that leads back to itself",
                    help: "lead the choice to another chapter", at: target.node)
            }
        }
    }
}
