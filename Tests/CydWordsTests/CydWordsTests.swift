import CydWords
import StoryCheck
import StoryDiff
import StoryFormat
import StorySync
import Testing

/// cyd's words, in-process: the files `cyd init` writes, and what the catalogue commands say.
@Suite("cyd's words")
struct CydWordsTests {
    @Test("the story cyd init writes validates clean, titled as asked (quotes and all), and its README carries the tag")
    func storyTemplate() {
        let text = RepositoryTemplates.story(title: "The \"Gull\" Rock")
        let reports = Checker.check(bytes: Array(text.utf8), path: "story.json", folder: nil, options: CheckOptions())
        #expect(reports.allSatisfy { $0.diagnostics.isEmpty }, "\(reports.flatMap(\.diagnostics).map(\.message))")
        #expect(LoadedFile.load(Array(text.utf8)).story?.model()?.name == "The \"Gull\" Rock")
        #expect(StoryReadme.carriesTag(Array(RepositoryTemplates.readme(title: "T").utf8)))
        #expect(LoadedFile.load(Array(RepositoryTemplates.authors.utf8)).diagnostics.isEmpty)
    }

    @Test("the workflows use this project's action, and the hook validates strictly")
    func workflows() {
        for workflow in [RepositoryTemplates.workflow, RepositoryTemplates.pagesWorkflow, RepositoryTemplates.catalogueWorkflow] {
            #expect(workflow.contains("uses: \(ProjectHome.repository)@\(ProjectHome.branch)"))
            #expect(!workflow.contains("\t"), "YAML takes no tabs")
        }
        #expect(RepositoryTemplates.preCommit.contains("entry: cyd validate --strict"))
    }

    static func item(_ id: String, _ outcome: SyncReport.Outcome) -> SyncReport.Item {
        SyncReport.Item(id: id, url: "https://example.com/\(id).git", outcome: outcome)
    }

    @Test("a sync's summary counts each change, names what was removed, and says the authors")
    func syncSummary() {
        var report = SyncReport()
        report.items = [Self.item("a/one", .new), Self.item("a/two", .updated), Self.item("b/three", .unchanged), Self.item("b/gone", .removed)]
        report.authors = 2
        #expect(
            CatalogueWords.summary(report, seconds: 1.25)
                == "Synced 3 repositories of 2 authors in 1.2 s: 1 new, 1 updated, 1 unchanged, 1 removed (b/gone), 0 failed.")
    }

    @Test("a sync's text lists what is kept, unreachable and failed, escapes what servers sent, and says when a rate limit refills")
    func syncLines() {
        var report = SyncReport()
        report.items = [
            Self.item("a/kept", .broken(since: 0, reason: "bad json")),
            Self.item("a/far\u{1B}[2J", .unreachable(since: 0, reason: "no route")),
        ]
        report.authors = 1
        report.rateLimited = (reset: 600, message: "API rate limit exceeded")
        let lines = CatalogueWords.lines(report, seconds: 2, now: 0, hasToken: false).map(\.text)
        #expect(lines.contains("Kept at their last good version:"))
        #expect(lines.contains("Unreachable (the keeper's last checks failed):"))
        #expect(!lines.joined().contains("\u{1B}"), "no escape reaches the terminal")
        let limit = lines.last ?? ""
        #expect(limit.contains("Try again in 10 minutes (00:10 UTC), or set GITHUB_TOKEN"), "\(limit)")
        #expect(!CatalogueWords.lines(report, seconds: 2, now: 0, hasToken: true).map(\.text).joined().contains("GITHUB_TOKEN"))
    }

    @Test("the keeper's status is a table: ids and states padded to the widest, details below, the totals last")
    func statusTable() {
        let status = [
            CatalogueStatus(id: "a/one", url: "u", state: .ok, lastGoodCommit: "0123456789abcdef", errors: 0, warnings: 0),
            CatalogueStatus(id: "bo/longer-name", url: "u", state: .broken(since: 0, reason: "story.json: bad"), lastGoodCommit: "fedcba9876543210"),
        ]
        let lines = StatusWords.table(status, troubled: 1).map(\.text)
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("a/one           valid"))
        #expect(lines[0].contains("  at 0123456789ab"))
        #expect(lines[1].hasPrefix("bo/longer-name  broken since 1970-01-01"))
        #expect(lines[2] == "    the last good version is offered; story.json: bad")
        #expect(lines[3] == "2 stories: 1 good, 1 broken, unreachable or failing")
        #expect(StatusWords.badge(.unreachable(since: 0, reason: "")) == "unreachable")
    }

    @Test("a word diff is shown on one line: a paragraph's line feeds (LF or CRLF) are spaces around the change, the rest as written")
    func wordDiffOnOneLine() throws {
        func version(_ text: String) -> Result<StoryVersion, StoryVersion.Problem> {
            let story = """
                {"story": {"id": "s", "name": "S", "rating": "G", "summary": "", "chapters": [
                {"id": "a", "name": "A", "text": \(text), "is_first_chapter": true, "choices": []}]}}
                """
            return .success(StoryVersion(origin: .file("story.json"), bytes: Array(story.utf8), read: { _ in nil }))
        }
        let changes = StoryChanges(
            old: version(#""The lamp\nis cold.\r\nThe sea is grey and wide.""#), new: version(#""The lamp\nis warm.\r\nThe sea is grey and wide.""#),
            labels: ("old.json", "new.json"))
        let text = DiffWords.text(changes, colour: false)
        let line = try #require(text.split(separator: "\n").first { $0.contains("[-cold-]") })
        // The carriage return is shown as the escape shows it, as before.
        #expect(line.hasSuffix("The lamp is [-cold-]{+warm+}.^M The sea is grey and wide."), "\(line)")
        #expect(!text.contains("lamp\n"))
    }
}
