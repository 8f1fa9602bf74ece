#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB
import StoryFormat

/// What storing a story did.
public struct StoreResult: Sendable {
    public enum Change: Sendable, Equatable { case added, updated, unchanged }
    public var story: StoryRecord
    public var change: Change
    /// Readers whose chapter no longer exists in the new version: they are offered the start or
    /// the last chapter of their path that still exists when they resume.
    public var displacedReaders: [String]
}

/// A story in another language, stored beside the original: every chapter as its readers see
/// it (untranslated strings already the original's), and how much is translated.
public struct StoredTranslation: Sendable {
    public var language: String
    public var story: Story
    public var translated: Int
    public var total: Int

    public init(language: String, story: Story, translated: Int, total: Int) {
        self.language = language
        self.story = story
        self.translated = translated
        self.total = total
    }
}

extension StoryLibrary {
    /// Stores a story in one transaction: afterwards it is in the library whole, or (if the
    /// process dies) exactly as it was before. Reading and checking it is the caller's business
    /// (StorySources composes reading, checking and storing); this takes a readable `Story`.
    /// - Parameter version: a commit id, or a hash of the content; the same version is not stored twice.
    /// - Parameter replace: put the story in place of another story (another author's id) that
    ///   the source held; without it that is refused (`LibraryError.differentStory`).
    /// - Parameter translations: the story in other languages (from its translations/ folder).
    public func store(
        _ story: Story, source: StorySource, version: String, author: String?, replace: Bool = false, translations: [StoredTranslation] = []
    ) throws(LibraryError) -> StoreResult {
        guard let first = story.firstChapter else { throw .noFirstChapter(title: story.name) }
        let now = Self.now
        do {
            return try database.write { db -> StoreResult in
                try self.store(story, first: first, source: source, version: version, author: author, replace: replace, translations: translations, now: now, db)
            }
        } catch {
            throw LibraryError.worded(error, path: location.databasePath) ?? .storage(path: location.databasePath, failure: .other(code: -1, message: String(describing: error)))
        }
    }

    private func store(
        _ story: Story, first: Chapter, source: StorySource, version: String, author: String?, replace: Bool,
        translations: [StoredTranslation], now: Double, _ db: Database
    ) throws -> StoreResult {
        let existing = try StoryRecord.filter(StoryRecord.Columns.source == source.key).fetchOne(db)
        // The same version is not stored twice; unless it was stored before translations were
        // kept (a library from before schema v9) and now comes with some.
        if let existing, existing.version == version,
            try translations.isEmpty || Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM story_language WHERE story_id = ?)", arguments: [existing.id]) == true
        {
            return StoreResult(story: existing, change: .unchanged, displacedReaders: [])
        }
        if let existing, existing.storyKey != story.id, !replace {
            throw LibraryError.differentStory(existingTitle: existing.title, existingID: existing.storyKey, newTitle: story.name, newID: story.id)
        }
        // Duplicate ids: the first wins. Without any (a valid story has none) the story's own
        // array is stored, not a copy of it.
        var seen = Set<String>(minimumCapacity: story.chapters.count)
        let firsts = story.chapters.indices.filter { seen.insert(story.chapters[$0].id).inserted }
        let chapters = firsts.count == story.chapters.count ? story.chapters : firsts.map { story.chapters[$0] }
        let endingCount = chapters.count { $0.choices.isEmpty }
        let storyID: Int64
        if let existing {
            storyID = existing.id
            try Self.unindex(storyID: storyID, db)
            try db.execute(
                sql: """
                    UPDATE story SET story_key = ?, title = ?, rating = ?, summary = ?, author = ?, pic_path = ?, version = ?,
                        first_chapter = ?, chapter_count = ?, ending_count = ?, updated_at = ? WHERE id = ?
                    """,
                arguments: [story.id, story.name, story.rating, story.summary, author ?? existing.author, story.picPath, version,
                            first.id, chapters.count, endingCount, now, storyID])
            for table in ["chapter", "picture", "story_language", "chapter_translation"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE story_id = ?", arguments: [storyID])
            }
        } else {
            try db.execute(
                sql: """
                    INSERT INTO story (source, source_kind, location, story_key, title, rating, summary, author, pic_path, version,
                        first_chapter, chapter_count, ending_count, added_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [source.key, source.kind.rawValue, source.location, story.id, story.name, story.rating, story.summary, author,
                            story.picPath, version, first.id, chapters.count, endingCount, now, now])
            storyID = db.lastInsertedRowID
        }
        // Hundreds of thousands of rows: bound straight through SQLite's C API, each batch's
        // values (choices encoded as JSON among them) made on another core while the batch
        // before is stored.
        let insertChapter = try BulkInsert(db, ChapterRow.insert)
        try BatchesMadeAhead(count: chapters.count, make: { [chapters] position in
            ChapterRow(storyID: storyID, position: position, chapter: chapters[position]).values
        }).forEachBatch { rows in
            for values in rows { try insertChapter.run(values) }
        }
        try Self.storeTranslations(translations, of: chapters, storyID: storyID, db)
        try Self.index(storyID: storyID, db)
        // Readers whose chapter is gone in this version.
        let displaced = try Row.fetchAll(db, sql: "SELECT profile, chapter_key FROM progress WHERE story_source = ?", arguments: [source.key])
            .filter { !seen.contains($0["chapter_key"]) }.map { $0["profile"] as String }
        let record = try StoryRecord.fetchOne(db, key: storyID)!
        return StoreResult(story: record, change: existing == nil ? .added : .updated, displacedReaders: displaced)
    }

    /// Each language's title and counts, and a row for each chapter with something translated.
    static func storeTranslations(_ translations: [StoredTranslation], of chapters: [Chapter], storyID: Int64, _ db: Database) throws {
        guard !translations.isEmpty else { return }
        let insertChapter = try BulkInsert(db, ChapterRow.translationInsert)
        // Where each chapter's original is: made only for a translation whose chapters are not
        // the original's, one for one (the story had repeated ids).
        var originals: [String: Int]?
        for translation in translations {
            try db.execute(
                sql: "INSERT OR REPLACE INTO story_language (story_id, language, title, summary, translated, total) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [storyID, translation.language, translation.story.name, translation.story.summary, translation.translated, translation.total])
            let translated = translation.story.chapters, language = translation.language
            // A translation is applied to the story's own chapters, in their order: when those
            // are the chapters stored, each row's original is at its own position, found without
            // hashing 200,000 ids.
            let alike = translated.count == chapters.count && translated.withUnsafeBufferPointer { translated in
                chapters.withUnsafeBufferPointer { chapters in chapters.indices.allSatisfy { translated[$0].id == chapters[$0].id } }
            }
            var positions: [Int] = []
            var originalOf: [Int] = []
            if !alike {
                if originals == nil {
                    var made: [String: Int] = [:]
                    made.reserveCapacity(chapters.count)
                    // By position, not by chapter: a chapter is a dozen strings and arrays to copy.
                    for index in chapters.indices { made[chapters[index].id] = index }
                    originals = made
                }
                // The first chapter of each id, as the original's rows keep it.
                var seen = Set<String>()
                for position in translated.indices where seen.insert(translated[position].id).inserted {
                    guard let original = originals![translated[position].id] else { continue }
                    positions.append(position)
                    originalOf.append(original)
                }
            }
            // Each batch's rows (nil for a chapter the same as the original's) made on another
            // core while the batch before is stored.
            let rows = BatchesMadeAhead(count: alike ? chapters.count : positions.count) { [chapters, positions, originalOf] k -> [BulkInsert.Value]? in
                // The original bound once: read in the comparison, it was copied whole (its dozen
                // strings and arrays retained and let go) for each field compared.
                let chapter = translated[alike ? k : positions[k]], original = chapters[alike ? k : originalOf[k]]
                guard ChapterRow.translatedFields.contains(where: { $0.value(in: chapter) != $0.value(in: original) }) else { return nil }
                return [.integer(storyID), .text(language), .text(chapter.id)] + ChapterRow.translatedFields.map { ChapterRow.value($0, of: chapter) }
            }
            try rows.forEachBatch { batch in
                for case let values? in batch { try insertChapter.run(values) }
            }
        }
    }
}
