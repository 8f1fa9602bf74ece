import Foundation
import StorySources
import StoryStore
import StorySync
import TestSupport
import Testing
import Transport

/// The catalogue keeper's sync, against real servers on 127.0.0.1: git daemon (git://), git
/// http-backend behind an HTTP server (smart HTTP), a GitHub API stand-in, and a port that
/// accepts connections and never answers.
@Suite("Catalogue sync: authors.json, discovery, incremental parallel checks")
struct CatalogueSyncTests {
    static func story(_ title: String) -> [UInt8] { TestStory.twoChapters(title: title, summary: "From git").bytes }
    static let readme = TestStory.taggedReadme

    final class Setup {
        let git = try! TestGitServer()
        lazy var forge = try! TestForge(serving: git)
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("cyd-catalogue-\(UUID().uuidString)")
        lazy var library = try! StoryLibrary(location: LibraryLocation(home: home.path))
        var authorsPath: String { home.appendingPathComponent("authors.json").path }
        var token: String?

        init() { try! FileManager.default.createDirectory(at: home, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: home) }

        /// Writes authors.json: each author with the repositories it lists (none: found on GitHub).
        func writeAuthors(_ authors: [(String, [String])]) throws {
            let entries = authors.map { name, repos in
                repos.isEmpty ? #"{ "name": "\#(name)" }"# : #"{ "name": "\#(name)", "repos": [\#(repos.map { "\"\($0)\"" }.joined(separator: ", "))] }"#
            }
            try Data("{ \"authors\": [\n  \(entries.joined(separator: ",\n  "))\n] }\n".utf8).write(to: URL(fileURLWithPath: authorsPath))
        }

        func sync(jobs: Int = 4, stallSeconds: Double = 30, maximumAge: Double? = nil) throws -> SyncReport {
            var options = SyncOptions(catalogue: authorsPath)
            options.jobs = jobs
            options.githubAPI = forge.apiURL
            options.stallSeconds = stallSeconds
            options.maximumAge = maximumAge
            options.githubToken = token
            return try CatalogueSync.run(options, library: library)
        }

        /// Publishes a story repository, lists it as `author`'s only one, and syncs once; its URL.
        func syncedStory(_ name: String, title: String, author: String = "ana") throws -> String {
            try git.publish(name, files: ["story.json": CatalogueSyncTests.story(title), "README.md": CatalogueSyncTests.readme])
            let url = git.gitURL(name)
            try writeAuthors([(author, [url])])
            _ = try sync()
            return url
        }

        func entry(_ url: String) throws -> CatalogueEntry {
            try #require(try library.catalogueEntry(url: url))
        }
    }

    static func item(_ report: SyncReport, _ url: String) -> SyncReport.Item? { report.items.first { $0.url == url } }

    @Test("a first sync records every story: title, rating, chapters, summary, HEAD commit, when checked")
    func firstSync() throws {
        let setup = Setup()
        let tide = try setup.git.publish("tide", files: ["story.json": Self.story("Tide"), "README.md": Self.readme])
        let moor = try setup.git.publish("moor", files: ["story.json": Self.story("Moor"), "README.md": Self.readme])
        try setup.writeAuthors([("ana", [setup.git.gitURL("tide")]), ("ben", [setup.forge.httpURL("moor")])])
        let before = Date().timeIntervalSince1970 - 1
        let report = try setup.sync()
        #expect(!report.hasFailures)
        #expect(report.count(.new) == 2)
        let entry = try setup.entry(setup.git.gitURL("tide"))
        #expect(entry.id == "ana/tide")
        #expect(entry.title == "Tide" && entry.rating == "G" && entry.summary == "From git" && entry.chapterCount == 2)
        #expect(entry.headCommit == tide && entry.isStory == true && entry.lastError == nil)
        #expect((entry.checkedAt ?? 0) >= before)
        // Smart HTTP through git http-backend: cloned with one upload-pack POST.
        #expect(try setup.entry(setup.forge.httpURL("moor")).headCommit == moor)
        #expect(try setup.forge.count("POST /git/moor.git/git-upload-pack") >= 1)
    }

    @Test("a no-op sync checks every repository once and fetches nothing")
    func noOpSync() throws {
        let setup = Setup()
        try setup.git.publish("moor", files: ["story.json": Self.story("Moor"), "README.md": Self.readme])
        try setup.writeAuthors([("ben", [setup.forge.httpURL("moor")])])
        _ = try setup.sync()
        let fetches = try setup.forge.count("POST /git/moor.git/git-upload-pack")
        let lists = try setup.forge.count("GET /git/moor.git/info/refs")
        let checked = try #require(try setup.entry(setup.forge.httpURL("moor")).checkedAt)
        let second = try setup.sync()
        #expect(second.count(.unchanged) == 1 && second.items.count == 1 && !second.hasFailures)
        #expect(try setup.entry(setup.forge.httpURL("moor")).checkedAt ?? 0 > checked, "the check is recorded")
        #expect(try setup.forge.count("POST /git/moor.git/git-upload-pack") == fetches, "nothing was fetched")
        #expect(try setup.forge.count("GET /git/moor.git/info/refs") == lists + 1, "one ls-remote")
        // With a maximum age, a repository checked moments ago is not even asked.
        let third = try setup.sync(maximumAge: 3600)
        #expect(third.count(.recent) == 1)
        #expect(try setup.forge.count("GET /git/moor.git/info/refs") == lists + 1)
    }

    @Test("a pushed change and a force-push are picked up")
    func pushes() throws {
        let setup = Setup()
        let url = try setup.syncedStory("tide", title: "Tide")
        let pushed = try setup.git.publish("tide", files: ["story.json": Self.story("Tide, revised")])
        let report = try setup.sync()
        #expect(Self.item(report, url)?.change == .updated)
        #expect(try setup.entry(url).title == "Tide, revised" && setup.entry(url).headCommit == pushed)
        let forced = try setup.git.publish("tide", files: ["story.json": Self.story("Tide, rewritten"), "README.md": Self.readme], force: true)
        #expect(Self.item(try setup.sync(), url)?.change == .updated)
        #expect(try setup.entry(url).title == "Tide, rewritten" && setup.entry(url).headCommit == forced)
    }

    @Test("lock files left in the cache by a killed fetch do not block the next one")
    func staleLocks() throws {
        let setup = Setup()
        let url = try setup.syncedStory("tide", title: "Tide")
        let cache = GitSource.cachePath(for: url, cacheDirectory: setup.library.location.cacheDirectory)
        for lock in ["/refs/heads/main.lock", "/packed-refs.lock", "/config.lock"] {
            _ = FileManager.default.createFile(atPath: cache + lock, contents: Data("stale".utf8))
        }
        try setup.git.publish("tide", files: ["story.json": Self.story("Tide, later")])
        #expect(Self.item(try setup.sync(), url)?.change == .updated)
        #expect(try setup.entry(url).title == "Tide, later")
    }

    @Test("a repository listed by two authors is checked once")
    func listedTwice() throws {
        let setup = Setup()
        try setup.git.publish("tide", files: ["story.json": Self.story("Tide"), "README.md": Self.readme])
        let url = setup.git.gitURL("tide")
        try setup.writeAuthors([("ana", [url, url]), ("ben", [url])])
        let report = try setup.sync(jobs: 4)
        #expect(report.items.count == 1 && report.count(.new) == 1 && !report.hasFailures)
        #expect(try setup.library.catalogue().count == 1)
    }

    @Test("a cached clone damaged beyond opening is cloned afresh")
    func damagedCache() throws {
        let setup = Setup()
        let url = try setup.syncedStory("tide", title: "Tide")
        let cache = GitSource.cachePath(for: url, cacheDirectory: setup.library.location.cacheDirectory)
        try FileManager.default.removeItem(atPath: cache + "/HEAD")
        try FileManager.default.removeItem(atPath: cache + "/objects")
        try setup.git.publish("tide", files: ["story.json": Self.story("Tide, again")])
        #expect(Self.item(try setup.sync(), url)?.change == .updated)
        #expect(try GitRepository.open(cache).headCommit() == setup.entry(url).headCommit)
    }

    @Test("broken sources are reported with their reasons and skipped; the rest sync")
    func brokenSources() throws {
        let setup = Setup()
        try setup.git.publish("good", files: ["story.json": Self.story("Good"), "README.md": Self.readme])
        try setup.git.publish("untagged", files: ["story.json": Self.story("Untagged"), "README.md": Array("# Just a repo\n".utf8)])
        try setup.git.publish("nostory", files: ["README.md": Self.readme])
        try setup.git.publish("invalid", files: ["story.json": Array(#"{ "story": { "id": "x", "name": "Broken", "chapters": [ }"#.utf8), "README.md": Self.readme])
        try setup.git.publish("doomed", files: ["story.json": Self.story("Doomed"), "README.md": Self.readme])
        try setup.git.createEmpty("empty")
        let urls = ["good", "untagged", "nostory", "invalid", "doomed"].map(setup.git.gitURL)
            + [setup.git.gitURL("missing"), setup.git.gitURL("empty"), "http://127.0.0.1:\(setup.forge.port)/error/broken.git"]
        try setup.writeAuthors([("ana", urls)])
        let first = try setup.sync()
        #expect(Self.item(first, urls[4])?.change == .new)
        try FileManager.default.removeItem(at: setup.git.root.appendingPathComponent("served/doomed.git"))  // deleted upstream
        let report = try setup.sync()
        #expect(report.hasFailures)
        #expect(Self.item(report, urls[0])?.change == .unchanged)
        // Listed without the tag: still a story, with a warning.
        #expect(Self.item(report, urls[1])?.change == .unchanged)
        #expect(Self.item(report, urls[1])?.warning == .untaggedListed(hasReadme: true))
        #expect(Self.item(report, urls[2])?.outcome == .failed(.noStoryFile), "listed, so a missing story.json is a failure")
        guard case .failed(.invalidStory(let findings))? = Self.item(report, urls[3])?.outcome else {
            Issue.record("the invalid story is not reported as such")
            return
        }
        #expect(findings.first?.file == "story.json" && findings.first?.line == 1, "the finding has a line and column")
        for index in [4, 5, 6, 7] {
            guard case .failed(.transport)? = Self.item(report, urls[index])?.outcome else {
                Issue.record("\(urls[index]) is not a transport failure")
                continue
            }
        }
        #expect(Self.item(report, urls[6])?.detail?.contains("empty repository") == true)
        #expect(Self.item(report, urls[7])?.detail?.contains("500") == true)
        // The invalid story is not in the catalogue as a story; the deleted one keeps its last
        // known version, marked with the error.
        #expect(try setup.entry(urls[3]).isStory == false)
        #expect(try setup.entry(urls[4]).isStory == true && setup.entry(urls[4]).lastError != nil)
    }

    @Test("a server that accepts and then stalls is abandoned by the watchdog, and the rest sync")
    func stalledServer() throws {
        let setup = Setup()
        try setup.git.publish("good", files: ["story.json": Self.story("Good"), "README.md": Self.readme])
        // The same silent port over git:// and https:// (where TLS runs over the timed stream).
        let silentTLS = "https://127.0.0.1:\(setup.forge.stallPort)/silent.git"
        try setup.writeAuthors([("ana", [setup.forge.stalledURL, setup.git.gitURL("good")]), ("ben", [silentTLS])])
        let started = Date()
        let report = try setup.sync(stallSeconds: 1)
        #expect(Date().timeIntervalSince(started) < 20)
        for url in [setup.forge.stalledURL, silentTLS] {
            let stalled = try #require(Self.item(report, url))
            #expect(stalled.change == .failed)
            #expect(stalled.detail?.contains("stalled: nothing received for 1000 ms") == true, "\(stalled.detail ?? "")")
        }
        #expect(Self.item(report, setup.git.gitURL("good"))?.change == .new)
    }

    @Test("GitHub discovery: paginated listing, only tagged non-fork repositories, ETag-cached on the next sync")
    func gitHubDiscovery() throws {
        let setup = Setup()
        setup.token = "test-token"
        try setup.git.publish("tide", files: ["story.json": Self.story("Tide"), "README.md": Self.readme])
        try setup.git.publish("dotfiles", files: ["README.md": Array("# my dotfiles\n".utf8)])
        try setup.git.publish("moor", files: ["story.json": Self.story("Moor"), "README.md": Self.readme])
        try setup.forge.configure(users: ["alice": [
            .init(name: "tide", cloneURL: setup.git.gitURL("tide"), readme: "A #ChooseYourDestiny story"),
            .init(name: "dotfiles", cloneURL: setup.git.gitURL("dotfiles"), readme: "# my dotfiles"),
            .init(name: "moor", cloneURL: setup.forge.httpURL("moor"), readme: "Tagged #choosEyourdestiny, any case"),
            .init(name: "forked", cloneURL: setup.git.gitURL("tide"), readme: "#ChooseYourDestiny", fork: true),
            .init(name: "empty", cloneURL: setup.git.gitURL("none"), readme: nil, size: 0),
        ]], pageSize: 2)
        try setup.writeAuthors([("alice", [])])
        let first = try setup.sync()
        #expect(!first.hasFailures)
        #expect(first.count(.new) == 2)
        #expect(first.count(.notStory) == 1)
        #expect(try setup.forge.count("GET /users/alice/repos") == 3, "three pages of two")
        #expect(try setup.library.catalogue().filter { $0.isStory == true }.map(\.id).sorted() == ["alice/moor", "alice/tide"])

        let listed = try setup.forge.count("GET /git/moor.git/info/refs")
        let second = try setup.sync()
        #expect(second.count(.unchanged) == 2 && !second.hasFailures)
        #expect(try setup.forge.count("GET /git/moor.git/info/refs") == listed, "not pushed since its last good check: no ls-remote")
        #expect(try setup.forge.count("304 /users/alice/repos") == 3, "every page answered 304 from the cache")
        #expect(try setup.forge.count("GET /repos/alice/tide/readme") == 1, "a README is not asked for again until pushed")
        #expect(try setup.forge.count("AUTH /users/alice/repos") == 6, "the token went with every request")
    }

    @Test("a tagged GitHub repository without story.json is quietly not a story, and is fetched only once")
    func taggedButBroken() throws {
        let setup = Setup()
        try setup.git.publish("draft", files: ["README.md": Self.readme])
        try setup.forge.configure(users: ["alice": [.init(name: "draft", cloneURL: setup.forge.httpURL("draft"), readme: "#ChooseYourDestiny soon")]])
        try setup.writeAuthors([("alice", [])])
        for _ in 0..<2 {
            let report = try setup.sync()
            #expect(Self.item(report, setup.forge.httpURL("draft"))?.outcome == .notStory(.noStoryFile))
            #expect(!report.hasFailures, "a discovered repository without story.json is quietly not a story")
        }
        #expect(try setup.forge.count("POST /git/draft.git/git-upload-pack") == 1)
    }

    @Test("GitHub's rate limit stops discovery, says when to retry, and known stories are still checked")
    func rateLimit() throws {
        let setup = Setup()
        try setup.git.publish("tide", files: ["story.json": Self.story("Tide"), "README.md": Self.readme])
        try setup.forge.configure(users: ["alice": [.init(name: "tide", cloneURL: setup.git.gitURL("tide"), readme: "#ChooseYourDestiny")]])
        try setup.writeAuthors([("alice", []), ("bob", [])])
        _ = try setup.sync()
        try setup.forge.configure(users: [:], rateLimited: true)
        let report = try setup.sync()
        let limit = try #require(report.rateLimited)
        #expect((limit.reset ?? 0) > Date().timeIntervalSince1970)
        #expect(limit.message.contains("rate limit"))
        #expect(try setup.forge.count("403 /users/bob/repos") == 0, "after the first 403, GitHub is not asked again")
        #expect(Self.item(report, setup.git.gitURL("tide"))?.change == .unchanged)
        #expect(try setup.library.catalogue().count == 1, "nothing was forgotten")
    }

    @Test("an unknown GitHub user and an author with a bad name are reported; the others sync")
    func badAuthors() throws {
        let setup = Setup()
        try setup.git.publish("tide", files: ["story.json": Self.story("Tide"), "README.md": Self.readme])
        try setup.writeAuthors([("ghost", []), ("-bad name-", []), ("ana", [setup.git.gitURL("tide")])])
        let report = try setup.sync()
        #expect(report.hasFailures)
        #expect(report.authorFailures.map(\.author).sorted() == ["-bad name-", "ghost"])
        guard case .invalidEntry(let finding)? = report.authorFailures.first(where: { $0.author == "-bad name-" })?.failure else {
            Issue.record("the bad name is not an invalid entry")
            return
        }
        #expect(finding.file.hasSuffix("authors.json") && finding.line == 3 && finding.column > 1, "\(finding)")
        #expect(report.authorFailures.first { $0.author == "ghost" }?.failure == .unknownGitHubUser)
        #expect(report.count(.new) == 1)
    }

    @Test("failures are cases a caller can act on: GitHub's 500 for an author, publishing into a file")
    func typedFailures() throws {
        let setup = Setup()
        try setup.writeAuthors([("ana", [])])
        var options = SyncOptions(catalogue: setup.authorsPath)
        options.githubAPI = setup.forge.apiURL + "/error"
        let report = try CatalogueSync.run(options, library: setup.library)
        #expect(report.authorFailures.map(\.author) == ["ana"])
        #expect(report.authorFailures.first?.failure == .gitHub(.status(500, asking: .repositories(of: "ana"), apiMessage: nil)))

        let file = setup.home.appendingPathComponent("site").path
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: file))
        #expect(throws: SyncError.storage(StorageProblem(.publishing(into: file), .notAFolder(path: file)))) {
            try CatalogueRoot.publish(setup.library, to: file)
        }
    }

    @Test("authors.json from a git repository, and an author dropped from it leaves the catalogue")
    func catalogueFromGit() throws {
        let setup = Setup()
        try setup.git.publish("tide", files: ["story.json": Self.story("Tide"), "README.md": Self.readme])
        try setup.git.publish("moor", files: ["story.json": Self.story("Moor"), "README.md": Self.readme])
        func publishAuthors(_ json: String) throws { try setup.git.publish("catalogue", files: ["authors.json": Array(json.utf8)]) }
        try publishAuthors(#"{ "authors": [ { "name": "ana", "repos": ["\#(setup.git.gitURL("tide"))"] }, { "name": "ben", "repos": ["\#(setup.git.gitURL("moor"))"] } ] }"#)
        var options = SyncOptions(catalogue: setup.git.gitURL("catalogue"))
        options.githubAPI = setup.forge.apiURL
        #expect(try CatalogueSync.run(options, library: setup.library).count(.new) == 2)
        try publishAuthors(#"{ "authors": [ { "name": "ana", "repos": ["\#(setup.git.gitURL("tide"))"] } ] }"#)
        _ = try CatalogueSync.run(options, library: setup.library)
        #expect(try setup.library.catalogue().map(\.id) == ["ana/tide"])
    }

    @Test("an unusable authors.json is refused with its findings, and the catalogue is left alone")
    func invalidCatalogue() throws {
        let setup = Setup()
        try Data(#"{ "authors": { "name": "ana" } }"#.utf8).write(to: URL(fileURLWithPath: setup.authorsPath))
        #expect {
            try setup.sync()
        } throws: { error in
            guard case SyncError.invalidCatalogue(_, let findings) = error else { return false }
            return findings.contains { $0.file.hasSuffix("authors.json") && $0.line == 1 }
        }
    }

    @Test("an author named twice is one author: the repository lists are merged")
    func duplicateAuthors() throws {
        let setup = Setup()
        try setup.git.publish("tide", files: ["story.json": Self.story("Tide"), "README.md": Self.readme])
        try setup.git.publish("moor", files: ["story.json": Self.story("Moor"), "README.md": Self.readme])
        try setup.writeAuthors([("ana", [setup.git.gitURL("tide")]), ("Ana", [setup.git.gitURL("moor")])])
        let report = try setup.sync()
        #expect(report.count(.new) == 2 && report.authors == 1)
        #expect(try setup.library.catalogue().map(\.id).sorted() == ["ana/moor", "ana/tide"])
        #expect(report.catalogueWarnings.contains { $0.code == "CYD901" }, "\(report.catalogueWarnings)")
    }
}
