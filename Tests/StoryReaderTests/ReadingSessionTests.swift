import Foundation
import StoryFormat
import StoryReader
import StorySources
import StoryStore
import LibraryTestSupport
import TestSupport
import Transport
import Testing

@Suite("Reading sessions")
struct ReadingSessionTests {

    func session(_ fixture: Fixture, profile: String = "ana", name: String? = "Ana") throws -> ReadingSession {
        let story = try fixture.library.stories().first!
        let pictures = PictureFetcher(
            library: fixture.library, source: LibraryPictures(context: SourceContext(location: fixture.library.location, certificateAuthorities: HTTPClient.caBundle)))
        return try ReadingSession(library: fixture.library, story: story, profile: profile, firstName: name, pictures: pictures)
    }

    @Test("starts at the first chapter with [[name]] filled in; choosing moves and is saved")
    func chooseAndResume() throws {
        let fixture = try Fixture()
        try fixture.add(storyJSON(Fixture.chain))
        let reader = try session(fixture)
        #expect(try reader.begin() == .started)
        #expect(reader.current.paragraphs == ["Hello, Ana. This is a."])
        try reader.choose(1)
        try reader.choose(1)
        let later = try session(fixture)
        #expect(try later.begin() == .resumed)
        #expect(later.current.record.key == "c")
        #expect(later.history == ["a", "b"])
        #expect(try later.path().map(\.name) == ["Chapter a", "Chapter b", "Chapter c"])
    }

    @Test("a choice that does not exist is an error, not a move")
    func badChoice() throws {
        let fixture = try Fixture()
        try fixture.add(storyJSON(Fixture.chain))
        let reader = try session(fixture)
        try reader.begin()
        #expect(throws: ReadingError.noSuchChoice(3, available: 2)) { try reader.choose(3) }
        #expect(throws: ReadingError.noSuchChoice(0, available: 2)) { try reader.choose(0) }
        #expect(reader.current.record.key == "a")
    }

    @Test("a choice to a missing chapter is shown unavailable and cannot be taken")
    func unavailable() throws {
        let fixture = try Fixture()
        try fixture.add(storyJSON([("a", ["b", "gone"]), ("b", [])]))
        let reader = try session(fixture)
        try reader.begin()
        #expect(reader.current.record.choices.map(\.isAvailable) == [true, false])
        #expect(throws: ReadingError.unavailableChoice("gone")) { try reader.choose(2) }
    }

    @Test("back undoes, restart starts over, and --restart ignores saved progress")
    func backAndRestart() throws {
        let fixture = try Fixture()
        try fixture.add(storyJSON(Fixture.chain))
        let reader = try session(fixture)
        try reader.begin()
        try reader.choose(1)
        try reader.choose(1)
        #expect(try reader.back())
        #expect(reader.current.record.key == "b")
        try reader.restart()
        #expect(reader.current.record.key == "a" && reader.history.isEmpty)
        #expect(try !reader.back())
        try reader.choose(1)
        let again = try session(fixture)
        #expect(try again.begin(restart: true) == .started)
        #expect(again.current.record.key == "a")
    }

    @Test("endings found are counted per profile: endings found 2 of 3")
    func endings() throws {
        let fixture = try Fixture()
        try fixture.add(storyJSON(Fixture.chain))
        let ana = try session(fixture)
        try ana.begin()
        try ana.choose(2)  // x, an ending
        try ana.restart()
        try ana.choose(1)
        try ana.choose(1)
        try ana.choose(1)  // d
        #expect(try ana.endingsFound() == ["x", "d"])
        #expect(ana.endingCount == 3)
        let bo = try session(fixture, profile: "bo", name: "Bo")
        try bo.begin()
        #expect(try bo.endingsFound().isEmpty)
        #expect(bo.current.paragraphs == ["Hello, Bo. This is a."])
    }

    @Test("bookmarks and notes are kept per story and profile, listed and removable")
    func bookmarksAndNotes() throws {
        let fixture = try Fixture()
        try fixture.add(storyJSON(Fixture.chain))
        let reader = try session(fixture)
        try reader.begin()
        try reader.choose(1)
        #expect(try reader.bookmark("fork") == "fork")
        let note = try reader.addNote("the bridge looked odd")
        try reader.choose(1)
        try reader.jump(to: "fork")
        #expect(reader.current.record.key == "b")
        #expect(try reader.back())
        #expect(reader.current.record.key == "c")
        #expect(try reader.bookmarks().map(\.name) == ["fork"])
        #expect(try reader.notes().map(\.body) == ["the bridge looked odd"])
        #expect(try reader.removeNote(note))
        #expect(try reader.removeBookmark("fork"))
        #expect(try reader.bookmarks().isEmpty && reader.notes().isEmpty)
        #expect(throws: ReadingError.noSuchBookmark("fork")) { try reader.jump(to: "fork") }
        let other = try session(fixture, profile: "bo")
        try other.begin()
        try other.bookmark("mine")
        #expect(try reader.bookmarks().isEmpty)
    }

    @Test("history is bounded")
    func boundedHistory() throws {
        let fixture = try Fixture()
        try fixture.add(storyJSON([("a", ["b"]), ("b", ["a"])]))
        let reader = try session(fixture)
        try reader.begin()
        for _ in 0..<(StoryLibrary.historyLimit + 50) { try reader.choose(1) }
        #expect(reader.history.count == StoryLibrary.historyLimit)
    }

    @Test("a picture from the story folder is stored on first view and served from the library after")
    func folderPicture() throws {
        let fixture = try Fixture()
        try FileManager.default.createDirectory(at: fixture.folder.appendingPathComponent("story/resources"), withIntermediateDirectories: true)
        try Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]).write(to: fixture.folder.appendingPathComponent("story/resources/a.png"))
        try fixture.add(storyJSON(Fixture.chain, picture: "resources/a.png"))
        let reader = try session(fixture)
        try reader.begin()
        guard case .ready(let picture) = reader.waitForPicture(timeout: 10) else { Issue.record("not loaded"); return }
        #expect(picture.data.count == 7)
        try FileManager.default.removeItem(at: fixture.folder.appendingPathComponent("story/resources/a.png"))
        let later = try session(fixture)
        try later.begin()
        #expect(later.picture() == .ready(picture))
    }

    @Test("a path that leaves the story folder is refused")
    func hostilePicturePath() throws {
        let fixture = try Fixture()
        try fixture.add(storyJSON(Fixture.chain, picture: "../../etc/passwd"))
        let reader = try session(fixture)
        try reader.begin()
        #expect(reader.waitForPicture(timeout: 10) == .failed(path: "../../etc/passwd", reason: "the path leaves the story's folder"))
    }

    @Test("an https picture is fetched once, then served offline; a failure can be retried")
    func webPicture() throws {
        let certificate = try TestCertificate()
        let server = try TestHTTPServer(tls: certificate)
        setenv("CURL_CA_BUNDLE", certificate.certificate, 1)
        defer { unsetenv("CURL_CA_BUNDLE") }
        let fixture = try Fixture()
        try fixture.add(storyJSON(Fixture.chain, picture: server.url("/picture.png")))
        let reader = try session(fixture)
        try reader.begin()
        guard case .ready = reader.waitForPicture(timeout: 20) else { Issue.record("not loaded: \(reader.picture())"); return }
        for _ in 0..<3 {
            let later = try session(fixture)
            try later.begin()
            guard case .ready = later.picture() else { Issue.record("not served from the library"); return }
        }
        #expect(try server.count("/picture.png") == 1)
        // A failing picture: a placeholder with the reason, then a retry asks again.
        let broken = try Fixture()
        try broken.add(storyJSON(Fixture.chain, picture: server.url("/status/404")))
        let unlucky = try session(broken)
        try unlucky.begin()
        #expect(unlucky.waitForPicture(timeout: 20) == .failed(path: server.url("/status/404"), reason: "the server answered 404"))
        #expect(try server.count("/status/404") == 1)
        _ = unlucky.retryPicture()
        #expect(unlucky.waitForPicture(timeout: 20) == .failed(path: server.url("/status/404"), reason: "the server answered 404"))
        #expect(try server.count("/status/404") == 2)
    }
}
