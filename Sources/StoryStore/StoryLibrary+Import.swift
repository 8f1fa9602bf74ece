#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB
import StoryCheck
import StoryFormat

/// What importing a story did.
public struct ImportResult: Sendable {
    public enum Change: Sendable, Equatable { case added, updated, unchanged }
    public var story: StoryRecord
    public var change: Change
    /// Findings from reading the story leniently (warnings, and errors that do not stop reading,
    /// such as a choice to a missing chapter).
    public var reports: [FileReport]
    /// Readers whose chapter no longer exists in the new version: they are offered the start or
    /// the last chapter of their path that still exists when they resume.
    public var displacedReaders: [String]
}

public enum ImportError: Error, CustomStringConvertible {
    /// The story cannot be read; the reports say why, with positions.
    case unreadable(reports: [FileReport])
    case input(String)
    /// The source already holds another story (another author's id): replacing it takes
    /// `replace: true` (`cyd add --replace`).
    case differentStory(existingTitle: String, existingID: String, newTitle: String, newID: String)

    public var description: String {
        switch self {
        case .differentStory(let existingTitle, let existingID, let newTitle, let newID):
            return "this source already holds '\(VisibleText.escape(existingTitle))' (story id '\(VisibleText.escape(existingID))'), "
                + "and now holds '\(VisibleText.escape(newTitle))' (story id '\(VisibleText.escape(newID))'); nothing was changed. "
                + "To put the new story in its place, add it again with --replace"
        case .unreadable(let reports):
            let totals = ReportTotals(reports)
            return "the story cannot be read (\(totals.phrase)); run `cyd validate` on it for details"
        case .input(let message): return message
        }
    }
}

extension StoryLibrary {
    /// Reads a story folder (or a story file) from disk and imports it, keyed by its absolute
    /// path: a folder (or the story.json in it) by the folder, any other file by its own path.
    public func importFolder(_ path: String, replace: Bool = false) throws -> ImportResult {
        let target: ValidationTarget
        do { target = try ValidationTarget.resolve(path) } catch { throw ImportError.input(error.description) }
        let bytes: [UInt8]
        do { bytes = try target.read() } catch { throw ImportError.input(error.description) }
        return try importStory(bytes: bytes, displayPath: target.displayPath, source: Self.source(of: target), version: nil, author: nil, replace: replace)
    }

    /// The source a path on disk is kept under.
    public static func source(of target: ValidationTarget) -> StorySource {
        if let folder = target.folder { return StorySource(kind: .folder, location: absolutePath(folder.root.path)) }
        let file = absolutePath(target.fileURL.path)
        if target.fileURL.lastPathComponent == "story.json" {
            return StorySource(kind: .folder, location: absolutePath(target.fileURL.deletingLastPathComponent().path))
        }
        return StorySource(kind: .file, location: file)
    }

    /// An absolute, normalised path: the key of a folder source.
    public static func absolutePath(_ path: String) -> String {
        var result = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        // Normalise "." and ".." so one folder has one key.
        var parts: [Substring] = []
        for part in result.split(separator: "/") {
            if part == "." { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(part)
        }
        result = "/" + parts.joined(separator: "/")
        return result
    }

    /// Imports a story's bytes in one transaction: afterwards the story is in the library whole,
    /// or (if the process dies, or the story is unreadable) exactly as it was before.
    /// - Parameter version: a commit id for git sources; nil to use a hash of the content.
    /// - Parameter replace: put the story in place of another story (another author's id) that
    ///   the source held; without it that is refused (`ImportError.differentStory`).
    public func importStory(bytes: [UInt8], displayPath: String, source: StorySource, version: String?, author: String?, replace: Bool = false) throws -> ImportResult {
        // Read the way readers do: lenient, so published stories with trailing commas load.
        let file = LoadedFile.load(bytes, fileName: displayPath, options: JSONParser.Options(lenient: true))
        let reports = Checker.check(file, bytes: bytes, path: displayPath, options: CheckOptions(lenient: true))
        guard let story = file.story?.model(), let first = story.firstChapter else { throw ImportError.unreadable(reports: reports) }
        let version = version ?? Self.contentHash(bytes)
        let now = Self.now

        return try database.write { db -> ImportResult in
            let existing = try Row.fetchOne(db, sql: "SELECT * FROM story WHERE source = ?", arguments: [source.key]).map(Self.story)
            if let existing, existing.version == version {
                return ImportResult(story: existing, change: .unchanged, reports: reports, displacedReaders: [])
            }
            if let existing, existing.storyKey != story.id, !replace {
                throw ImportError.differentStory(existingTitle: existing.title, existingID: existing.storyKey, newTitle: story.name, newID: story.id)
            }
            var seen = Set<String>()
            let chapters = story.chapters.filter { seen.insert($0.id).inserted }  // duplicate ids: the first wins
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
                for table in ["chapter", "choice", "picture"] {
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
            // Hundreds of thousands of rows: bound straight through SQLite's C API.
            let insertChapter = try BulkInsert(
                db, "INSERT INTO chapter (story_id, key, position, name, body, pic_path, vid_path, is_ending) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
            let insertChoice = try BulkInsert(db, "INSERT INTO choice (story_id, chapter_key, position, target, label) VALUES (?, ?, ?, ?, ?)")
            for (position, chapter) in chapters.enumerated() {
                try insertChapter.run([
                    .integer(storyID), .text(chapter.id), .integer(Int64(position)), .text(chapter.name), .text(chapter.text),
                    .optionalText(chapter.picPath), .optionalText(chapter.vidPath), .integer(chapter.isEnding ? 1 : 0),
                ])
                for (index, choice) in chapter.choices.enumerated() {
                    try insertChoice.run([.integer(storyID), .text(chapter.id), .integer(Int64(index)), .text(choice.chapterID), .text(choice.text)])
                }
            }
            try Self.index(storyID: storyID, db)
            // Readers whose chapter is gone in this version.
            let keys = Set(chapters.map(\.id))
            let displaced = try Row.fetchAll(db, sql: "SELECT profile, chapter_key FROM progress WHERE story_source = ?", arguments: [source.key])
                .filter { !keys.contains($0["chapter_key"]) }.map { $0["profile"] as String }
            let record = try Row.fetchOne(db, sql: "SELECT * FROM story WHERE id = ?", arguments: [storyID]).map(Self.story)!
            return ImportResult(story: record, change: existing == nil ? .added : .updated, reports: reports, displacedReaders: displaced)
        }
    }

    /// FNV-1a over the bytes: a version for sources that have no commit.
    static func contentHash(_ bytes: [UInt8]) -> String {
        let hex = String(FNV1a.hash(bytes), radix: 16)
        return "fnv64:" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
