import Foundation
import LibraryTestSupport
import StoryStore
import TerminalUI
import TestSupport
import Testing

/// The terminal reader's questions before a story opens, in-process: lines in, what was asked
/// and shown out.
@Suite("The reader's first questions")
struct ReaderQuestionsTests {
    /// The questions over `lines` on a screen written to a file; `asked` collects the prompts.
    final class Run {
        let fixture: Fixture
        let printed: String
        let descriptor: Int32
        var asked: [String] = []
        var remaining: ArraySlice<String>

        init(_ lines: [String]) throws {
            fixture = try Fixture()
            printed = fixture.folder.appendingPathComponent("screen.txt").path
            descriptor = open(printed, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            remaining = lines[...]
        }

        deinit { close(descriptor) }

        func questions(interactive: Bool) -> ReaderQuestions {
            ReaderQuestions(
                screen: ReaderScreen(mode: .plain, colors: false, output: Terminal.Stream(descriptor: descriptor)), interactive: interactive,
                input: { self.remaining.popFirst() }, ask: { self.asked.append($0) })
        }

        var shown: String { (try? String(contentsOfFile: printed, encoding: .utf8)) ?? "" }
    }

    @Test("a name given is used and kept for the profile; a kept one is used without asking")
    func givenAndKept() throws {
        let run = try Run([])
        #expect(try run.questions(interactive: true).firstName(given: "Ana", library: run.fixture.library, profile: "p", fallback: "Reader") == "Ana")
        #expect(try run.questions(interactive: true).firstName(given: nil, library: run.fixture.library, profile: "p", fallback: "Reader") == "Ana")
        #expect(run.asked.isEmpty, "\(run.asked)")
    }

    @Test("asked on a terminal: an empty name or one with a control character is asked again; q quits; nobody to ask gives the fallback")
    func asked() throws {
        let run = try Run(["", "An\u{1B}[2Ja", "  Bo  "])
        #expect(try run.questions(interactive: true).firstName(given: nil, library: run.fixture.library, profile: "p", fallback: "Reader") == "Bo")
        #expect(run.asked.first == "What is your first name? (the stories use it; q quits) ")
        #expect(run.asked.filter { $0.hasPrefix("A name, please") }.count == 2, "\(run.asked)")
        #expect(try run.fixture.library.firstName(profile: "p") == "Bo", "kept for next time")
        let quitting = try Run(["q"])
        #expect(try quitting.questions(interactive: true).firstName(given: nil, library: quitting.fixture.library, profile: "p", fallback: "Reader") == nil)
        let ended = try Run([])
        #expect(try ended.questions(interactive: true).firstName(given: nil, library: ended.fixture.library, profile: "p", fallback: "Reader") == nil)
        let piped = try Run(["Ignored"])
        #expect(try piped.questions(interactive: false).firstName(given: nil, library: piped.fixture.library, profile: "p", fallback: "Reader") == "Reader")
    }

    @Test("the picker lists the library's stories and the bundled ones, takes a library id or bN, and says what to type otherwise")
    func picker() throws {
        let run = try Run(["7", "b2"])
        _ = try run.fixture.add(storyJSON([("a", ["b"]), ("b", [])]))
        let bundled = [
            ReaderQuestions.Bundled(number: 2, folder: "/stories/tide", title: "The Tide", keptAt: "The Pier"),
            ReaderQuestions.Bundled(number: 3, folder: "/stories/m\u{1B}]0;x", title: "Market", keptAt: nil),
        ]
        let pick = try run.questions(interactive: true).pickStory(library: run.fixture.library, profile: "p", bundled: bundled, bundledCount: 3)
        #expect(pick == .bundled(2))
        let shown = run.shown
        #expect(shown.contains("Stories:"))
        #expect(shown.contains("  1) Tide · not started"), "\(shown)")
        #expect(shown.contains("  b2) The Tide · bundled, your place kept at 'The Pier'"), "\(shown)")
        #expect(!shown.contains("\u{1B}"), "a folder's name reaches the screen escaped")
        #expect(shown.contains("type one of 1, b2, b3"), "\(shown)")
        let byID = try Run(["1"])
        _ = try byID.fixture.add(storyJSON([("a", [])]))
        guard case .stored(let record) = try byID.questions(interactive: true).pickStory(library: byID.fixture.library, profile: "p", bundled: [], bundledCount: 0) else {
            Issue.record("the library id was not taken")
            return
        }
        #expect(record.id == 1)
        let piped = try Run(["nope"])
        #expect(try piped.questions(interactive: false).pickStory(library: piped.fixture.library, profile: "p", bundled: bundled, bundledCount: 3) == .quit,
            "piped input that names nothing ends the picker")
    }

    @Test("the bundled stories listed are those the library does not hold, numbered among all; one removed with its place kept shows where")
    func bundledNotAdded() throws {
        let fixture = try Fixture()
        let folder = try TemporaryFolder()
        _ = try folder.write("a-gull/story.json", TestStory.twoChapters(title: "Gull", id: "gull").json)
        _ = try folder.write("b-tide/story.json", TestStory.twoChapters(title: "Tide", id: "tide").json)
        let folders = [folder.path("a-gull"), folder.path("b-tide")]
        let gull = try fixture.library.importFolder(folders[0]).story
        #expect(try ReaderQuestions.bundled(folders, library: fixture.library, profile: "p").map(\.number) == [2])
        try fixture.library.saveProgress(Progress(chapterKey: "b", history: ["a"], updatedAt: 0), profile: "p", story: gull, reachedEnding: false)
        try fixture.library.remove(gull, forgetProgress: false)
        let listed = try ReaderQuestions.bundled(folders, library: fixture.library, profile: "p")
        #expect(listed.map(\.number) == [1, 2] && listed[0].title == "Gull" && listed[0].keptAt == "Cliff", "\(listed)")
        #expect(listed[1].keptAt == nil)
    }
}
