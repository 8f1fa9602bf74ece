import StoryFormat

enum NoWayOut: Rule {
    static let description = RuleDescription(
        code: "CYD502", name: "no-way-out", category: .graph, severity: .error,
        summary: "from this chapter no ending can be reached",
        rationale: """
            Every path from here loops forever: the reader is trapped. Decided exactly over the \
            whole graph (no sampling). Reported once where the trap is entered, with a loop as \
            an example.
            """,
        triggering: [
            .chapters(
                """
                        { "id": "start", "name": "Start", "text": "Hi.", "is_first_chapter": true,
                          "choices": [ { "chapter_id": "maze", "text": "Enter" }, { "chapter_id": "home", "text": "Go home" } ] },
                        { "id": "home", "name": "Home", "text": "Safe." },
                        { "id": ↓"maze", "name": "Maze", "text": "Walls.", "choices": [ { "chapter_id": "maze2", "text": "On" } ] },
                        { "id": "maze2", "name": "Maze", "text": "More walls.", "choices": [ { "chapter_id": "maze", "text": "Back" } ] }
                """)
        ],
        nonTriggering: [
            .chapters(
                """
                        { "id": "start", "name": "Start", "text": "Hi.", "is_first_chapter": true,
                          "choices": [ { "chapter_id": "maze", "text": "Enter" } ] },
                        { "id": "maze", "name": "Maze", "text": "Walls.",
                          "choices": [ { "chapter_id": "start", "text": "Back" }, { "chapter_id": "exit", "text": "Out" } ] },
                        { "id": "exit", "name": "Exit", "text": "Free." }
                """)
        ])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        guard let story = context.story, let graph = context.graph else { return }
        let trapped = graph.canFinish.map { !$0 }
        // Entry points of the trapped region: the start, or a trapped chapter entered from a free one.
        var isEntry = [Bool](repeating: false, count: graph.chapterCount)
        if let start = graph.start, trapped[start] { isEntry[start] = true }
        for position in 0..<graph.chapterCount where !trapped[position] {
            for next in graph.successors(of: position) where trapped[next] { isEntry[next] = true }
        }
        for position in 0..<graph.chapterCount where isEntry[position] {
            let chapter = story.chapters[position]
            let path = loop(from: position, graph: graph, trapped: trapped)
            let help: String
            if path.count > 1, path.first == path.last || graph.successors(of: path.last!).contains(where: { path.contains($0) }) {
                let ids = path.compactMap { story.chapters[$0].id?.value }
                let shown = ids.prefix(6).map { VisibleText.escape($0) }.joined(separator: " → ") + (ids.count > 6 ? " → …" : "")
                help = "every path loops (\(shown)); add a choice that leads out, or an ending"
            } else {
                help = "\(story.chapters[path.last!].label) has choices, but none leads to an existing chapter; fix its choices"
            }
            findings.add("no ending can be reached from \(chapter.label)", help: help, at: chapter.id?.node ?? chapter.node)
        }
    }

    /// Follows choices inside the trapped region until a chapter repeats, and returns that loop.
    static func loop(from start: Int, graph: StoryGraph, trapped: [Bool]) -> [Int] {
        var order: [Int: Int] = [:]
        var path: [Int] = []
        var current = start
        while order[current] == nil, path.count < 1000 {
            order[current] = path.count
            path.append(current)
            guard let next = graph.successors(of: current).first(where: { trapped[$0] }) else { return path }
            current = next
        }
        guard let loopStart = order[current] else { return path }
        return Array(path[loopStart...]) + [current]
    }
}
