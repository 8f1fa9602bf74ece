import Foundation
import GRDB
import TestSupport
import Testing

@testable import StoryStore

/// A library written by an older cyd is carried forward by the migrations it lacks, and what
/// it held means the same afterwards.
@Suite("Migrations")
struct MigrationTests {
    @Test("a new library is made of 16 KiB pages; one made of 4 KiB pages keeps them, and opens and migrates")
    func pageSizes() throws {
        let folder = try TemporaryFolder()
        let fresh = LibraryLocation(home: folder.url.path + "/new")
        _ = try StoryLibrary(location: fresh)
        #expect(try DatabaseQueue(path: fresh.databasePath).read { try Int.fetchOne($0, sql: "PRAGMA page_size") } == 16384)

        let older = LibraryLocation(home: folder.url.path + "/old")
        try FileManager.default.createDirectory(atPath: (older.databasePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let old = try DatabaseQueue(path: older.databasePath)
        try old.writeWithoutTransaction { try $0.execute(sql: "PRAGMA page_size = 4096; PRAGMA journal_mode = WAL") }
        try Schema.migrator.migrate(old, upTo: "v4: the fingerprint of the last index applied")
        try old.close()
        let library = try StoryLibrary(location: older)
        #expect(try library.catalogue().isEmpty)
        #expect(try DatabaseQueue(path: older.databasePath).read { try Int.fetchOne($0, sql: "PRAGMA page_size") } == 4096)
    }

    @Test("v5: catalogue warnings kept in words become codes the sync reads back")
    func warningsBecomeCodes() throws {
        let folder = try TemporaryFolder()
        let location = LibraryLocation(home: folder.url.path)
        try FileManager.default.createDirectory(atPath: (location.databasePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let old = try DatabaseQueue(path: location.databasePath)
        try Schema.migrator.migrate(old, upTo: "v4: the fingerprint of the last index applied")
        try old.write { db in
            for (url, warning) in [
                ("https://example.org/a.git", "no README.md; listed in authors.json, so offered anyway (a README with #ChooseYourDestiny lets GitHub discovery find it)"),
                ("https://example.org/b.git", "README.md does not mention #ChooseYourDestiny; listed in authors.json, so offered anyway"),
                ("https://example.org/c.git", nil),
            ] as [(String, String?)] {
                try db.execute(
                    sql: "INSERT INTO catalogue_repo (url, author, name, discovery, is_story, outcome, warning) VALUES (?, 'ana', ?, 'listed', 1, 'story', ?)",
                    arguments: [url, String(url.dropLast(4).split(separator: "/").last!), warning])
            }
        }
        try old.close()
        let library = try StoryLibrary(location: location)
        let warnings = Dictionary(uniqueKeysWithValues: try library.catalogue().map { ($0.url, $0.warning) })
        #expect(warnings["https://example.org/a.git"] == "no-readme-listed")
        #expect(warnings["https://example.org/b.git"] == "untagged-listed")
        #expect(warnings["https://example.org/c.git"] == .some(nil))
    }

    @Test("v6: each chapter's choices move from the choice table into the chapter, in their order; a reader sees the same chapter")
    func choicesMoveIntoChapters() throws {
        let folder = try TemporaryFolder()
        let location = LibraryLocation(home: folder.url.path)
        try FileManager.default.createDirectory(atPath: (location.databasePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let old = try DatabaseQueue(path: location.databasePath)
        try Schema.migrator.migrate(old, upTo: "v5: catalogue warnings kept as codes")
        try old.write { db in
            try db.execute(
                sql: """
                    INSERT INTO story (id, source, source_kind, location, story_key, title, rating, summary, version, first_chapter,
                        chapter_count, ending_count, added_at, updated_at)
                    VALUES (1, 'folder:/s', 'folder', '/s', 's1', 'Tide', 'G', 'Sea', 'v', 'a', 3, 2, 0, 0);
                    INSERT INTO chapter (story_id, key, position, name, body, is_ending) VALUES
                        (1, 'a', 0, 'Shore', 'Waves.', 0), (1, 'b', 1, 'Cliff', 'Wind.', 0), (1, 'c', 2, 'Cave', 'Dark.', 1);
                    -- Inserted out of order: the position decides.
                    INSERT INTO choice (story_id, chapter_key, position, target, label) VALUES
                        (1, 'a', 2, 'gone', 'Into the fog'), (1, 'a', 0, 'b', 'Climb'), (1, 'a', 1, 'c', 'Go in, "quietly"'),
                        (1, 'b', 0, 'a', 'Down again');
                    """)
        }
        try old.close()
        let library = try StoryLibrary(location: location)
        let story = try #require(try library.stories().first)
        let shore = try #require(try library.chapter("a", of: story))
        #expect(shore.choices.map(\.target) == ["b", "c", "gone"])
        #expect(shore.choices.map(\.label) == ["Climb", "Go in, \"quietly\"", "Into the fog"])
        #expect(shore.choices.map(\.isAvailable) == [true, true, false])
        #expect(shore.choices.map(\.position) == [0, 1, 2])
        #expect(try library.chapter("b", of: story)?.choices.map(\.target) == ["a"])
        #expect(try library.chapter("c", of: story)?.endsReading == true)
    }
}
