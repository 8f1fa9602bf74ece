import StoryAnalysis
import StoryCheck
import StoryFormat
import Testing

/// The exact answers are checked against brute force: every path enumerated on hundreds of small
/// random graphs, with and without loops.
@Suite("Playthroughs, counted exactly")
struct PathAnalysisTests {
    /// A deterministic generator, so a failure names a seed that reproduces it.
    typealias Generator = SplitMix64

    static func randomGraph(seed: UInt64, acyclic: Bool) -> [[Int]] {
        var random = Generator(state: seed)
        // Small enough to enumerate every walk of up to 3n chapters.
        let count = Int.random(in: 1...(acyclic ? 8 : 5), using: &random)
        return (0..<count).map { node in
            let choices = Int.random(in: 0...(acyclic ? 3 : 2), using: &random)
            return (0..<choices).compactMap { _ in
                if acyclic {
                    return node + 1 < count ? Int.random(in: (node + 1)..<count, using: &random) : nil
                }
                return Int.random(in: 0..<count, using: &random)
            }
        }
    }

    /// Every path from `start` to each ending with at most `limit` chapters, as chapter counts.
    static func paths(_ successors: [[Int]], start: Int, limit: Int) -> [Int: [Int]] {
        var found: [Int: [Int]] = [:]
        var stack: [(node: Int, length: Int)] = [(start, 1)]
        var steps = 0
        while let (node, length) = stack.popLast() {
            steps += 1
            precondition(steps < 5_000_000, "brute force bounded")
            if successors[node].isEmpty { found[node, default: []].append(length) }
            guard length < limit else { continue }
            for next in successors[node] { stack.append((next, length + 1)) }
        }
        return found
    }

    static func reaches(_ successors: [[Int]], from start: Int, without removed: Int) -> Set<Int> {
        guard start != removed else { return [] }
        var seen: Set<Int> = [start]
        var queue = [start]
        while let node = queue.popLast() {
            for next in successors[node] where next != removed && seen.insert(next).inserted { queue.append(next) }
        }
        return seen
    }

    func check(_ successors: [[Int]], seed: UInt64) {
        let n = successors.count
        let analysis = PathAnalysis(successors: successors, start: 0)
        let bounded = Self.paths(successors, start: 0, limit: n)
        // A walk through a loop on the way to an ending has at most 3n - 1 chapters (to the loop,
        // round it, on to the ending), and any walk of more than n chapters repeats a chapter.
        let longer = Self.paths(successors, start: 0, limit: 3 * n)
        let reachable = Self.reaches(successors, from: 0, without: -1)
        let endings = reachable.filter { successors[$0].isEmpty }.sorted()
        #expect(analysis.endings.map(\.chapter) == endings, "seed \(seed)")
        var total = 0
        var unbounded = false
        for ending in analysis.endings {
            let short = bounded[ending.chapter] ?? []
            // A way of more than n chapters repeats one: a loop, so there are unboundedly many.
            let isUnbounded = (longer[ending.chapter] ?? []).contains { $0 > n }
            #expect(ending.fewestChapters == (longer[ending.chapter]?.min() ?? -1), "seed \(seed) ending \(ending.chapter)")
            if isUnbounded {
                unbounded = true
                #expect(ending.mostChapters == nil, "seed \(seed)")
                guard case .unbounded = ending.playthroughs else {
                    Issue.record("seed \(seed): ending \(ending.chapter) should be unbounded")
                    continue
                }
            } else {
                total += short.count
                #expect(ending.mostChapters == short.max(), "seed \(seed)")
                #expect(ending.playthroughs == .finite(BigCount(UInt64(short.count))), "seed \(seed) ending \(ending.chapter)")
            }
        }
        switch analysis.playthroughs {
        case .finite(let count):
            #expect(!unbounded && count == BigCount(UInt64(total)), "seed \(seed)")
            #expect(analysis.longestPath == bounded.values.flatMap { $0 }.max(), "seed \(seed)")
        case .unbounded(let cycle):
            #expect(unbounded, "seed \(seed)")
            // The loop shown is a loop.
            for (index, node) in cycle.enumerated() {
                #expect(successors[node].contains(cycle[(index + 1) % cycle.count]), "seed \(seed): \(cycle)")
            }
        }
        // Chapters every reader passes: removing one leaves no ending (other than itself) reachable.
        let expected = (0..<n).filter { d in
            guard !endings.isEmpty, reachable.contains(d) else { return false }
            if d == 0 { return true }
            let left = Self.reaches(successors, from: 0, without: d)
            return endings.allSatisfy { $0 == d || !left.contains($0) } && (endings.contains(d) ? endings == [d] : true)
        }
        #expect(Set(analysis.everyReaderPasses) == Set(expected), "seed \(seed): \(successors)")
    }

    @Test("counts, shortest and longest ways, loops and dominators agree with brute force on 400 loop-free graphs")
    func acyclic() {
        for seed in 1...400 as ClosedRange<UInt64> { check(Self.randomGraph(seed: seed, acyclic: true), seed: seed) }
    }

    @Test("and on 400 graphs with loops, self-choices and repeated choices")
    func cyclic() {
        for seed in 1000...1400 as ClosedRange<UInt64> { check(Self.randomGraph(seed: seed, acyclic: false), seed: seed) }
    }

    @Test("a 100,000-chapter ladder has 2^50,000 playthroughs, exactly, without deep recursion")
    func hugeCounts() {
        // Chapter 2k offers two choices, both to chapter 2k+2 via 2k+1 or directly... a ladder
        // where every step doubles the ways: k -> k+1 twice.
        let steps = 50_000
        let successors = (0...steps).map { $0 < steps ? [$0 + 1, $0 + 1] : [] }
        let analysis = PathAnalysis(successors: successors, start: 0)
        guard case .finite(let count) = analysis.playthroughs else {
            Issue.record("a loop-free ladder is finite")
            return
        }
        var expected = BigCount.one
        for _ in 0..<steps { expected += expected }
        #expect(count == expected)
        #expect(count.description.count == 15052, "2^50000 has 15,052 digits")
        #expect(count.description.hasPrefix("3160699436") && count.description.hasSuffix("109376"))
        #expect(analysis.longestPath == steps + 1 && analysis.everyReaderPasses.count == steps + 1)
    }

    /// Decimal digits, least significant first: a second, plain way of adding, to check the
    /// counting's own against.
    static func decimalSum(_ numbers: [[UInt8]]) -> [UInt8] {
        var sum: [UInt8] = []
        for number in numbers {
            var carry = 0
            for index in 0..<max(sum.count, number.count) {
                if index == sum.count { sum.append(0) }
                let digit = Int(sum[index]) + (index < number.count ? Int(number[index]) : 0) + carry
                sum[index] = UInt8(digit % 10)
                carry = digit / 10
            }
            if carry > 0 { sum.append(UInt8(carry)) }
        }
        return sum
    }

    static func decimalText(_ digits: [UInt8]) -> String {
        let trimmed = digits.reversed().drop { $0 == 0 }
        return trimmed.isEmpty ? "0" : String(trimmed.map { Character(String($0)) })
    }

    @Test("counts summed from many ways at once carry exactly: chapters with a dozen ways in, sums whose digits are all ones, and random graphs checked against plain decimal sums")
    func manyWaysIn() {
        // A ladder of doubling steps, every step also leading to the ending, and the start
        // leading there directly: the ending's count is 1 + (1 + 2 + ... + 2^(n-1)) + 2^n, which
        // is 2^(n+1), so adding its ways in makes a carry through every digit.
        let steps = 300
        var successors: [[Int]] = (0..<steps).map { [$0 + 1, $0 + 1, steps + 1] }
        successors.append([steps + 1])  // the top of the ladder
        successors.append([])  // the ending
        successors[0].append(steps + 1)
        let analysis = PathAnalysis(successors: successors, start: 0)
        var expected: [UInt8] = [1]
        var power: [UInt8] = [1]
        for _ in 0..<steps {
            expected = Self.decimalSum([expected, power])
            power = Self.decimalSum([power, power])
        }
        expected = Self.decimalSum([expected, power])
        guard case .finite(let count) = analysis.playthroughs else {
            Issue.record("a loop-free ladder is finite")
            return
        }
        #expect(count.description == Self.decimalText(expected), "2^\(steps + 1) ways")

        // Random graphs with many choices a chapter, each count checked by decimal sums.
        for seed in 1...200 as ClosedRange<UInt64> {
            var random = Generator(state: seed)
            let size = Int.random(in: 2...60, using: &random)
            let graph = (0..<size).map { node in
                node + 1 < size ? (0..<Int.random(in: 1...14, using: &random)).map { _ in Int.random(in: (node + 1)..<size, using: &random) } : []
            }
            var ways = [[UInt8]](repeating: [], count: size)
            ways[0] = [1]
            for node in 0..<size {
                for next in graph[node] { ways[next] = Self.decimalSum([ways[next], ways[node]]) }
            }
            let analysis = PathAnalysis(successors: graph, start: 0)
            for ending in analysis.endings {
                guard case .finite(let count) = ending.playthroughs else {
                    Issue.record("seed \(seed): a loop-free graph is finite")
                    continue
                }
                #expect(count.description == Self.decimalText(ways[ending.chapter]), "seed \(seed) ending \(ending.chapter)")
            }
        }
    }

    @Test("big counts add and print exactly")
    func bigCount() {
        var value = BigCount(UInt64.max)
        value += BigCount(1)
        #expect(value.description == "18446744073709551616")
        #expect(BigCount(1_234_567).abbreviated == "1,234,567")
        var power = BigCount.one
        for _ in 0..<100 { power += power }
        #expect(power.description == "1267650600228229401496703205376")
        #expect(power.abbreviated == "1.26 × 10^30")
    }
}

@Suite("Walkthroughs that take every choice")
struct WalkthroughTests {
    @Test("on 400 random graphs every choice that can lead to an ending is taken, each walk is a real way to an ending, and no walk is wasted")
    func cover() {
        for seed in 1...400 as ClosedRange<UInt64> {
            var random = PathAnalysisTests.Generator(state: seed &* 7919)
            let graph = PathAnalysisTests.randomGraph(seed: seed &+ 5000, acyclic: seed % 2 == 0)
            // A few dangling choices too.
            let choices: [[Int?]] = graph.map { targets in targets.map { Int.random(in: 0..<10, using: &random) == 0 ? nil : $0 } }
            let test = Playtest(choices: choices, start: 0)
            let (walks, uncoverable) = test.coveringWalks()
            var taken = Set<[Int]>()
            for walk in walks {
                #expect(walk.chapters.first == 0 && choices[walk.ending].isEmpty, "seed \(seed): a walk ends at an ending")
                var newlyTaken = false
                for (position, choice) in walk.choices.enumerated() {
                    #expect(choices[walk.chapters[position]][choice] == walk.chapters[position + 1], "seed \(seed): a real choice")
                    if taken.insert([walk.chapters[position], choice]).inserted { newlyTaken = true }
                }
                #expect(newlyTaken || walk.choices.isEmpty, "seed \(seed): every walk takes a choice no earlier one took")
            }
            let total = choices.reduce(0) { $0 + $1.count }
            #expect(taken.count + uncoverable.count == total, "seed \(seed): every choice is taken or explained")
            #expect(walks.count <= max(1, total), "seed \(seed)")
        }
    }

    @Test("from a checked story's graph, counted as a reader moves: a duplicated id leads to its first chapter")
    func fromStoryGraph() throws {
        let json = #"""
            {"story": {"id": "s", "name": "S", "rating": "G", "summary": "s", "chapters": [
              {"id": "a", "name": "A", "text": "t", "is_first_chapter": true, "choices": [{"chapter_id": "b", "text": "1"}, {"chapter_id": "c", "text": "2"}]},
              {"id": "b", "name": "B", "text": "the first b"},
              {"id": "b", "name": "B again", "text": "the second b", "choices": [{"chapter_id": "c", "text": "on"}]},
              {"id": "c", "name": "C", "text": "end"}]}}
            """#
        let graph = StoryGraph(try #require(LoadedFile.load(Array(json.utf8)).story))
        #expect(graph.reachable[2], "the checker follows the ambiguity to both chapters (reported once, as CYD301)")
        let analysis = try #require(PathAnalysis(graph))
        #expect(analysis.endings.map(\.chapter) == [1, 3], "a reader never reaches the second 'b'")
        #expect(analysis.playthroughs == .finite(BigCount(2)))
    }
}
