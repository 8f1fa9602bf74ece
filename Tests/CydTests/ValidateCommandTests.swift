import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import Testing

@Suite("cyd validate, rules and explain")
struct ValidateCommandTests {
    static let clean = #"""
        { "story": { "id": "s", "name": "Clean", "rating": "G", "summary": "Nothing wrong",
          "chapters": [
            { "id": "a", "name": "A", "text": "Hello, [[name]].", "is_first_chapter": true, "choices": [ { "chapter_id": "b", "text": "On" } ] },
            { "id": "b", "name": "B", "text": "The end." } ] } }
        """#
    static let withWarning = clean.replacingOccurrences(of: #""text": "The end." }"#, with: #""text": "The end.", "colour": "blue" }"#)
    static let withError = clean.replacingOccurrences(of: #""chapter_id": "b""#, with: #""chapter_id": "c""#)

    @Test("exit 0 for a clean story, with a one-line summary")
    func clean() throws {
        let folder = try TemporaryFolder()
        try folder.write("story.json", Self.clean)
        let result = try Command.cyd(["validate", folder.path("story.json")])
        #expect(result.status == 0)
        #expect(result.standardOutput.hasSuffix("story.json: no problems · 2 chapters · starts at 'a' · 1 ending reachable: 'b'\n"))
    }

    @Test("exit 1 when errors are found, 0 for warnings unless --strict")
    func exitCodes() throws {
        let folder = try TemporaryFolder()
        try folder.write("error.json", Self.withError)
        try folder.write("warning.json", Self.withWarning)
        #expect(try Command.cyd(["validate", folder.path("error.json")]).status == 1)
        #expect(try Command.cyd(["validate", folder.path("warning.json")]).status == 0)
        #expect(try Command.cyd(["validate", "--strict", folder.path("warning.json")]).status == 1)
        #expect(try Command.cyd(["validate", "--ignore", "unknown-key", "--strict", folder.path("warning.json")]).status == 0)
    }

    @Test("exit 2 for usage and I/O errors, with a message on standard error")
    func failures() throws {
        let missing = try Command.cyd(["validate", "/nonexistent/story.json"])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("'/nonexistent/story.json' does not exist"))
        let badOption = try Command.cyd(["validate", "--no-such-option"])
        #expect(badOption.status == 2)
        #expect(try Command.cyd(["validate", "--format", "xml"]).status == 2)
        #expect(try Command.cyd(["validate", "--select", "CYD999"]).status == 2)
        let emptyFolder = try TemporaryFolder()
        let noStory = try Command.cyd(["validate", emptyFolder.url.path])
        #expect(noStory.status == 2)
        #expect(noStory.standardError.contains("has no story.json"))
        #expect(try Command.cyd(["explain", "CYD999"]).status == 2)
    }

    @Test("a folder is checked with its README and pictures, and findings name the README")
    func folder() throws {
        let folder = try TemporaryFolder()
        try folder.write("story.json", Self.clean.replacingOccurrences(of: #""id": "b", "name": "B","#, with: #""id": "b", "name": "B", "pic_path": "resources/B.png","#))
        try folder.write("README.md", "# Clean\n")
        let result = try Command.cyd(["validate", folder.url.path])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("error[CYD604]: pic_path of chapter 'b' names 'resources/B.png', which is not in the story folder"))
        #expect(result.standardOutput.contains("warning[CYD802]: README.md does not contain the tag #ChooseYourDestiny"))
        #expect(result.standardOutput.contains("--> \(folder.url.path)/README.md:1:1"))
    }

    @Test("a README under any name the catalogue's sync reads counts, and only those: one decision for both")
    func readmeNames() throws {
        for name in ["README.md", "readme.md", "Readme.md", "README.markdown", "README"] {
            let folder = try TemporaryFolder()
            try folder.write("story.json", Self.clean)
            try folder.write(name, "A #ChooseYourDestiny story\n")
            let result = try Command.cyd(["validate", "--strict", folder.url.path])
            #expect(result.status == 0, "\(name): \(result.standardOutput)")
            try folder.write(name, "No tag here\n")
            let untagged = try Command.cyd(["validate", folder.url.path]).standardOutput
            #expect(untagged.contains("warning[CYD802]: \(name) does not contain the tag #ChooseYourDestiny"), "\(untagged)")
        }
        // A name the sync does not read is no README, and the help says which names are.
        let folder = try TemporaryFolder()
        try folder.write("story.json", Self.clean)
        try folder.write("ReadMe.MD", "A #ChooseYourDestiny story\n")
        let result = try Command.cyd(["validate", folder.url.path]).standardOutput
        #expect(result.contains("warning[CYD801]: the story folder has no README"), "\(result)")
        #expect(result.contains("rename 'ReadMe.MD' to README.md"), "\(result)")
    }

    @Test("without a path, the current folder")
    func currentFolder() throws {
        let folder = try TemporaryFolder()
        try folder.write("story.json", Self.clean)
        try folder.write("README.md", "A #ChooseYourDestiny story\n")
        let result = try Command.cyd(["validate"], in: folder.url)
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("story.json: no problems"))
    }

    @Test("--output writes the report atomically and prints nothing; json and sarif parse")
    func outputFile() throws {
        let folder = try TemporaryFolder()
        try folder.write("story.json", Self.withError)
        for format in ["json", "sarif"] {
            let report = folder.path("report.\(format)")
            let result = try Command.cyd(["validate", "--format", format, "--output", report, folder.path("story.json")])
            #expect(result.status == 1)
            #expect(result.standardOutput.isEmpty)
            let data = try Data(contentsOf: URL(fileURLWithPath: report))
            #expect((try JSONSerialization.jsonObject(with: data) as? [String: Any]) != nil, "\(format) parses")
        }
    }

    @Test("GitHub Actions get workflow annotations by default")
    func githubByDefault() throws {
        let folder = try TemporaryFolder()
        try folder.write("story.json", Self.withError)
        let result = try Command.cyd(["validate", folder.path("story.json")], environment: ["GITHUB_ACTIONS": "true"])
        #expect(result.standardOutput.contains("::error file="))
        #expect(result.standardOutput.contains("title=CYD302 missing-choice-target::"))
    }

    @Test("colour only when asked or on a terminal, never with NO_COLOR")
    func colour() throws {
        let folder = try TemporaryFolder()
        try folder.write("story.json", Self.withError)
        let plain = try Command.cyd(["validate", folder.path("story.json")])
        #expect(!plain.standardOutput.contains("\u{1B}["))
        let forced = try Command.cyd(["validate", "--color", "always", folder.path("story.json")])
        #expect(forced.standardOutput.contains("\u{1B}[1;31merror"))
        let clicolor = try Command.cyd(["validate", folder.path("story.json")], environment: ["NO_COLOR": "", "CLICOLOR_FORCE": "1"])
        #expect(clicolor.standardOutput.contains("\u{1B}["))
    }

    @Test("--lenient reads trailing commas as warnings")
    func lenient() throws {
        let folder = try TemporaryFolder()
        try folder.write("story.json", Self.clean.replacingOccurrences(of: #""text": "The end." }"#, with: #""text": "The end.", }"#))
        #expect(try Command.cyd(["validate", folder.path("story.json")]).status == 1)
        let lenient = try Command.cyd(["validate", "--lenient", folder.path("story.json")])
        #expect(lenient.status == 0)
        #expect(lenient.standardOutput.contains("warning[CYD102]: trailing comma"))
    }

    @Test("rules lists every rule; explain tells one, by code or name")
    func rulesAndExplain() throws {
        let rules = try Command.cyd(["rules"])
        #expect(rules.status == 0)
        for code in ["CYD101", "CYD302", "CYD502", "CYD704", "CYD903"] { #expect(rules.standardOutput.contains(code)) }
        let explain = try Command.cyd(["explain", "cyd302"])
        #expect(explain.status == 0)
        #expect(explain.standardOutput.hasPrefix("CYD302 missing-choice-target (references, error)"))
        #expect(explain.standardOutput.contains("For example, this is reported:"))
        #expect(!explain.standardOutput.contains("↓"))
        #expect(try Command.cyd(["explain", "trailing-comma"]).standardOutput.contains("warning with --lenient"))
        #expect(try Command.cyd(["rules", "--markdown"]).standardOutput.hasPrefix("| code | name |"))
    }

    @Test("hostile text in a story never reaches the terminal raw")
    func hostileText() throws {
        let folder = try TemporaryFolder()
        try folder.write("story.json", Self.clean.replacingOccurrences(of: "Hello, [[name]].", with: #"\u001b]0;owned\u0007\u001b[2J"#))
        let result = try Command.cyd(["validate", folder.path("story.json")])
        #expect(result.status == 1)
        #expect(!result.standardOutput.contains("\u{1B}") && !result.standardOutput.contains("\u{7}"))
        #expect(result.standardOutput.contains("error[CYD704]"))
    }
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        components(separatedBy: target).joined(separator: replacement)
    }
}

/// Permission problems are findings that say so, never "missing" (runs cyd as nobody; needs root).
@Suite("A story folder this user cannot read", .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs root and setpriv"))
struct UnreadableFolderTests {
    func validateAsNobody(_ folder: String) throws -> CommandResult {
        try Command.run(
            URL(fileURLWithPath: "/usr/bin/setpriv"), ["--reuid=65534", "--regid=65534", "--clear-groups", Command.cyd.path, "validate", folder])
    }

    @Test("an unreadable README.md is reported as unreadable, not as missing or untagged")
    func unreadableReadme() throws {
        let home = try TemporaryFolder()
        chmod(home.url.path, 0o755)
        let folder = home.path("story")
        try FileManager.default.copyItem(atPath: Command.packageRoot.appendingPathComponent("Stories/seven-stairs").path, toPath: folder)
        chmod(folder + "/README.md", 0o000)
        let result = try validateAsNobody(folder)
        #expect(result.standardOutput.contains("README.md cannot be read (permission denied), so its tag cannot be checked"), "\(result.standardOutput)")
        #expect(!result.standardOutput.contains("has no README"))
    }

    @Test("a folder that cannot be listed is reported as such, not as a folder without README.md")
    func unlistableFolder() throws {
        let home = try TemporaryFolder()
        chmod(home.url.path, 0o755)
        let folder = home.path("story")
        try FileManager.default.copyItem(atPath: Command.packageRoot.appendingPathComponent("Stories/seven-stairs").path, toPath: folder)
        chmod(folder, 0o711)  // enter and read named files, but not list
        let result = try validateAsNobody(folder)
        #expect(result.standardOutput.contains("the story folder cannot be listed (permission denied)"), "\(result.standardOutput)")
        #expect(!result.standardOutput.contains("has no README"))
    }
}

@Suite("cyd stats")
struct StatsCommandTests {
    @Test("text and JSON for a bundled story: counts, endings, and the chapters every reader passes")
    func sevenStairs() throws {
        let folder = Command.packageRoot.appendingPathComponent("Stories/seven-stairs").path
        let text = try Command.cyd(["stats", folder])
        #expect(text.status == 0, "\(text.standardError)")
        #expect(text.standardOutput.hasPrefix("Seven Stairs: 10 chapters, 12 choices, 3 endings (3 marked, 0 dead ends), 4 pictures\n"))
        #expect(text.standardOutput.contains("Playthroughs: 14\n"))
        #expect(text.standardOutput.contains("  'tea': 8 playthroughs, 5 to 8 chapters\n"))
        #expect(text.standardOutput.contains("Every reader passes: 'landing' → 'second'\n"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try Command.cyd(["stats", "--json", folder]).standardOutput.utf8)) as? [String: Any])
        #expect(json["playthroughs"] as? String == "14")
        #expect((json["endings"] as? [[String: Any]])?.map { $0["playthroughs"] as? String } == ["2", "8", "4"])
        #expect(json["longestPath"] as? Int == 8)
    }

    @Test("a loop on the way to an ending makes the count unbounded, and the loop is named")
    func loop() throws {
        let text = try Command.cyd(["stats", Command.packageRoot.appendingPathComponent("Stories/the-keeper-of-gull-rock").path])
        #expect(text.standardOutput.contains("Playthroughs: unbounded: the loop 'light' → 'bell' → 'code' → 'light' lies on a way to an ending"), "\(text.standardOutput)")
        #expect(text.standardOutput.contains("  'leave': 14 playthroughs, 7 to 12 chapters"))
        let missing = try Command.cyd(["stats", "/nonexistent/story"])
        #expect(missing.status == 2 && missing.standardError.contains("does not exist"))
    }
}

@Suite("cyd graph")
struct GraphCommandTests {
    /// Titles with quotes, backslashes, an escape character and a line feed; a choice to a chapter
    /// that does not exist; an unreachable chapter; a chapter with no way out; a loop.
    static let tricky = #"""
        { "story": { "id": "t", "name": "A \"tricky\" map", "rating": "G", "summary": "S", "chapters": [
          { "id": "start", "name": "Quote \" and back\\slash", "text": "T", "is_first_chapter": true,
            "choices": [ { "chapter_id": "loop", "text": "Round" }, { "chapter_id": "nowhere", "text": "Into \u001b[31mthe void" },
                         { "chapter_id": "end", "text": "Finish" } ] },
          { "id": "loop", "name": "Line\nfeed", "text": "T", "choices": [ { "chapter_id": "loop", "text": "Again" }, { "chapter_id": "start", "text": "Back" } ] },
          { "id": "end", "name": "The End", "text": "T", "is_ending": true },
          { "id": "orphan", "name": "Nobody comes here", "text": "T", "is_ending": true }
        ] } }
        """#

    /// The folder lives as long as the suite value; its story.json's path.
    let folder = try! TemporaryFolder()

    func story() throws -> String { try folder.write("story.json", Self.tricky).path }

    @Test("DOT parses with Graphviz, marks what the validator finds, and is the same on every run")
    func dot() throws {
        let path = try story()
        let first = try Command.cyd(["graph", path])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput == (try Command.cyd(["graph", path])).standardOutput, "stable across runs")
        #expect(first.standardOutput.contains(#""missing: nowhere" [label="no chapter 'nowhere'""#))
        #expect(first.standardOutput.contains(#""orphan" [label="Nobody comes here\n(orphan)", shape=doubleoctagon, style="rounded,dashed""#))
        #expect(!first.standardOutput.unicodeScalars.contains { $0.value == 0x1B }, "no raw escape character")
        guard let dot = ["/usr/bin/dot", "/usr/local/bin/dot"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            Issue.record("Graphviz's dot is missing: scripts/install-deps.sh installs it")
            return
        }
        let parsed = try Command.run(URL(fileURLWithPath: dot), ["-Tsvg"], input: first.standardOutput)
        #expect(parsed.status == 0, "dot: \(parsed.standardError)")
        #expect(parsed.standardOutput.contains("<svg"))
        let svg = try Command.cyd(["graph", "--format", "svg", path])
        #expect(svg.status == 0 && svg.standardOutput.contains("<svg") && svg.standardOutput.contains("no chapter &#39;nowhere&#39;"), "\(svg.standardError)")
    }

    @Test("text: a tree from the start with loops, back-references, dangling choices and unreachable chapters")
    func text() throws {
        let result = try Command.cyd(["graph", "--format", "text", try story()])
        #expect(result.status == 0, "\(result.standardError)")
        let expected = #"""
            'start' Quote " and back\slash
              "Round" → 'loop' Line^Jfeed
                "Again" ↺ 'loop' (loop)
                "Back" ↺ 'start' (loop)
              "Into ^[[31mthe void" ✗ no chapter 'nowhere'
              "Finish" → 'end' The End [ending]

            Not reachable from the start (1):
              'orphan' Nobody comes here [ending]

            """#
        #expect(result.standardOutput == expected, "\(result.standardOutput)")
    }

    @Test("mermaid: a flowchart with the ending rounded and the dangling choice dotted to a stub")
    func mermaid() throws {
        let result = try Command.cyd(["graph", "--format", "mermaid", try story()])
        #expect(result.standardOutput.hasPrefix("flowchart TD\n  c0[[\"Quote #quot; and back\\slash (start)\"]]\n"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("c0 -.->|\"Into ^[[31mthe void\"| missing0"), "control characters shown in caret notation")
        #expect(result.standardOutput.contains("class c3 unreachable"))
    }

    @Test("mermaid: markup in titles and choices is written as entity codes, never as HTML")
    func mermaidMarkup() throws {
        let path = try folder.write("markup/story.json", """
            { "story": { "id": "s", "name": "S", "rating": "G", "summary": "S", "chapters": [
              { "id": "a", "name": "<script>alert(1)</script> & <b>bold</b>", "text": "T", "is_first_chapter": true,
                "choices": [ { "chapter_id": "b", "text": "`**md**` #quot; <img src=x onerror=alert(1)>" } ] },
              { "id": "b", "name": "B", "text": "End." } ] } }
            """).path
        let result = try Command.cyd(["graph", "--format", "mermaid", path])
        #expect(result.status == 0)
        #expect(!result.standardOutput.contains("<") && !result.standardOutput.contains(">(") && !result.standardOutput.contains("`"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("c0[[\"#lt;script#gt;alert(1)#lt;/script#gt; #amp; #lt;b#gt;bold#lt;/b#gt; (a)\"]]"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("|\"#96;**md**#96; #35;quot; #lt;img src=x oner…\"|"), "\(result.standardOutput)")
    }

    @Test("svg: dot is stopped after its time with a sentence, and a map too large for it is refused at once")
    func svgIsBounded() throws {
        // A dense random map that dot takes minutes over.
        let dense = folder.path("dense.json")
        let generated = try Command.run(URL(fileURLWithPath: "/usr/bin/python3"), [Command.packageRoot.path + "/scripts/generate-story.py", "300", dense])
        #expect(generated.status == 0, "\(generated.standardError)")
        let started = Date()
        let slow = try Command.cyd(["graph", "--format", "svg", dense], environment: ["CYD_GRAPH_SECONDS": "2"])
        #expect(slow.status == 2)
        #expect(slow.standardError.contains("did not finish drawing 300 chapters in 2 s and was stopped"), "\(slow.standardError)")
        #expect(Date().timeIntervalSince(started) < 30)
        let huge = folder.path("huge.json")
        #expect(try Command.run(URL(fileURLWithPath: "/usr/bin/python3"), [Command.packageRoot.path + "/scripts/generate-story.py", "2500", huge]).status == 0)
        let refused = try Command.cyd(["graph", "--format", "svg", huge])
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("the map has 2500 chapters"), "\(refused.standardError)")
        #expect(refused.standardError.contains("--format dot"))
    }
}

@Suite("cyd test")
struct PlaytestCommandTests {
    let folder = try! TemporaryFolder()
    static let sevenStairs = Command.packageRoot.appendingPathComponent("Stories/seven-stairs").path

    @Test("walkthroughs take every choice, are written as transcripts that cyd read follows, and replay")
    func walkthroughs() throws {
        let result = try Command.cyd(["test", Self.sevenStairs, "--write", folder.path("walks")])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("5 walkthroughs take 12 of 12 choices:\n"), "\(result.standardOutput)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path("walks")).sorted().map { folder.path("walks/" + $0) }
        let slashed = try Command.cyd(["test", Self.sevenStairs, "--write", folder.path("walks") + "/"])
        #expect(slashed.standardOutput.contains("`cyd test --replay \(folder.path("walks"))/*.txt`"), "one slash: \(slashed.standardOutput)")
        #expect(files.count == 5)
        let replayed = try Command.cyd(["test", Self.sevenStairs, "--replay"] + files)
        #expect(replayed.status == 0 && replayed.standardOutput.hasSuffix("5 transcripts passed, 0 failed\n"), "\(replayed.standardOutput)")
        // The same transcript read by a reader ends where it says.
        let transcript = try String(contentsOfFile: files[0], encoding: .utf8)
        let read = try Command.cyd(["read", Self.sevenStairs, "--plain", "--restart"], environment: ["CYD_HOME": folder.path("home")], input: transcript)
        #expect(read.status == 0 && !read.standardOutput.contains("is not a command"), "\(read.standardOutput)")
        #expect(read.standardOutput.contains("== The Garden =="), "walkthrough 1 ends in the garden: \(read.standardOutput)")
    }

    @Test("a transcript with CRLF line ends is checked like any other: replayed against another story it fails")
    func crlfTranscriptAgainstTheWrongStory() throws {
        #expect(try Command.cyd(["test", Self.sevenStairs, "--write", folder.path("walks")]).status == 0)
        let first = try String(contentsOfFile: folder.path("walks/walkthrough-001.txt"), encoding: .utf8)
        let crlf = try folder.write("crlf.txt", "\u{FEFF}" + first.replacingOccurrences(of: "\n", with: "\r\n")).path
        #expect(try Command.cyd(["test", Self.sevenStairs, "--replay", crlf]).status == 0, "the right story passes")
        let gullRock = Command.packageRoot.appendingPathComponent("Stories/the-keeper-of-gull-rock").path
        let wrong = try Command.cyd(["test", gullRock, "--replay", crlf])
        #expect(wrong.status == 1, "\(wrong.standardOutput)")
        #expect(wrong.standardOutput.contains("0 transcripts passed, 1 failed"), "\(wrong.standardOutput)")
    }

    @Test("a playtest fails when a choice a reader can reach leads where no ending can be reached, and says what it asserts")
    func trapFails() throws {
        let path = try folder.write("trap/story.json", """
            { "story": { "id": "s", "name": "S", "rating": "G", "summary": "s", "chapters": [
              { "id": "a", "name": "A", "text": "T", "is_first_chapter": true, "choices": [ { "chapter_id": "end", "text": "Finish" }, { "chapter_id": "loop1", "text": "Wander" } ] },
              { "id": "loop1", "name": "L1", "text": "T", "choices": [ { "chapter_id": "loop2", "text": "On" } ] },
              { "id": "loop2", "name": "L2", "text": "T", "choices": [ { "chapter_id": "loop1", "text": "Back" } ] },
              { "id": "end", "name": "End", "text": "Done.", "is_ending": true } ] } }
            """).path
        let result = try Command.cyd(["test", path])
        #expect(result.status == 1, "\(result.standardOutput)")
        #expect(result.standardOutput.hasPrefix("1 walkthrough takes 1 of 4 choices:\n"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("failed: 3 choices a reader can reach lead where no ending can be reached"), "\(result.standardOutput)")
        let passing = try Command.cyd(["test", Self.sevenStairs])
        #expect(passing.status == 0 && passing.standardOutput.hasSuffix("passed: every choice a reader can reach is part of a way to an ending\n"))
    }

    @Test("a transcript of comments only is an error, not a pass")
    func transcriptWithoutSteps() throws {
        let empty = try folder.write("empty.txt", "# nothing to check\r\n").path
        let result = try Command.cyd(["test", Self.sevenStairs, "--replay", empty])
        #expect(result.status == 2)
        #expect(result.standardError.contains("has no step"), "\(result.standardError)")
    }

    @Test("a transcript the story no longer follows fails with what a reader would now see")
    func brokenTranscript() throws {
        let transcript = try folder.write("old.txt", "# an old walkthrough\n1\n> second\n2\n> nowhere-now\n= nowhere-now\n").path
        let result = try Command.cyd(["test", Self.sevenStairs, "--replay", transcript])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("FAIL  \(transcript)\n  line 5:\n"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("    - > nowhere-now\n    + > "), "\(result.standardOutput)")
        let impossible = try folder.write("impossible.txt", "9\n").path
        let bad = try Command.cyd(["test", Self.sevenStairs, "--replay", impossible])
        #expect(bad.status == 1 && bad.standardOutput.contains("there is no choice 9"), "\(bad.standardOutput)")
    }

    @Test("random playthroughs are the same for the same seed, and report coverage")
    func random() throws {
        let first = try Command.cyd(["test", Self.sevenStairs, "--random", "200", "--seed", "42"])
        let second = try Command.cyd(["test", Self.sevenStairs, "--random", "200", "--seed", "42"])
        #expect(first.status == 0 && first.standardOutput == second.standardOutput)
        #expect(first.standardOutput.hasPrefix("200 random playthroughs (seed 42): 200 reached an ending\n"), "\(first.standardOutput)")
        #expect(first.standardOutput.contains("choices taken: 12 of 12"))
    }
}

@Suite("cyd fix")
struct FixCommandTests {
    let folder = try! TemporaryFolder()

    /// Like the published PrototypeStory: trailing commas after the last chapter, choice and key,
    /// and an unusual layout that must survive byte for byte.
    static let prototype = """
        {
            "story" : {
                "id" :"story01",   "name": "Prototype",
                "rating": "G",
                "summary": "Commas everywhere",
                "chapters": [
                    {"id": "a", "name": "A", "text": "Start.", "is_first_chapter": true,
                     "choices": [ {"chapter_id": "b", "text": "On",}, ],},
                    {"id": "b", "name": "B", "text": "End.",},
                ],
            },
        }

        """

    @Test("trailing commas: strict validation passes afterwards and the diff touches only the commas")
    func trailingCommas() throws {
        let path = try folder.write("story.json", Self.prototype).path
        let before = try Command.cyd(["validate", "--strict", path])
        #expect(before.status == 1)
        let dry = try Command.cyd(["fix", "--dry-run", path])
        #expect(dry.status == 0 && dry.standardOutput.hasPrefix("--- \(path)\n+++ \(path)\n@@ -8,"), "\(dry.standardOutput)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.prototype, "--dry-run changes nothing")
        // The dry run's diff is a patch: applied by patch(1) to a copy, it gives what the fix writes.
        let copy = try folder.write("copy/story.json", Self.prototype).path
        let diff = try folder.write("fix.diff", dry.standardOutput.replacingOccurrences(of: path, with: "story.json")).path
        let patch = try Command.run(URL(fileURLWithPath: "/usr/bin/env"), ["patch", "-p0", "-d", folder.path("copy"), "-i", diff])
        #expect(patch.status == 0, "\(patch.standardOutput)\(patch.standardError)")
        let fixed = try Command.cyd(["fix", path])
        #expect(fixed.status == 0 && fixed.standardOutput.contains("(7 CYD102)"), "\(fixed.standardOutput)")
        #expect(try Command.cyd(["validate", "--strict", path]).status == 0)
        // Only commas went: the new file is the old one with exactly those bytes removed.
        let after = try String(contentsOfFile: path, encoding: .utf8)
        var old = Array(Self.prototype.utf8)
        var new = Array(after.utf8)
        #expect(old.count - new.count == 7)
        var removed: [UInt8] = []
        while !old.isEmpty {
            if let first = new.first, first == old.first! {
                new.removeFirst()
            } else {
                removed.append(old.first!)
            }
            old.removeFirst()
        }
        #expect(new.isEmpty && removed == Array(repeating: UInt8(ascii: ","), count: 7))
        #expect(try String(contentsOfFile: copy, encoding: .utf8) == after, "the patched copy is the fixed file")
        #expect(try Command.cyd(["fix", path]).standardOutput == "nothing to fix in \(path)\n")
    }

    @Test("quoted booleans, http links and a misspelt target are repaired; an ambiguous target is left, with the reason")
    func otherFixes() throws {
        let path = try folder.write("story.json", """
            { "story": { "id": "s", "name": "S", "rating": "G", "summary": "S", "pic_path": "http://example.org/t.png", "chapters": [
              { "id": "start", "name": "Start", "text": "T", "is_first_chapter": "TRUE",
                "choices": [ { "chapter_id": "cellar", "text": "Down" }, { "chapter_id": "ball", "text": "?" } ] },
              { "id": "cellars", "name": "Cellar", "text": "Dark." },
              { "id": "hall", "name": "Hall", "text": "H" }, { "id": "wall", "name": "Wall", "text": "W" }
            ] } }
            """).path
        let result = try Command.cyd(["fix", path])
        #expect(result.standardOutput.contains("fixed 3 findings"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("not fixed: \(path):3:"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("'ball' is as close to 2 chapter ids; choose by hand"), "\(result.standardOutput)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(#""pic_path": "https://example.org/t.png""#))
        #expect(text.contains(#""is_first_chapter": true,"#))
        #expect(text.contains(#"{ "chapter_id": "cellars", "text": "Down" }"#))
        #expect(text.contains(#"{ "chapter_id": "ball", "text": "?" }"#))
        let explain = try Command.cyd(["explain", "CYD102"])
        #expect(explain.standardOutput.contains("Fixable: `cyd fix` removes the comma."))
    }
}

@Suite("cyd init")
struct InitCommandTests {
    let folder = try! TemporaryFolder()

    @Test("a new story repository validates clean with --strict, its YAML parses, and its pre-commit hook fails a broken story")
    func newRepository() throws {
        let story = folder.path("tide")
        let made = try Command.cyd(["init", story, "--title", #"The "Tide" Tale"#])
        #expect(made.status == 0, "\(made.standardError)")
        #expect(made.standardOutput.contains("`git init` there, then `pre-commit install`"), "not a git repository yet: \(made.standardOutput)")
        #expect(try Command.cyd(["validate", "--strict", story]).status == 0)
        for name in ["README.md", "resources/.gitkeep", ".pre-commit-config.yaml", ".github/workflows/validate.yml"] {
            #expect(FileManager.default.fileExists(atPath: story + "/" + name), "\(name)")
        }
        #expect(try String(contentsOfFile: story + "/README.md", encoding: .utf8).contains("#ChooseYourDestiny"))
        let yaml = try Command.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", "-c", "import sys, ruamel.yaml as y; [y.YAML(typ='safe').load(open(f)) for f in sys.argv[1:]]",
             story + "/.pre-commit-config.yaml", story + "/.github/workflows/validate.yml"])
        #expect(yaml.status == 0, "\(yaml.standardError)")
        let workflow = try String(contentsOfFile: story + "/.github/workflows/validate.yml", encoding: .utf8)
        #expect(workflow.contains("fetch-depth: 0") && workflow.contains("diff: ."), "a pull request's summary says what it does to the story: \(workflow)")
        // Nothing is overwritten.
        let again = try Command.cyd(["init", story])
        #expect(again.status == 2 && again.standardError.contains("already holds a story.json"))

        // The hook, for real: pre-commit runs `cyd validate` on story.json.
        let environment = [
            "PATH": Command.cyd.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "PRE_COMMIT_HOME": folder.path("pre-commit-cache"), "HOME": folder.path("home"),
            "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.invalid", "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.invalid",
        ]
        func run(_ arguments: [String]) throws -> CommandResult {
            try Command.run(URL(fileURLWithPath: "/usr/bin/env"), arguments, in: URL(fileURLWithPath: story), environment: environment)
        }
        #expect(try run(["git", "init", "-q"]).status == 0)
        #expect(try run(["git", "add", "-A"]).status == 0)
        let clean = try run(["pre-commit", "run", "--all-files"])
        #expect(clean.status == 0, "\(clean.standardOutput)\(clean.standardError)")
        let text = try String(contentsOfFile: story + "/story.json", encoding: .utf8)
        try text.replacingOccurrences(of: "\"is_ending\": true\n", with: "\"is_ending\": true,\n").write(toFile: story + "/story.json", atomically: true, encoding: .utf8)
        #expect(try run(["git", "add", "-A"]).status == 0)
        let broken = try run(["pre-commit", "run", "--all-files"])
        #expect(broken.status == 1, "\(broken.standardOutput)")
        #expect(broken.standardOutput.contains("CYD102"), "\(broken.standardOutput)")
        // The hook is as strict as the workflow: a warning alone fails the commit too.
        try text.replacingOccurrences(of: "\"rating\": \"G\",", with: "\"rating\": \"G\", \"colour\": \"blue\",")
            .write(toFile: story + "/story.json", atomically: true, encoding: .utf8)
        #expect(try Command.cyd(["validate", story]).status == 0, "only a warning")
        #expect(try run(["git", "add", "-A"]).status == 0)
        let warned = try run(["pre-commit", "run", "--all-files"])
        #expect(warned.status == 1, "\(warned.standardOutput)")
        // In a git repository, init says only `pre-commit install`.
        let inside = try Command.cyd(["init", story + "/sequel"])
        #expect(inside.standardOutput.contains("to play it, `pre-commit install` to check each commit"), "\(inside.standardOutput)")
    }

    @Test("--pages: a GitHub Pages workflow that builds the story's site on each push to main; into an existing story, just that workflow, never overwritten")
    func pagesWorkflow() throws {
        let story = folder.path("lantern")
        let made = try Command.cyd(["init", "--pages", story])
        #expect(made.status == 0, "\(made.standardError)")
        #expect(made.standardOutput.contains(".github/workflows/pages.yml"))
        let path = story + "/.github/workflows/pages.yml"
        // The workflow, read as GitHub reads it: on push to main, build with cyd, upload, deploy.
        let read = try Command.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", "-c", """
                import json, sys, ruamel.yaml as y
                w = y.YAML(typ='safe').load(open(sys.argv[1]))
                build = w['jobs']['build']['steps']
                print(json.dumps({'on': w['on']['push']['branches'], 'pages': w['permissions']['pages'],
                  'run': [s.get('run') for s in build if 'run' in s], 'uses': [s['uses'] for s in build if 'uses' in s] + [s['uses'] for s in w['jobs']['deploy']['steps']]}))
                """, path])
        #expect(read.status == 0, "\(read.standardError)")
        let workflow = try #require(try JSONSerialization.jsonObject(with: Data(read.standardOutput.utf8)) as? [String: Any])
        #expect(workflow["on"] as? [String] == ["main"])
        #expect(workflow["pages"] as? String == "write")
        #expect(workflow["run"] as? [String] == ["cyd build web _site ."])
        let uses = workflow["uses"] as? [String] ?? []
        #expect(uses.contains("actions/upload-pages-artifact@v3") && uses.contains("actions/deploy-pages@v4") && uses.contains { $0.hasSuffix("@main") }, "\(uses)")
        // Its build step works on the story init made.
        let built = try Command.cyd(["build", "web", story + "/_site", story])
        #expect(built.status == 0, "\(built.standardError)")

        // An existing story gets the workflow alone; a second time, nothing is overwritten.
        let other = folder.path("existing")
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: story + "/story.json", toPath: other + "/story.json")
        let added = try Command.cyd(["init", "--pages", other])
        #expect(added.status == 0, "\(added.standardError)")
        #expect(added.standardOutput.contains("Pages > Source: GitHub Actions"))
        #expect(FileManager.default.fileExists(atPath: other + "/.github/workflows/pages.yml"))
        #expect(!FileManager.default.fileExists(atPath: other + "/README.md"), "only the workflow is added")
        let again = try Command.cyd(["init", "--pages", other])
        #expect(again.status == 2 && again.standardError.contains("is there already; nothing was written"), "\(again.standardError)")
    }
}

@Suite("JSON output of the author tools")
struct AuthorToolsJSONTests {
    static let sevenStairs = Command.packageRoot.appendingPathComponent("Stories/seven-stairs").path

    func object(_ arguments: [String]) throws -> [String: Any] {
        let result = try Command.cyd(arguments)
        #expect(result.status == 0, "\(result.standardError)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    }

    @Test("graph, test and fix each answer in one JSON object")
    func json() throws {
        let map = try object(["graph", "--format", "json", Self.sevenStairs])
        #expect((map["chapters"] as? [[String: Any]])?.count == 10 && (map["choices"] as? [[String: Any]])?.count == 12)
        #expect(map["start"] as? String == "landing")
        let walks = try object(["test", "--json", Self.sevenStairs])
        #expect((walks["walkthroughs"] as? [[String: Any]])?.count == 5 && (walks["notTaken"] as? [Any])?.isEmpty == true)
        let random = try object(["test", "--random", "20", "--seed", "3", "--json", Self.sevenStairs])
        #expect(random["reachedAnEnding"] as? Int == 20 && random["choices"] as? Int == 12)
        let folder = try TemporaryFolder()
        let path = try folder.write("story.json", #"{ "story": { "id": "s", "name": "S", "rating": "G", "summary": "S", "chapters": [ { "id": "a", "name": "A", "text": "T", "is_first_chapter": true, }, ] } }"#).path
        let fix = try object(["fix", "--json", "--dry-run", path])
        #expect((fix["edits"] as? [[String: Any]])?.map { $0["code"] as? String } == ["CYD102", "CYD102"])
        #expect(fix["written"] as? Bool == false)
    }
}

@Suite("cyd graph without Graphviz")
struct GraphWithoutGraphvizTests {
    @Test("a dot that fails before reading the map is reported in words (its status and what it said), never a silent death by SIGPIPE")
    func dotFailingEarly() throws {
        let folder = try TemporaryFolder()
        try folder.script("bin/dot", "echo 'dot: cannot load plugins' >&2\nexit 3")
        // 1,500 chapters: far more DOT than a pipe holds, so the write meets the closed pipe.
        let chapters = (0..<1500).map { #"{ "id": "c\#($0)", "name": "C", "text": "T"\#($0 == 0 ? #", "is_first_chapter": true"# : ""), "choices": [ { "chapter_id": "c\#(($0 + 1) % 1500)", "text": "On and on, a long way round" } ] }"# }
        try folder.write("story.json", #"{ "story": { "id": "s", "name": "S", "rating": "G", "summary": "S", "chapters": [ \#(chapters.joined(separator: ",\n")) ] } }"#)
        let result = try Command.cyd(["graph", "--format", "svg", folder.path("story.json")], environment: ["PATH": folder.path("bin") + ":/usr/bin:/bin"])
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains("Graphviz's dot failed: it exited with status 3: dot: cannot load plugins"), "\(result.standardError)")
    }

    @Test("svg without Graphviz's dot says how to get it")
    func missingDot() throws {
        let result = try Command.cyd(
            ["graph", "--format", "svg", Command.packageRoot.appendingPathComponent("Stories/seven-stairs").path], environment: ["PATH": "/nonexistent"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("drawing svg needs Graphviz's `dot`, which is not installed (Debian: apt-get install graphviz)"), "\(result.standardError)")
    }
}
