import Foundation
import GRDB
import StoryFormat
import StoryReader
import StorySources
import StoryStore
import LibraryTestSupport
import TestSupport
import Testing

@Suite("The story library")
struct LibraryTests {
    static let fork = [("a", ["b", "c"]), ("b", []), ("c", ["d"]), ("d", [])]

    @Test("adding a folder stores the story keyed by its path; adding it again changes nothing")
    func addAndReAdd() throws {
        let fixture = try Fixture()
        let first = try fixture.add(storyJSON(Self.fork))
        #expect(first.change == .added)
        #expect(first.story.source == StorySource(kind: .folder, location: fixture.storyFolder))
        #expect(first.story.chapterCount == 4 && first.story.endingCount == 2 && first.story.firstChapter == "a")
        #expect(try fixture.library.importFolder(fixture.storyFolder).change == .unchanged)
        #expect(try fixture.library.stories().count == 1)
    }

    @Test("one folder is one story however it is named: through a symlink, with '..', or by its story.json")
    func oneFolderOneStory() throws {
        let fixture = try Fixture()
        let first = try fixture.add(storyJSON(Self.fork))
        let link = fixture.folder.appendingPathComponent("link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: fixture.storyFolder)
        for name in [link, fixture.storyFolder + "/../story", link + "/story.json", fixture.storyFolder + "/./story.json"] {
            let again = try fixture.library.importFolder(name)
            #expect(again.change == .unchanged && again.story.id == first.story.id, "\(name)")
        }
        #expect(try fixture.library.stories().count == 1)
        #expect(try Sources.recognise(link) == first.story.source)
    }

    @Test("two stories with the same author id from different places are two stories")
    func sameIDDifferentSource() throws {
        let one = try Fixture()
        try one.add(storyJSON(Self.fork))
        let otherFolder = one.folder.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: otherFolder, withIntermediateDirectories: true)
        try Data(storyJSON(title: "Other", Self.fork).utf8).write(to: otherFolder.appendingPathComponent("story.json"))
        try one.library.importFolder(otherFolder.path)
        #expect(try one.library.stories().map(\.storyKey) == ["s1", "s1"])
    }

    @Test("an unreadable story is refused with the validator's findings, and nothing changes")
    func unreadable() throws {
        let fixture = try Fixture()
        try fixture.add(storyJSON(Self.fork))
        try fixture.write(#"{"story": {"id": "s1", "name": "Broken""#)
        #expect {
            try fixture.library.importFolder(fixture.storyFolder)
        } throws: { error in
            guard case SourceError.unreadable(let reports) = error else { return false }
            return reports.flatMap(\.diagnostics).contains { $0.code == .invalidJSON }
        }
        #expect(try fixture.library.stories().first?.chapterCount == 4)
    }

    @Test("trailing commas are read, as readers do")
    func lenient() throws {
        let fixture = try Fixture()
        let result = try fixture.add(storyJSON(Self.fork))
        #expect(result.change == .added)
        let withComma = storyJSON(Self.fork).replacingOccurrences(of: "]}}", with: ",]}}")
        #expect(withComma != storyJSON(Self.fork))
        try fixture.write(withComma)
        let updated = try fixture.library.importFolder(fixture.storyFolder)
        #expect(updated.reports.flatMap(\.diagnostics).contains { $0.code == .trailingComma && $0.severity == .warning })
    }

    @Test("a new version keeps progress where the chapter still exists, and says where it does not")
    func newVersionKeepsProgress() throws {
        let fixture = try Fixture()
        let story = try fixture.add(storyJSON(Self.fork)).story
        let ana = try ReadingSession(library: fixture.library, story: story, profile: "ana", firstName: "Ana")
        try ana.begin()
        try ana.choose(2)  // c
        let bo = try ReadingSession(library: fixture.library, story: story, profile: "bo", firstName: nil)
        try bo.begin()
        try bo.choose(1)  // b
        // The new version drops chapter c.
        let result = try fixture.add(storyJSON([("a", ["b", "d"]), ("b", []), ("d", [])]))
        #expect(result.change == .updated)
        #expect(result.displacedReaders == ["ana"])
        let updated = result.story
        let boAgain = try ReadingSession(library: fixture.library, story: updated, profile: "bo", firstName: nil)
        #expect(try boAgain.begin() == .resumed)
        #expect(boAgain.current.record.key == "b")
        let anaAgain = try ReadingSession(library: fixture.library, story: updated, profile: "ana", firstName: "Ana")
        #expect(try anaAgain.begin() == .chapterGone(missing: "c", fallback: "a"))
        #expect(anaAgain.current.record.key == "a")
    }

    @Test("a folder stored under an FNV-1a version (cyd before XXH64) is stored once again, unchanged, its readers where they were")
    func versionsOfTheOldHash() throws {
        let fixture = try Fixture()
        let json = storyJSON(Self.fork)
        let story = try fixture.add(json).story
        #expect(story.version.hasPrefix("xxh64:") && story.version.count == 6 + 16)
        let ana = try ReadingSession(library: fixture.library, story: story, profile: "ana", firstName: "Ana")
        try ana.begin()
        try ana.choose(2)  // c
        // The library as an older cyd left it: the same story, its version FNV-1a's.
        let database = try DatabaseQueue(path: fixture.library.location.databasePath)
        try database.write { try $0.execute(sql: "UPDATE story SET version = 'fnv64:0123456789abcdef'") }
        try database.close()
        let again = try fixture.add(json)
        #expect(again.change == .updated && again.displacedReaders.isEmpty)
        #expect(again.story.version == story.version)
        let anaAgain = try ReadingSession(library: fixture.library, story: again.story, profile: "ana", firstName: "Ana")
        #expect(try anaAgain.begin() == .resumed)
        #expect(anaAgain.current.record.key == "c")
        #expect(try fixture.add(json).change == .unchanged)
    }

    @Test("chapters with the same id are stored once, the first of them; a reader there is not displaced by a new version")
    func duplicateIDsFirstWins() throws {
        let fixture = try Fixture()
        let story = try fixture.add(storyJSON([("a", ["b"]), ("b", []), ("b", ["a"]), ("c", [])])).story
        #expect(story.chapterCount == 3)
        let b = try #require(try fixture.library.chapter("b", of: story))
        #expect(b.choices.isEmpty && b.position == 1, "the first 'b', an ending, at its place")
        let ana = try ReadingSession(library: fixture.library, story: story, profile: "ana", firstName: "Ana")
        try ana.begin()
        try ana.choose(1)  // b
        let result = try fixture.add(storyJSON([("a", ["b"]), ("b", []), ("b", ["a"])]))
        #expect(result.change == .updated && result.displacedReaders.isEmpty && result.story.chapterCount == 2)
    }

    @Test("search ranks stories by titles, summaries and chapter text, one hit a chapter, with a snippet")
    func search() throws {
        let fixture = try Fixture()
        try fixture.add(storyJSON(title: "The Lighthouse", Self.fork, text: "Fog rolls over the harbour."))
        // Every chapter says it: one hit a chapter, each naming its chapter, all of one story.
        let hits = try fixture.library.search("harb")
        #expect(hits.count == 4)
        #expect(Set(hits.compactMap(\.chapterKey)) == ["a", "b", "c", "d"])
        #expect(Set(hits.map(\.story.id)).count == 1)
        #expect(hits.allSatisfy { $0.snippet.contains("«harbour»") })
        #expect(try fixture.library.search("harb", limit: 2).count == 2)
        #expect(try fixture.library.search("lighthouse").first?.chapterKey == nil)
        #expect(try fixture.library.search("nothinglikethis").isEmpty)
        #expect(try fixture.library.search("\" OR *").isEmpty)  // FTS syntax in a query is only words
    }

    @Test("removing keeps reading progress unless asked to forget it")
    func remove() throws {
        let fixture = try Fixture()
        let story = try fixture.add(storyJSON(Self.fork)).story
        let session = try ReadingSession(library: fixture.library, story: story, profile: "ana", firstName: nil)
        try session.begin()
        try session.choose(2)
        try fixture.library.remove(story, forgetProgress: false)
        #expect(try fixture.library.stories().isEmpty)
        let again = try fixture.add(storyJSON(Self.fork)).story
        #expect(try fixture.library.progress(profile: "ana", story: again)?.chapterKey == "c")
        try fixture.library.remove(again, forgetProgress: true)
        let third = try fixture.add(storyJSON(Self.fork)).story
        #expect(try fixture.library.progress(profile: "ana", story: third) == nil)
    }
}
