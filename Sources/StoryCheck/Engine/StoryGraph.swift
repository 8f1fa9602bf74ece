import StoryFormat

/// The chapter graph of a story, decided exactly: the story has no hidden state, so a chapter is
/// reachable, or can lead to an ending, or not, and plain graph searches say which.
///
/// Edges are kept in compressed rows (one flat array and offsets), not an array per chapter:
/// 100,000 chapters cost two allocations, not 200,000.
///
/// A duplicated chapter id (CYD301) is ambiguous: a reader follows the first chapter holding
/// it, but the author may have meant any of them. For reachability and endings a choice naming
/// it counts as leading to every chapter holding it (through one extra node per duplicated id,
/// so the cost stays linear), so the duplicate is reported once, as itself, and not again as
/// unreachable chapters or traps that only exist under one reading of the ambiguity.
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
    /// The text of each of those targets, in the same order: read as the graph looked for it,
    /// so that a rule naming them need not go back to the file's pages (given back by then).
    public let missingTargetNames: [String]
    /// For each choice (by index into `StorySyntax.choices`), the chapter it leads to as a
    /// reader follows it (the first chapter holding a duplicated id); -1 when it leads nowhere.
    /// Rules compare these numbers instead of the ids' text.
    public let choiceTargets: [Int32]

    private let successorOffsets: [Int32]
    private let successorList: [Int32]
    /// For each duplicated id, the chapters holding it, the first first; a choice naming it
    /// leads to node `chapterCount + group`.
    public let duplicateGroups: [[Int32]]

    public init(_ story: StorySyntax) { self.init(story, parallelFrom: Self.parallelFrom) }

    /// - Parameter parallelFrom: chapters from which targets are resolved on two threads (tests
    ///   compare both ways on one story).
    /// - Parameter resolved: called once every choice's target is resolved, before the searches,
    ///   with whether some choice names no chapter (`missingTargets`), so that a caller can start
    ///   work that needs to know it.
    init(_ story: StorySyntax, parallelFrom: Int, resolved whenResolved: (_ someMissing: Bool) -> Void = { _ in }) {
        let chapters = story.chapters
        let count = chapters.count
        chapterCount = count
        let index = ChapterIndex(ids: chapters.map { $0.id == nil ? nil : $0.idValue })
        self.index = index

        // Chapters sharing an id, gathered under the first chapter holding it.
        var groupOf = [Int32](repeating: -1, count: count)
        var groups: [[Int32]] = []
        for (position, first) in index.repeats {
            if groupOf[first] < 0 {
                groupOf[first] = Int32(groups.count)
                groups.append([Int32(first)])
            }
            groups[Int(groupOf[first])].append(Int32(position))
        }
        duplicateGroups = groups
        let nodeCount = count + groups.count

        // Each choice's target found by id, the chapters in two halves on two threads for a
        // large story (the lookups are most of the graph's time); then the rows, in order.
        let (resolved, names) = Self.resolveTargets(story, index: index, parallelFrom: parallelFrom)
        var offsets = [Int32](repeating: 0, count: nodeCount + 1)
        var list: [Int32] = []
        list.reserveCapacity(story.choices.count)
        var missing: [Int] = []
        var missingNames: [String] = []
        var choiceTargets = [Int32](repeating: -1, count: story.choices.count)
        var endings: [Int] = []
        for (position, chapter) in chapters.enumerated() {
            if chapter.hasNoChoices { endings.append(position) }
            let first = Int(chapter.choiceStart)
            for choiceIndex in first..<(first + chapter.numberOfChoices) {
                let target = resolved[choiceIndex]
                if target >= 0 {
                    choiceTargets[choiceIndex] = target
                    let node = groupOf[Int(target)] < 0 ? Int(target) : count + Int(groupOf[Int(target)])
                    list.append(Int32(node))
                } else if target == Self.namesNoChapter {
                    missing.append(choiceIndex)
                    missingNames.append(names[choiceIndex] ?? "")
                }
            }
            offsets[position + 1] = Int32(list.count)
        }
        for (group, members) in groups.enumerated() {
            for member in members {
                list.append(member)
            }
            offsets[count + group + 1] = Int32(list.count)
        }
        successorOffsets = offsets
        successorList = list
        missingTargets = missing
        missingTargetNames = missingNames
        whenResolved(!missing.isEmpty)
        self.choiceTargets = choiceTargets
        self.endings = endings
        start = chapters.firstIndex { $0.isFirstChapter?.value == true }

        // Predecessors, in compressed rows too, for the backward search from the endings; for a
        // large story, on another core while the forward search runs here.
        let backward = { @Sendable [endings, offsets, list] in
            let (predecessorOffsets, predecessors) = Self.reversed(offsets: offsets, list: list, count: nodeCount)
            return Array(Self.search(from: endings, offsets: predecessorOffsets, list: predecessors, count: nodeCount).prefix(count))
        }
        let finishing = count >= max(parallelFrom, 2) ? BackgroundWork(backward) : nil
        reachable = Array(Self.search(from: start.map { [$0] } ?? [], offsets: offsets, list: list, count: nodeCount).prefix(count))
        canFinish = finishing?.take() ?? backward()
    }

    /// A resolved target that names no chapter (a target that is empty or missing is -1).
    static let namesNoChapter: Int32 = -2

    /// Chapters at which resolving splits across two threads.
    static let parallelFrom = 20_000

    /// For each choice, the chapter its target names (the first holding the id), -1 when it has
    /// no target or an empty one, `namesNoChapter` when no chapter has that id. A large story is
    /// done in two halves at once; each half gives back the pages of the file it has passed (the
    /// second through a sweep of its own from where it starts). The text of each target that
    /// names no chapter comes with it, by choice index.
    static func resolveTargets(_ story: StorySyntax, index: ChapterIndex, parallelFrom: Int) -> (targets: [Int32], missing: [Int: String]) {
        let chapters = story.chapters
        let bytes = story.document.bytes
        bytes.beginPass()
        defer { bytes.endPass() }
        guard chapters.count >= max(parallelFrom, 2) else {
            var sweep = bytes.sweep()
            return resolve(story, index: index, chapters: 0..<chapters.count, sweep: &sweep)
        }
        let middle = chapters.count / 2
        let second = BackgroundWork {
            var sweep = bytes.sweep(from: Int(story.document.nodes[chapters[middle].node].start))
            defer { sweep.end() }
            return resolve(story, index: index, chapters: middle..<chapters.count, sweep: &sweep)
        }
        var sweep = bytes.sweep()
        var (targets, missing) = resolve(story, index: index, chapters: 0..<middle, sweep: &sweep)
        let later = second.wait()
        for chapter in chapters[middle...] {
            let first = Int(chapter.choiceStart)
            for choiceIndex in first..<(first + chapter.numberOfChoices) { targets[choiceIndex] = later.targets[choiceIndex] }
        }
        missing.merge(later.missing) { first, _ in first }
        return (targets, missing)
    }

    private static func resolve(
        _ story: StorySyntax, index: ChapterIndex, chapters range: Range<Int>, sweep: inout SourceBytes.Sweep
    ) -> (targets: [Int32], missing: [Int: String]) {
        var targets = [Int32](repeating: -1, count: story.choices.count)
        var missing: [Int: String] = [:]
        let document = story.document
        for position in range {
            let chapter = story.chapters[position]
            sweep.release(upTo: Int(document.nodes[chapter.node].start))
            let first = Int(chapter.choiceStart)
            for choiceIndex in first..<(first + chapter.numberOfChoices) {
                let targetNode = Int(story.choices[choiceIndex].targetNode)
                guard targetNode >= 0 else { continue }
                if let target = index.position(ofIDAt: targetNode, in: document) {
                    targets[choiceIndex] = Int32(target)
                } else if !document.contentRange(targetNode).isEmpty {
                    targets[choiceIndex] = namesNoChapter
                    missing[choiceIndex] = document.string(targetNode)
                }
            }
        }
        return (targets, missing)
    }

    /// The chapters a chapter's valid choices lead to, in order (repeats included), as a reader
    /// follows them: a duplicated id leads to the first chapter holding it.
    public func successors(of chapter: Int) -> [Int] {
        successorList[Int(successorOffsets[chapter])..<Int(successorOffsets[chapter + 1])].map { node in
            node < chapterCount ? Int(node) : Int(duplicateGroups[Int(node) - chapterCount][0])
        }
    }

    /// The same edges the other way round, in compressed rows: each node's predecessors.
    static func reversed(offsets: [Int32], list: [Int32], count: Int) -> (offsets: [Int32], list: [Int32]) {
        var inDegree = [Int32](repeating: 0, count: count)
        for target in list { inDegree[Int(target)] += 1 }
        var reversedOffsets = [Int32](repeating: 0, count: count + 1)
        for node in 0..<count { reversedOffsets[node + 1] = reversedOffsets[node] + inDegree[node] }
        var fill = reversedOffsets
        var reversedList = [Int32](repeating: 0, count: list.count)
        for source in 0..<count {
            for edge in Int(offsets[source])..<Int(offsets[source + 1]) {
                let target = Int(list[edge])
                reversedList[Int(fill[target])] = Int32(source)
                fill[target] += 1
            }
        }
        return (reversedOffsets, reversedList)
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

    /// Reachability as a reader moves, for counting playthroughs: over `successors` (each
    /// chapter's valid choices as a reader follows them, a duplicated id leading to its first
    /// chapter), an ending is a chapter with nowhere to go. The checker's `reachable` and
    /// `canFinish` differ on purpose in two places: a duplicated id leads to every chapter
    /// holding it there, and a chapter whose only choices dangle is not an ending there (CYD302
    /// reports it). Both run the same search.
    public static func readerReachability(successors: [[Int]], start: Int) -> (reachable: [Bool], canFinish: [Bool]) {
        let count = successors.count
        var offsets = [Int32](repeating: 0, count: count + 1)
        var list: [Int32] = []
        for (node, targets) in successors.enumerated() {
            list += targets.lazy.map(Int32.init)
            offsets[node + 1] = Int32(list.count)
        }
        let (predecessorOffsets, predecessors) = reversed(offsets: offsets, list: list, count: count)
        let endings = (0..<count).filter { successors[$0].isEmpty }
        return (
            search(from: [start], offsets: offsets, list: list, count: count),
            search(from: endings, offsets: predecessorOffsets, list: predecessors, count: count)
        )
    }

    /// Every chapter's successors as a reader follows them, and reachability over them.
    public var readersView: (successors: [[Int]], reachable: [Bool], canFinish: [Bool])? {
        guard let start else { return nil }
        let successors = (0..<chapterCount).map { self.successors(of: $0) }
        let (reachable, canFinish) = Self.readerReachability(successors: successors, start: start)
        return (successors, reachable, canFinish)
    }
}
