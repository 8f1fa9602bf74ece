#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StoryCheck
import StoryFormat
import StorySources
import StoryStore
import Transport

/// What `cyd sync` is asked to do.
public struct SyncOptions: Sendable {
    /// authors.json: a path, an https URL or a git repository (see `CatalogueSource`).
    public var catalogue: String
    /// Repositories checked at once.
    public var jobs: Int = 6
    public var githubAPI: String = GitHubAPI.defaultBaseURL
    public var githubToken: String?
    /// Repositories checked successfully less than this many seconds ago are not asked again.
    public var maximumAge: Double?
    /// Network limits for git transfers: time to connect, and time without a byte before a
    /// transfer is abandoned as stalled.
    public var connectSeconds: Double = 10
    public var stallSeconds: Double = 30

    public init(catalogue: String) { self.catalogue = catalogue }
}

/// What one sync did, repository by repository.
public struct SyncReport: Sendable {
    public enum Change: String, Sendable, Equatable {
        /// A story new to the catalogue, or one that changed since the last sync.
        case new, updated
        /// The remote HEAD has not moved: nothing was fetched.
        case unchanged
        /// Checked less than the maximum age ago: not asked.
        case recent
        /// Not a story (a GitHub repository without the #ChooseYourDestiny tag): skipped quietly.
        case notStory = "not-story"
        /// A broken source: reported, skipped, and the sync exits 1.
        case failed
    }

    public struct Item: Sendable {
        public var id: String
        public var url: String
        public var change: Change
        public var title: String?
        /// Why it failed, or why it is not a story.
        public var detail: String?
    }

    public var items: [Item] = []
    public var authorFailures: [(author: String, reason: String)] = []
    /// Warnings about authors.json itself (duplicates, unknown keys), with their positions.
    public var catalogueWarnings: [String] = []
    /// When GitHub's rate limit stopped discovery: when it refills (Unix time), if GitHub said.
    public var rateLimited: (reset: Double?, message: String)?
    /// Authors of authors.json that were synced (those with errors are in `authorFailures`).
    public var authors: Int = 0

    public var hasFailures: Bool { items.contains { $0.change == .failed } || !authorFailures.isEmpty || rateLimited != nil }
    public func count(_ change: Change) -> Int { items.count { $0.change == change } }
}

/// Progress, as it happens (called from worker threads, one call at a time).
public enum SyncEvent: Sendable {
    case discovering(author: String, index: Int, of: Int)
    case checking(total: Int)
    case started(id: String)
    case finished(SyncReport.Item, done: Int, total: Int)
}

/// The catalogue keeper's job: authors.json -> each author's story repositories -> one cheap
/// check each (ls-remote) -> fetch and read story.json only where the remote HEAD moved.
/// Every repository's outcome is stored as soon as it is known, so a sync killed half-way keeps
/// its work and the next one carries on.
public enum CatalogueSync {
    /// The tag a README carries to mark a repository as a story (matched without regard to case).
    public static let tag = "#ChooseYourDestiny"

    /// Why a GitHub repository is not a story when its README says so: not a fault of anyone's,
    /// so not reported as a failure (a tagged repository whose story is broken is).
    static let noReadme = "no README"
    static let untagged = "its README does not carry \(tag)"

    static func isQuietlyNotAStory(_ entry: CatalogueEntry) -> Bool {
        entry.discovery == .github && entry.isStory == false && (entry.lastError == noReadme || entry.lastError == untagged)
    }

    public static func run(
        _ options: SyncOptions, library: StoryLibrary, events: @escaping @Sendable (SyncEvent) -> Void = { _ in }
    ) throws(SyncError) -> SyncReport {
        let contents = try GitRepository.withNetworkTimeouts(connectSeconds: options.connectSeconds, stallSeconds: options.stallSeconds) { () throws(SyncError) in
            try CatalogueSource.read(options.catalogue, library: library)
        }
        let authors = try readAuthors(contents)
        var report = SyncReport()
        report.catalogueWarnings = authors.warnings
        report.authorFailures = authors.rejected
        report.authors = authors.valid.count
        let names = Set(authors.valid.map(\.name)).union(authors.rejected.map(\.author))
        do { try library.removeAuthors(notIn: names) } catch { throw .catalogue("cannot update the library: \(error)") }

        // Discovery, one author at a time (GitHub is asked politely, in sequence).
        let api = GitHubAPI(baseURL: options.githubAPI, token: options.githubToken, cache: library)
        var toCheck: [CatalogueEntry] = []
        for (index, author) in authors.valid.enumerated() {
            events(.discovering(author: author.name, index: index, of: authors.valid.count))
            do {
                if !author.repos.isEmpty {
                    let entries = author.repos.map {
                        CatalogueEntry(url: $0, author: author.name, repository: repositoryName($0), discovery: .listed)
                    }
                    try library.recordDiscovery(author: author.name, entries: entries, at: now)
                    toCheck += try entries.compactMap { try library.catalogueEntry(url: $0.url) }
                } else if report.rateLimited != nil {
                    // GitHub said stop: what is known of this author is checked, nothing is asked.
                    toCheck += try library.catalogue(author: author.name).filter { $0.isStory == true }
                } else {
                    toCheck += try discoverOnGitHub(author.name, api: api, library: library, report: &report)
                }
            } catch {
                report.authorFailures.append((author.name, "cannot record the author's repositories: \(error)"))
            }
        }

        // A repository listed twice (by two authors, or one author twice) is checked once: two
        // jobs must never work on the same clone.
        var seen = Set<String>()
        toCheck = toCheck.filter { seen.insert($0.url).inserted }

        // Checks, in parallel.
        events(.checking(total: toCheck.count))
        let results = ResultList(count: toCheck.count)
        let maximumAge = options.maximumAge
        let work = toCheck
        let (connect, stall) = (options.connectSeconds, options.stallSeconds)
        runConcurrently(jobs: options.jobs, count: work.count) { index in
            let entry = work[index]
            events(.started(id: entry.id))
            let item = GitRepository.withNetworkTimeouts(connectSeconds: connect, stallSeconds: stall) {
                check(entry, library: library, maximumAge: maximumAge)
            }
            let done = results.store(item, at: index)
            events(.finished(item, done: done, total: work.count))
        }
        report.items += results.items
        return report
    }

    static var now: Double { Date().timeIntervalSince1970 }

    // MARK: authors.json

    struct Authors {
        var valid: [(name: String, repos: [String])] = []
        var rejected: [(author: String, reason: String)] = []
        var warnings: [String] = []
    }

    static func readAuthors(_ contents: CatalogueSource.Contents) throws(SyncError) -> Authors {
        let file = LoadedFile.load(contents.bytes, fileName: "authors.json", options: JSONParser.Options(lenient: true))
        let reports = Checker.check(file, bytes: contents.bytes, path: contents.displayName, options: CheckOptions(lenient: true))
        let findings = reports.flatMap { report in report.diagnostics.map { (report, $0) } }
        let lines = LineIndex(contents.bytes)
        func describe(_ diagnostic: Diagnostic) -> String {
            let position = lines.position(of: diagnostic.range.lowerBound)
            let help = diagnostic.help.map { " (\($0))" } ?? ""
            return VisibleText.escape("\(contents.displayName):\(position): \(diagnostic.code) \(diagnostic.message)\(help)")
        }
        guard file.kind == .authors, let syntax = file.authors, syntax.authorsNode != nil else {
            let errors = findings.filter { $0.1.severity == .error }.prefix(5).map { describe($0.1) }
            throw .invalidCatalogue(
                message: "\(VisibleText.escape(contents.displayName)) is not a usable authors.json (it should look like { \"authors\": [ { \"name\": \"alice\" } ] })",
                findings: errors)
        }
        var result = Authors()
        // An author with an error (a name GitHub would refuse, a repository that is not a git URL)
        // is skipped and reported; the others sync.
        var rejectedNodes: [Int: String] = [:]
        for (_, diagnostic) in findings {
            let message = describe(diagnostic)
            if diagnostic.severity == .error, let author = syntax.authors.first(where: { syntax.document.range($0.node).contains(diagnostic.range.lowerBound) }) {
                rejectedNodes[author.node] = rejectedNodes[author.node] ?? message
            } else {
                result.warnings.append(message)
            }
        }
        var seen = Set<String>()
        for author in syntax.authors {
            guard let name = author.name?.value else { continue }
            if let reason = rejectedNodes[author.node] {
                result.rejected.append((name, reason))
            } else if seen.insert(name.lowercased()).inserted {
                result.valid.append((name, author.repos.map(\.value)))
            }
        }
        return result
    }

    /// "https://host/alice/gull-rock.git" -> "gull-rock".
    static func repositoryName(_ url: String) -> String {
        var path = Substring(url)
        while path.hasSuffix("/") { path = path.dropLast() }
        if path.hasSuffix(".git") { path = path.dropLast(4) }
        let name = path.split(whereSeparator: { $0 == "/" || $0 == ":" }).last.map(String.init) ?? url
        return name.isEmpty ? url : name
    }

    // MARK: GitHub discovery

    /// Lists the user's repositories and keeps those whose README carries the tag. A README is
    /// asked for only when the repository was pushed since it was last looked at, so a repeated
    /// sync costs one (usually 304, uncounted) request per author.
    static func discoverOnGitHub(_ user: String, api: GitHubAPI, library: StoryLibrary, report: inout SyncReport) throws -> [CatalogueEntry] {
        let known = Dictionary(try library.catalogue(author: user).map { ($0.url, $0) }, uniquingKeysWith: { a, _ in a })
        let repositories: [GitHubAPI.Repository]
        do {
            repositories = try api.repositories(of: user)
        } catch {
            try library.recordDiscovery(author: user, entries: [], at: now, error: error.description)
            switch error {
            case .rateLimited(let reset, let message): report.rateLimited = (reset, message)
            case .notFound: report.authorFailures.append((user, "GitHub has no user named \(VisibleText.escape(user))"))
            case .failed(let message): report.authorFailures.append((user, VisibleText.escape(message)))
            }
            return known.values.filter { $0.isStory == true }
        }
        let candidates = repositories.filter { $0.fork != true && $0.size != 0 }
        let entries = candidates.map { repository in
            let previous = known[repository.clone_url]
            let unchanged = previous?.pushedAt == repository.pushed_at && previous?.isStory != nil
            // A repository whose README has not been looked at yet keeps no pushed_at until it has.
            return CatalogueEntry(
                url: repository.clone_url, author: user, repository: repository.name, discovery: .github,
                pushedAt: unchanged ? repository.pushed_at : previous?.pushedAt)
        }
        try library.recordDiscovery(author: user, entries: entries, at: now)
        var toCheck: [CatalogueEntry] = []
        for (repository, entry) in zip(candidates, entries) {
            let previous = known[entry.url]
            if let previous, previous.pushedAt == repository.pushed_at, previous.isStory != nil {
                // Known: a story, or a tagged repository whose story is broken (checked again, and
                // reported again, without fetching unless it moved); an untagged one is left be.
                if !isQuietlyNotAStory(previous) { toCheck.append(previous) }
                continue
            }
            if report.rateLimited != nil {
                if previous?.isStory == true, let previous { toCheck.append(previous) }
                continue
            }
            let readme: String?
            do {
                readme = try api.readme(owner: user, repository: repository.name)
            } catch {
                if case .rateLimited(let reset, let message) = error { report.rateLimited = (reset, message) } else {
                    report.items.append(.init(id: entry.id, url: entry.url, change: .failed, detail: VisibleText.escape(error.description)))
                }
                if previous?.isStory == true, let previous { toCheck.append(previous) }
                continue
            }
            try library.recordPushedAt(url: entry.url, repository.pushed_at)
            if let readme, readme.lowercased().contains(tag.lowercased()) {
                if let current = try library.catalogueEntry(url: entry.url) { toCheck.append(current) }
            } else {
                let reason = readme == nil ? noReadme : untagged
                try library.recordCheck(url: entry.url, CatalogueCheck(.notStory(commit: nil, reason: reason), checkedAt: now))
                report.items.append(.init(id: entry.id, url: entry.url, change: .notStory, detail: reason))
            }
        }
        return toCheck
    }

    // MARK: One repository

    /// One repository: ls-remote; when HEAD moved, fetch into the cache and read README.md and
    /// story.json at the new HEAD (a repository never seen is cloned straight away). Stores the
    /// outcome before returning.
    static func check(_ entry: CatalogueEntry, library: StoryLibrary, maximumAge: Double?) -> SyncReport.Item {
        var item = SyncReport.Item(id: entry.id, url: entry.url, change: .failed, title: entry.title)
        let started = now
        if let maximumAge, let checked = entry.checkedAt, started - checked < maximumAge, entry.lastError == nil, entry.isStory == true {
            item.change = .recent
            return item
        }
        func record(_ outcome: CatalogueCheck.Outcome) {
            do {
                try library.recordCheck(url: entry.url, CatalogueCheck(outcome, checkedAt: started))
            } catch {
                item.change = .failed
                item.detail = "cannot record the check: \(error)"
            }
        }
        let cache = GitSource.cachePath(for: entry.url, cacheDirectory: library.location.cacheDirectory)
        // A repository never fetched is cloned at once: asking for its HEAD first would cost the
        // server a second connection (and upload-pack process) for nothing.
        if entry.headCommit != nil, FileManager.default.fileExists(atPath: cache) {
            let head: String
            do {
                head = try GitRepository.remoteHead(entry.url)
            } catch {
                item.detail = VisibleText.escape(error.description)
                record(.failed(item.detail!))
                return item
            }
            if head == entry.headCommit, let isStory = entry.isStory {
                record(.unchanged(commit: head))
                if isStory {
                    item.change = .unchanged
                } else if isQuietlyNotAStory(entry) {
                    item.change = .notStory
                    item.detail = entry.lastError
                } else {
                    item.detail = entry.lastError ?? "not a story"  // still broken: reported each sync, not fetched again
                }
                return item
            }
        }
        do {
            let (repository, commit) = try GitSource.update(entry.url, cache: cache)
            if entry.discovery == .listed {
                var readme: [UInt8]?
                for name in ["README.md", "readme.md", "Readme.md", "README.markdown", "README"] where readme == nil {
                    readme = try repository.file(name, at: commit)
                }
                guard let readme, String(decoding: readme, as: UTF8.self).lowercased().contains(tag.lowercased()) else {
                    let reason = readme == nil
                        ? "no README.md at the root: add one that mentions \(tag), the tag that marks a story repository"
                        : "README.md does not mention \(tag), the tag that marks a story repository"
                    item.detail = reason
                    record(.notStory(commit: commit, reason: reason))
                    return item
                }
            }
            guard let bytes = try repository.file("story.json", at: commit) else {
                let reason = "no story.json at the root of the default branch"
                item.detail = reason
                record(.notStory(commit: commit, reason: reason))
                return item
            }
            let name = "\(entry.url) story.json"
            let file = LoadedFile.load(bytes, fileName: "story.json", options: JSONParser.Options(lenient: true))
            guard let story = file.story?.model(), story.firstChapter != nil else {
                let reports = Checker.check(file, bytes: bytes, path: name, options: CheckOptions(lenient: true))
                let lines = LineIndex(bytes)
                let first = reports.flatMap(\.diagnostics).filter { $0.severity == .error }.first.map {
                    "story.json:\(lines.position(of: $0.range.lowerBound)): \($0.code) \($0.message)"
                }
                let reason = "invalid story (not imported): " + (first ?? "no readable chapters") + "; `cyd validate` shows every finding"
                item.detail = VisibleText.escape(reason)
                record(.notStory(commit: commit, reason: item.detail!))
                return item
            }
            item.title = story.name
            item.change = entry.isStory == true ? .updated : .new
            record(.story(commit: commit, key: story.id, title: story.name, rating: story.rating, summary: story.summary, chapterCount: story.chapters.count))
        } catch {
            item.change = .failed
            item.detail = VisibleText.escape(String(describing: error))
            record(.failed(item.detail!))
        }
        return item
    }
}

/// Results gathered from the worker threads, in catalogue order.
private final class ResultList: @unchecked Sendable {
    private let lock = Lock()
    private var slots: [SyncReport.Item?]
    private var done = 0

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func store(_ item: SyncReport.Item, at index: Int) -> Int {
        lock.withLock {
            slots[index] = item
            done += 1
            return done
        }
    }

    var items: [SyncReport.Item] { lock.withLock { slots.compactMap { $0 } } }
}
