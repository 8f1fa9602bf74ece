import Foundation
import GRDB
import StoryFormat
@testable import StoryStore
import Testing

/// A story's translations kept beside it: each language's chapters stored at add time, read with
/// the chapter in one lookup, gone with the story or its next version.
@Suite("Translations in the library")
struct TranslationStorageTests {
    static let story = InjectedDatabaseTests.story
    static var french: StoredTranslation {
        var story = Self.story
        story.name = "Marée"
        story.summary = "En mémoire"
        story.chapters[0].name = "Rivage"
        story.chapters[0].text = "Des vagues."
        story.chapters[0].choices[0].text = "Plus loin"
        return StoredTranslation(language: "fr", story: story, translated: 5, total: 7)
    }

    func library() throws -> StoryLibrary {
        try StoryLibrary(location: LibraryLocation(home: "/nonexistent-cyd-test"), database: DatabaseQueue())
    }

    @Test("a chapter in a language is the translated one where there is one, the original elsewhere; names follow")
    func readInALanguage() throws {
        let library = try library()
        let source = StorySource(kind: .url, location: "https://example.org/tide/story.json")
        let record = try library.store(Self.story, source: source, version: "v1", author: nil, translations: [Self.french]).story
        #expect(try library.languages(of: record) == [StoryLanguage(language: "fr", title: "Marée", summary: "En mémoire", translated: 5, total: 7)])
        #expect(try library.languages(of: record).first?.percent == 71)
        let shore = try #require(try library.chapter("a", of: record, language: "fr"))
        #expect(shore.name == "Rivage" && shore.body == "Des vagues." && shore.choices.map(\.label) == ["Plus loin"])
        #expect(shore.choices.map(\.isAvailable) == [true])
        #expect(try library.chapter("b", of: record, language: "fr")?.name == "Cliff", "an untranslated chapter as written")
        #expect(try library.chapter("a", of: record)?.name == "Shore", "without a language, the original")
        #expect(try library.chapter("a", of: record, language: "de")?.name == "Shore", "a language it lacks: the original")
        #expect(try library.chapterNames(["a", "b"], of: record, language: "fr") == ["a": "Rivage", "b": "Cliff"])
        #expect(try library.languagesByStory()[record.id]?.map(\.language) == ["fr"])
    }

    @Test("a translation's rows are each chapter's own, whether its chapters are the story's one for one (found by place) or not (a repeated id, a chapter the original lacks: found by id, the first of an id)")
    func rowsByPlaceAndByID() throws {
        let source = StorySource(kind: .url, location: "https://example.org/tide/story.json")
        func rows(_ story: Story, _ translated: Story) throws -> [String] {
            let library = try library()
            _ = try library.store(story, source: source, version: "v1", author: nil, translations: [StoredTranslation(language: "fr", story: translated, translated: 1, total: 2)])
            return try library.database.read { db in try String.fetchAll(db, sql: "SELECT key || '=' || name FROM chapter_translation ORDER BY key") }
        }
        var french = Self.story
        french.chapters[1].name = "Falaise"
        #expect(try rows(Self.story, french) == ["b=Falaise"], "an untranslated chapter has no row")
        // A repeated id: the original keeps the first chapter of it, and so does its translation.
        var repeated = Self.story
        repeated.chapters.append(Chapter(id: "a", name: "Shore again", text: "More waves."))
        var repeatedFrench = repeated
        repeatedFrench.chapters[0].name = "Rivage"
        repeatedFrench.chapters[2].name = "Rivage encore"
        #expect(try rows(repeated, repeatedFrench) == ["a=Rivage"])
        // A translation holding a chapter the story lacks, and in another order.
        var other = french
        other.chapters.swapAt(0, 1)
        other.chapters.append(Chapter(id: "z", name: "Ailleurs", text: "?"))
        #expect(try rows(Self.story, other) == ["b=Falaise"])
    }

    @Test("the same version is stored once, unless it was kept without the translations it now has; a new version replaces them; removal takes them")
    func versions() throws {
        let library = try library()
        let source = StorySource(kind: .url, location: "https://example.org/tide/story.json")
        let plain = try library.store(Self.story, source: source, version: "v1", author: nil)
        #expect(try library.store(Self.story, source: source, version: "v1", author: nil, translations: [Self.french]).change == .updated,
            "a library from before translations were kept gets them")
        #expect(try library.store(Self.story, source: source, version: "v1", author: nil, translations: [Self.french]).change == .unchanged)
        #expect(try library.store(Self.story, source: source, version: "v1", author: nil).change == .unchanged)
        let next = try library.store(Self.story, source: source, version: "v2", author: nil).story
        #expect(try library.languages(of: next).isEmpty)
        #expect(try library.chapter("a", of: next, language: "fr")?.name == "Shore")
        let again = try library.store(Self.story, source: source, version: "v3", author: nil, translations: [Self.french]).story
        #expect(try library.remove(again, forgetProgress: false))
        let left = try library.database.read { db in
            try Int.fetchOne(db, sql: "SELECT (SELECT COUNT(*) FROM story_language) + (SELECT COUNT(*) FROM chapter_translation)")
        }
        #expect(left == 0)
        _ = plain
    }
}
