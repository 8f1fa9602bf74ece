#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GRDB
import StoryFormat

/// The local library: stories, their chapters and pictures, and each profile's reading state,
/// in one SQLite database. Every write is one transaction, so a process killed anywhere leaves
/// either the old state or the new one. Opened as a `DatabasePool` (WAL): readers do not wait for
/// the writer, so a reader can page through a story while a sync or an import writes.
public final class StoryLibrary: Sendable {
    public let location: LibraryLocation
    let database: any DatabaseWriter

    /// A library on a database the caller opened (an in-memory `DatabaseQueue` in tests, say);
    /// migrations are applied, a database of a newer cyd is refused.
    public init(location: LibraryLocation, database: any DatabaseWriter) throws(LibraryError) {
        self.location = location
        do {
            try Self.prepare(database, path: location.databasePath)
        } catch {
            throw LibraryError.worded(error, path: location.databasePath) ?? .storage(path: location.databasePath, failure: .other(code: -1, message: String(describing: error)))
        }
        self.database = database
    }

    /// Throws `newerLibrary` for a database with migrations this cyd does not know.
    static func refuseNewer(_ database: any DatabaseWriter, path: String) throws {
        let names = Schema.migrator.migrations
        try database.read { db in
            let unknown = try Schema.migrator.appliedIdentifiers(db).subtracting(Set(names)).sorted()
            let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
            if !unknown.isEmpty || version > names.count {
                throw LibraryError.newerLibrary(path: path, unknownMigrations: unknown.isEmpty ? ["schema version \(version)"] : unknown)
            }
        }
    }

    /// Refuses a newer schema, migrates, and records the schema version.
    static func prepare(_ database: any DatabaseWriter, path: String) throws {
        let migrator = Schema.migrator
        let names = migrator.migrations
        try refuseNewer(database, path: path)
        try migrator.migrate(database)
        try database.writeWithoutTransaction { db in
            if try Int.fetchOne(db, sql: "PRAGMA user_version") != names.count {
                try db.execute(sql: "PRAGMA user_version = \(names.count)")
            }
        }
    }

    /// Opens (making it if needed) the library. Any number of processes may open one library at
    /// once, even one that does not exist yet: making the folder, the switch to WAL and the
    /// migrations happen under an advisory lock on `library.lock` beside the database, and every
    /// connection waits (up to 5 s) for a writer rather than failing. A database written by a
    /// newer cyd is refused untouched.
    public init(location: LibraryLocation) throws(LibraryError) {
        self.location = location
        let path = location.databasePath
        do {
            try FileManager.default.createDirectory(atPath: location.dataDirectory, withIntermediateDirectories: true)
        } catch {
            throw .folder(path: location.dataDirectory, reason: Self.folderProblem(location.dataDirectory))
        }
        let lock = open(location.dataDirectory + "/library.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        defer { if lock >= 0 { close(lock) } }
        // A read-only folder cannot hold a lock file; opening goes on without it (and SQLite
        // says what it can do there).
        if lock >= 0 { while flock(lock, LOCK_EX) != 0 && errno == EINTR {} }
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // 16 KiB pages for a new library (an existing one keeps its size): adding a story
            // writes its text through the write-ahead log and copies it into the database, and
            // larger pages make that a quarter of the system calls.
            try db.execute(sql: "PRAGMA page_size = 16384")
        }
        do {
            // A database of a newer cyd is refused before the pool opens it: opening a pool writes
            // (GRDB makes sure the WAL file exists), and such a file is to be left untouched.
            try Self.refuseNewer(DatabaseQueue(path: path, configuration: configuration), path: path)
            // The pool switches the file to WAL itself.
            let database = try DatabasePool(path: path, configuration: configuration)
            try Self.prepare(database, path: path)
            self.database = database
        } catch let error as LibraryError {
            throw error
        } catch {
            let worded = LibraryError.worded(error, path: path) ?? .storage(path: path, failure: .other(code: -1, message: String(describing: error)))
            // A library on a read-only medium, in a folder this user cannot write, or on a full
            // disk is still read: list, search and read work, and each save says why it cannot.
            guard case .storage(_, let failure) = worded, [.readOnly, .cannotOpen, .io, .full].contains(failure),
                access(path, R_OK) == 0, let database = Self.openReadOnly(path, configuration)
            else { throw worded }
            self.database = database
        }
    }

    /// The library opened for reading only, when it can be: `immutable=1` because SQLite may not
    /// create the -shm file a WAL database otherwise needs. Nil when that fails too, or when the
    /// library needs migrations this process could not apply.
    static func openReadOnly(_ path: String, _ configuration: Configuration) -> DatabaseQueue? {
        var readOnly = configuration
        readOnly.readonly = true
        // In a URI, '%', '?' and '#' in the path must be escaped.
        let escaped = path.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "?", with: "%3f")
            .replacingOccurrences(of: "#", with: "%23")
        guard let database = try? DatabaseQueue(path: "file:\(escaped)?immutable=1", configuration: readOnly),
            (try? database.read({ db in try Schema.migrator.hasCompletedMigrations(db) && !Schema.migrator.hasBeenSuperseded(db) })) == true
        else { return nil }
        return database
    }

    /// Why a folder cannot be made or written, in words.
    static func folderProblem(_ path: String) -> String {
        var probe = path
        while !probe.isEmpty, access(probe, F_OK) != 0 { probe = String(probe[..<(probe.lastIndex(of: "/") ?? probe.startIndex)]) }
        if probe.isEmpty { probe = "/" }
        var info = stat()
        if stat(probe, &info) == 0, info.st_mode & S_IFMT != S_IFDIR { return "'\(probe)' is not a folder" }
        if access(probe, W_OK) != 0 {
            return errno == EROFS ? "the file system is read-only" : "'\(probe)' cannot be written (permission denied)"
        }
        return "it cannot be made"
    }

    static var now: Double { Date().timeIntervalSince1970 }

    // MARK: Stories

    public func stories() throws -> [StoryRecord] {
        try database.read { db in try StoryRecord.fetchAll(db, sql: "SELECT * FROM story ORDER BY title COLLATE NOCASE, id") }
    }

    public func story(id: Int64) throws -> StoryRecord? {
        try database.read { db in try StoryRecord.fetchOne(db, key: id) }
    }

    public func story(source: StorySource) throws -> StoryRecord? {
        try database.read { db in try StoryRecord.filter(StoryRecord.Columns.source == source.key).fetchOne(db) }
    }

    /// Removes a story with its chapters and pictures; its readers' progress, bookmarks, notes and
    /// endings found go too only when `forgetProgress` (otherwise adding it again resumes them).
    @discardableResult
    public func remove(_ story: StoryRecord, forgetProgress: Bool) throws -> Bool {
        try database.write { db in
            try Self.unindex(storyID: story.id, db)
            try db.execute(sql: "DELETE FROM story WHERE id = ?", arguments: [story.id])
            let removed = db.changesCount > 0
            // A story removed is no longer held at a pinned commit: adding it again is a new choice.
            try db.execute(sql: "DELETE FROM pinned_source WHERE location = ?", arguments: [story.source.location])
            if forgetProgress {
                for table in ["progress", "ending_found", "bookmark", "note"] {
                    try db.execute(sql: "DELETE FROM \(table) WHERE story_source = ?", arguments: [story.source.key])
                }
            }
            return removed
        }
    }

    // MARK: Chapters

    /// One chapter and its choices; never loads the rest of the story. With a `language` the
    /// story has, the chapter as its readers see it (what is not translated is the original).
    public func chapter(_ key: String, of story: StoryRecord, language: String? = nil) throws -> ChapterRecord? {
        try database.read { db in
            let row: Row?
            if let language {
                row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT c.position, \(ChapterRow.selection(translated: true))
                        FROM chapter c LEFT JOIN chapter_translation t ON t.story_id = c.story_id AND t.language = ? AND t.key = c.key
                        WHERE c.story_id = ? AND c.key = ?
                        """,
                    arguments: [language, story.id, key])
            } else {
                row = try Row.fetchOne(
                    db, sql: "SELECT position, \(ChapterRow.selection(translated: false)) FROM chapter WHERE story_id = ? AND key = ?",
                    arguments: [story.id, key])
            }
            guard let row else { return nil }
            guard let (chapter, pairs) = ChapterRow.chapter(row) else {
                throw LibraryError.storage(path: location.databasePath, failure: .damaged)
            }
            // A choice is available when its target exists (the validator reports the others).
            let targets = Set(pairs.map(\.target))
            let existing = try Set(String.fetchAll(
                db, sql: "SELECT key FROM chapter WHERE story_id = ? AND key IN (\(Array(repeating: "?", count: targets.count).joined(separator: ", ")))",
                arguments: StatementArguments([story.id] + targets.map { $0 as DatabaseValueConvertible })))
            let choices = pairs.enumerated().map { position, pair in
                ChoiceRecord(position: position, target: pair.target, label: pair.label, isAvailable: existing.contains(pair.target))
            }
            return ChapterRecord(key: chapter.id, position: row["position"], chapter: chapter, choices: choices)
        }
    }

    /// Names of chapters by key, for showing a history without loading texts (in `language`
    /// where it is translated).
    public func chapterNames(_ keys: [String], of story: StoryRecord, language: String? = nil) throws -> [String: String] {
        try database.read { db in
            var names: [String: String] = [:]
            for key in Set(keys) {
                if let language,
                    let name = try String.fetchOne(
                        db, sql: "SELECT name FROM chapter_translation WHERE story_id = ? AND language = ? AND key = ?", arguments: [story.id, language, key])
                {
                    names[key] = name
                    continue
                }
                names[key] = try String.fetchOne(db, sql: "SELECT name FROM chapter WHERE story_id = ? AND key = ?", arguments: [story.id, key])
            }
            return names
        }
    }

    // MARK: Languages

    /// The languages a story can be read in besides its own, by tag.
    public func languages(of story: StoryRecord) throws -> [StoryLanguage] {
        try database.read { db in
            try Row.fetchAll(
                db, sql: "SELECT language, title, summary, translated, total FROM story_language WHERE story_id = ? ORDER BY language",
                arguments: [story.id]
            ).map(StoryLanguage.init)
        }
    }

    /// Every story's languages, by story row (one query for a whole list).
    public func languagesByStory() throws -> [Int64: [StoryLanguage]] {
        try database.read { db in
            var result: [Int64: [StoryLanguage]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT story_id, language, title, summary, translated, total FROM story_language ORDER BY story_id, language") {
                result[row["story_id"], default: []].append(StoryLanguage(row: row))
            }
            return result
        }
    }

    public func chapterExists(_ key: String, in story: StoryRecord) throws -> Bool {
        try database.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM chapter WHERE story_id = ? AND key = ?)", arguments: [story.id, key]) ?? false
        }
    }

    // MARK: Search

    /// Full-text search over titles, summaries, authors and chapter text, best match first:
    /// stories whose title, summary or author match, then those matching in chapters.
    /// Stories whose title, summary or author match (one hit each), then every matching chapter
    /// (one hit each, several for one story), best first; at most `limit` hits in all.
    public func search(_ query: String, limit: Int = 50) throws -> [SearchHit] {
        let terms = query.split(whereSeparator: { $0.isWhitespace || $0.isPunctuation || $0.isSymbol })
            .map { "\"\(String($0).replacingOccurrences(of: "\"", with: "\"\""))\"*" }
        guard !terms.isEmpty else { return [] }
        let match = terms.joined(separator: " ")
        try indexPendingChapters()
        return try database.read { db in
            var hits: [SearchHit] = []
            var seen: Set<Int64> = []
            let storyRows = try Row.fetchAll(
                db,
                sql: """
                    SELECT s.*, snippet(story_search, -1, char(1), char(2), '…', 12) AS excerpt
                    FROM story_search JOIN story s ON s.id = story_search.rowid
                    WHERE story_search MATCH ? ORDER BY story_search.rank LIMIT ?
                    """,
                arguments: [match, limit])
            for row in storyRows where seen.insert(row["id"]).inserted {
                hits.append(SearchHit(story: try StoryRecord(row: row), chapterKey: nil, marked: row["excerpt"]))
            }
            let chapterRows = try Row.fetchAll(
                db,
                sql: """
                    SELECT c.story_id, c.key, c.name, snippet(chapter_search, -1, char(1), char(2), '…', 12) AS excerpt
                    FROM chapter_search JOIN chapter c ON c.id = chapter_search.rowid
                    WHERE chapter_search MATCH ? ORDER BY chapter_search.rank LIMIT 500
                    """,
                arguments: [match])
            var stories: [Int64: StoryRecord] = [:]
            for row in chapterRows where hits.count < limit {
                let storyID: Int64 = row["story_id"]
                if stories[storyID] == nil { stories[storyID] = try StoryRecord.fetchOne(db, sql: "SELECT * FROM story WHERE id = ?", arguments: [storyID]) }
                guard let story = stories[storyID] else { continue }
                hits.append(SearchHit(story: story, chapterKey: row["key"], chapterTitle: row["name"], marked: row["excerpt"]))
            }
            return hits
        }
    }

    /// Takes a story's rows out of the search indexes (external-content indexes need the old
    /// text to forget it), before the rows themselves change.
    static func unindex(storyID: Int64, _ db: Database) throws {
        // Only rows that were indexed may be deleted from an external-content index.
        try db.execute(
            sql: """
                INSERT INTO chapter_search (chapter_search, rowid, name, body) SELECT 'delete', c.id, c.name, c.body
                    FROM chapter c JOIN story s ON s.id = c.story_id WHERE c.story_id = ? AND s.chapters_indexed = 1;
                INSERT INTO story_search (story_search, rowid, title, summary, author)
                    SELECT 'delete', id, title, summary, coalesce(author, '') FROM story WHERE id = ?;
                """,
            arguments: [storyID, storyID])
    }

    /// Indexes a story's title, summary and author at once. Chapter text waits for the first
    /// search: tokenising a 100,000-chapter story takes about a second, and adding a story should
    /// not wait for a search that may never come.
    static func index(storyID: Int64, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO story_search (rowid, title, summary, author) SELECT id, title, summary, coalesce(author, '') FROM story WHERE id = ?;
                UPDATE story SET chapters_indexed = 0 WHERE id = ?;
                """,
            arguments: [storyID, storyID])
    }

    /// Adds the chapter text of stories not yet indexed, one transaction per story.
    func indexPendingChapters() throws {
        let pending = try database.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM story WHERE chapters_indexed = 0") }
        for storyID in pending {
            try database.write { db in
                guard try Bool.fetchOne(db, sql: "SELECT chapters_indexed = 0 FROM story WHERE id = ?", arguments: [storyID]) == true else { return }
                try db.execute(
                    sql: """
                        INSERT INTO chapter_search (rowid, name, body) SELECT id, name, body FROM chapter WHERE story_id = ?;
                        UPDATE story SET chapters_indexed = 1 WHERE id = ?;
                        """,
                    arguments: [storyID, storyID])
            }
        }
    }
}

extension StoryLibrary {
    /// Problems found in the database: SQLite's own integrity check, and stories whose stored
    /// chapters do not match their count (which one-transaction imports make impossible).
    public func verify() throws -> [String] {
        try database.read { db in
            var problems = try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
            for row in try Row.fetchAll(
                db,
                sql: "SELECT s.title, s.chapter_count, (SELECT count(*) FROM chapter c WHERE c.story_id = s.id) AS stored FROM story s")
            {
                let expected: Int = row["chapter_count"]
                let stored: Int = row["stored"]
                if expected != stored { problems.append("\(row["title"] as String): \(stored) of \(expected) chapters stored") }
            }
            return problems
        }
    }
}

/// Whether the library has changed: a number that moves whenever anything is committed to it, by
/// this process or another (`cyd read` in a terminal). It is SQLite's `data_version`, read on a
/// connection of its own (the number is only comparable on one connection), so asking costs one
/// statement and no table is read. A server keeps pages made from the library while it stands.
public final class LibraryChanges: Sendable {
    private let connection: DatabaseQueue?

    public init(_ library: StoryLibrary) {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        connection = try? DatabaseQueue(path: library.location.databasePath, configuration: configuration)
    }

    /// The current number; nil when it cannot be told (then nothing should be kept).
    public func version() -> Int? {
        // inDatabase, not read: a read-only connection needs no query_only switching around the
        // one statement, which is kept prepared.
        try? connection?.inDatabase { db in try Int.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) }
    }
}
