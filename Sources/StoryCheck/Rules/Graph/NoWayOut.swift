import StoryFormat

enum NoWayOut: CheckedRule {
    static let checks = DocumentKind.story
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
        guard isEntry.contains(true) else { return }
        let fates = Fates(graph: graph, trapped: trapped)
        for position in 0..<graph.chapterCount where isEntry[position] {
            let chapter = story.chapters[position]
            let help: String
            switch fates.fate(of: position) {
            case .loop(let chapters):
                let ids = chapters.compactMap { story.chapters[$0].id?.value }
                let shown = ids.prefix(6).map { VisibleText.escape($0) }.joined(separator: " → ") + (ids.count > 6 ? " → …" : "")
                help = "every path loops (\(shown)); add a choice that leads out, or an ending"
            case .stuck(let last):
                help = "\(story.chapters[last].label) has choices, but none leads to an existing chapter; fix its choices"
            }
            findings.add("no ending can be reached from \(chapter.label)", help: help, at: chapter.id?.node ?? chapter.node)
        }
    }

    /// Where following the first trapped choice from each trapped chapter ends: in a loop, or at
    /// a chapter whose choices all lead nowhere. Worked out for all chapters at once, each
    /// followed once (O(chapters)), however many entries the trapped region has.
    struct Fates {
        enum Fate { case loop([Int]), stuck(Int) }
        private let graph: StoryGraph
        /// For each trapped chapter: a chapter on the loop it falls into, or -2 - the stuck chapter.
        private var end: [Int32]

        init(graph: StoryGraph, trapped: [Bool]) {
            self.graph = graph
            let unknown: Int32 = -1
            let inProgress: Int32 = Int32.min
            var end = [Int32](repeating: unknown, count: graph.chapterCount)
            for root in 0..<graph.chapterCount where trapped[root] && end[root] == unknown {
                var path: [Int] = []
                var current = root
                var result: Int32
                while true {
                    if end[current] == inProgress {
                        result = Int32(current)  // closed a new loop
                        break
                    }
                    if end[current] != unknown {
                        result = end[current]
                        break
                    }
                    end[current] = inProgress
                    path.append(current)
                    guard let next = graph.successors(of: current).first(where: { trapped[$0] }) else {
                        result = -2 - Int32(current)
                        break
                    }
                    current = next
                }
                for chapter in path { end[chapter] = result }
            }
            self.end = end
        }

        func fate(of chapter: Int) -> Fate {
            let found = Int(end[chapter])
            guard found >= 0 else { return .stuck(-2 - found) }
            // The loop itself, from the chapter found on it, shown up to a few steps.
            var loop = [found]
            var current = found
            while loop.count <= 7, let next = graph.successors(of: current).first(where: { end[$0] >= 0 }) {
                loop.append(next)
                if next == found { break }
                current = next
            }
            return .loop(loop)
        }
    }
}
