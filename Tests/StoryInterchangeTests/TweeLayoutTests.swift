import Foundation
import StoryFormat
import Testing

@testable import StoryInterchange

/// Where an export puts each passage on Twine's story map must not depend on how the layout
/// is worked out: the choices' chapters are found once, in chapter order (in two halves on two
/// cores for a large story), before the walk from the first chapter. Checked against a plain
/// breadth-first walk written here from the rule (TweeLayout's own documentation).
@Suite("Twee layout")
struct TweeLayoutTests {
    /// The rule, plainly: the first chapter of an id is the one a choice leads to; layers
    /// breadth-first from the first chapter (else the first), then from each chapter not yet
    /// placed, below all placed; rows of a layer wrap after 40.
    static func reference(_ story: Story) -> [(x: Int, y: Int)] {
        var first: [String: Int] = [:]
        for (position, chapter) in story.chapters.enumerated() where first[chapter.id] == nil { first[chapter.id] = position }
        var layer = [Int](repeating: -1, count: story.chapters.count)
        var order: [Int] = []
        var deepest = -1
        func walk(_ root: Int, _ base: Int) {
            layer[root] = base
            deepest = max(deepest, base)
            var head = order.count
            order.append(root)
            while head < order.count {
                let chapter = order[head]
                head += 1
                for choice in story.chapters[chapter].choices {
                    guard let next = first[choice.chapterID], layer[next] < 0 else { continue }
                    layer[next] = layer[chapter] + 1
                    deepest = max(deepest, layer[next])
                    order.append(next)
                }
            }
        }
        if let start = story.chapters.firstIndex(where: \.isFirstChapter) ?? (story.chapters.isEmpty ? nil : 0) { walk(start, 0) }
        for chapter in story.chapters.indices where layer[chapter] < 0 { walk(chapter, deepest + 1) }
        var positions = [(x: Int, y: Int)](repeating: (0, 0), count: story.chapters.count)
        var (row, current, column) = (-1, -1, 0)
        for chapter in order {
            if layer[chapter] != current || column == 40 {
                row += 1
                column = 0
                current = layer[chapter]
            }
            positions[chapter] = (100 + column * 125, 100 + row * 125)
            column += 1
        }
        return positions
    }

    /// A random story: choices to chapters before and after, to ids no chapter has, repeated
    /// ids, chapters no choice reaches, the first chapter anywhere (or none marked).
    static func story(_ count: Int, seed: UInt64, markedFirst: Bool) -> Story {
        var random = SplitMix64(state: seed)
        let ids = (0..<count).map { index in index % 97 == 5 ? "c\(index - 1)" : "c\(index)" }  // a repeat now and then
        let start = Int.random(in: 0..<count, using: &random)
        return Story(id: "s", name: "S", rating: "G", summary: "", chapters: ids.enumerated().map { index, id in
            let choices = (0..<Int.random(in: 0...3, using: &random)).map { _ -> Choice in
                let roll = Int.random(in: 0..<20, using: &random)
                let target = roll == 0 ? "nowhere-\(index)" : roll < 4 ? ids[min(count - 1, index + 1)] : ids[Int.random(in: 0..<count, using: &random)]
                return Choice(chapterID: target, text: "")
            }
            return Chapter(id: id, name: id, text: "", isFirstChapter: markedFirst && index == start, choices: choices)
        })
    }

    @Test("a large story laid out with its choices found in two halves, and in one pass, is the rule's layout", arguments: [false, true])
    func halvesAndOnePass(markedFirst: Bool) {
        for (count, seed) in [(2_501, UInt64(7)), (4_000, 11), (3, 5), (1, 2)] {
            let story = Self.story(count, seed: seed, markedFirst: markedFirst)
            let expected = Self.reference(story).map { "\($0.x),\($0.y)" }
            let halves = TweeLayout.positions(of: story, parallelFrom: 2).map { "\($0.x),\($0.y)" }
            let onePass = TweeLayout.positions(of: story, parallelFrom: .max).map { "\($0.x),\($0.y)" }
            #expect(halves == expected, "\(count) chapters, in halves")
            #expect(onePass == expected, "\(count) chapters, in one pass")
        }
        #expect(TweeLayout.positions(of: Story(id: "e", name: "E", rating: "G", summary: "", chapters: [])).isEmpty)
    }

    @Test("a passage's position is cyd's layout exactly when its text is the layout's, compared without making it: signs, zeros, the largest and smallest numbers, and near misses")
    func laidOutCompared() {
        var generator = SplitMix64(state: 2026_11_29)
        var values = [0, 1, -1, 9, 10, 99, 100, 125, 100_100, Int.max, Int.min, Int.max - 1, Int.min + 1]
        for _ in 0..<200 { values.append(Int.random(in: -1_000_000...1_000_000, using: &generator)) }
        for _ in 0..<50 { values.append(Int(bitPattern: UInt(generator.next()))) }
        for x in values.prefix(40) {
            for y in values {
                let position = (x: x, y: y)
                let text = TwineData.laidOut(position)
                #expect(TwineData.isLaidOut(text, position), "\(text)")
                for near in ["0" + text, "+" + text, text + " ", " " + text, text.replacingOccurrences(of: ",", with: ", "), text + "0", String(text.dropLast()),
                             String(y) + "," + String(x), "\(x)\u{FF0C}\(y)", text.replacingOccurrences(of: "-", with: "\u{2212}")] where near != text {
                    #expect(!TwineData.isLaidOut(near, position), "\(near) for \(text)")
                }
            }
        }
        #expect(!TwineData.isLaidOut("", (0, 0)) && !TwineData.isLaidOut(",", (0, 0)) && !TwineData.isLaidOut("0,", (0, 0)))
    }
}

