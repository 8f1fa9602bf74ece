import StoryFormat

enum MissingChoiceTarget: CheckedRule {
    static let checks = DocumentKind.story
    static let description = RuleDescription(
        code: "CYD302", name: "missing-choice-target", category: .references, severity: .error,
        summary: "a choice leads to a chapter that does not exist",
        rationale: """
            Choosing it goes nowhere: the original reader crashed or showed nothing. The hint \
            suggests the nearest existing id.
            """,
        triggering: [
            .chapters(
                """
                        { "id": "door", "name": "Door", "text": "A door.", "is_first_chapter": true,
                          "choices": [ { "chapter_id": ↓"celar", "text": "Go down" } ] },
                        { "id": "cellar", "name": "Cellar", "text": "Dark." }
                """)
        ],
        nonTriggering: [
            .chapters(
                """
                        { "id": "door", "name": "Door", "text": "A door.", "is_first_chapter": true,
                          "choices": [ { "chapter_id": "cellar", "text": "Go down" } ] },
                        { "id": "cellar", "name": "Cellar", "text": "Dark." }
                """)
        ],
        repair: Repair(
            "points the choice at the suggested chapter when exactly one chapter id is that close",
            examples: [
                Repair.Example(
                    .chapters(
                        """
                                { "id": "door", "name": "Door", "text": "A door.", "is_first_chapter": true,
                                  "choices": [ { "chapter_id": "celar", "text": "Go down" }, { "chapter_id": "ball", "text": "?" } ] },
                                { "id": "cellar", "name": "Cellar", "text": "Dark." },
                                { "id": "hall", "name": "Hall", "text": "H" }, { "id": "wall", "name": "Wall", "text": "W" }
                        """),
                    // 'ball' is as close to 'hall' as to 'wall': left for a person.
                    becomes: RuleExample.chapters(
                        """
                                { "id": "door", "name": "Door", "text": "A door.", "is_first_chapter": true,
                                  "choices": [ { "chapter_id": "cellar", "text": "Go down" }, { "chapter_id": "ball", "text": "?" } ] },
                                { "id": "cellar", "name": "Cellar", "text": "Dark." },
                                { "id": "hall", "name": "Hall", "text": "H" }, { "id": "wall", "name": "Wall", "text": "W" }
                        """
                    ).source)
            ]))

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        // The suggestions were started by the graph as soon as it found the missing targets.
        guard let story = context.story, let graph = context.graph, !graph.missingTargets.isEmpty, let suggestions = context.idSuggestions() else { return }
        // The targets' texts as the graph read them (the file's pages behind it are given back).
        let targets = zip(graph.missingTargets, graph.missingTargetNames).map { choiceIndex, name in
            Located(name, node: Int(story.choices[choiceIndex].targetNode))
        }
        // The suggestions are looked for beside the rules that follow.
        let missing = targets
        findings.addBeside { findings in
            let targets = missing
            let nearest = Self.nearest(targets.map(\.value), in: suggestions.wait())
            for (target, suggestion) in zip(targets, nearest) {
                findings.add(
                    "choice target '\(VisibleText.escape(target.value))' does not exist",
                    help: suggestion.map { "did you mean '\(VisibleText.escape($0))'?" }
                        ?? "add a chapter with this id, or point the choice at an existing chapter",
                    at: target.node)
            }
        }
    }

    /// Targets from which the suggestions are looked for on two threads, half each.
    static let parallelFrom = 256

    /// The suggestion for each target, in order; many targets are shared between two threads.
    static func nearest(_ targets: [String], in suggestions: SuggestionIndex, parallelFrom: Int = parallelFrom) -> [String?] {
        guard targets.count >= max(parallelFrom, 2) else { return targets.map(suggestions.nearest) }
        let middle = targets.count / 2
        let later = Array(targets[middle...])
        let second = BackgroundWork { later.map(suggestions.nearest) }
        return targets[..<middle].map(suggestions.nearest) + second.wait()
    }
}
