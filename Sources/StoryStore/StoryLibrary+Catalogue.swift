#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GRDB

/// A story repository the catalogue knows of: what its story is called and rated, which commit
/// that describes, and how the last check went. A row of `catalogue_repo`.
public struct CatalogueEntry: Sendable, Hashable, Codable, FetchableRecord, PersistableRecord {
    public enum Discovery: String, Sendable, Codable {
        /// Named in authors.json's `repos`.
        case listed
        /// Found among the author's GitHub repositories by the README tag.
        case github
        /// Read from a published catalogue index (`cyd catalogue publish`).
        case index
    }

    /// What the last check found. Decisions are made on this, never on the words in `lastError`.
    public enum Outcome: String, Sendable, Codable {
        case story
        /// Discovered on GitHub, but not a story: quiet.
        case noReadme = "no-readme", untagged
        case noStoryFile = "no-story-file"
        case invalidStory = "invalid-story"
        case failed

        /// Not a story, and nobody's fault: skipped quietly until the repository is pushed again.
        public var isQuietlyNotAStory: Bool { self == .noReadme || self == .untagged }
    }

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
    public var outcome: Outcome?
    /// `pushedAt` when the repository was last checked successfully.
    public var checkedPushedAt: String?
    /// A warning that does not stop the story (a listed repository whose README lacks the tag),
    /// as a code the sync reads back (`SyncReport.ItemWarning(storedCode:)`).
    public var warning: String?
    /// SHA-256 (hex) of story.json at `headCommit`, and of each repository picture by path.
    public var storySHA256: String?
    public var picturesSHA256: String?
    /// When the upstream became broken (the entry keeps its last good version), at which commit.
    public var brokenSince: Double?
    public var brokenCommit: String?
    /// Since when every check has failed; nil when the last one worked.
    public var failingSince: Double?
    /// When `headCommit` last changed, and the findings (errors, warnings) at it.
    public var changedAt: Double?
    public var errorCount: Int?
    public var warningCount: Int?
    /// The languages it can be read in besides its own ({"fr": 100}: percent translated), as stored.
    public var languages: String?

    public static let databaseTableName = "catalogue_repo"

    public enum CodingKeys: String, CodingKey, ColumnExpression, CaseIterable {
        case url, author, repository = "name", discovery, pushedAt = "pushed_at", isStory = "is_story", storyKey = "story_key"
        case title, rating, summary, chapterCount = "chapter_count", headCommit = "head_commit", checkedAt = "checked_at"
        case lastError = "last_error", outcome, checkedPushedAt = "checked_pushed_at", warning
        case storySHA256 = "story_sha256", picturesSHA256 = "pictures_sha256", brokenSince = "broken_since", brokenCommit = "broken_commit"
        case failingSince = "failing_since", changedAt = "changed_at", errorCount = "error_count", warningCount = "warning_count"
        case languages
    }

    /// The languages it can be read in, by tag, with the percent translated.
    public var languagePercents: [String: Int] {
        get { StoredLanguages.decode(languages) }
        set { languages = StoredLanguages.encode(newValue) }
    }

    /// The pictures' hashes by path (empty when none are known).
    public var pictureHashes: [String: String] {
        get { picturesSHA256.map(StoredHashes.decode) ?? [:] }
        set { picturesSHA256 = newValue.isEmpty ? nil : StoredHashes.encode(newValue) }
    }
    public typealias Columns = CodingKeys

    /// "author/repository": what `cyd get`, `cyd read` and the others take.
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

/// The `catalogue_repo` row, column by column: read and written without the Codable coders, which
/// looked each field's type up by name for every row (a sync reads and writes a row a
/// repository).
extension CatalogueEntry {
    /// A stored discovery or outcome this build does not know.
    struct UnknownValue: Error, Equatable, CustomStringConvertible {
        let column: String, value: String
        var description: String { "catalogue_repo.\(column) holds '\(value)', which this version of cyd does not know" }
    }

    public init(row: Row) throws {
        let discovery: String = row[Columns.discovery]
        guard let known = Discovery(rawValue: discovery) else { throw UnknownValue(column: Columns.discovery.rawValue, value: discovery) }
        self.init(url: row[Columns.url], author: row[Columns.author], repository: row[Columns.repository], discovery: known, pushedAt: row[Columns.pushedAt])
        isStory = row[Columns.isStory]
        storyKey = row[Columns.storyKey]
        title = row[Columns.title]
        rating = row[Columns.rating]
        summary = row[Columns.summary]
        chapterCount = row[Columns.chapterCount]
        headCommit = row[Columns.headCommit]
        checkedAt = row[Columns.checkedAt]
        lastError = row[Columns.lastError]
        if let stored: String = row[Columns.outcome] {
            guard let known = Outcome(rawValue: stored) else { throw UnknownValue(column: Columns.outcome.rawValue, value: stored) }
            outcome = known
        }
        checkedPushedAt = row[Columns.checkedPushedAt]
        warning = row[Columns.warning]
        storySHA256 = row[Columns.storySHA256]
        picturesSHA256 = row[Columns.picturesSHA256]
        brokenSince = row[Columns.brokenSince]
        brokenCommit = row[Columns.brokenCommit]
        failingSince = row[Columns.failingSince]
        changedAt = row[Columns.changedAt]
        errorCount = row[Columns.errorCount]
        warningCount = row[Columns.warningCount]
        languages = row[Columns.languages]
    }

    public func encode(to container: inout PersistenceContainer) throws {
        container[Columns.url] = url
        container[Columns.author] = author
        container[Columns.repository] = repository
        container[Columns.discovery] = discovery.rawValue
        container[Columns.pushedAt] = pushedAt
        container[Columns.isStory] = isStory
        container[Columns.storyKey] = storyKey
        container[Columns.title] = title
        container[Columns.rating] = rating
        container[Columns.summary] = summary
        container[Columns.chapterCount] = chapterCount
        container[Columns.headCommit] = headCommit
        container[Columns.checkedAt] = checkedAt
        container[Columns.lastError] = lastError
        container[Columns.outcome] = outcome?.rawValue
        container[Columns.checkedPushedAt] = checkedPushedAt
        container[Columns.warning] = warning
        container[Columns.storySHA256] = storySHA256
        container[Columns.picturesSHA256] = picturesSHA256
        container[Columns.brokenSince] = brokenSince
        container[Columns.brokenCommit] = brokenCommit
        container[Columns.failingSince] = failingSince
        container[Columns.changedAt] = changedAt
        container[Columns.errorCount] = errorCount
        container[Columns.warningCount] = warningCount
        container[Columns.languages] = languages
    }
}

/// What one check of a repository found.
public struct CatalogueCheck: Sendable {
    public enum Outcome: Sendable {
        /// A story at `commit` (title and the rest from its story.json); `warning` for a listed
        /// repository whose README lacks the tag.
        case story(commit: String, key: String, title: String, rating: String, summary: String, chapterCount: Int, warning: String? = nil, pinned: Pinned = .init())
        /// The story at `commit` cannot be read: a story keeps its last good version, marked
        /// broken since now; anything else is recorded as not a story.
        case broken(commit: String, reason: String)
        /// Reachable, but not a story: why (a code), in words.
        case notStory(commit: String?, outcome: CatalogueEntry.Outcome, reason: String)
        /// The remote HEAD has not moved since the last check.
        case unchanged(commit: String)
        /// The check failed; the entry keeps what it knew before.
        case failed(String)
    }

    /// What pins a good version: the hashes of its story.json and pictures, and its findings.
    public struct Pinned: Sendable {
        public var storySHA256: String?
        public var pictures: [String: String]
        public var errors: Int?
        public var warnings: Int?
        /// Its translations: percent translated by language.
        public var languages: [String: Int]

        public init(storySHA256: String? = nil, pictures: [String: String] = [:], errors: Int? = nil, warnings: Int? = nil, languages: [String: Int] = [:]) {
            self.languages = languages
            self.storySHA256 = storySHA256
            self.pictures = pictures
            self.errors = errors
            self.warnings = warnings
        }
    }

    public var outcome: Outcome
    public var checkedAt: Double
    /// GitHub's pushed_at the check was made under, if known.
    public var pushedAt: String?

    public init(_ outcome: Outcome, checkedAt: Double, pushedAt: String? = nil) {
        self.outcome = outcome
        self.checkedAt = checkedAt
        self.pushedAt = pushedAt
    }
}

/// One story of a published catalogue index.
public struct IndexedStory: Sendable, Hashable, Codable {
    public var author: String
    public var repository: String
    public var url: String
    public var commit: String
    public var storyKey: String
    public var title: String
    public var rating: String
    public var summary: String
    public var chapters: Int
    /// SHA-256 (hex) of story.json at `commit`, and of each repository picture by path.
    public var storySHA256: String = ""
    public var pictures: [String: String] = [:]
    /// When its upstream became broken (the entry is its last good version), and why.
    public var brokenSince: Double?
    public var brokenReason: String?
    /// Since when the keeper could not reach its repository (the entry is the version last
    /// checked), and why.
    public var unreachableSince: Double?
    public var unreachableReason: String?
    /// The languages it can be read in, with the percent translated.
    public var languages: [String: Int] = [:]

    public init(author: String, repository: String, url: String, commit: String, storyKey: String, title: String, rating: String, summary: String, chapters: Int) {
        self.author = author
        self.repository = repository
        self.url = url
        self.commit = commit
        self.storyKey = storyKey
        self.title = title
        self.rating = rating
        self.summary = summary
        self.chapters = chapters
    }

    public var id: String { "\(author)/\(repository)" }
}

/// Applies parts of a published catalogue inside `StoryLibrary.applyIndexInParts`.
public final class IndexApplier {
    private let db: Database
    private let time: Double
    private let upsert: Statement
    /// The URLs applied (or kept) so far.
    var seen = Set<String>()

    init(_ db: Database, time: Double) throws {
        self.db = db
        self.time = time
        upsert = try db.cachedStatement(sql: """
            INSERT INTO catalogue_repo (url, author, name, discovery, is_story, story_key, title, rating, summary, chapter_count,
                head_commit, checked_at, last_error, outcome, warning, story_sha256, pictures_sha256, broken_since, changed_at, languages, failing_since)
            VALUES (?, ?, ?, 'index', 1, ?, ?, ?, ?, ?, ?, ?, ?, 'story', NULL, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(url) DO UPDATE SET author = excluded.author, name = excluded.name, discovery = 'index', is_story = 1,
                story_key = excluded.story_key, title = excluded.title, rating = excluded.rating, summary = excluded.summary,
                chapter_count = excluded.chapter_count, head_commit = excluded.head_commit, checked_at = excluded.checked_at,
                last_error = excluded.last_error, outcome = 'story', warning = NULL, story_sha256 = excluded.story_sha256,
                pictures_sha256 = excluded.pictures_sha256, broken_since = excluded.broken_since, languages = excluded.languages,
                failing_since = excluded.failing_since,
                changed_at = CASE WHEN head_commit IS excluded.head_commit THEN changed_at ELSE excluded.changed_at END
            """)
    }

    /// A cached HTTP body, read through the transaction (the library's own methods cannot be
    /// called inside it).
    public func cachedBody(url: String) throws -> [UInt8]? {
        try Row.fetchOne(db, sql: "SELECT body FROM http_cache WHERE url = ?", arguments: [url]).map { [UInt8](($0["body"] as Data?) ?? Data()) }
    }

    /// Whether a story with this URL was applied (or kept) already in this transaction.
    public func hasApplied(_ url: String) -> Bool { seen.contains(url) }

    /// Keeps a URL's row as it is (a rejected entry's story stays as last synced).
    public func keep(_ url: String) { seen.insert(url) }

    /// Applies some stories: the rows they name are read at once, compared in memory, and only
    /// the changed ones written. Returns each story's commit before (nil: new to this library).
    public func apply(_ stories: [IndexedStory]) throws -> [String?] {
        try applyNoting(stories).map(\.commit)
    }

    /// The same, saying for each story the commit it had before (nil when it was not a story
    /// here) and whether anything of its entry changed (its title, its pins, its state, its
    /// repository: an entry edited at the same commit is a change too).
    public func applyNoting(_ stories: [IndexedStory]) throws -> [(commit: String?, changed: Bool)] {
        var existing: [String: CatalogueEntry] = [:]
        existing.reserveCapacity(stories.count)
        var start = 0
        while start < stories.count {
            let urls = stories[start..<min(stories.count, start + 500)].map(\.url)
            for entry in try CatalogueEntry.filter(keys: urls).fetchAll(db) { existing[entry.url] = entry }
            start += 500
        }
        var before: [(commit: String?, changed: Bool)] = []
        before.reserveCapacity(stories.count)
        for story in stories {
            seen.insert(story.url)
            let previousEntry = existing[story.url]
            before.append((previousEntry?.isStory == true ? previousEntry?.headCommit : nil, true))
            let storyHash: String? = story.storySHA256.isEmpty ? nil : story.storySHA256
            if let entry = previousEntry, entry.isStory == true, entry.headCommit == story.commit, entry.author == story.author,
                entry.repository == story.repository, entry.discovery == .index, entry.storySHA256 == storyHash, entry.pictureHashes == story.pictures,
                entry.brokenSince == story.brokenSince, entry.lastError == (story.brokenReason ?? story.unreachableReason), entry.title == story.title,
                entry.failingSince == story.unreachableSince,
                entry.storyKey == story.storyKey, entry.rating == story.rating, entry.summary == story.summary, entry.chapterCount == story.chapters,
                entry.languagePercents == story.languages
            {
                before[before.count - 1].changed = false
                continue  // unchanged: only the time of the check moves, at the end
            }
            try upsert.execute(arguments: [
                story.url, story.author, story.repository, story.storyKey, story.title, story.rating, story.summary, story.chapters,
                story.commit, time, story.brokenReason ?? story.unreachableReason, storyHash, story.pictures.isEmpty ? nil : StoredHashes.encode(story.pictures),
                story.brokenSince, time, StoredLanguages.encode(story.languages), story.unreachableSince,
            ])
        }
        return before
    }
}

/// A published catalogue as a reader last accepted it: the key it trusts (a signify public key
/// line), the highest version seen, the root it applied, and when that root expires.
public struct CatalogueTrust: Sendable, Equatable {
    public var publicKey: String?
    public var version: Int
    public var rootSHA256: String
    public var expiresAt: Double

    public init(publicKey: String?, version: Int, rootSHA256: String, expiresAt: Double) {
        self.publicKey = publicKey
        self.version = version
        self.rootSHA256 = rootSHA256
        self.expiresAt = expiresAt
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
            try CatalogueEntry.order(sql: "title IS NULL, title COLLATE NOCASE, author, name").fetchAll(db)
        }
    }

    /// One author's repositories.
    public func catalogue(author: String) throws -> [CatalogueEntry] {
        try database.read { db in
            try CatalogueEntry.filter(CatalogueEntry.Columns.author == author).order(CatalogueEntry.Columns.repository).fetchAll(db)
        }
    }

    public func catalogueEntry(url: String) throws -> CatalogueEntry? {
        try database.read { db in try CatalogueEntry.fetchOne(db.cachedStatement(sql: Self.selectEntry), arguments: [url]) }
    }

    /// One catalogue row by its URL, prepared once per connection: a sync reads and records
    /// hundreds, and the query interface would make and prepare the same SELECT for each.
    static let selectEntry = "SELECT * FROM catalogue_repo WHERE url = ?"

    /// Records an author's repositories as discovered now: new ones are added unchecked, known ones
    /// keep what was learnt of them (a new pushed_at is noted), and the author's repositories that
    /// were not discovered this time (deleted or renamed) leave the catalogue.
    public func recordDiscovery(author: String, entries: [CatalogueEntry], at time: Double, error: String? = nil) throws {
        try database.write { db in try Self.recordDiscovery(author: author, entries: entries, at: time, error: error, in: db) }
    }

    /// Records each author's listed repositories as discovered now, all in one transaction (a sync
    /// of 200 listed repositories took one an author, then one more a repository to read its row
    /// back), and returns each author's rows as they stand, checked or not, in the order given.
    public func recordListedDiscoveries(_ authors: [(author: String, entries: [CatalogueEntry])], at time: Double) throws -> [[CatalogueEntry]] {
        try database.write { db in
            try authors.map { author, entries in
                try Self.recordDiscovery(author: author, entries: entries, at: time, error: nil, in: db)
                let select = try db.cachedStatement(sql: Self.selectEntry)
                return try entries.compactMap { try CatalogueEntry.fetchOne(select, arguments: [$0.url]) }
            }
        }
    }

    static func recordDiscovery(author: String, entries: [CatalogueEntry], at time: Double, error: String?, in db: Database) throws {
        try db.execute(
            sql: "INSERT INTO catalogue_author (name, checked_at, last_error) VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE SET checked_at = excluded.checked_at, last_error = excluded.last_error",
            arguments: [author, time, error])
        guard error == nil else { return }
        let urls = Set(entries.map(\.url))
        for url in try String.fetchAll(db, sql: "SELECT url FROM catalogue_repo WHERE author = ?", arguments: [author]) where !urls.contains(url) {
            try db.execute(sql: "DELETE FROM catalogue_repo WHERE url = ?", arguments: [url])
        }
        // A row that already says all this is left as it is (nothing written for it).
        let upsert = try db.cachedStatement(
            sql: """
                INSERT INTO catalogue_repo (url, author, name, discovery, pushed_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(url) DO UPDATE SET author = excluded.author, name = excluded.name,
                    discovery = excluded.discovery, pushed_at = excluded.pushed_at
                WHERE author IS NOT excluded.author OR name IS NOT excluded.name
                    OR discovery IS NOT excluded.discovery OR pushed_at IS NOT excluded.pushed_at
                """)
        for entry in entries {
            try upsert.execute(arguments: [entry.url, author, entry.repository, entry.discovery.rawValue, entry.pushedAt])
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
        try database.write { db in try Self.record(check, url: url, in: db) }
    }

    /// Records the checks of several repositories in one transaction: one commit for a batch, where
    /// one a repository cost a no-op sync of 200 repositories a tenth of its time. All are recorded
    /// or none.
    public func recordChecks(_ checks: [(url: String, check: CatalogueCheck)]) throws {
        guard !checks.isEmpty else { return }
        try database.write { db in
            for (url, check) in checks { try Self.record(check, url: url, in: db) }
        }
    }

    /// One check applied to its repository's row (none when the row has gone meanwhile).
    static func record(_ check: CatalogueCheck, url: String, in db: Database) throws {
        guard var entry = try CatalogueEntry.fetchOne(db.cachedStatement(sql: Self.selectEntry), arguments: [url]) else { return }
        entry.checkedAt = check.checkedAt
        switch check.outcome {
        case .story(let commit, let key, let title, let rating, let summary, let chapterCount, let warning, let pinned):
            if entry.headCommit != commit || entry.isStory != true { entry.changedAt = check.checkedAt }
            entry.isStory = true
            (entry.storyKey, entry.title, entry.rating, entry.summary, entry.chapterCount) = (key, title, rating, summary, chapterCount)
            entry.headCommit = commit
            entry.lastError = nil
            entry.outcome = .story
            entry.warning = warning
            entry.checkedPushedAt = check.pushedAt
            entry.storySHA256 = pinned.storySHA256
            entry.pictureHashes = pinned.pictures
            (entry.errorCount, entry.warningCount) = (pinned.errors, pinned.warnings)
            entry.languagePercents = pinned.languages
            (entry.brokenSince, entry.brokenCommit, entry.failingSince) = (nil, nil, nil)
        case .broken(let commit, let reason) where entry.isStory == true && entry.headCommit != nil:
            // The last good version stays offered; the break is noted (since the first time).
            if entry.brokenCommit == nil { entry.brokenSince = check.checkedAt }
            entry.brokenCommit = commit
            entry.lastError = reason
            entry.outcome = .invalidStory
            entry.failingSince = nil
            entry.checkedPushedAt = check.pushedAt
        case .broken(let commit, let reason):
            entry.isStory = false
            (entry.storyKey, entry.title, entry.rating, entry.summary, entry.chapterCount) = (nil, nil, nil, nil, nil)
            if entry.brokenCommit == nil { entry.brokenSince = check.checkedAt }
            (entry.headCommit, entry.brokenCommit, entry.lastError, entry.outcome, entry.warning) = (commit, commit, reason, .invalidStory, nil)
            entry.failingSince = nil
            entry.checkedPushedAt = check.pushedAt
        case .notStory(let commit, let outcome, let reason):
            entry.isStory = false
            (entry.storyKey, entry.title, entry.rating, entry.summary, entry.chapterCount) = (nil, nil, nil, nil, nil)
            entry.headCommit = commit
            entry.lastError = reason
            entry.outcome = outcome
            entry.warning = nil
            entry.checkedPushedAt = check.pushedAt
            (entry.brokenSince, entry.brokenCommit, entry.failingSince, entry.storySHA256, entry.picturesSHA256) = (nil, nil, nil, nil, nil)
        case .unchanged(let commit):
            entry.failingSince = nil
            if entry.brokenCommit != nil, entry.brokenCommit == commit {
                break  // still broken at the same commit: the last good version stays
            }
            entry.headCommit = commit
            if entry.isStory == true {
                entry.lastError = nil
                entry.outcome = .story
                entry.checkedPushedAt = check.pushedAt ?? entry.checkedPushedAt
            }
        case .failed(let reason):
            entry.lastError = reason
            entry.outcome = entry.isStory == true ? entry.outcome : .failed
            entry.failingSince = entry.failingSince ?? check.checkedAt
            entry.checkedPushedAt = nil  // asked again next time, pushed or not
        }
        try entry.update(db)
    }

    /// The stories of a published index, in one transaction: rows from the index are added or
    /// brought to the index's commit, index rows no longer in it leave. Returns each story's
    /// commit before (nil: new to this library).
    /// The fingerprint of the index last applied from `source`, if any.
    public func appliedIndexFingerprint(source: String) throws -> String? {
        try database.read { db in
            try String.fetchOne(db, sql: "SELECT fingerprint FROM catalogue_index_state WHERE source = ?", arguments: [source])
        }
    }

    /// Notes that the index with this fingerprint was applied from `source`; any other source's
    /// note goes (the index entries now are this source's).
    public func recordAppliedIndex(source: String, fingerprint: String, at time: Double) throws {
        try database.write { db in
            try db.execute(sql: "DELETE FROM catalogue_index_state")
            try db.execute(
                sql: "INSERT INTO catalogue_index_state (source, fingerprint, applied_at) VALUES (?, ?, ?)", arguments: [source, fingerprint, time])
        }
    }

    /// Forgets which index was applied last: a sync from authors.json changes the catalogue, so
    /// the next sync from an index must apply it again even if its bytes did not change.
    public func forgetAppliedIndex() throws {
        try database.write { db in try db.execute(sql: "DELETE FROM catalogue_index_state") }
    }

    /// The catalogue's entries that came from an index, by URL.
    public func indexEntries() throws -> [CatalogueEntry] {
        try database.read { db in
            try CatalogueEntry.filter(CatalogueEntry.Columns.discovery == CatalogueEntry.Discovery.index.rawValue).fetchAll(db)
        }
    }

    public func applyIndex(_ stories: [IndexedStory], keeping kept: Set<String> = [], at time: Double) throws -> [String: String?] {
        var before: [String: String?] = [:]
        before.reserveCapacity(stories.count)
        try applyIndexInParts(keeping: kept, at: time) { applier in
            for (story, previous) in zip(stories, try applier.apply(stories)) { before.updateValue(previous, forKey: story.url) }
        }
        return before
    }

    /// The stories of a published catalogue applied part by part (a shard at a time) in one
    /// transaction: `body` hands each part to the applier, which compares it with the rows it
    /// already has and writes only the changed ones; at the end, index rows no part named (nor
    /// `kept`) leave. Memory is bounded by a part, not by the catalogue; a throw leaves nothing applied.
    public func applyIndexInParts(keeping kept: Set<String>, at time: Double, _ body: (IndexApplier) throws -> Void) throws {
        try database.write { db in
            let applier = try IndexApplier(db, time: time)
            applier.seen.formUnion(kept)
            try body(applier)
            let gone = try String.fetchAll(db, sql: "SELECT url FROM catalogue_repo WHERE discovery = 'index'").filter { !applier.seen.contains($0) }
            for url in gone { try db.execute(sql: "DELETE FROM catalogue_repo WHERE url = ?", arguments: [url]) }
            try db.execute(sql: "UPDATE catalogue_repo SET checked_at = ? WHERE discovery = 'index'", arguments: [time])
        }
    }

    /// Ids (as written) and URLs of the stories that came from an index: what a sync compares
    /// against, without reading whole rows.
    public func indexStoryReferences() throws -> [(id: String, url: String)] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT author || '/' || name AS id, url FROM catalogue_repo WHERE discovery = 'index' AND is_story = 1").map { ($0["id"], $0["url"]) }
        }
    }

    /// The ids (author/repository, in lower case) of the catalogue's stories: one column read,
    /// not a record per row.
    public func storyIDs() throws -> Set<String> {
        try database.read { db in
            // Lowered here, not by SQLite's lower(), which leaves letters outside ASCII as they are.
            Set(try String.fetchAll(db, sql: "SELECT author || '/' || name FROM catalogue_repo WHERE is_story = 1").map { $0.lowercased() })
        }
    }

    // MARK: Stories stored at a pinned commit

    /// The commit a catalogue pinned when the story from this repository was last stored, if it
    /// was stored pinned.
    public func pinnedCommit(location: String) throws -> String? {
        try database.read { db in
            try String.fetchOne(db, sql: "SELECT commit_id FROM pinned_source WHERE location = ?", arguments: [location])
        }
    }

    /// Notes that the story from `location` was stored at a catalogue's pinned `commit`, or (nil)
    /// that it was stored unpinned, at the reader's word.
    public func recordPinned(location: String, commit: String?) throws {
        try database.write { db in
            if let commit {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO pinned_source (location, commit_id, pinned_at) VALUES (?, ?, ?)", arguments: [location, commit, Self.now])
            } else {
                try db.execute(sql: "DELETE FROM pinned_source WHERE location = ?", arguments: [location])
            }
        }
    }

    // MARK: Trusted catalogues

    /// What a reader knows of a published catalogue (by the folder it is published in).
    public func catalogueTrust(source: String) throws -> CatalogueTrust? {
        try database.read { db in
            try Row.fetchOne(db, sql: "SELECT public_key, version, root_sha256, expires_at FROM catalogue_trust WHERE source = ?", arguments: [source]).map {
                CatalogueTrust(publicKey: $0["public_key"], version: $0["version"], rootSHA256: $0["root_sha256"], expiresAt: $0["expires_at"])
            }
        }
    }

    /// Records what a reader accepted of a published catalogue; it becomes the catalogue in use.
    public func recordCatalogueTrust(source: String, _ trust: CatalogueTrust) throws {
        try database.write { db in
            try db.execute(sql: "UPDATE catalogue_trust SET applied_at = NULL WHERE applied_at IS NOT NULL")
            try db.execute(
                sql: "INSERT OR REPLACE INTO catalogue_trust (source, public_key, version, root_sha256, expires_at, applied_at) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [source, trust.publicKey, trust.version, trust.rootSHA256, trust.expiresAt, Self.now])
        }
    }

    /// The published root the catalogue in use came from (its source and what was accepted),
    /// nil when the catalogue came from an authors.json or an unsigned index since.
    public func catalogueInUse() throws -> (source: String, trust: CatalogueTrust)? {
        try database.read { db in
            try Row.fetchOne(db, sql: "SELECT source, public_key, version, root_sha256, expires_at FROM catalogue_trust WHERE applied_at IS NOT NULL").map {
                ($0["source"], CatalogueTrust(publicKey: $0["public_key"], version: $0["version"], rootSHA256: $0["root_sha256"], expiresAt: $0["expires_at"]))
            }
        }
    }

    /// The catalogue in use now comes from no published root (authors.json, an index).
    public func forgetCatalogueInUse() throws {
        try database.write { db in try db.execute(sql: "UPDATE catalogue_trust SET applied_at = NULL WHERE applied_at IS NOT NULL") }
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
