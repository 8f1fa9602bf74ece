import Foundation
import StoryAnalysis
@testable import StoryDiff
import StoryFormat
import TestSupport
import Testing

/// A story change as a story change: versions read from folders, files and real git histories
/// (libgit2, no checkout), compared as chapters, choices, text, endings, findings and translations.
@Suite("What a change does to a story")
struct StoryChangesTests {
    /// The lighthouse story of these tests: a start, two ways, a ledger that leads on, two endings.
    static func lighthouse(ledgerID: String = "ledger", ledgerText: String = "The ledger is heavy. Wind west, glass falling, lamp lit at six.") -> TestStory {
        TestStory(
            id: "gull", title: "Gull Rock",
            chapters: [
                .init("arrival", name: "Gull Rock", text: "The boat leaves you on the jetty.", choices: [(ledgerID, "Read the ledger"), ("tower", "Climb the tower")], isFirst: true),
                .init(ledgerID, name: "The Ledger", text: ledgerText, choices: [("tower", "Climb after all")]),
                .init("tower", name: "The Tower", text: "The lamp is cold.", choices: [("light", "Light it"), ("leave", "Leave it dark")]),
                .init("light", name: "Light", text: "The beam sweeps the sea.", isEnding: true),
                .init("leave", name: "Dark", text: "The grey ship comes.", isEnding: true),
            ])
    }

    /// A git repository with one commit a version; returns its folder.
    static func history(_ folder: TemporaryFolder, _ versions: [[String: [UInt8]]]) throws -> String {
        let repository = folder.path("repo")
        try FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: true)
        try git(["init", "-q", "-b", "main"], in: repository)
        for (index, files) in versions.enumerated() {
            for (path, bytes) in files {
                let target = repository + "/" + path
                try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try Data(bytes).write(to: URL(fileURLWithPath: target))
            }
            try git(["add", "-A"], in: repository)
            try git(["commit", "-q", "-m", "version \(index + 1)"], in: repository)
        }
        return repository
    }

    @discardableResult
    static func git(_ arguments: [String], in folder: String) throws -> String {
        let run = try ChildProcess.run(["git", "-c", "user.name=Test", "-c", "user.email=test@example.invalid", "-c", "commit.gpgsign=false"] + arguments, in: folder)
        guard run.status == 0 else { throw TestSupportError("git \(arguments): \(run.standardError)") }
        return run.standardOutput
    }

    static func changes(_ old: String, _ new: String, in folder: String) -> StoryChanges {
        StoryChanges(old: StoryVersion.result(old, storyFolder: folder), new: StoryVersion.result(new, storyFolder: folder), labels: (old, new))
    }

    @Test("a chapter renamed and edited in one commit is one chapter renamed, its choices followed (not retargeted), its text changed word by word, its translation fuzzy under its new id")
    func renameWithEdits() throws {
        let folder = try TemporaryFolder()
        let po = """
            msgid ""
            msgstr ""
            "Content-Type: text/plain; charset=UTF-8\\n"

            msgctxt "The Ledger"
            msgid "The ledger is heavy. Wind west, glass falling, lamp lit at six."
            msgstr "Le registre est lourd. Vent d'ouest, baromètre en baisse, lampe allumée à six heures."

            msgctxt "Gull Rock"
            msgid "The boat leaves you on the jetty."
            msgstr "Le bateau vous laisse sur la jetée."

            """
        let repository = try Self.history(
            folder,
            [
                ["story.json": Self.lighthouse().bytes, "translations/LINGUAS": Array("fr\n".utf8), "translations/fr.po": Array(po.utf8)],
                ["story.json": Self.lighthouse(ledgerID: "logbook", ledgerText: "The ledger is heavy. Wind east, glass falling, lamp lit at six.").bytes],
            ])
        let changes = Self.changes("HEAD~1", "HEAD", in: repository)
        #expect(changes.old.problem == nil && changes.new.problem == nil)
        #expect(changes.renamed.map { "\($0.from.id)→\($0.to.id)" } == ["ledger→logbook"], "\(changes.renamed)")
        #expect(changes.added.isEmpty && changes.removed.isEmpty, "a rename is neither an addition nor a removal")
        #expect(changes.choices.isEmpty, "the choice to the renamed chapter follows it: \(changes.choices)")
        let text = try #require(changes.texts.first { $0.chapter.id == "logbook" }?.text)
        #expect(text.runs.filter { $0.kind != .kept }.map(\.text) == ["west", "east"], "\(text.runs)")
        #expect(text.removedWords == 1 && text.addedWords == 1)
        let french = try #require(changes.translations.first { $0.language == "fr" })
        #expect(french.becomeFuzzy == 1 && french.lost == 0 && french.examples == ["logbook.text.1"], "\(french)")
        #expect(changes.endingsAdded.isEmpty && changes.endingsLost.isEmpty && changes.becameUnreachable.isEmpty)
    }

    @Test("choices added, removed and retargeted; an ending gained and one lost; a chapter cut off; playthroughs and the longest way; findings new and fixed")
    func theShapeOfTheStory() throws {
        let folder = try TemporaryFolder()
        var new = Self.lighthouse()
        new.chapters[0].choices = [("ledger", "Read the ledger"), ("light", "Climb the tower")]  // retargeted; the tower is cut off
        new.chapters[1].choices = [("tower", "Climb after all"), ("bell", "Ring the bell")]  // added, to a new ending
        new.chapters.append(.init("bell", name: "The Bell", text: "Three long, two short.", isEnding: true))
        new.chapters[2].choices = [("light", "Light it")]  // "Leave it dark" removed: the dark ending is lost
        let old = try folder.write("old.json", Self.lighthouse().bytes).path
        let newPath = try folder.write("new.json", new.bytes).path
        let changes = Self.changes(old, newPath, in: folder.url.path)
        #expect(changes.added.map(\.id) == ["bell"])
        #expect(changes.removed.isEmpty && changes.renamed.isEmpty)
        #expect(changes.choices.contains(.retargeted(in: .init(id: "arrival", title: "Gull Rock"), text: "Climb the tower", from: "tower", to: "light")), "\(changes.choices)")
        #expect(changes.choices.contains(.added(in: .init(id: "ledger", title: "The Ledger"), text: "Ring the bell", to: "bell")))
        #expect(changes.choices.contains(.removed(in: .init(id: "tower", title: "The Tower"), text: "Leave it dark", to: "leave")))
        #expect(changes.endingsAdded.map(\.id) == ["bell"])
        #expect(changes.endingsLost.map(\.id) == ["leave"], "the dark ending is no longer reachable: \(changes.endingsLost)")
        #expect(changes.becameUnreachable.map(\.id) == ["leave"] || changes.becameUnreachable.map(\.id).contains("leave"), "\(changes.becameUnreachable)")
        #expect(changes.old.playthroughs == .finite(BigCount(4)) && changes.new.playthroughs == .finite(BigCount(3)), "\(changes.old.playthroughs as Any) \(changes.new.playthroughs as Any)")
        #expect(changes.findingsNew.contains { $0.code == "CYD402" || $0.message.contains("leave") }, "an unreachable chapter is a new finding: \(changes.findingsNew)")
        #expect(changes.findingsFixed.isEmpty)
    }

    @Test("each side's playthroughs are its own, whichever side is read first: of the same shape (counted once) or not (counted after the comparison), the larger side old or new")
    func playthroughsWhicheverSideIsReadFirst() {
        // The side with 2 MB more to read (a key readers pass over) is read last, almost
        // always: both orders are met.
        func version(_ story: TestStory, long: Bool) -> Result<StoryVersion, StoryVersion.Problem> {
            let padding = long ? Array(("{\"x-padding\": \"" + String(repeating: "The beam sweeps the sea. ", count: 80_000) + "\",").utf8) : [UInt8(ascii: "{")]
            return .success(StoryVersion(origin: .file("story.json"), bytes: padding + story.bytes.dropFirst(), read: { _ in nil }))
        }
        var darkless = Self.lighthouse()
        darkless.chapters[2].choices = [("light", "Light it")]
        for longSide in [0, 1] {
            for (old, new, ways) in [(Self.lighthouse(), Self.lighthouse(), (4, 4)), (Self.lighthouse(), darkless, (4, 2)), (darkless, Self.lighthouse(), (2, 4))] {
                let changes = StoryChanges(old: version(old, long: longSide == 0), new: version(new, long: longSide == 1), labels: ("old.json", "new.json"))
                #expect(changes.old.playthroughs == .finite(BigCount(UInt64(ways.0))), "\(longSide) \(changes.old.playthroughs as Any)")
                #expect(changes.new.playthroughs == .finite(BigCount(UInt64(ways.1))), "\(longSide) \(changes.new.playthroughs as Any)")
                #expect(changes.old.endings == ways.0 / 2 && changes.new.endings == ways.1 / 2)
            }
        }
    }

    @Test("a merge: the merged branch against the main line before it, and the merge against the branch, read from the history with no checkout")
    func merge() throws {
        let folder = try TemporaryFolder()
        let repository = try Self.history(folder, [["story.json": Self.lighthouse().bytes]])
        try Self.git(["checkout", "-q", "-b", "feature"], in: repository)
        var feature = Self.lighthouse()
        feature.chapters[3].text = "The beam sweeps the sea, and the grey ship turns away."
        try Data(feature.bytes).write(to: URL(fileURLWithPath: repository + "/story.json"))
        try Self.git(["commit", "-q", "-am", "the beam"], in: repository)
        try Self.git(["checkout", "-q", "main"], in: repository)
        var main = Self.lighthouse()
        main.title = "The Keeper of Gull Rock"
        try Data(main.bytes).write(to: URL(fileURLWithPath: repository + "/story.json"))
        try Self.git(["commit", "-q", "-am", "the title"], in: repository)
        try Self.git(["merge", "-q", "--no-edit", "-X", "theirs", "feature"], in: repository)
        // The work tree is made to differ: revisions must be read from git, not from the folder.
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: repository + "/story.json"))
        let merged = Self.changes("HEAD^1", "HEAD", in: repository)
        #expect(merged.texts.map(\.chapter.id) == ["light"], "the merge brings the branch's text: \(merged.texts)")
        #expect(merged.story.isEmpty, "the title came before the merge on main")
        let branch = Self.changes("feature", "main", in: repository)
        #expect(branch.story.map(\.field) == ["title"] && branch.texts.isEmpty, "\(branch.story) \(branch.texts)")
    }

    @Test("hostile sides: a missing commit, a file too large, invalid JSON on one side; the other side is still described and the problem said")
    func hostileSides() throws {
        let folder = try TemporaryFolder()
        let repository = try Self.history(folder, [["story.json": Self.lighthouse().bytes], ["story.json": Array("{\"story\": {\"id\": \"gull\",".utf8)]])
        let broken = Self.changes("HEAD~1", "HEAD", in: repository)
        #expect(broken.old.problem == nil && broken.old.chapters == 5 && broken.old.endings == 2, "the readable side is described")
        guard case .notAStory(let finding?)? = broken.new.problem else { Issue.record("\(broken.new.problem as Any)"); return }
        #expect(finding.position.line == 1, "the parse error is said at its place: \(finding)")
        let missing = Self.changes("0123456789abcdef0123456789abcdef01234567", "HEAD~1", in: repository)
        #expect(missing.old.problem == .version(.notFound("0123456789abcdef0123456789abcdef01234567", repository: repository + "/")), "\(missing.old.problem as Any)")
        #expect(missing.new.problem == nil && missing.new.chapters == 5)
        let dashed = Self.changes("--output=/tmp/x", "HEAD~1", in: repository)
        #expect(dashed.old.problem != nil, "a revision that looks like an option is none")
        let huge = folder.path("huge.json")
        #expect(FileManager.default.createFile(atPath: huge, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: huge))
        try handle.truncate(atOffset: UInt64(StoryVersion.largestStory + 1))
        try handle.close()
        let large = Self.changes(huge, "HEAD~1", in: repository)
        #expect(large.old.problem == .version(.tooLarge(huge, limit: StoryVersion.largestStory)), "\(large.old.problem as Any)")
        let outside = Self.changes("HEAD", "HEAD", in: folder.path("nowhere-\(UUID())"))
        #expect(outside.old.problem == .version(.notFound("HEAD", repository: nil)), "\(outside.old.problem as Any)")
    }

    @Test("a story in a folder of a repository: revisions read story.json from that folder; a picture's bytes changed at the same path is a changed picture")
    func storyInASubfolder() throws {
        let folder = try TemporaryFolder()
        var story = Self.lighthouse()
        story.chapters[0].picture = "resources/rock.png"
        let repository = try Self.history(
            folder,
            [
                ["stories/gull/story.json": story.bytes, "stories/gull/resources/rock.png": [0x89, 0x50, 0x4E, 0x47, 1]],
                ["stories/gull/resources/rock.png": [0x89, 0x50, 0x4E, 0x47, 2]],
            ])
        let changes = Self.changes("HEAD~1", "HEAD", in: repository + "/stories/gull")
        #expect(changes.old.problem == nil, "\(changes.old.problem as Any)")
        #expect(changes.pictures == [.init(path: "resources/rock.png", kind: .changed, chapters: ["arrival"])], "\(changes.pictures)")
        #expect(changes.texts.isEmpty && changes.choices.isEmpty)
    }

    @Test("words: the common beginning and end are kept, the middle compared word by word, white space kept as written")
    func words() {
        let diff = WordDiff(old: "The lamp is cold and dark.", new: "The lamp is warm and bright.")
        #expect(diff.runs.map(\.kind) == [.kept, .removed, .added, .kept, .removed, .added, .kept], "\(diff.runs)")
        #expect(diff.runs.map(\.text).joined(separator: "|") == "The lamp is |cold|warm| and |dark|bright|.")
        #expect(WordDiff(old: "same", new: "same").runs == [.init(kind: .kept, text: "same")])
        let long = String(repeating: "a ", count: 3000), other = String(repeating: "b ", count: 3000)
        let whole = WordDiff(old: long, new: other)
        #expect(whole.removedWords == 3000 && whole.addedWords == 3000, "a change too large to compare word by word is whole")
    }

    @Test("words are cut the same whether a character is read by Unicode's rules or, for ASCII, at once: accents, emoji, line ends and curly quotes")
    func wordsByEitherRoad() {
        // The rule written plainly: a token is a run of word characters or of white space, or one
        // other character.
        func plainTokens(_ text: String) -> [Substring] {
            enum Class { case word, space, other }
            func kind(_ character: Character) -> Class {
                character.isWhitespace ? .space : (character.isLetter || character.isNumber || character == "'" || character == "’") ? .word : .other
            }
            var tokens: [Substring] = []
            var start = text.startIndex
            var current: Class?
            for index in text.indices {
                let here = kind(text[index])
                if let current, current != here || here == .other {
                    tokens.append(text[start..<index])
                    start = index
                }
                current = here
            }
            if start < text.endIndex { tokens.append(text[start...]) }
            return tokens
        }
        let pieces = ["a", "Z", "9", " ", "\t", "\r\n", "\n", "\r", ",", ".", "'", "’", "é", "e\u{301}", "a\u{308}", "👩‍👩‍👧", "🇫🇷", "«", "—", "\u{A0}", "日本", "-", "\u{85}"]
        var random = SplitMix64(state: 7)
        for round in 0..<2000 {
            let text = (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)] }.joined()
            #expect(WordDiff.tokens(text) == plainTokens(text), "round \(round): \(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test("a minified story, one line, with 20,000 findings on each side: every finding placed on its line and column in one sweep, not counted from the line's start for each", .timeLimit(.minutes(1)))
    func minifiedFindings() throws {
        let folder = try TemporaryFolder()
        // The first chapter leads nowhere; the 20,000 after it cannot be reached: a finding each.
        var story = TestStory(id: "wide", title: "Wide", chapters: [.init("start", name: "Start", text: "Here.", isFirst: true)])
        for index in 1...20_000 {
            story.chapters.append(.init("c\(index)", name: "Chapter \(index)", text: String(repeating: "Words no reader sees. ", count: 8)))
        }
        let old = story.value.encoded
        story.chapters[0].text = "Here, and now."
        let new = story.value.encoded
        #expect(!old.contains("\n") && !new.contains("\n"), "one line each")
        let changes = Self.changes(try folder.write("old.json", Array(old.utf8)).path, try folder.write("new.json", Array(new.utf8)).path, in: folder.url.path)
        #expect(changes.texts.map(\.chapter.id) == ["start"])
        for side in [changes.old, changes.new] {
            #expect(side.findings.count >= 20_000, "\(side.findings.count)")
            #expect(side.findings.allSatisfy { $0.position.line == 1 })
            let columns = side.findings.filter { $0.message.contains("c1") }.map(\.position.column)
            #expect(!columns.isEmpty && columns.allSatisfy { $0 > 1 && $0 <= old.utf8.count + 5 })
        }
        // Where chapter c20000 is written, counted in characters as editors count columns.
        let last = try #require(changes.new.findings.last { $0.message.contains("'c20000'") })
        let written = try #require(new.range(of: #"{"id":"c20000""#))
        #expect(abs(last.position.column - (new.distance(from: new.startIndex, to: written.lowerBound) + 1)) < 40, "\(last)")
    }

    @Test("findings are matched by code and message, counted: on the new side, those beyond the old side's count of the same are new, in the new side's order; on the old, those beyond the new's are fixed")
    func findingsCounted() {
        func finding(_ code: String, _ message: String, line: Int) -> StoryChanges.Finding {
            StoryChanges.Finding(code: code, severity: .warning, message: message, position: SourcePosition(line: line, column: 1))
        }
        let old = [finding("CYD1", "a", line: 1), finding("CYD1", "a", line: 2), finding("CYD2", "b", line: 3), finding("CYD3", "gone", line: 4), finding("CYD1", "b", line: 5)]
        let new = [
            finding("CYD1", "a", line: 10), finding("CYD2", "b", line: 11), finding("CYD2", "b", line: 12), finding("CYD4", "c", line: 13),
            finding("CYD1", "a", line: 14), finding("CYD1", "a", line: 15),
        ]
        let (added, fixed) = StoryChanges.findingChanges(old: old, new: new)
        #expect(added.map(\.position.line) == [12, 13, 15])
        #expect(fixed.map(\.position.line) == [4, 5], "a code with another message is another finding")
        let (none, alsoNone) = StoryChanges.findingChanges(old: new, new: new)
        #expect(none.isEmpty && alsoNone.isEmpty)
        let (all, allFixed) = StoryChanges.findingChanges(old: [], new: new)
        #expect(all == new && allFixed.isEmpty)
    }
}
