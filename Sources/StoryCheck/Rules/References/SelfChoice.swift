import StoryFormat

enum SelfChoice: Rule {
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
        guard let story = context.story else { return }
        for choice in story.choices {
            let chapter = story.chapters[choice.chapter]
            guard let id = chapter.id, choice.targetNode >= 0, story.document.stringEquals(id.node, Int(choice.targetNode)),
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
