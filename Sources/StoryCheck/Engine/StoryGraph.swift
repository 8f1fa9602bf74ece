import StoryFormat

/// The chapter graph of a story, decided exactly: the story has no hidden state, so a chapter is
/// reachable, or can lead to an ending, or not, and plain graph searches say which.
public struct StoryGraph: Sendable {
    /// Chapters in file order (those the decoder could read as objects).
    public let chapterCount: Int
    /// Chapter index by id; with duplicate ids, the first chapter holding it.
    public let index: [String: Int]
    /// Valid choice targets of each chapter (choices to missing chapters are left out).
    public let successors: [[Int]]
    /// Where reading starts: the first chapter marked `is_first_chapter`.
    public let start: Int?
    /// Chapters with no choices: where reading ends.
    public let endings: [Int]
    /// Reachable from the start (all false without a start).
    public let reachable: [Bool]
    /// From which some ending can be reached.
    public let canFinish: [Bool]

    public init(_ story: StorySyntax) {
        let chapters = story.chapters
        chapterCount = chapters.count
        var index: [String: Int] = [:]
        index.reserveCapacity(chapters.count)
        for (position, chapter) in chapters.enumerated() {
            if let id = chapter.id?.value, index[id] == nil { index[id] = position }
        }
        self.index = index
        var successors = [[Int]](repeating: [], count: chapters.count)
        var predecessors = [[Int]](repeating: [], count: chapters.count)
        var endings: [Int] = []
        for (position, chapter) in chapters.enumerated() {
            if chapter.choices.isEmpty { endings.append(position) }
            for choice in chapter.choices {
                if let target = choice.target.flatMap({ index[$0.value] }) {
                    successors[position].append(target)
                    predecessors[target].append(position)
                }
            }
        }
        self.successors = successors
        self.endings = endings
        start = chapters.firstIndex { $0.isFirstChapter?.value == true }
        reachable = Self.search(from: start.map { [$0] } ?? [], along: successors, count: chapters.count)
        canFinish = Self.search(from: endings, along: predecessors, count: chapters.count)
    }

    /// Breadth-first search; iterative, so a 100k-chapter chain needs no deep stack.
    static func search(from roots: [Int], along edges: [[Int]], count: Int) -> [Bool] {
        var seen = [Bool](repeating: false, count: count)
        var queue = roots
        for root in roots { seen[root] = true }
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            for next in edges[node] where !seen[next] {
                seen[next] = true
                queue.append(next)
            }
        }
        return seen
    }

    /// Endings that a reader can reach from the start, in file order.
    public var reachableEndings: [Int] { endings.filter { reachable[$0] } }

    /// A shortest path of chapters from the start to `target`, for explaining findings.
    public func path(to target: Int) -> [Int]? {
        guard let start else { return nil }
        var previous = [Int](repeating: -1, count: chapterCount)
        var queue = [start]
        previous[start] = start
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            if node == target { break }
            for next in successors[node] where previous[next] == -1 {
                previous[next] = node
                queue.append(next)
            }
        }
        guard previous[target] != -1 else { return nil }
        var path = [target]
        while path.last! != start { path.append(previous[path.last!]) }
        return path.reversed()
    }
}
