import Foundation
import LibraryTestSupport
import StoryReader
import StoryStore
import TerminalUI
import TestSupport
import Testing

/// The reader's loop, run in-process on a library in a temporary folder: lines in, the session
/// moved, plain text and JSON events out (to a file standing in for the terminal).
@Suite("The reader's loop")
struct ReaderLoopTests {
    /// Runs the loop over `lines` and returns what it printed, and the session it moved.
    func run(_ lines: [String], mode: ReaderScreen.Mode = .plain, library words: @escaping (LibraryError) -> String = { "storage: \($0)" }) throws -> (String, ReadingSession) {
        let fixture = try Fixture()
        try fixture.add(storyJSON([("a", ["b", "c"]), ("b", []), ("c", [])]))
        let story = try #require(try fixture.library.stories().first)
        let session = try ReadingSession(library: fixture.library, story: story, profile: "ana", firstName: "Ana", pictures: PictureFetcher(library: fixture.library, source: nil))
        _ = try session.begin(restart: false)
        let printed = fixture.folder.appendingPathComponent("screen.txt").path
        let descriptor = open(printed, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        let screen = ReaderScreen(mode: mode, colors: false, output: Terminal.Stream(descriptor: descriptor))
        var remaining = lines[...]
        let loop = ReaderLoop(
            session: session, screen: screen, interactive: false, words: .init(farewell: "kept; come back soon", library: words),
            input: { remaining.popFirst() })
        try loop.run()
        return (try String(contentsOfFile: printed, encoding: .utf8), session)
    }

    @Test("numbers choose, b goes back, m and j bookmark and jump, n writes notes, h shows the path, q quits")
    func commands() throws {
        let (text, session) = try run(["1", "b", "2", "m end", "b", "j end", "n a note", "n", "h", "zzz", "# a comment", "> b", "q"])
        #expect(session.current.record.key == "c", "jumped back to the bookmark on c")
        #expect(text.contains("bookmarked 'Chapter c' as 'end'"), "\(text)")
        #expect(text.contains("note #1 saved (n -1 removes it)"), "\(text)")
        #expect(text.contains("#1 [Chapter c] a note"), "\(text)")
        #expect(text.contains("'zzz' is not a command; type a choice number, or ? for help"), "\(text)")
        #expect(!text.contains("'# a comment' is not a command") && !text.contains("'> b' is not a command"), "a transcript's annotations are not commands")
        #expect(!text.contains("kept; come back soon"), "plain output (scripts, transcripts) ends without the farewell")
        let path = try session.path().map(\.key)
        #expect(path == ["a", "c"], "\(path)")
    }

    @Test("a choice that does not exist and back at the start are said, and reading goes on")
    func slips() throws {
        let (text, session) = try run(["9", "b", "1"])
        #expect(text.contains("there is no choice 9; choose 1 to 2"), "\(text)")
        #expect(text.contains("you are at the start"), "\(text)")
        #expect(session.current.record.key == "b")
    }

    @Test("in JSON, each answer is an event, and quitting says where the place is kept")
    func json() throws {
        let (text, _) = try run(["m here", "j", "q"], mode: .json)
        let events = text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let names = events.compactMap { $0["event"] as? String }
        #expect(names.contains("bookmark") && names.contains("bookmarks") && names.last == "quit", "\(names)")
    }
}
