import StoryCheck
import StoryFormat

/// Playtests from the graph: walkthroughs that together take every choice, replays of
/// transcripts, and seeded random playthroughs.
public struct Playtest: Sendable {
    /// For each chapter, its choices' targets in order (nil: the target does not exist).
    public let choices: [[Int?]]
    public let ids: [String]
    public let start: Int?
    /// Reachable, and able to reach an ending.
    let canFinish: [Bool]
    let reachable: [Bool]

    public init(_ story: StorySyntax, graph: StoryGraph) {
        choices = story.chapters.map { chapter in
            (0..<chapter.numberOfChoices).map { offset in
                let target = Int(graph.choiceTargets[Int(chapter.choiceStart) + offset])
                return target >= 0 ? target : nil
            }
        }
        ids = story.chapters.map { $0.id?.value ?? "chapter \($0.ordinal + 1)" }
        start = graph.start
        canFinish = graph.canFinish
        reachable = graph.reachable
    }

    /// For tests: a bare graph.
    public init(choices: [[Int?]], start: Int) {
        self.choices = choices
        ids = choices.indices.map { "c\($0)" }
        self.start = start
        var reachable = [Bool](repeating: false, count: choices.count)
        var queue = [start]
        reachable[start] = true
        while let node = queue.popLast() {
            for case let next? in choices[node] where !reachable[next] {
                reachable[next] = true
                queue.append(next)
            }
        }
        var canFinish = choices.map(\.isEmpty)
        var changed = true
        while changed {
            changed = false
            for node in choices.indices where !canFinish[node] && choices[node].contains(where: { $0.map { canFinish[$0] } ?? false }) {
                canFinish[node] = true
                changed = true
            }
        }
        self.reachable = reachable
        self.canFinish = canFinish
    }

    /// A walkthrough: choice numbers (0-based) from the start, and the chapters they lead to.
    public struct Walk: Sendable, Hashable {
        public var choices: [Int]
        public var chapters: [Int]
        public var ending: Int { chapters.last! }
    }

    /// A choice no walkthrough can take to an ending.
    public struct Uncoverable: Sendable, Hashable {
        public var chapter: Int
        public var choice: Int
        public enum Reason: Sendable, Hashable { case unreachable, missingTarget, noWayOut }
        public var reason: Reason
    }

    /// Walkthroughs from the start to an ending that together take every choice that can be
    /// part of one. Near-smallest, not smallest: each walkthrough goes to the first untaken
    /// choice by a shortest way, takes it, and finishes by the way that takes the most untaken
    /// choices on its way to the nearest ending (greedy; an exact minimum is a minimum flow on
    /// loop-free stories and harder with loops). Every walkthrough takes at least one choice no
    /// earlier one took, so there are never more walkthroughs than choices.
    public func coveringWalks() -> (walks: [Walk], uncoverable: [Uncoverable]) {
        guard let start else { return ([], []) }
        var taken = choices.map { [Bool](repeating: false, count: $0.count) }
        var uncoverable: [Uncoverable] = []
        var pending: [(chapter: Int, choice: Int)] = []
        for (chapter, targets) in choices.enumerated() {
            for (choice, target) in targets.enumerated() {
                if !reachable[chapter] {
                    uncoverable.append(Uncoverable(chapter: chapter, choice: choice, reason: .unreachable))
                } else if let target {
                    if canFinish[target] { pending.append((chapter, choice)) } else {
                        uncoverable.append(Uncoverable(chapter: chapter, choice: choice, reason: .noWayOut))
                    }
                } else {
                    uncoverable.append(Uncoverable(chapter: chapter, choice: choice, reason: .missingTarget))
                }
            }
        }
        // Distance to the nearest ending, for finishing a walk (backwards breadth first).
        let toEnding = distancesToEnding()
        var walks: [Walk] = []
        var next = 0
        while next < pending.count {
            let (chapter, choice) = pending[next]
            if taken[chapter][choice] {
                next += 1
                continue
            }
            var walk = Walk(choices: [], chapters: [start])
            // To the chapter holding the choice, by a shortest way.
            for step in shortestWay(from: start, to: chapter) {
                walk.choices.append(step.choice)
                walk.chapters.append(step.chapter)
            }
            walk.choices.append(choice)
            walk.chapters.append(choices[chapter][choice]!)
            // On to an ending: at each chapter, among the choices that bring the nearest ending no
            // farther away... any choice whose target is strictly nearer; prefer an untaken one.
            var current = walk.chapters.last!
            while !choices[current].isEmpty {
                let options = choices[current].enumerated().compactMap { index, target in
                    target.flatMap { toEnding[$0] < toEnding[current] ? (index, $0) : nil }
                }
                let pick = options.first { !taken[current][$0.0] } ?? options[0]
                walk.choices.append(pick.0)
                walk.chapters.append(pick.1)
                current = pick.1
            }
            for (position, choice) in walk.choices.enumerated() { taken[walk.chapters[position]][choice] = true }
            walks.append(walk)
            next += 1
        }
        return (walks, uncoverable)
    }

    func distancesToEnding() -> [Int] {
        var predecessors = [[Int]](repeating: [], count: choices.count)
        for (chapter, targets) in choices.enumerated() { for case let target? in targets { predecessors[target].append(chapter) } }
        var distance = [Int](repeating: Int.max, count: choices.count)
        var queue: [Int] = []
        for chapter in choices.indices where choices[chapter].isEmpty {
            distance[chapter] = 0
            queue.append(chapter)
        }
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            for previous in predecessors[node] where distance[previous] == Int.max {
                distance[previous] = distance[node] + 1
                queue.append(previous)
            }
        }
        return distance
    }

    /// Choices (number, chapter reached) on a shortest way from one chapter to another.
    func shortestWay(from source: Int, to target: Int) -> [(choice: Int, chapter: Int)] {
        guard source != target else { return [] }
        var parent = [Int: (from: Int, choice: Int)]()
        var queue = [source]
        var head = 0
        var found = false
        while head < queue.count, !found {
            let node = queue[head]
            head += 1
            for (index, next) in choices[node].enumerated() {
                guard let next, next != source, parent[next] == nil else { continue }
                parent[next] = (node, index)
                if next == target {
                    found = true
                    break
                }
                queue.append(next)
            }
        }
        var steps: [(choice: Int, chapter: Int)] = []
        var node = target
        while node != source, let step = parent[node] {
            steps.append((step.choice, node))
            node = step.from
        }
        return steps.reversed()
    }

    // MARK: Random playthroughs

    /// N random playthroughs from the start with a fixed seed (SplitMix64, so a seed gives the
    /// same walks on every machine), each at most `limit` choices long.
    public func random(count: Int, seed: UInt64, limit: Int) -> [Walk] {
        guard let start else { return [] }
        var generator = SplitMix64(state: seed)
        func next() -> UInt64 { generator.next() }
        return (0..<count).map { _ in
            var walk = Walk(choices: [], chapters: [start])
            var current = start
            while walk.choices.count < limit {
                let options = choices[current].enumerated().compactMap { index, target in target.map { (index, $0) } }
                guard !options.isEmpty else { break }
                let pick = options[Int(next() % UInt64(options.count))]
                walk.choices.append(pick.0)
                walk.chapters.append(pick.1)
                current = pick.1
            }
            return walk
        }
    }
}

extension Playtest {
    /// Where a transcript and the story part: the transcript's line, the steps before it, and
    /// what a reader now meets there.
    public struct Divergence: Sendable, Equatable {
        public enum Actual: Sendable, Equatable {
            /// Reading is at this chapter (`> id`).
            case chapter(String)
            /// Reading is at this ending (`= id`).
            case ending(String)
            /// The transcript ends here, and this chapter still has choices.
            case notAnEnding(String, choices: Int)
            /// The chapter has fewer choices than the number taken.
            case noSuchChoice(chapter: String, choices: Int, number: Int)
            /// The choice leads to a chapter that does not exist.
            case missingTarget(chapter: String, number: Int)
        }

        public var line: Transcript.Line
        /// Up to three step lines before it, as written.
        public var before: [String]
        public var actual: Actual
    }

    /// Follows a transcript in the story as it is: nil when every expectation holds, else the
    /// first place they part. The story must have a first chapter.
    public func replay(_ transcript: Transcript) -> Divergence? {
        guard var current = start else { return nil }
        var seen: [String] = []
        for line in transcript.lines {
            func divergence(_ actual: Divergence.Actual) -> Divergence { Divergence(line: line, before: Array(seen.suffix(3)), actual: actual) }
            switch line.step {
            case .expectChapter(let expected):
                if ids[current] != expected { return divergence(.chapter(ids[current])) }
            case .expectEnding(let expected):
                if !choices[current].isEmpty { return divergence(.notAnEnding(ids[current], choices: choices[current].count)) }
                if ids[current] != expected { return divergence(.ending(ids[current])) }
            case .choose(let number):
                let options = choices[current]
                guard number >= 1, number <= options.count else {
                    return divergence(.noSuchChoice(chapter: ids[current], choices: options.count, number: number))
                }
                guard let next = options[number - 1] else { return divergence(.missingTarget(chapter: ids[current], number: number)) }
                current = next
            }
            seen.append(line.text)
        }
        return nil
    }
}
