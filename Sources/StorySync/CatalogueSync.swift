#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StoryCheck
import StoryFormat
import StorySources
import StoryStore
import StoryTranslation
import StoryValidation
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
    /// The key a published catalogue must be signed with (else the one remembered for it, else
    /// the one it publishes, trusted on first use).
    public var trustedKey: Signify.PublicKey?
    /// Accept `trustedKey` in place of a different key remembered for the catalogue.
    public var replaceKey = false

    public init(catalogue: String) { self.catalogue = catalogue }

    /// The options the environment sets: the catalogue (`catalogue`, else $CYD_CATALOGUE, else
    /// the default), the GitHub API's base URL (`githubAPI`, else $GITHUB_API_URL) and its token
    /// ($GITHUB_TOKEN); an empty variable counts as unset.
    public init(catalogue: String?, githubAPI: String?, environment: [String: String]) {
        func variable(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        self.init(catalogue: catalogue ?? variable("CYD_CATALOGUE") ?? CatalogueSource.defaultLocation)
        self.githubAPI = GitHubAPI.baseURL(option: githubAPI, environment: environment)
        githubToken = variable("GITHUB_TOKEN")
    }
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
/// A repository's outcome is stored as soon as it is known, but for "unchanged", stored a batch at
/// a time: a sync killed half-way keeps its work, and the next one carries on (asking again at
/// most one batch of repositories found unchanged).
public enum CatalogueSync {
    /// The tag a README carries to mark a repository as a story (matched without regard to case).
    public static let tag = StoryReadme.tag

    /// Starts, on another thread, what every sync needs and takes a while to get ready (libgit2):
    /// called before the library is opened, it is ready by the time `run` needs it.
    public static func prepare() { GitRepository.loadInBackground() }

    public static func run(
        _ options: SyncOptions, library: StoryLibrary, events: @escaping @Sendable (SyncEvent) -> Void = { _ in }
    ) throws(SyncError) -> SyncReport {
        var contents = try GitRepository.withNetworkTimeouts(connectSeconds: options.connectSeconds, stallSeconds: options.stallSeconds) { () throws(SyncError) in
            try CatalogueSource.read(options.catalogue, library: library)
        }
        // A catalogue whose key the reader trusts (given now, or remembered for its folder) is
        // read signed whichever of its files was named: index.json, catalogue.json or a folder
        // whose signed root went missing never stand in for the signature.
        let governed = try trustGoverns(contents, options: options, library: library)
        if !governed, !Signify.isSigned(contents.bytes), CatalogueRoot.isRoot(contents.bytes) || CatalogueIndex.isIndex(contents.bytes),
            let signed = CatalogueRoot.signedSibling(of: contents, library: library)
        {
            // A published catalogue that is signed beside the file named: read signed, its key
            // trusted on first use (said, with its fingerprint), as when catalogue.sig is named.
            contents = signed
        }
        if CatalogueRoot.isRoot(contents.bytes) || governed {
            return try GitRepository.withNetworkTimeouts(connectSeconds: options.connectSeconds, stallSeconds: options.stallSeconds) { () throws(SyncError) in
                try CatalogueRoot.sync(contents, options: options, library: library, events: events)
            }
        }
        do { try library.forgetCatalogueInUse() } catch {
            throw .storage(StorageProblem(.updatingLibrary, error: error, databasePath: library.location.databasePath))
        }
        if CatalogueIndex.isIndex(contents.bytes) {
            return try CatalogueIndex.sync(contents, options: options, library: library, events: events)
        }
        do { try library.forgetAppliedIndex() } catch { throw .storage(StorageProblem(.updatingLibrary, error: error, databasePath: library.location.databasePath)) }
        let authors = try readAuthors(contents)
        let storiesBefore = (try? library.catalogue().filter { $0.isStory == true }) ?? []
        var report = SyncReport()
        report.catalogueWarnings = authors.warnings
        report.authorFailures = authors.rejected
        report.authors = authors.valid.count
        let names = Set(authors.valid.map(\.name)).union(authors.rejected.map(\.author))
        do { try library.removeAuthors(notIn: names) } catch { throw .storage(StorageProblem(.updatingLibrary, error: error, databasePath: library.location.databasePath)) }

        // Discovery, one author at a time (GitHub is asked politely, in sequence).
        let api = GitHubAPI(baseURL: options.githubAPI, token: options.githubToken, cache: library)
        var toCheck: [CatalogueEntry] = []
        // Authors who list their repositories need no network: a run of them is recorded in one
        // transaction, before the next author found on GitHub (the order the file gives is kept).
        var listed: [(author: String, entries: [CatalogueEntry])] = []
        func recordListed() {
            guard !listed.isEmpty else { return }
            do {
                toCheck += try library.recordListedDiscoveries(listed, at: now).joined()
            } catch {
                let problem = StorageProblem(.recordingRepositories, error: error, databasePath: library.location.databasePath)
                report.authorFailures += listed.map { ($0.author, .storage(problem)) }
            }
            listed = []
        }
        for (index, author) in authors.valid.enumerated() {
            events(.discovering(author: author.name, index: index, of: authors.valid.count))
            if !author.repos.isEmpty {
                listed.append((author.name, author.repos.map { CatalogueEntry(url: $0, author: author.name, repository: repositoryName($0), discovery: .listed) }))
                continue
            }
            recordListed()
            do {
                if report.rateLimited != nil {
                    // GitHub said stop: what is known of this author is checked, nothing is asked.
                    toCheck += try library.catalogue(author: author.name).filter { $0.isStory == true }
                } else {
                    toCheck += try discoverOnGitHub(author.name, api: api, library: library, report: &report)
                }
            } catch {
                report.authorFailures.append((author.name, .storage(StorageProblem(.recordingRepositories, error: error, databasePath: library.location.databasePath))))
            }
        }
        recordListed()

        // A repository listed twice (by two authors, or one author twice) is checked once: two
        // jobs must never work on the same clone.
        var seen = Set<String>()
        toCheck = toCheck.filter { seen.insert($0.url).inserted }

        // Checks, in parallel.
        events(.checking(total: toCheck.count))
        let results = ResultList(count: toCheck.count)
        let unchanged = UnchangedChecks(library: library, eagerFrom: toCheck.count - options.jobs)
        let maximumAge = options.maximumAge
        let work = toCheck
        let (connect, stall) = (options.connectSeconds, options.stallSeconds)
        runConcurrently(jobs: options.jobs, count: work.count) { index in
            let entry = work[index]
            events(.started(id: entry.id))
            let item = GitRepository.withNetworkTimeouts(connectSeconds: connect, stallSeconds: stall) {
                check(entry, library: library, maximumAge: maximumAge, unchanged: UnchangedChecks.Slot(checks: unchanged, index: index))
            }
            let done = results.store(item, at: index)
            events(.finished(item, done: done, total: work.count))
        }
        unchanged.recordPending()
        unchanged.failHeld(in: results)
        report.items += results.items
        report.items += removals(before: storiesBefore.map { ($0.id, $0.url, $0.title) }, library: library)
        return report
    }

    /// Whether a key governs the catalogue read: one given with `--trust`, or one this library
    /// trusts for the folder (or repository) the file came from.
    static func trustGoverns(_ contents: CatalogueSource.Contents, options: SyncOptions, library: StoryLibrary) throws(SyncError) -> Bool {
        if options.trustedKey != nil { return true }
        let base = contents.location.base
        guard !base.isEmpty else { return false }
        do { return try library.catalogueTrust(source: base)?.publicKey != nil } catch {
            throw .storage(StorageProblem(.readingCatalogue, error: error, databasePath: library.location.databasePath))
        }
    }

    /// The stories of `before` that are no longer stories in the catalogue, as removed items.
    static func removals(before: [(id: String, url: String, title: String?)], library: StoryLibrary) -> [SyncReport.Item] {
        guard !before.isEmpty, let remaining = try? library.storyIDs() else { return [] }
        // By id: a story whose id now names another repository moved, it was not removed.
        return before.filter { !remaining.contains($0.id.lowercased()) }.map { .init(id: $0.id, url: $0.url, outcome: .removed, title: $0.title) }
    }

    static var now: Double { Date().timeIntervalSince1970 }

    // MARK: authors.json

    struct Authors {
        var valid: [(name: String, repos: [String])] = []
        var rejected: [(author: String, failure: SyncReport.AuthorFailure)] = []
        var warnings: [SyncReport.Finding] = []
    }

    static func readAuthors(_ contents: CatalogueSource.Contents) throws(SyncError) -> Authors {
        let file = LoadedFile.load(contents.bytes, fileName: "authors.json", options: .readers)
        let reports = Validation.check(loaded: file, bytes: contents.bytes, path: contents.displayName, options: .init(check: .readers))
        let findings = reports.flatMap { report in ResolvedReport(report).diagnostics.map { finding(contents.displayName, $0) } }
        let diagnostics = reports.flatMap(\.diagnostics)
        guard file.kind == .authors, let syntax = file.authors, syntax.authorsNode != nil else {
            let errors = zip(diagnostics, findings).filter { $0.0.severity == .error }.prefix(5).map(\.1)
            throw .invalidCatalogue(file: contents.displayName, findings: Array(errors))
        }
        var result = Authors()
        // An author with an error (a name GitHub would refuse, a repository that is not a git URL)
        // is skipped and reported; the others sync.
        var rejectedNodes: [Int: SyncReport.Finding] = [:]
        for (diagnostic, finding) in zip(diagnostics, findings) {
            if diagnostic.severity == .error, let author = syntax.authors.first(where: { syntax.document.range($0.node).contains(diagnostic.range.lowerBound) }) {
                rejectedNodes[author.node] = rejectedNodes[author.node] ?? finding
            } else {
                result.warnings.append(finding)
            }
        }
        // An author named twice (any case) is one author: the repository lists are merged.
        var position: [String: Int] = [:]
        for author in syntax.authors {
            guard let name = author.name?.value else { continue }
            if let finding = rejectedNodes[author.node] {
                result.rejected.append((name, .invalidEntry(finding)))
            } else if let index = position[name.lowercased()] {
                for repo in author.repos.map(\.value) where !result.valid[index].repos.contains(repo) { result.valid[index].repos.append(repo) }
            } else {
                position[name.lowercased()] = result.valid.count
                result.valid.append((name, author.repos.map(\.value)))
            }
        }
        return result
    }

    static func finding(_ file: String, _ resolved: ResolvedDiagnostic) -> SyncReport.Finding {
        SyncReport.Finding(
            file: file, line: resolved.start.line, column: resolved.start.column, code: resolved.diagnostic.code.description,
            message: resolved.diagnostic.message, help: resolved.diagnostic.help)
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
            case .rateLimited(let reset, _, _): report.rateLimited = (reset, error.description)
            case .notFound: report.authorFailures.append((user, .unknownGitHubUser))
            case .status, .unreachable, .unexpectedAnswer: report.authorFailures.append((user, .gitHub(error)))
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
                // reported again, without fetching unless it moved); one that is quietly not a
                // story is left be until it is pushed.
                if previous.outcome?.isQuietlyNotAStory != true && previous.outcome != .noStoryFile {
                    var current = previous
                    current.pushedAt = repository.pushed_at
                    toCheck.append(current)
                } else if let outcome = previous.outcome {
                    report.items.append(.init(id: entry.id, url: entry.url, outcome: .notStory(notStoryReason(outcome))))
                }
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
                if case .rateLimited(let reset, _, _) = error { report.rateLimited = (reset, error.description) } else {
                    report.items.append(.init(id: entry.id, url: entry.url, outcome: .failed(.gitHub(error))))
                }
                if previous?.isStory == true, let previous { toCheck.append(previous) }
                continue
            }
            try library.recordPushedAt(url: entry.url, repository.pushed_at)
            if let readme, StoryReadme.carriesTag(Array(readme.utf8)) {
                if var current = try library.catalogueEntry(url: entry.url) {
                    current.pushedAt = repository.pushed_at
                    toCheck.append(current)
                }
            } else {
                let reason: SyncReport.NotStoryReason = readme == nil ? .noReadme : .untagged
                try library.recordCheck(
                    url: entry.url,
                    CatalogueCheck(.notStory(commit: nil, outcome: reason == .noReadme ? .noReadme : .untagged, reason: SyncWords.notStory(reason)), checkedAt: now))
                report.items.append(.init(id: entry.id, url: entry.url, outcome: .notStory(reason)))
            }
        }
        return toCheck
    }

    static func notStoryReason(_ outcome: CatalogueEntry.Outcome) -> SyncReport.NotStoryReason {
        switch outcome {
        case .noReadme: .noReadme
        case .untagged: .untagged
        default: .noStoryFile
        }
    }

    // MARK: One repository

    /// One repository: ls-remote; when HEAD moved, fetch into the cache and read README.md and
    /// story.json at the new HEAD (a repository never seen is cloned straight away). A GitHub
    /// repository whose pushed_at has not changed since its last good check is not asked at all.
    /// Stores the outcome before returning; an unchanged one goes to `unchanged`, which records
    /// a batch of them at a time.
    static func check(_ entry: CatalogueEntry, library: StoryLibrary, maximumAge: Double?, unchanged: UnchangedChecks.Slot) -> SyncReport.Item {
        var item = SyncReport.Item(id: entry.id, url: entry.url, outcome: .unchanged, title: entry.title)
        let started = now
        if let maximumAge, let checked = entry.checkedAt, started - checked < maximumAge, entry.lastError == nil, entry.isStory == true {
            item.outcome = .recent
            return item
        }
        func record(_ outcome: CatalogueCheck.Outcome) {
            let check = CatalogueCheck(outcome, checkedAt: started, pushedAt: entry.discovery == .github ? entry.pushedAt : nil)
            if case .unchanged = outcome {
                unchanged.add(url: entry.url, check)
                return
            }
            do {
                try library.recordCheck(url: entry.url, check)
            } catch {
                item.outcome = .failed(.storage(StorageProblem(.recordingCheck, error: error, databasePath: library.location.databasePath)))
            }
        }
        func fail(_ failure: SyncReport.SyncFailure) -> SyncReport.Item {
            item.outcome = .failed(failure)
            record(.failed(SyncWords.failure(failure)))
            return item
        }
        if entry.discovery == .github, entry.isStory == true, entry.outcome == .story, let pushed = entry.pushedAt, pushed == entry.checkedPushedAt,
            let head = entry.headCommit
        {
            // GitHub says nothing was pushed since the last good check: no need to ask the remote.
            record(.unchanged(commit: head))
            return item
        }
        let cache = GitSource.cachePath(for: entry.url, cacheDirectory: library.location.cacheDirectory)
        // A repository never fetched is cloned at once: asking for its HEAD first would cost the
        // server a second connection (and upload-pack process) for nothing.
        var unmoved: String?
        if entry.headCommit != nil, FileManager.default.fileExists(atPath: cache) {
            let head: String
            do {
                head = try GitRepository.remoteHead(entry.url)
            } catch {
                return fail(.transport(.git(error)))
            }
            if entry.isStory == true, let broken = entry.brokenCommit, head == broken {
                // Still broken at the same commit: the last good version stays, reported again.
                record(.unchanged(commit: head))
                item.outcome = .broken(since: entry.brokenSince ?? started, reason: entry.lastError ?? "")
                return item
            }
            if head == entry.headCommit, entry.isStory != nil, let outcome = entry.outcome {
                switch outcome {
                case .story:
                    record(.unchanged(commit: head))
                    item.warning = entry.warning.flatMap(SyncReport.ItemWarning.init(storedCode:))
                    return item
                case .noReadme, .untagged:
                    record(.unchanged(commit: head))
                    item.outcome = .notStory(notStoryReason(outcome))
                    return item
                case .noStoryFile where entry.discovery == .github:
                    record(.unchanged(commit: head))
                    item.outcome = .notStory(.noStoryFile)
                    return item
                case .invalidStory, .noStoryFile:
                    unmoved = head  // still broken: read again from the cache and reported, nothing fetched
                case .failed:
                    break
                }
            }
        }
        do {
            let (repository, commit) = if let unmoved { (try GitRepository.open(cache), unmoved) } else { try GitSource.update(entry.url, cache: cache) }
            var warning: SyncReport.ItemWarning?
            if entry.discovery == .listed {
                var readme: [UInt8]?
                for name in StoryReadme.names where readme == nil {
                    readme = try repository.file(name, at: commit)
                }
                if readme.map(StoryReadme.carriesTag) != true {
                    warning = .untaggedListed(hasReadme: readme != nil)
                }
            }
            guard let bytes = try repository.file("story.json", at: commit) else {
                if entry.discovery == .listed { return fail(.noStoryFile) }
                item.outcome = .notStory(.noStoryFile)
                record(.notStory(commit: commit, outcome: .noStoryFile, reason: SyncWords.notStory(.noStoryFile)))
                return item
            }
            // Read as readers do; the checker runs only to explain a story that cannot be read.
            let file = LoadedFile.load(bytes, fileName: "story.json", options: .readers)
            let reports = Validation.check(loaded: file, bytes: bytes, path: "story.json", options: .init(check: .readers))
            // What `cyd validate` calls an error (leniently, as readers read: a trailing comma is
            // a warning) is not offered: a choice to a missing chapter would reach readers as a
            // dead choice. A story that was good keeps its last good version.
            let hasErrors = reports.contains { $0.diagnostics.contains { $0.severity == .error } }
            guard let story = file.story?.model(), story.firstChapter != nil, !hasErrors else {
                let findings = reports.flatMap { ResolvedReport($0).diagnostics }.filter { $0.diagnostic.severity == .error }.prefix(3)
                    .map { finding("story.json", $0) }
                let failure = SyncReport.SyncFailure.invalidStory(Array(findings))
                let reason = SyncWords.failure(failure)
                record(.broken(commit: commit, reason: reason))
                if entry.isStory == true, entry.headCommit != nil {
                    // A story that was good keeps its last good version (the index keeps offering it).
                    let since = (try? library.catalogueEntry(url: entry.url))?.flatMap(\.brokenSince) ?? started
                    item.outcome = .broken(since: since, reason: reason)
                } else {
                    item.outcome = .failed(failure)
                }
                return item
            }
            item.title = story.name
            item.warning = warning
            item.outcome = entry.isStory == true ? .updated : .new
            let diagnostics = reports.flatMap(\.diagnostics)
            let pinned = CatalogueCheck.Pinned(
                storySHA256: try Digest.sha256Hex(bytes), pictures: try pictureHashes(story, repository: repository, commit: commit),
                errors: diagnostics.count { $0.severity == .error }, warnings: diagnostics.count { $0.severity == .warning },
                languages: try Self.languages(story, repository: repository, commit: commit))
            record(.story(
                commit: commit, key: story.id, title: story.name, rating: story.rating, summary: story.summary, chapterCount: story.chapters.count,
                warning: warning?.storedCode, pinned: pinned))
        } catch let error as GitError {
            return fail(.transport(.git(error)))
        } catch {
            return fail(.storage(StorageProblem(.storingRepository, error: error, databasePath: library.location.databasePath)))
        }
        return item
    }
}

extension CatalogueSync {
    /// The percent translated of each language translations/LINGUAS lists at `commit` (what
    /// readers who get the story receive); a file that cannot be read is left out.
    static func languages(_ story: Story, repository: GitRepository, commit: String) throws -> [String: Int] {
        guard let list = try repository.file(StoryImporter.translationsFolder + "/" + Linguas.fileName, at: commit) else { return [:] }
        let units = TranslationUnits.extract(story)
        var result: [String: Int] = [:]
        for (language, name) in Linguas.languageFiles(Linguas.languages(list)) {
            for format in TranslationFile.Format.allCases {
                guard let bytes = try repository.file("\(StoryImporter.translationsFolder)/\(name).\(format.fileExtension)", at: commit) else { continue }
                if let file = try? TranslationFile.read(bytes, format: format) {
                    result[language] = Translations.status(file, language: language, units: units).percent
                }
                break
            }
        }
        return result
    }

    /// The SHA-256 of each picture the story takes from its repository (paths that stay inside
    /// it and name a file at the commit), by path.
    static func pictureHashes(_ story: Story, repository: GitRepository, commit: String) throws -> [String: String] {
        var hashes: [String: String] = [:]
        let paths = ([story.picPath] + story.chapters.map(\.picPath)).compactMap { $0 }
        for value in Set(paths) {
            guard case .repository(let path) = MediaReference(value), Sources.isSafe(path), hashes[path] == nil else { continue }
            if let bytes = try repository.file(path, at: commit) { hashes[path] = try Digest.sha256Hex(bytes) }
        }
        return hashes
    }
}

/// The unchanged checks of a sync, recorded a batch at a time (one transaction each) by the job
/// that fills the batch, and the rest at the end: a no-op sync of 200 repositories spent a tenth of
/// its time committing one transaction a repository. A sync killed half-way loses at most the last
/// batch's "checked at" times, which the next sync writes again; a failed write fails the checks
/// it held.
final class UnchangedChecks: @unchecked Sendable {
    private let library: StoryLibrary
    private let batchSize: Int
    private let eagerFrom: Int
    private let lock = Lock()
    private var pending: [(index: Int, url: String, check: CatalogueCheck)] = []
    private var failed: [(index: Int, problem: StorageProblem)] = []

    /// - Parameter eagerFrom: from this index on (the checks claimed last), each check's job
    ///   records what is pending at once: the sync's end then waits for one row, not a batch.
    init(library: StoryLibrary, batchSize: Int = 50, eagerFrom: Int = .max) {
        (self.library, self.batchSize, self.eagerFrom) = (library, batchSize, eagerFrom)
    }

    /// Where one repository's check is added: the batch and the repository's place in the results.
    struct Slot {
        let checks: UnchangedChecks
        let index: Int
        func add(url: String, _ check: CatalogueCheck) { checks.add(index: index, url: url, check) }
    }

    func add(index: Int, url: String, _ check: CatalogueCheck) {
        let full: [(index: Int, url: String, check: CatalogueCheck)]? = lock.withLock {
            pending.append((index, url, check))
            guard pending.count >= batchSize || index >= eagerFrom else { return nil }
            defer { pending.removeAll(keepingCapacity: true) }
            return pending
        }
        if let full { record(full) }
    }

    /// Records what is pending (at the end of the checks).
    func recordPending() {
        record(lock.withLock { () -> [(index: Int, url: String, check: CatalogueCheck)] in
            defer { pending = [] }
            return pending
        })
    }

    /// The checks that could not be recorded, by their place in the results.
    var failures: [(index: Int, problem: StorageProblem)] { lock.withLock { failed } }

    /// Each check that could not be recorded, failed in `results` with the library's reason.
    func failHeld(in results: ResultList) {
        for (index, problem) in failures { results.replace(at: index) { $0.outcome = .failed(.storage(problem)) } }
    }

    private func record(_ batch: [(index: Int, url: String, check: CatalogueCheck)]) {
        guard !batch.isEmpty else { return }
        do {
            try library.recordChecks(batch.map { ($0.url, $0.check) })
        } catch {
            let problem = StorageProblem(.recordingCheck, error: error, databasePath: library.location.databasePath)
            lock.withLock { failed += batch.map { ($0.index, problem) } }
        }
    }
}

/// Results gathered from the worker threads, in catalogue order.
final class ResultList: @unchecked Sendable {
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

    /// Changes a stored item (one whose check could not be recorded after all).
    func replace(at index: Int, _ change: (inout SyncReport.Item) -> Void) {
        lock.withLock {
            guard var item = slots[index] else { return }
            change(&item)
            slots[index] = item
        }
    }

    var items: [SyncReport.Item] { lock.withLock { slots.compactMap { $0 } } }
}
