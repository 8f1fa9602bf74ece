import StoryAnalysis
import Testing

/// `cyd test --replay` follows a transcript through the story as it is now, in-process: nil
/// when every step holds, else the first place they part, typed.
@Suite("Replaying a transcript")
struct ReplayTests {
    /// c0 → (c1, c2); c1 → (c3, nowhere); c2 and c3 are endings.
    let test = Playtest(choices: [[1, 2], [3, nil], [], []], start: 0)

    func replay(_ text: String) throws -> Playtest.Divergence? {
        test.replay(try Transcript.parse(Array(text.utf8)))
    }

    @Test("a transcript that holds replays to nil")
    func holds() throws {
        #expect(try replay("1\n> c1\n1\n> c3\n= c3\n") == nil)
        #expect(try replay("2\n= c2\n") == nil)
    }

    @Test("each way a transcript parts from the story, at its line, with the steps before it")
    func parts() throws {
        let chapter = try #require(try replay("# walk\n1\n> c2\n"))
        #expect(chapter.line.number == 3 && chapter.actual == .chapter("c1") && chapter.before == ["1"])
        #expect(try replay("1\n= c1\n")?.actual == .notAnEnding("c1", choices: 2))
        #expect(try replay("2\n= c3\n")?.actual == .ending("c2"))
        #expect(try replay("3\n")?.actual == .noSuchChoice(chapter: "c0", choices: 2, number: 3))
        #expect(try replay("1\n2\n")?.actual == .missingTarget(chapter: "c1", number: 2))
        let late = try #require(try replay("1\n> c1\n1\n> c3\n= c3\n> c0\n"))
        #expect(late.actual == .chapter("c3") && late.before == ["1", "> c3", "= c3"], "the three steps before it")
    }
}
