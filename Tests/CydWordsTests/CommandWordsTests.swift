import CydWords
import StoryAnalysis
import StoryCheck
import StoryFormat
import StorySources
@testable import StoryStore
import StorySync
@testable import StoryTranslation
import Testing

/// What the commands say, in-process: durations, drawing a map, translations, updates, keys,
/// the keeper's status and the files `cyd init` writes.
@Suite("cyd's words for its commands")
struct CommandWordsTests {
    static let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J"

    static func record(_ title: String = "Tide") -> StoryRecord {
        StoryRecord(
            id: 7, source: StorySource(kind: .folder, location: "/s"), storyKey: "s", title: title, rating: "G", summary: "", author: nil, picPath: nil,
            version: "0123456789abcdef", firstChapter: "a", chapterCount: 2, endingCount: 1, addedAt: 0, updatedAt: 0)
    }

    @Test("a length of time is seconds, or a number with s, m, h or d; anything else is not one")
    func seconds() {
        #expect(Words.seconds("90") == 90 && Words.seconds("10m") == 600 && Words.seconds("2h") == 7200 && Words.seconds("7d") == 604_800)
        #expect(Words.seconds("1.5s") == 1.5)
        for bad in ["", "m", "-1", "-2h", "10 m", "1w", "ten"] { #expect(Words.seconds(bad) == nil, "\(bad)") }
    }

    @Test("why a map is not drawn names the remedy, and dot's own words are made safe")
    func graphviz() {
        #expect(GraphWords.tooLarge(chapters: 2001).contains("at most \(GraphvizDrawing.chapterLimit)"))
        #expect(GraphWords.svgProblem(.notInstalled, chapters: 3, limit: 60).contains("apt-get install graphviz"))
        #expect(GraphWords.svgProblem(.timedOut(seconds: 60), chapters: 3, limit: 60).contains("3 chapters in 60 s"))
        let failed = GraphWords.svgProblem(.failed(signal: nil, status: 1, said: Self.hostile), chapters: 3, limit: 60)
        #expect(failed.hasPrefix("Graphviz's dot failed: it exited with status 1: ") && !failed.contains("\u{1B}"), "\(failed)")
        #expect(GraphWords.svgProblem(.failed(signal: 9, status: 0, said: ""), chapters: 3, limit: 60) == "Graphviz's dot failed: it was killed by signal 9 and said nothing")
        #expect(GraphvizDrawing.timeLimit(environment: [:]) == 60 && GraphvizDrawing.timeLimit(environment: ["CYD_GRAPH_SECONDS": "99999"]) == 3600)
        #expect(GraphvizDrawing.timeLimit(environment: ["CYD_GRAPH_SECONDS": "0"]) == 0.1)
    }

    @Test("a story that cannot be translated, or a file that cannot be updated, is said with its path made safe")
    func translations() {
        let notAFolder = TranslationWords.loadProblem(.notAStoryFolder("x\(Self.hostile)"))
        #expect(notAFolder.hasSuffix("is not a story folder (with story.json)") && !notAFolder.contains("\u{1B}"))
        #expect(TranslationWords.loadProblem(.notAStory(displayPath: "s/story.json")).contains("`cyd validate` says why"))
        let syntax = TranslationWords.readProblem(.syntax(path: "fr.po", TranslationReadError(line: 3, column: 5, offset: 0, problem: "an unclosed string")))
        #expect(syntax == "'fr.po' line 3, column 5: an unclosed string; fix it before updating (`cyd validate` shows the place)")
        // What the problem quotes of the file, and a language named by a file, never reach the terminal raw.
        let quoted = TranslationWords.readProblem(.syntax(path: "fr.po", TranslationReadError(line: 1, column: 1, offset: 0, problem: "unknown keyword \(Self.hostile)")))
        #expect(!quoted.contains("\u{1B}") && !quoted.contains("\u{07}"), "\(quoted)")
        let file = TranslationFolder.LanguageFile(language: "x\(Self.hostile)", path: "t/x.po", format: .po)
        #expect(!TranslationWords.updated(file, TranslationMerge.Counts()).contains("\u{1B}"))
        let status = TranslationStatus(language: "x\(Self.hostile)", total: 2, translated: 1, fuzzy: 0, missing: 1)
        #expect(TranslationWords.status([(file, status)], strings: 2, listed: []).allSatisfy { !$0.contains("\u{1B}") && !$0.contains("\u{07}") })
    }

    @Test("an update: a story kept at its checked commit is a note, not a failure; a failure names the story and why; the totals add up")
    func updates() {
        let story = Self.record("Tide\(Self.hostile)")
        let kept = ImportWords.updated(story, .failure(.noLongerPinned(url: "u", commit: "0123456789abcdef0123")))
        #expect(kept.out.isEmpty && kept.errors.count == 1 && kept.errors[0].contains("stays at 0123456789ab") && !kept.errors[0].contains("\u{1B}"))
        let unreadable = ImportWords.updated(story, .failure(.unreadable(reports: [])))
        #expect(unreadable.errors == ["cyd: cannot update Tide\(VisibleText.escape(Self.hostile)) (id 7): the new version cannot be read; the old one is kept (`cyd validate` shows why)"])
        let gone = ImportWords.updated(story, .failure(.httpStatus(url: "https://h/s.json", status: 404)))
        #expect(gone.errors.count == 1 && gone.errors[0].hasPrefix("cyd: cannot update"))
        let totals = ImportWords.updateTotals([.failure(.noLongerPinned(url: "u", commit: "c")), .failure(.httpStatus(url: "u", status: 500))])
        #expect(totals.line == "0 updated, 0 already up to date, 1 kept at the checked version (no longer in the catalogue), 1 failed" && totals.failed == 1)
        #expect(ImportWords.displaced(["ana\(Self.hostile)"]).allSatisfy { !$0.contains("\u{1B}") })
    }

    @Test("keygen says the key it wrote, or why it wrote none, paths made safe")
    func keyPair() throws {
        #expect(CatalogueWords.keyPair(.failure(.exists(path: "k\(Self.hostile).sec")), name: "k").hasSuffix("exists; a key is never overwritten (choose another name)"))
        #expect(!CatalogueWords.keyPair(.failure(.exists(path: "k\(Self.hostile).sec")), name: "k").contains("\u{1B}"))
        #expect(CatalogueWords.unusableKey("x.pub", secret: false, .malformed(what: "public key", reason: "short")).contains("give a .pub file"))
        #expect(CatalogueWords.unusableKey("x.sec", secret: true, .passphraseProtected).contains("`signify -G -n`"))
    }

    @Test("the keeper's status as JSON: totals by state that add up to the stories, good ones counted apart")
    func statusTotals() throws {
        let status = [
            CatalogueStatus(id: "a/ok", url: "u1", state: .ok), CatalogueStatus(id: "a/w", url: "u2", state: .warnings(2)),
            CatalogueStatus(id: "b/x", url: "u3", state: .broken(since: 0, reason: "r")), CatalogueStatus(id: "b/y", url: "u4", state: .unchecked),
        ]
        #expect(status.filter(StatusWords.isTroubled).map(\.id) == ["b/x"])
        let totals = try #require(StatusWords.json(status)["totals"])
        #expect(totals["stories"] == .number(4) && totals["good"] == .number(3) && totals["broken"] == .number(1) && totals["unreachable"] == .number(0))
        #expect(totals["valid"] == .number(1) && totals["warnings"] == .number(1) && totals["unchecked"] == .number(1))
    }

    @Test("cyd init's files: the story's set, with the Pages workflow only when asked")
    func initFiles() {
        let plain = RepositoryTemplates.storyFiles(title: "T", pages: false).map(\.path)
        #expect(plain == ["story.json", "README.md", "resources/.gitkeep", ".pre-commit-config.yaml", ".github/workflows/validate.yml"])
        #expect(RepositoryTemplates.storyFiles(title: "T", pages: true).map(\.path) == plain + [RepositoryTemplates.pagesPath])
        #expect(RepositoryTemplates.madeStory(in: "d\(Self.hostile)", pages: false, phrase: "no problems", inGit: false).contains("`git init` there"))
        #expect(!RepositoryTemplates.madeStory(in: "d\(Self.hostile)", pages: false, phrase: "", inGit: true).contains("\u{1B}"))
    }
}
