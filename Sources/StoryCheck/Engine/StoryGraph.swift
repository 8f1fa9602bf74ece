import StoryFormat

/// The chapter graph of a story, decided exactly: the story has no hidden state, so a chapter is
/// reachable, or can lead to an ending, or not, and plain graph searches say which.
///
/// Edges are kept in compressed rows (one flat array and offsets), not an array per chapter:
/// 100,000 chapters cost two allocations, not 200,000.
public struct StoryGraph: Sendable {
    public let chapterCount: Int
    /// Chapter index by id; with duplicate ids, the first chapter holding it.
    public let index: ChapterIndex
    /// Where reading starts: the first chapter marked `is_first_chapter`.
    public let start: Int?
    /// Chapters with no choices: where reading ends.
    public let endings: [Int]
    /// Reachable from the start (all false without a start).
    public let reachable: [Bool]
    /// From which some ending can be reached.
    public let canFinish: [Bool]
    /// Indices (into `StorySyntax.choices`) of choices whose target does not exist.
    public let missingTargets: [Int]

    private let successorOffsets: [Int32]
    private let successorList: [Int32]

    public init(_ story: StorySyntax) {
        let chapters = story.chapters
        let count = chapters.count
        chapterCount = count
        let index = ChapterIndex(ids: chapters.map { $0.id == nil ? nil : $0.idValue })
        self.index = index

        var offsets = [Int32](repeating: 0, count: count + 1)
        var list: [Int32] = []
        list.reserveCapacity(story.choices.count)
        var missing: [Int] = []
        var endings: [Int] = []
        var inDegree = [Int32](repeating: 0, count: count + 1)
        for (position, chapter) in chapters.enumerated() {
            if chapter.hasNoChoices { endings.append(position) }
            let first = Int(chapter.choiceStart)
            for choiceIndex in first..<(first + chapter.numberOfChoices) {
                let choice = story.choices[choiceIndex]
                guard choice.targetNode >= 0 else { continue }
                let targetNode = Int(choice.targetNode)
                if let target = index.position(ofIDAt: targetNode, in: story.document) {
                    list.append(Int32(target))
                    inDegree[target] += 1
                } else if !story.document.contentRange(targetNode).isEmpty {
                    missing.append(choiceIndex)
                }
            }
            offsets[position + 1] = Int32(list.count)
        }
        successorOffsets = offsets
        successorList = list
        missingTargets = missing
        self.endings = endings
        start = chapters.firstIndex { $0.isFirstChapter?.value == true }

        // Predecessors, in compressed rows too, for the backward search from the endings.
        var predecessorOffsets = [Int32](repeating: 0, count: count + 1)
        for target in 0..<count { predecessorOffsets[target + 1] = predecessorOffsets[target] + inDegree[target] }
        var fill = predecessorOffsets
        var predecessors = [Int32](repeating: 0, count: list.count)
        for source in 0..<count {
            for edge in Int(offsets[source])..<Int(offsets[source + 1]) {
                let target = Int(list[edge])
                predecessors[Int(fill[target])] = Int32(source)
                fill[target] += 1
            }
        }
        reachable = Self.search(from: start.map { [$0] } ?? [], offsets: offsets, list: list, count: count)
        canFinish = Self.search(from: endings, offsets: predecessorOffsets, list: predecessors, count: count)
    }

    /// The chapters a chapter's valid choices lead to, in order (repeats included).
    public func successors(of chapter: Int) -> [Int] {
        successorList[Int(successorOffsets[chapter])..<Int(successorOffsets[chapter + 1])].map(Int.init)
    }

    /// Breadth-first search; iterative, so a 100k-chapter chain needs no deep stack.
    static func search(from roots: [Int], offsets: [Int32], list: [Int32], count: Int) -> [Bool] {
        var seen = [Bool](repeating: false, count: count)
        var queue = [Int32]()
        queue.reserveCapacity(count)
        for root in roots where !seen[root] {
            seen[root] = true
            queue.append(Int32(root))
        }
        var head = 0
        while head < queue.count {
            let node = Int(queue[head])
            head += 1
            for edge in Int(offsets[node])..<Int(offsets[node + 1]) {
                let next = Int(list[edge])
                if !seen[next] {
                    seen[next] = true
                    queue.append(Int32(next))
                }
            }
        }
        return seen
    }

    /// Endings that a reader can reach from the start, in file order.
    public var reachableEndings: [Int] { endings.filter { reachable[$0] } }
}
