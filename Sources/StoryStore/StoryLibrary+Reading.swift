#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB
import StoryFormat

/// Reading state: profiles, progress, endings found, bookmarks, notes and stored pictures.
extension StoryLibrary {
    /// How many chapters of history are kept for "back".
    public static let historyLimit = 200

    // MARK: Profiles

    public func firstName(profile: String) throws -> String? {
        try database.read { db in try String.fetchOne(db, sql: "SELECT first_name FROM profile WHERE name = ?", arguments: [profile]) }
    }

    /// Every profile with a name or a place kept, in order.
    public func profiles() throws -> [String] {
        try database.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM profile UNION SELECT profile FROM progress ORDER BY 1")
        }
    }

    /// Whether a profile other than `name` has a name or a place kept (two quick lookups, however
    /// many profiles there are).
    public func hasProfile(besides name: String) throws -> Bool {
        try database.read { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM profile WHERE name != ?1) OR EXISTS (SELECT 1 FROM progress WHERE profile != ?1)
                    """, arguments: [name]) ?? false
        }
    }

    public func setFirstName(_ firstName: String, profile: String) throws {
        try database.write { db in
            try db.execute(
                sql: "INSERT INTO profile (name, first_name) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET first_name = excluded.first_name",
                arguments: [profile, firstName])
        }
    }

    // MARK: Progress

    public func progress(profile: String, story: StoryRecord) throws -> Progress? { try progress(profile: profile, source: story.source) }

    /// Progress is kept by source: a story removed with its readers' places kept still has them.
    public func progress(profile: String, source: StorySource) throws -> Progress? {
        try database.read { db in
            try Row.fetchOne(
                db, sql: "SELECT chapter_key, history, updated_at FROM progress WHERE profile = ? AND story_source = ?",
                arguments: [profile, source.key]
            ).map { row in
                let history = JSONValue.parse(Array((row["history"] as String).utf8))?.array?.compactMap(\.string) ?? []
                return Progress(chapterKey: row["chapter_key"], history: history, updatedAt: row["updated_at"])
            }
        }
    }

    /// Reading state is written only for a story that is still in the library, checked in the
    /// same transaction as the write: a story removed (and perhaps forgotten) by another cyd
    /// while it is read must not get notes and bookmarks back behind the user's back.
    static func requireStory(_ story: StoryRecord, _ db: Database) throws {
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM story WHERE id = ?)", arguments: [story.id]) == true else {
            throw LibraryError.storyRemoved(title: story.title)
        }
    }

    /// Whether the story is still in the library (another cyd may have removed it).
    public func contains(_ story: StoryRecord) throws -> Bool {
        try database.read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM story WHERE id = ?)", arguments: [story.id]) == true }
    }

    /// Saves where a reader is (and, when the chapter is an ending, that they found it), in one
    /// transaction.
    public func saveProgress(_ progress: Progress, profile: String, story: StoryRecord, reachedEnding: Bool) throws {
        let history = Array(progress.history.suffix(Self.historyLimit))
        let encoded = JSONValue.array(history.map { .string($0) }).encoded
        try database.write { db in
            try Self.requireStory(story, db)
            try db.execute(
                sql: """
                    INSERT INTO progress (profile, story_source, chapter_key, history, updated_at) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(profile, story_source) DO UPDATE SET chapter_key = excluded.chapter_key,
                        history = excluded.history, updated_at = excluded.updated_at
                    """,
                arguments: [profile, story.source.key, progress.chapterKey, encoded, Self.now])
            if reachedEnding {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO ending_found (profile, story_source, chapter_key, found_at) VALUES (?, ?, ?, ?)",
                    arguments: [profile, story.source.key, progress.chapterKey, Self.now])
            }
        }
    }

    /// Endings of the current version that this reader has reached.
    public func endingsFound(profile: String, story: StoryRecord) throws -> [String] {
        try database.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT e.chapter_key FROM ending_found e JOIN chapter c ON c.story_id = ? AND c.key = e.chapter_key
                    WHERE e.profile = ? AND e.story_source = ? ORDER BY e.found_at
                    """,
                arguments: [story.id, profile, story.source.key])
        }
    }

    // MARK: Bookmarks and notes

    public func bookmarks(profile: String, story: StoryRecord) throws -> [Bookmark] {
        try database.read { db in
            try Row.fetchAll(
                db, sql: "SELECT name, chapter_key, created_at FROM bookmark WHERE profile = ? AND story_source = ? ORDER BY created_at, name",
                arguments: [profile, story.source.key]
            ).map { Bookmark(name: $0["name"], chapterKey: $0["chapter_key"], createdAt: $0["created_at"]) }
        }
    }

    public func addBookmark(_ name: String, chapterKey: String, profile: String, story: StoryRecord) throws {
        try database.write { db in
            try Self.requireStory(story, db)
            try db.execute(
                sql: """
                    INSERT INTO bookmark (profile, story_source, name, chapter_key, created_at) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(profile, story_source, name) DO UPDATE SET chapter_key = excluded.chapter_key, created_at = excluded.created_at
                    """,
                arguments: [profile, story.source.key, name, chapterKey, Self.now])
        }
    }

    @discardableResult
    public func removeBookmark(_ name: String, profile: String, story: StoryRecord) throws -> Bool {
        try database.write { db in
            try db.execute(sql: "DELETE FROM bookmark WHERE profile = ? AND story_source = ? AND name = ?", arguments: [profile, story.source.key, name])
            return db.changesCount > 0
        }
    }

    public func notes(profile: String, story: StoryRecord) throws -> [Note] {
        try database.read { db in
            try Row.fetchAll(
                db, sql: "SELECT id, chapter_key, body, created_at FROM note WHERE profile = ? AND story_source = ? ORDER BY id",
                arguments: [profile, story.source.key]
            ).map { Note(id: $0["id"], chapterKey: $0["chapter_key"], body: $0["body"], createdAt: $0["created_at"]) }
        }
    }

    @discardableResult
    public func addNote(_ body: String, chapterKey: String, profile: String, story: StoryRecord) throws -> Int64 {
        try database.write { db in
            try Self.requireStory(story, db)
            try db.execute(
                sql: "INSERT INTO note (profile, story_source, chapter_key, body, created_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [profile, story.source.key, chapterKey, body, Self.now])
            return db.lastInsertedRowID
        }
    }

    @discardableResult
    public func removeNote(id: Int64, profile: String, story: StoryRecord) throws -> Bool {
        try database.write { db in
            try db.execute(sql: "DELETE FROM note WHERE id = ? AND profile = ? AND story_source = ?", arguments: [id, profile, story.source.key])
            return db.changesCount > 0
        }
    }

    // MARK: Pictures

    public func picture(_ path: String, of story: StoryRecord) throws -> StoredPicture? {
        try database.read { db in
            try Row.fetchOne(db, sql: "SELECT path, data, media_type FROM picture WHERE story_id = ? AND path = ?", arguments: [story.id, path])
                .map { StoredPicture(path: $0["path"], data: [UInt8]($0["data"] as Data), mediaType: $0["media_type"]) }
        }
    }

    public func storePicture(_ picture: StoredPicture, of story: StoryRecord) throws {
        try database.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO picture (story_id, path, data, media_type, fetched_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [story.id, picture.path, Data(picture.data), picture.mediaType, Self.now])
        }
    }
}
