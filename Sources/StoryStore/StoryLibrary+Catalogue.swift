#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB

/// A story repository the catalogue knows of: what its story is called and rated, which commit
/// that describes, and how the last check went.
public struct CatalogueEntry: Sendable, Hashable {
    public enum Discovery: String, Sendable { case listed, github }

    public var url: String
    public var author: String
    public var repository: String
    public var discovery: Discovery
    public var pushedAt: String?
    /// true: a story; false: checked, not a story; nil: not checked yet.
    public var isStory: Bool?
    public var storyKey: String?
    public var title: String?
    public var rating: String?
    public var summary: String?
    public var chapterCount: Int?
    public var headCommit: String?
    public var checkedAt: Double?
    public var lastError: String?

    /// "author/repository": what `cyd get` takes.
    public var id: String { "\(author)/\(repository)" }
    public var source: StorySource { StorySource(kind: .git, location: url) }

    public init(url: String, author: String, repository: String, discovery: Discovery, pushedAt: String? = nil) {
        self.url = url
        self.author = author
        self.repository = repository
        self.discovery = discovery
        self.pushedAt = pushedAt
    }
}

/// What one check of a repository found.
public struct CatalogueCheck: Sendable {
    public enum Outcome: Sendable {
        /// A story at `commit` (title and the rest from its story.json).
        case story(commit: String, key: String, title: String, rating: String, summary: String, chapterCount: Int)
        /// Reachable, but not a story (no story.json, or no #ChooseYourDestiny tag): the reason.
        case notStory(commit: String?, reason: String)
        /// The remote HEAD has not moved since the last check.
        case unchanged(commit: String)
        /// The check failed; the entry keeps what it knew before.
        case failed(String)
    }

    public var outcome: Outcome
    public var checkedAt: Double

    public init(_ outcome: Outcome, checkedAt: Double) {
        self.outcome = outcome
        self.checkedAt = checkedAt
    }
}

/// A cached HTTP answer, for conditional requests.
public struct CachedResponse: Sendable {
    public var etag: String?
    public var lastModified: String?
    /// The Link header that came with the body (GitHub's pagination).
    public var link: String?
    public var body: [UInt8]

    public init(etag: String?, lastModified: String?, link: String? = nil, body: [UInt8]) {
        self.etag = etag
        self.lastModified = lastModified
        self.link = link
        self.body = body
    }
}

extension StoryLibrary {
    // MARK: Catalogue

    public func catalogue() throws -> [CatalogueEntry] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM catalogue_repo ORDER BY title IS NULL, title COLLATE NOCASE, author, name").map(Self.entry)
        }
    }

    /// One author's repositories.
    public func catalogue(author: String) throws -> [CatalogueEntry] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM catalogue_repo WHERE author = ? ORDER BY name", arguments: [author]).map(Self.entry)
        }
    }

    public func catalogueEntry(url: String) throws -> CatalogueEntry? {
        try database.read { db in try Row.fetchOne(db, sql: "SELECT * FROM catalogue_repo WHERE url = ?", arguments: [url]).map(Self.entry) }
    }

    static func entry(_ row: Row) -> CatalogueEntry {
        var entry = CatalogueEntry(
            url: row["url"], author: row["author"], repository: row["name"],
            discovery: CatalogueEntry.Discovery(rawValue: row["discovery"]) ?? .listed, pushedAt: row["pushed_at"])
        entry.isStory = (row["is_story"] as Int?).map { $0 != 0 }
        entry.storyKey = row["story_key"]
        entry.title = row["title"]
        entry.rating = row["rating"]
        entry.summary = row["summary"]
        entry.chapterCount = row["chapter_count"]
        entry.headCommit = row["head_commit"]
        entry.checkedAt = row["checked_at"]
        entry.lastError = row["last_error"]
        return entry
    }

    /// Records an author's repositories as discovered now: new ones are added unchecked, known ones
    /// keep what was learnt of them (a new pushed_at is noted), and the author's repositories that
    /// were not discovered this time (deleted or renamed) leave the catalogue.
    public func recordDiscovery(author: String, entries: [CatalogueEntry], at time: Double, error: String? = nil) throws {
        try database.write { db in
            try db.execute(
                sql: "INSERT INTO catalogue_author (name, checked_at, last_error) VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE SET checked_at = excluded.checked_at, last_error = excluded.last_error",
                arguments: [author, time, error])
            guard error == nil else { return }
            let urls = Set(entries.map(\.url))
            for url in try String.fetchAll(db, sql: "SELECT url FROM catalogue_repo WHERE author = ?", arguments: [author]) where !urls.contains(url) {
                try db.execute(sql: "DELETE FROM catalogue_repo WHERE url = ?", arguments: [url])
            }
            for entry in entries {
                try db.execute(
                    sql: """
                        INSERT INTO catalogue_repo (url, author, name, discovery, pushed_at) VALUES (?, ?, ?, ?, ?)
                        ON CONFLICT(url) DO UPDATE SET author = excluded.author, name = excluded.name,
                            discovery = excluded.discovery, pushed_at = excluded.pushed_at
                        """,
                    arguments: [entry.url, author, entry.repository, entry.discovery.rawValue, entry.pushedAt])
            }
        }
    }

    /// Notes the pushed_at under which a GitHub repository's README was looked at.
    public func recordPushedAt(url: String, _ pushedAt: String?) throws {
        try database.write { db in try db.execute(sql: "UPDATE catalogue_repo SET pushed_at = ? WHERE url = ?", arguments: [pushedAt, url]) }
    }

    /// Forgets authors (and their repositories) no longer in authors.json.
    public func removeAuthors(notIn authors: Set<String>) throws {
        try database.write { db in
            for name in try String.fetchAll(db, sql: "SELECT DISTINCT author FROM catalogue_repo UNION SELECT name FROM catalogue_author")
            where !authors.contains(name) {
                try db.execute(sql: "DELETE FROM catalogue_repo WHERE author = ?", arguments: [name])
                try db.execute(sql: "DELETE FROM catalogue_author WHERE name = ?", arguments: [name])
            }
        }
    }

    /// Records one check of a repository, in its own transaction (a sync killed half-way keeps
    /// every check that finished).
    public func recordCheck(url: String, _ check: CatalogueCheck) throws {
        try database.write { db in
            switch check.outcome {
            case .story(let commit, let key, let title, let rating, let summary, let chapterCount):
                try db.execute(
                    sql: """
                        UPDATE catalogue_repo SET is_story = 1, story_key = ?, title = ?, rating = ?, summary = ?, chapter_count = ?,
                            head_commit = ?, checked_at = ?, last_error = NULL WHERE url = ?
                        """,
                    arguments: [key, title, rating, summary, chapterCount, commit, check.checkedAt, url])
            case .notStory(let commit, let reason):
                try db.execute(
                    sql: """
                        UPDATE catalogue_repo SET is_story = 0, story_key = NULL, title = NULL, rating = NULL, summary = NULL,
                            chapter_count = NULL, head_commit = ?, checked_at = ?, last_error = ? WHERE url = ?
                        """,
                    arguments: [commit, check.checkedAt, reason, url])
            case .unchanged(let commit):
                try db.execute(
                    sql: """
                        UPDATE catalogue_repo SET head_commit = ?, checked_at = ?,
                            last_error = CASE WHEN is_story = 1 THEN NULL ELSE last_error END WHERE url = ?
                        """,
                    arguments: [commit, check.checkedAt, url])
            case .failed(let reason):
                try db.execute(sql: "UPDATE catalogue_repo SET checked_at = ?, last_error = ? WHERE url = ?", arguments: [check.checkedAt, reason, url])
            }
        }
    }

    // MARK: HTTP cache

    public func cachedResponse(url: String) throws -> CachedResponse? {
        try database.read { db in
            try Row.fetchOne(db, sql: "SELECT etag, last_modified, link, body FROM http_cache WHERE url = ?", arguments: [url]).map {
                CachedResponse(etag: $0["etag"], lastModified: $0["last_modified"], link: $0["link"], body: [UInt8](($0["body"] as Data?) ?? Data()))
            }
        }
    }

    public func storeResponse(url: String, _ response: CachedResponse, at time: Double) throws {
        try database.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO http_cache (url, etag, last_modified, link, body, fetched_at) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [url, response.etag, response.lastModified, response.link, Data(response.body), time])
        }
    }
}
