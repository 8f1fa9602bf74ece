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
