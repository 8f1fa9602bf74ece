import StoryCheck
import StoryFormat

/// Exact answers about every way through a story: a story.json has no hidden state, so
/// playthroughs are paths in the chapter graph from the start to an ending (a chapter without
/// choices), and can be counted rather than sampled. Two choices leading to the same chapter are
/// two playthroughs (a reader chose differently). All passes are linear in chapters + choices,
/// apart from big-number additions when the counts grow past 2^64.
public struct PathAnalysis: Sendable {
    /// How many playthroughs: a number, or unbounded because a loop lies on a way to an ending.
    public enum Count: Sendable, Hashable {
        case finite(BigCount)
        /// Going round `cycle` (chapters in order, the first repeated at the end implied) any
        /// number of times still ends.
        case unbounded(cycle: [Int])
    }

    public struct Ending: Sendable, Hashable {
        public var chapter: Int
        /// Chapters read on the shortest way there, both ends included.
        public var fewestChapters: Int
        /// On the longest; nil when a loop makes it unbounded.
        public var mostChapters: Int?
        public var playthroughs: Count
    }

    public var playthroughs: Count
    /// Reachable endings, in chapter order.
    public var endings: [Ending]
    /// Chapters every reader passes through on the way to any ending (the common dominators of
    /// the reachable endings), from the start.
    public var everyReaderPasses: [Int]
    /// Chapters on the longest way from the start to an ending; nil when loops make ways
    /// unbounded (the longest loop-free path is then NP-hard to find, and not attempted).
    public var longestPath: Int?

    /// - Parameters:
    ///   - successors: each chapter's choices as the chapters they lead to (repeats kept).
    ///   - start: where reading starts.
    public init(successors: [[Int]], start: Int) {
        let (reachable, canFinish) = StoryGraph.readerReachability(successors: successors, start: start)
        self.init(successors: successors, start: start, reachable: reachable, canFinish: canFinish)
    }

    /// The analysis of a checked story's graph, as a reader moves through it; nil without a start.
    public init?(_ graph: StoryGraph) {
        guard let start = graph.start, let view = graph.readersView else { return nil }
        self.init(successors: view.successors, start: start, reachable: view.reachable, canFinish: view.canFinish)
    }

    /// - Parameters:
    ///   - reachable, canFinish: from StoryGraph's reader's reachability over `successors`.
    package init(successors: [[Int]], start: Int, reachable: [Bool], canFinish useful: [Bool]) {
        let count = successors.count
        var head = 0
        var queue: [Int] = []
        let endingNodes = (0..<count).filter { reachable[$0] && successors[$0].isEmpty }
        let onWay = (0..<count).map { reachable[$0] && useful[$0] }
        // The chapters every reader passes need none of the counts below: in a large story
        // they are found on another core meanwhile.
        let dominators = count < Self.dominatorsBesideFrom ? nil : BackgroundWork {
            Self.commonDominators(of: endingNodes, start: start, successors: successors, reachable: reachable)
        }

        // Loops on the way: strongly connected components of more than one chapter, or a
        // chapter with a choice to itself.
        let components = Self.components(successors, within: onWay)
        var cyclic = [Bool](repeating: false, count: count)
        // Components are numbered from 0, each below the number of chapters.
        var componentSize = [Int32](repeating: 0, count: count)
        for node in 0..<count where onWay[node] { componentSize[components[node]] += 1 }
        for node in 0..<count where onWay[node] {
            if componentSize[components[node]] > 1 || successors[node].contains(node) { cyclic[node] = true }
        }
        // Chapters a loop can lead to: their counts and longest ways are unbounded.
        var unbounded = cyclic
        queue = (0..<count).filter { cyclic[$0] }
        head = 0
        while head < queue.count {
            for next in successors[queue[head]] where onWay[next] && !unbounded[next] {
                unbounded[next] = true
                queue.append(next)
            }
            head += 1
        }

        // Shortest ways (breadth first from the start, within the chapters on the way).
        var fewest = [Int](repeating: -1, count: count)
        if onWay[start] {
            fewest[start] = 1
            queue = [start]
            head = 0
            while head < queue.count {
                let node = queue[head]
                head += 1
                for next in successors[node] where onWay[next] && fewest[next] < 0 {
                    fewest[next] = fewest[node] + 1
                    queue.append(next)
                }
            }
        }

        // Counts and longest ways over the loop-free part, in topological order (Kahn).
        var ways = [PendingCount](repeating: PendingCount(), count: count)
        var longest = [Int](repeating: 0, count: count)
        var inDegree = [Int](repeating: 0, count: count)
        for node in 0..<count where onWay[node] && !unbounded[node] {
            for next in successors[node] where onWay[next] && !unbounded[next] { inDegree[next] += 1 }
        }
        if onWay[start] && !unbounded[start] {
            ways[start] = .one
            longest[start] = 1
        }
        queue = (0..<count).filter { onWay[$0] && !unbounded[$0] && inDegree[$0] == 0 }
        head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            ways[node].readyToPass()
            let incoming = ways[node]
            for next in successors[node] where onWay[next] && !unbounded[next] {
                if !incoming.isZero {
                    ways[next].add(incoming)
                    longest[next] = max(longest[next], longest[node] + 1)
                }
                inDegree[next] -= 1
                if inDegree[next] == 0 { queue.append(next) }
            }
            // Passed on: only the endings' counts are needed after this, so memory holds the
            // counts of the frontier, not of every chapter.
            if !successors[node].isEmpty { ways[node] = PendingCount() }
        }

        let cycle = cyclic.firstIndex(of: true).map { Self.cycle(through: $0, successors, components) }
        endings = endingNodes.map { node in
            Ending(
                chapter: node, fewestChapters: fewest[node], mostChapters: unbounded[node] ? nil : longest[node],
                playthroughs: unbounded[node] ? .unbounded(cycle: cycle ?? []) : .finite(ways[node].value))
        }
        if let cycle, endingNodes.contains(where: { unbounded[$0] }) {
            playthroughs = .unbounded(cycle: cycle)
            longestPath = nil
        } else {
            var total = PendingCount()
            for node in endingNodes {
                var ending = ways[node]
                ending.settle()
                total.add(ending)
            }
            playthroughs = .finite(total.value)
            longestPath = endingNodes.map { longest[$0] }.max()
        }
        everyReaderPasses = dominators?.wait() ?? Self.commonDominators(of: endingNodes, start: start, successors: successors, reachable: reachable)
    }

    /// From how many chapters the common dominators are found on a thread of their own.
    package static let dominatorsBesideFrom = 20_000

    /// Strongly connected components (Tarjan's, iterative), numbered; only `within` is visited.
    static func components(_ successors: [[Int]], within: [Bool]) -> [Int] {
        let count = successors.count
        var index = [Int](repeating: -1, count: count)
        var low = [Int](repeating: 0, count: count)
        var onStack = [Bool](repeating: false, count: count)
        var component = [Int](repeating: -1, count: count)
        var stack: [Int] = []
        var next = 0
        var components = 0
        for root in 0..<count where within[root] && index[root] < 0 {
            var work: [(node: Int, edge: Int)] = [(root, 0)]
            index[root] = next
            low[root] = next
            next += 1
            stack.append(root)
            onStack[root] = true
            while var frame = work.popLast() {
                let node = frame.node
                if frame.edge < successors[node].count {
                    let target = successors[node][frame.edge]
                    frame.edge += 1
                    work.append(frame)
                    guard within[target] else { continue }
                    if index[target] < 0 {
                        index[target] = next
                        low[target] = next
                        next += 1
                        stack.append(target)
                        onStack[target] = true
                        work.append((target, 0))
                    } else if onStack[target] {
                        low[node] = min(low[node], index[target])
                    }
                    continue
                }
                if let parent = work.last { low[parent.node] = min(low[parent.node], low[node]) }
                if low[node] == index[node] {
                    while let member = stack.popLast() {
                        onStack[member] = false
                        component[member] = components
                        if member == node { break }
                    }
                    components += 1
                }
            }
        }
        return component
    }

    /// A loop through `node`: the shortest way back to it inside its component.
    static func cycle(through node: Int, _ successors: [[Int]], _ components: [Int]) -> [Int] {
        if successors[node].contains(node) { return [node] }
        var parent = [Int: Int]()
        var queue = [node]
        var head = 0
        while head < queue.count {
            let current = queue[head]
            head += 1
            for next in successors[current] where components[next] == components[node] {
                if next == node {
                    var path = [current]
                    while let previous = parent[path.last!], path.last! != node { path.append(previous) }
                    return Array(path.reversed())
                }
                if parent[next] == nil && next != node {
                    parent[next] = current
                    queue.append(next)
                }
            }
        }
        return [node]
    }

    /// The chapters on every way from the start to every ending, start first: dominators
    /// (Cooper, Harvey and Kennedy's iterative algorithm over reverse postorder), then the chain
    /// above the endings' common dominator.
    static func commonDominators(of endings: [Int], start: Int, successors: [[Int]], reachable: [Bool]) -> [Int] {
        guard !endings.isEmpty else { return [] }
        let count = successors.count
        // Reverse postorder by an iterative depth-first search.
        var postorder: [Int] = []
        var visited = [Bool](repeating: false, count: count)
        var work: [(node: Int, edge: Int)] = [(start, 0)]
        visited[start] = true
        while var frame = work.popLast() {
            if frame.edge < successors[frame.node].count {
                let next = successors[frame.node][frame.edge]
                frame.edge += 1
                work.append(frame)
                if !visited[next] {
                    visited[next] = true
                    work.append((next, 0))
                }
            } else {
                postorder.append(frame.node)
            }
        }
        var number = [Int](repeating: -1, count: count)
        for (position, node) in postorder.enumerated() { number[node] = position }
        var predecessors = [[Int]](repeating: [], count: count)
        for node in postorder { for next in successors[node] { predecessors[next].append(node) } }
        var idom = [Int](repeating: -1, count: count)
        idom[start] = start
        func intersect(_ a: Int, _ b: Int) -> Int {
            var (a, b) = (a, b)
            while a != b {
                while number[a] < number[b] { a = idom[a] }
                while number[b] < number[a] { b = idom[b] }
            }
            return a
        }
        var changed = true
        while changed {
            changed = false
            for node in postorder.reversed() where node != start {
                var candidate = -1
                for previous in predecessors[node] where idom[previous] >= 0 {
                    candidate = candidate < 0 ? previous : intersect(previous, candidate)
                }
                if candidate >= 0, idom[node] != candidate {
                    idom[node] = candidate
                    changed = true
                }
            }
        }
        var common = endings[0]
        for ending in endings.dropFirst() { common = intersect(common, ending) }
        var chain = [common]
        while chain.last! != start { chain.append(idom[chain.last!]) }
        return chain.reversed()
    }
}
