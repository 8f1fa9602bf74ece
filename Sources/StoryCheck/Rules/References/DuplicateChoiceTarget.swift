import StoryFormat

enum DuplicateChoiceTarget: CheckedRule {
    static let checks = DocumentKind.story
    static let description = RuleDescription(
        code: "CYD304", name: "duplicate-choice-target", category: .references, severity: .warning,
        summary: "two choices of one chapter lead to the same chapter",
        rationale: """
            Two buttons that do the same thing make the choice an illusion; usually one of them \
            was meant to lead elsewhere (a copy-paste slip).
            """,
        triggering: [
            .chapters(
                """
                        { "id": "fork", "name": "Fork", "text": "Two roads.", "is_first_chapter": true,
                          "choices": [ { "chapter_id": "left", "text": "Left" }, { "chapter_id": ↓"left", "text": "Right" } ] },
                        { "id": "left", "name": "Left", "text": "Trees." }
                """)
        ],
        nonTriggering: [
            .chapters(
                """
                        { "id": "fork", "name": "Fork", "text": "Two roads.", "is_first_chapter": true,
                          "choices": [ { "chapter_id": "left", "text": "Left" }, { "chapter_id": "right", "text": "Right" } ] },
                        { "id": "left", "name": "Left", "text": "Trees." },
                        { "id": "right", "name": "Right", "text": "Hills." }
                """)
        ])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        guard let story = context.story, let graph = context.graph else { return }
        for chapter in story.chapters where chapter.numberOfChoices > 1 {
            let choices = story.choices(of: chapter)
            var firstByTarget: [String: Int] = [:]
            for (offset, choice) in zip(choices.indices, choices) where choice.targetNode >= 0 {
                let first: Int?
                if choices.count <= 16 {
                    // A handful of choices (almost every chapter): the graph has resolved each
                    // target to a chapter, so numbers are compared; text only where both lead
                    // nowhere.
                    let resolved = graph.choiceTargets[offset]
                    first = choices[choices.startIndex..<offset].indices.first(where: { earlier in
                        let other = graph.choiceTargets[earlier]
                        guard choices[earlier].targetNode >= 0 else { return false }
                        if resolved >= 0 || other >= 0 { return resolved == other }
                        return story.document.stringEquals(Int(choices[earlier].targetNode), Int(choice.targetNode))
                    }).map { Int(choices[$0].targetNode) }
                } else {
                    // Thousands of choices in one chapter: a table, so the cost stays linear.
                    let text = story.document.string(Int(choice.targetNode))
                    first = firstByTarget[text]
                    if first == nil { firstByTarget[text] = Int(choice.targetNode) }
                }
                guard let first, let target = story.target(of: choice) else { continue }
                findings.add(
                    "two choices of \(chapter.label) lead to '\(VisibleText.escape(target.value))'",
                    help: "lead one of them elsewhere, or merge them", at: target.node,
                    related: [RelatedLocation(message: "the other choice", range: story.document.range(first))])
            }
        }
    }
}
