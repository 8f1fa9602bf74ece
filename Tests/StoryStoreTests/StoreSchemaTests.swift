import Foundation
import GRDB
import StoryFormat
import TestSupport
import Testing

@testable import StoryStore

/// Each row type owns its table: the columns the migrations make are the columns the row binds,
/// and every field of the format's chapter and choice has a decided place in the library.
@Suite("Rows own their tables")
struct StoreSchemaTests {
    static func columns(of table: String) throws -> [String] {
        let folder = try TemporaryFolder()
        let location = LibraryLocation(home: folder.url.path)
        try FileManager.default.createDirectory(atPath: (location.databasePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: location.databasePath)
        try Schema.migrator.migrate(queue)
        return try queue.read { db in try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0["name"] as String } }
    }

    @Test("the chapter table's columns, after every migration, are ChapterRow's (its rowid aside), and a translation's are its translated keys'")
    func chapterColumns() throws {
        #expect(try Set(Self.columns(of: "chapter").filter { $0 != "id" }) == Set(ChapterRow.columns))
        #expect(try Set(Self.columns(of: "chapter_translation")) == Set(["story_id", "language", "key"] + ChapterRow.translatedFields.map(ChapterRow.column)))
    }

    @Test("a chapter's choices are kept with it, in order, as [target, label] pairs that read back the same")
    func choicesColumn() throws {
        let choices = [Choice(chapterID: "b", text: "Go \"on\""), Choice(chapterID: "x", text: "Back, é\u{1F30A}"), Choice(chapterID: "b", text: "Again")]
        let encoded = StoredChoices.encode(choices)
        #expect(encoded == #"[["b","Go \"on\""],["x","Back, é🌊"],["b","Again"]]"#)
        let decoded = try #require(StoredChoices.decode(encoded))
        #expect(decoded.map(\.target) == ["b", "x", "b"])
        #expect(decoded.map(\.label) == choices.map(\.text))
        #expect(StoredChoices.encode([]) == "[]")
        #expect(StoredChoices.decode(#"[["b"]]"#) == nil, "a pair of one is not a choice")
        #expect(StoredChoices.decode("not json") == nil)
        #expect(try !Self.tables().contains("choice"), "the choice table is gone")
    }

    @Test("every key of a chapter but the first-chapter flag (the story's) and Twine's data (no reader's) has a column named as the key, and reads back as stored")
    func everyChapterKeyIsKept() throws {
        #expect(ChapterRow.fields == ChapterField.allCases.filter { $0 != .isFirstChapter && $0 != .twine })
        for field in ChapterRow.fields where field != .id && field != .text {
            #expect(ChapterRow.column(field) == field.key)
        }
        // Every key set (a key added later is in it), but the first-chapter flag: the story keeps that.
        let chapter = Chapter.withEveryKey(ChapterRow.fields)
        let folder = try TemporaryFolder()
        let library = try StoryLibrary(location: LibraryLocation(home: folder.url.path))
        let story = Story(id: "s", name: "S", rating: "G", summary: "s", chapters: [chapter, Chapter(id: "b", name: "B", text: "b", isFirstChapter: true)])
        let stored = try library.store(story, source: StorySource(kind: .folder, location: "/s"), version: "1", author: nil).story
        #expect(try library.chapter("a", of: stored)?.chapter == chapter, "every key, as it was stored")
        let choiceFields = Set(Mirror(reflecting: chapter.choices[0]).children.compactMap(\.label))
        #expect(choiceFields == Set(StoredChoices.modelFields.keys))
    }

    @Test("a key the format gains is a migration of its own, made from the field, and a library made before it opens with the column added")
    func keyMigrations() throws {
        #expect(ChapterRow.declaration(.picAlt) == "pic_alt TEXT")
        #expect(ChapterRow.declaration(.isEnding) == "is_ending INTEGER NOT NULL DEFAULT 0")
        #expect(ChapterRow.declaration(.choices) == "choices TEXT NOT NULL DEFAULT '[]'")
        let later = ChapterRow.fields.filter { !ChapterRow.columnsBeforeKeyMigrations.contains(ChapterRow.column($0)) }
        let names = Schema.migrator.migrations
        for field in later { #expect(names.contains("chapter key \(field.key)")) }
        #expect(names.filter { $0.hasPrefix("chapter key ") }.count == later.count)
    }

    @Test("a chapter's pic_alt is stored and read back with it; a chapter without one has none")
    func pictureAltText() throws {
        let folder = try TemporaryFolder()
        let library = try StoryLibrary(location: LibraryLocation(home: folder.url.path))
        let story = Story(
            id: "s", name: "S", rating: "G", summary: "s",
            chapters: [
                Chapter(id: "a", name: "A", text: "a", isFirstChapter: true, picPath: "p.png", picAlt: "Boats in a grey harbour", choices: [Choice(chapterID: "b", text: "On")]),
                Chapter(id: "b", name: "B", text: "b", picPath: "p.png"),
            ])
        let stored = try library.store(story, source: StorySource(kind: .folder, location: "/s"), version: "1", author: nil).story
        #expect(try library.chapter("a", of: stored)?.picAlt == "Boats in a grey harbour")
        #expect(try library.chapter("b", of: stored)?.picAlt == nil)
    }

    @Test("the INSERT is made from the columns, one placeholder each")
    func insertStatement() {
        let columns = ["story_id", "position"] + ChapterField.allCases.filter { $0 != .isFirstChapter && $0 != .twine }.map { $0 == .id ? "key" : $0 == .text ? "body" : $0.key }
        #expect(ChapterRow.insert == "INSERT INTO chapter (\(columns.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))")
        #expect(ChapterRow.insert.hasPrefix("INSERT INTO chapter (story_id, position, key, name, body, pic_path, pic_alt, vid_path, is_ending, "))
    }

    @Test("a catalogue row's columns are CatalogueEntry's; an entry with every field set reads back as written, and a stored outcome this build does not know is an error naming it")
    func catalogueRow() throws {
        #expect(try Set(Self.columns(of: "catalogue_repo")) == Set(CatalogueEntry.Columns.allCases.map(\.rawValue)))
        var entry = CatalogueEntry(url: "git://127.0.0.1/tide.git", author: "ana", repository: "tide", discovery: .github, pushedAt: "2026-11-30T01:02:03Z")
        (entry.isStory, entry.storyKey, entry.title, entry.rating, entry.summary, entry.chapterCount) = (false, "key", "Tide", "PG", "Sea", 7)
        (entry.headCommit, entry.checkedAt, entry.lastError, entry.outcome, entry.checkedPushedAt) = ("c1", 1.5, "gone", .invalidStory, "2026-11-29T00:00:00Z")
        (entry.warning, entry.storySHA256, entry.picturesSHA256, entry.brokenSince, entry.brokenCommit) = ("untagged-listed", "ab", "pics", 2.5, "c2")
        (entry.failingSince, entry.changedAt, entry.errorCount, entry.warningCount, entry.languages) = (3.5, 4.5, 1, 2, "fr=100")
        let unset = Mirror(reflecting: entry).children.filter { child in
            let value = Mirror(reflecting: child.value)
            return value.displayStyle == .optional && value.children.isEmpty
        }
        #expect(unset.isEmpty, "every field is set: \(unset.compactMap(\.label))")

        let folder = try TemporaryFolder()
        let queue = try DatabaseQueue(path: folder.url.appendingPathComponent("library.sqlite").path)
        try Schema.migrator.migrate(queue)
        try queue.write { db in try entry.insert(db) }
        #expect(try queue.read { db in try CatalogueEntry.fetchOne(db, key: entry.url) } == entry)
        for discovery in [CatalogueEntry.Discovery.listed, .index] {
            entry.discovery = discovery
            entry.outcome = nil
            try queue.write { db in try entry.update(db) }
            #expect(try queue.read { db in try CatalogueEntry.fetchOne(db, key: entry.url) } == entry, "changed and cleared fields are written")
        }

        try queue.write { db in try db.execute(sql: "UPDATE catalogue_repo SET outcome = 'moved-away'") }
        #expect(throws: CatalogueEntry.UnknownValue(column: "outcome", value: "moved-away")) {
            try queue.read { db in try CatalogueEntry.fetchOne(db, key: entry.url) }
        }
    }

    static func tables() throws -> [String] {
        let folder = try TemporaryFolder()
        let location = LibraryLocation(home: folder.url.path)
        try FileManager.default.createDirectory(atPath: (location.databasePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: location.databasePath)
        try Schema.migrator.migrate(queue)
        return try queue.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") }
    }
}
