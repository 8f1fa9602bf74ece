import Foundation
import GRDB
import StoryFormat
import StoryStore
import Testing

@Suite("A library on a database the caller opens")
struct InjectedDatabaseTests {
    static let story = Story(
        id: "s1", name: "Tide", rating: "G", summary: "In memory",
        chapters: [
            Chapter(id: "a", name: "Shore", text: "Waves.", isFirstChapter: true, choices: [Choice(chapterID: "b", text: "On")]),
            Chapter(id: "b", name: "Cliff", text: "Wind."),
        ])

    @Test("an in-memory DatabaseQueue is migrated and stores and reads stories like the pool on disk")
    func inMemory() throws {
        let library = try StoryLibrary(location: LibraryLocation(home: "/nonexistent-cyd-test"), database: DatabaseQueue())
        let source = StorySource(kind: .url, location: "https://example.org/tide/story.json")
        let stored = try library.store(Self.story, source: source, version: "v1", author: "ana")
        #expect(stored.change == .added)
        #expect(try library.store(Self.story, source: source, version: "v1", author: "ana").change == .unchanged)
        let record = try #require(try library.story(source: source))
        #expect(record.title == "Tide" && record.chapterCount == 2 && record.firstChapter == "a" && record.author == "ana")
        #expect(try library.chapter("a", of: record)?.choices.map(\.target) == ["b"])
    }

    @Test("a story without a first chapter is refused by name, and nothing is stored")
    func noFirstChapter() throws {
        let library = try StoryLibrary(location: LibraryLocation(home: "/nonexistent-cyd-test"), database: DatabaseQueue())
        var story = Self.story
        story.chapters[0].isFirstChapter = false
        #expect(throws: LibraryError.noFirstChapter(title: "Tide")) {
            try library.store(story, source: StorySource(kind: .url, location: "https://example.org/x.json"), version: "v1", author: nil)
        }
        #expect(try library.stories().isEmpty)
    }
}
