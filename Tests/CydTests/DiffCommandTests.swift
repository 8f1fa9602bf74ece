import Foundation
import TestSupport
import Testing

/// `cyd diff`: a story change reviewed as a story change, from the command line and from git.
@Suite("cyd diff")
struct DiffCommandTests {
    let folder = try! TemporaryFolder()

    static func story(title: String = "Gull Rock", ledger: String = "ledger", text: String = "Wind west, glass falling.", extra: Bool = false) -> TestStory {
        var chapters: [TestStory.Chapter] = [
            .init("arrival", name: title, text: "The boat leaves you on the jetty.", choices: [(ledger, "Read the ledger"), ("tower", "Climb the tower")], isFirst: true),
            .init(ledger, name: "The Ledger", text: text, choices: [("tower", "Climb after all")]),
            .init("tower", name: "The Tower", text: "The lamp is cold.", isEnding: true),
        ]
        if extra { chapters[2].choices = [("bell", "Ring the bell")]; chapters[2].isEnding = false; chapters.append(.init("bell", name: "Bell", text: "Three long.", isEnding: true)) }
        return TestStory(id: "gull", title: "Gull Rock", chapters: chapters)
    }

    func repository(_ versions: [TestStory]) throws -> String {
        let repository = folder.path("repo")
        try FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: true)
        try git(["init", "-q", "-b", "main"], in: repository)
        for (index, version) in versions.enumerated() {
            try Data(version.bytes).write(to: URL(fileURLWithPath: repository + "/story.json"))
            try git(["add", "story.json"], in: repository)
            try git(["commit", "-q", "-m", "v\(index)"], in: repository)
        }
        return repository
    }

    @discardableResult
    func git(_ arguments: [String], in folder: String, environment: [String: String] = [:]) throws -> CommandResult {
        let run = try Command.run(
            URL(fileURLWithPath: "/usr/bin/git"), ["-c", "user.name=T", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false"] + arguments,
            in: URL(fileURLWithPath: folder), environment: environment)
        #expect(run.status == 0 || arguments.first == "diff", "git \(arguments): \(run.standardError)")
        return run
    }

    @Test("revisions of the story's repository: a rename with an edit, word by word, as text (marked without colour when piped), Markdown and JSON")
    func formats() throws {
        let repository = try repository([Self.story(), Self.story(ledger: "logbook", text: "Wind east, glass falling.", extra: true)])
        let text = try Command.cyd(["diff", "HEAD~1", "HEAD", "--story", repository])
        #expect(text.status == 0, "\(text.standardError)")
        #expect(text.standardOutput.contains("~ renamed ledger → logbook"), "\(text.standardOutput)")
        #expect(text.standardOutput.contains("[-west-]{+east+},"), "\(text.standardOutput)")
        #expect(text.standardOutput.contains("+ added “Bell” (bell)") && text.standardOutput.contains("+ a new ending: “Bell” (bell)"))
        #expect(text.standardOutput.contains("- no longer an ending: “The Tower” (tower)"))
        #expect(text.standardOutput.contains("playthroughs 2 → 2"), "\(text.standardOutput)")
        #expect(!text.standardOutput.contains("\u{1B}["), "no colour when piped")

        let markdown = try Command.cyd(["diff", "HEAD~1", "HEAD", "--story", repository, "--format", "markdown"])
        #expect(markdown.standardOutput.hasPrefix("## Story change: HEAD\\~1"), "\(markdown.standardOutput)")
        #expect(markdown.standardOutput.contains("### Chapters") && markdown.standardOutput.contains("~~west~~**east**"), "\(markdown.standardOutput)")

        let json = try Command.cyd(["diff", "HEAD~1", "HEAD", "--story", repository, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let renamed = try #require(object["renamed"] as? [[String: Any]])
        #expect((renamed.first?["to"] as? [String: Any])?["id"] as? String == "logbook")
        #expect((object["new"] as? [String: Any])?["endings"] as? Int == 1)

        // With NEW left out: the folder as it is now.
        try Data(Self.story(title: "Gull Rock, at night").bytes).write(to: URL(fileURLWithPath: repository + "/story.json"))
        let working = try Command.cyd(["diff", "HEAD", "--story", repository])
        #expect(working.status == 0 && working.standardOutput.contains("title of arrival: Gull Rock{+, at night+}"), "\(working.standardOutput)")
    }

    @Test("hostile: escape sequences in a story never reach the terminal; a side that cannot be read is said (exit 1) and the other described; an unknown format is a usage error")
    func hostile() throws {
        let old = try folder.write("old.json", Self.story().bytes).path
        let new = try folder.write("new.json", Self.story(title: "\u{1B}]0;pwned\u{7}\u{1B}[2J", text: "Wind \u{1B}[31mwest\u{1B}[0m.").bytes).path
        let shown = try Command.cyd(["diff", old, new])
        #expect(shown.status == 0, "\(shown.standardError)")
        #expect(!shown.standardOutput.contains("\u{1B}") && !shown.standardOutput.contains("\u{7}"), "\(shown.standardOutput)")
        #expect(shown.standardOutput.contains("^[]0;pwned"), "shown in caret notation: \(shown.standardOutput)")

        let broken = try folder.write("broken.json", "{\"story\": {\"id\": \"gull\",\n  \"name\": ").path
        let half = try Command.cyd(["diff", old, broken])
        #expect(half.status == 1, "\(half.standardError)")
        #expect(half.standardOutput.contains("new: \(broken): not a story: 2:") && half.standardOutput.contains("old (\(old)): “Gull Rock”, 3 chapters, 1 endings"), "\(half.standardOutput)")
        let nowhere = try Command.cyd(["diff", folder.path("missing.json"), old, "--story", folder.url.path])
        #expect(nowhere.status == 1 && nowhere.standardOutput.contains("is neither a file, a folder nor a revision"), "\(nowhere.standardOutput)")
        let format = try Command.cyd(["diff", old, new, "--format", "html"])
        #expect(format.status == 2, "\(format.standardError)")
    }

    @Test("as git's tools: a textconv that makes `git diff` compare chapters, and a difftool")
    func gitTools() throws {
        let repository = try repository([Self.story(), Self.story(text: "Wind east, glass falling.")])
        try git(["config", "diff.cyd.textconv", "\(Command.cyd.path) diff --format outline"], in: repository)
        try Data("story.json diff=cyd\n".utf8).write(to: URL(fileURLWithPath: repository + "/.gitattributes"))
        let textconv = try git(["diff", "HEAD~1", "HEAD"], in: repository)
        #expect(textconv.standardOutput.contains("-Wind west, glass falling.") && textconv.standardOutput.contains("+Wind east, glass falling."), "\(textconv.standardOutput)")
        #expect(textconv.standardOutput.contains(" ## ledger: The Ledger") || textconv.standardOutput.contains("@@ ## ledger: The Ledger"), "the chapter is named around the change: \(textconv.standardOutput)")
        let difftool = try git(["difftool", "-y", "-x", "\(Command.cyd.path) diff", "HEAD~1", "HEAD", "--", "story.json"], in: repository)
        #expect(difftool.standardOutput.contains("[-west-]{+east+}"), "\(difftool.standardOutput)\(difftool.standardError)")
    }
}
