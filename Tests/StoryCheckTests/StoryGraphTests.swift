import StoryFormat
import TestSupport
import Testing

@testable import StoryCheck

@Suite("The chapter graph")
struct StoryGraphTests {
    /// A story from (id, targets) pairs; the first chapter is the start.
    static func story(_ chapters: [(String, [String])]) -> [UInt8] { TestStory.graph(chapters, id: "g", title: "G").bytes }

    func codes(_ bytes: [UInt8]) -> [String] {
        Checker.check(bytes: bytes, path: "s.json").flatMap(\.diagnostics).map(\.code.rawValue)
    }

    /// A large story's choice targets are found on two threads, each half of the chapters on
    /// its own; the graph must be the one a single pass makes, whatever sits at the split:
    /// duplicated ids, misspelt and empty targets, choices on both sides leading across it.
    @Test("targets resolved on two threads make the same graph as one pass")
    func twoThreads() throws {
        var chapters: [(String, [String])] = []
        let count = 3_001
        for n in 0..<count {
            var targets = ["c\((n + 1) % count)", "c\((n * 7 + 3) % count)"]
            if n % 97 == 0 { targets.append("missing\(n)") }
            if n % 113 == 0 { targets.append("") }
            if n % 131 == 0 { targets.append("dup\(n % 3)") }
            chapters.append((n % 500 == 250 ? "dup\(n % 3)" : "c\(n)", n % 1000 == 999 ? [] : targets))
        }
        let file = LoadedFile.load(Self.story(chapters))
        let story = try #require(file.story)
        let one = StoryGraph(story, parallelFrom: .max)
        for split in [2, 1_000, count] {
            let two = StoryGraph(story, parallelFrom: split)
            #expect(two.choiceTargets == one.choiceTargets)
            #expect(two.missingTargets == one.missingTargets)
            #expect(two.duplicateGroups == one.duplicateGroups)
            #expect(two.reachable == one.reachable && two.canFinish == one.canFinish && two.endings == one.endings)
            #expect((0..<count).allSatisfy { two.successors(of: $0) == one.successors(of: $0) })
        }
        #expect(!one.missingTargets.isEmpty && !one.duplicateGroups.isEmpty && one.choiceTargets.contains(-1))
    }

    @Test("ids are one rule everywhere: text Swift calls equal (an é composed or an e with its accent, a Kelvin sign and K) is one id: a duplicate said as such, a choice in either spelling leads to the first")
    func idsByCanonicalEquivalence() throws {
        let composed = "Caf\u{E9}", decomposed = "Cafe\u{301}"
        #expect(composed == decomposed && Array(composed.utf8) != Array(decomposed.utf8))
        let bytes = Self.story([("start", [decomposed, "\u{212A}elvin"]), (composed, []), (decomposed, []), ("Kelvin", [])])
        let diagnostics = Checker.check(bytes: bytes, path: "s.json")[0].diagnostics
        let duplicates = diagnostics.filter { $0.code == "CYD301" }
        #expect(duplicates.count == 1 && duplicates[0].message.contains("NFC and NFD"), "\(diagnostics.map(\.message))")
        #expect(!diagnostics.contains { $0.code == "CYD501" || $0.code == "CYD302" || $0.message.contains("no chapter") }, "both spellings and the Kelvin sign reach: \(diagnostics.map(\.message))")
        let index = ChapterIndex(ids: [composed, decomposed, "Kelvin"])
        #expect(index[decomposed] == 0 && index[composed] == 0 && index["\u{212A}elvin"] == 2 && index["kelvin"] == nil)
        // A plain duplicate keeps its plain words.
        let plain = Checker.check(bytes: Self.story([("a", ["b"]), ("b", []), ("b", [])]), path: "s.json")[0].diagnostics.filter { $0.code == "CYD301" }
        #expect(plain.count == 1 && !plain[0].message.contains("NFC"))
    }

    @Test("reachable endings are listed in the summary, in file order")
    func endings() throws {
        let report = Checker.check(bytes: Self.story([("a", ["b", "c"]), ("b", []), ("c", ["d"]), ("d", []), ("x", [])]), path: "s.json")[0]
        let summary = try #require(report.summary)
        #expect(summary.endings == ["b", "d"])
        #expect(summary.unreachable == 1)
        #expect(summary.start == "a")
    }

    @Test("a trap is reported once, where it is entered, with the loop as the hint")
    func trapReportedAtEntry() throws {
        let bytes = Self.story([("a", ["m1", "end"]), ("end", []), ("m1", ["m2"]), ("m2", ["m3"]), ("m3", ["m1"])])
        let found = Checker.check(bytes: bytes, path: "s.json")[0].diagnostics.filter { $0.code == "CYD502" }
        #expect(found.count == 1)
        #expect(found.first?.message == "no ending can be reached from chapter 'm1'")
        #expect(found.first?.help?.contains("m1 → m2 → m3 → m1") == true)
    }

    @Test("a chapter whose choices all lead nowhere is a trap with its own explanation")
    func deadEndWithChoices() throws {
        let found = Checker.check(bytes: Self.story([("a", ["b", "c"]), ("b", ["gone"]), ("c", [])]), path: "s.json")[0]
            .diagnostics.filter { $0.code == "CYD502" }
        #expect(found.count == 1)
        #expect(found.first?.help?.contains("none leads to an existing chapter") == true)
    }

    @Test("the graph says, once, whether some choice names no chapter as soon as the targets are resolved")
    func resolvedCallback() throws {
        for (chapters, missing) in [([("a", ["b"]), ("b", [])], false), ([("a", ["b", "nowhere"]), ("b", [])], true), ([("a", [""]), ("b", ["a"])], false)] {
            let story = try #require(LoadedFile.load(Self.story(chapters)).story)
            var said: [Bool] = []
            let graph = StoryGraph(story, parallelFrom: .max) { said.append($0) }
            #expect(said == [missing])
            #expect(graph.missingTargets.isEmpty == !missing)
        }
    }

    @Test("a story with no endings at all traps the reader from the start")
    func noEndings() {
        #expect(codes(Self.story([("a", ["b"]), ("b", ["a"])])).contains("CYD502"))
    }

    @Test("a 100,000-chapter chain is searched without deep recursion")
    func longChain() throws {
        let count = 100_000
        let chapters = (0..<count).map { ("c\($0)", $0 + 1 < count ? ["c\($0 + 1)"] : []) }
        let report = Checker.check(bytes: Self.story(chapters), path: "s.json")[0]
        #expect(report.diagnostics.isEmpty)
        #expect(report.summary?.endings == ["c\(count - 1)"])
    }
}
