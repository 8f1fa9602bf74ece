import Foundation
import TestSupport
import Testing

/// `cyd read` in a real pseudo-terminal: tmux runs it, send-keys types, capture-pane reads the
/// screen, as a person at a terminal would.
@Suite("cyd read in a terminal (tmux)", .serialized)
struct TerminalReadingTests {
    final class Session {
        let name = "cyd"
        /// A tmux server of its own, so tests never touch a user's sessions.
        let socket = "cyd-test-\(UUID().uuidString.prefix(8))"
        let tmux: URL

        init(command: String, columns: Int = 90) throws {
            tmux = try #require(Command.which("tmux"), "tmux is not installed")
            // The server tmux starts keeps what it inherits open, and the test runner's blocked
            // signals would reach the reader: its own group, /dev/null and a clean mask avoid both.
            // The shell prints the program's exit status and keeps the pane open to be read.
            let wrapped = "trap : INT; \(command); echo \"[exited $?]\"; sleep 60"
            let started = try ChildProcess(
                [tmux.path, "-L", socket, "new-session", "-d", "-s", name, "-x", String(columns), "-y", "45", wrapped], takesInput: false, output: .discarded,
                errors: .discarded, ownGroup: true)
            #expect(started.wait() == 0)
        }

        deinit { _ = try? run(["kill-server"]) }

        func run(_ arguments: [String]) throws -> CommandResult { try Command.run(tmux, ["-L", socket] + arguments) }

        func type(_ keys: String...) throws { _ = try run(["send-keys", "-t", name] + keys) }

        func screen() throws -> String { try run(["capture-pane", "-p", "-t", name]).standardOutput }

        /// The screen with the terminal's own soft-wrapped lines joined, as a copy would give them.
        func joinedScreen() throws -> String { try run(["capture-pane", "-p", "-J", "-t", name]).standardOutput }

        /// Waits (bounded: about 10 seconds) until the screen shows `text`.
        func waitFor(_ text: String) throws -> String {
            var last = ""
            for _ in 0..<100 {
                last = try screen()
                if last.contains(text) { return last }
                Thread.sleep(forTimeInterval: 0.1)
            }
            Issue.record("the screen never showed \(text):\n\(last)")
            return last
        }

        /// Waits (bounded: about 10 seconds) until the reader's prompt is the last line shown, so
        /// what is typed next goes to its line editor rather than being echoed by the terminal first.
        func waitForPrompt() throws -> String {
            var last = ""
            for _ in 0..<100 {
                last = try screen()
                if last.split(separator: "\n").last(where: { !$0.allSatisfy(\.isWhitespace) }).map({ $0.hasPrefix(">") }) == true {
                    return last
                }
                Thread.sleep(forTimeInterval: 0.1)
            }
            Issue.record("the screen never showed the prompt:\n\(last)")
            return last
        }

        /// The program's exit status once it has exited (waiting about 30 seconds at most: the
        /// suite runs release builds beside these tests).
        func exitStatus() throws -> Int? {
            for _ in 0..<300 {
                let screen = try screen()
                if let range = screen.range(of: #"\[exited (\d+)\]"#, options: .regularExpression) {
                    return Int(screen[range].dropFirst("[exited ".count).dropLast())
                }
                Thread.sleep(forTimeInterval: 0.1)
            }
            return nil
        }
    }

    let home = try! TemporaryFolder()

    func command(_ arguments: String) -> String {
        "env CYD_HOME='\(home.path("library"))' NO_COLOR= '\(Command.cyd.path)' read \(arguments)"
    }

    @Test("at 60 columns the picker keeps paths whole on lines of their own, and the key line and ? break between commands")
    func sixtyColumns() throws {
        let stories = Command.packageRoot.appendingPathComponent("Stories").path
        let session = try Session(command: "env CYD_STORIES='\(stories)' " + command("--name Ana --pictures off"), columns: 60)
        var screen = try session.waitFor("Which one?")
        let lines = try session.joinedScreen().split(separator: "\n", omittingEmptySubsequences: false).map { String($0).trimmingSuffixSpaces }
        for folder in ["seven-stairs", "the-keeper-of-gull-rock", "the-night-market"] {
            // The path is one line of its own, indented under its story, never cut by a line
            // feed of ours (a path longer than the window is the terminal's to soft-wrap).
            #expect(lines.contains("      \(stories)/\(folder)"), "\(lines)")
        }
        #expect(lines.contains("  b1) Seven Stairs · bundled, not started"), "\(screen)")
        try session.type("b1", "Enter")
        screen = try session.waitFor("? help")
        try session.type("?", "Enter")
        screen = try session.waitFor("this list")
        let after = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(after.allSatisfy { $0.count <= 60 }, "\(screen)")
        // Every key-line row is whole commands: it starts with one and never ends inside one.
        let items = ["1-9 choose", "b back", "r restart", "m mark", "n note", "h history", "p picture", "q quit", "? help"]
        let keyRows = after.filter { row in items.contains { row.hasPrefix($0) } }
        #expect(!keyRows.isEmpty, "\(screen)")
        for row in keyRows {
            let parts = row.components(separatedBy: " · ")
            #expect(parts.allSatisfy(items.contains), "a command cut across lines: \(row)")
        }
        // The help: one command a row, what it does wrapping under itself.
        #expect(after.contains("  b         back to the chapter before"), "\(screen)")
        #expect(after.contains { $0.hasPrefix("  m [name]  bookmark this chapter") }, "\(screen)")
        let continued = after.filter { $0.hasPrefix("            ") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        #expect(!continued.isEmpty, "a long row wraps under its own column at 60 columns: \(screen)")
    }

    @Test("an empty name is asked again; quitting says where the place is kept; Ctrl-D ends on a fresh line")
    func nameAgainAndFarewell() throws {
        let story = "'\(Command.packageRoot.path)/Stories/seven-stairs'"
        let session = try Session(command: command(story))
        _ = try session.waitFor("What is your first name?")
        try session.type("Enter")
        _ = try session.waitFor("A name, please")
        try session.type("Ana", "Enter")
        var screen = try session.waitFor("1-9 choose")
        #expect(screen.contains("\"Ana?\""))
        try session.type("q", "Enter")
        screen = try session.waitFor("you back")
        // Wrapped to the window by cyd itself (the pane is 90 columns): no line longer, and the
        // path, a word too long to share a line, on a line of its own.
        #expect(screen.contains("your place in 'Seven Stairs' is kept in"), "\(screen)")
        #expect(screen.contains("library.sqlite; cyd read 1"), "\(screen)")
        #expect(screen.contains("takes you back"), "\(screen)")
        #expect(screen.split(separator: "\n").allSatisfy { $0.count <= 90 }, "\(screen)")
        #expect(!screen.contains("? hel\np"), "the key hints wrap between words: \(screen)")
        #expect(try session.exitStatus() == 0)

        let again = try Session(command: command(story))
        _ = try again.waitFor("1-9 choose")
        try again.type("C-d")
        screen = try again.waitFor("you back")
        // The farewell starts a line of its own, not after the "> " prompt.
        #expect(screen.split(separator: "\n").contains { $0.hasPrefix("your place in 'Seven Stairs'") }, "\(screen)")
        #expect(try again.exitStatus() == 0)

        // q at the name question quits before any reading.
        let fresh = try TemporaryFolder()
        let quitter = try Session(command: "env CYD_HOME='\(fresh.path("library"))' NO_COLOR= '\(Command.cyd.path)' read \(story)")
        _ = try quitter.waitFor("What is your first name?")
        try quitter.type("q", "Enter")
        #expect(try quitter.exitStatus() == 0)
        #expect(!(try quitter.screen()).contains("The First Landing"))
    }

    @Test("at 40 columns every line fits, CJK text without spaces included, and choices keep their hanging indent")
    func narrowWindow() throws {
        let story = TestStory(
            id: "cjk", title: "夜市", summary: "窄い窓",
            chapters: [
                .init(
                    "a", name: "門", text: "提灯の門の前に立つと、知らない人があなたの名前を呼んだ。市場は今夜だけ開いていて、失くしたものを売っているという。",
                    choices: [("b", "門をくぐって市場の奥にある古い時計屋の屋台まで歩いていく"), ("b", "Walk past the lanterns without looking at any of the stalls at all")],
                    isFirst: true),
                .init("b", name: "終わり", text: "おしまい。", isEnding: true),
            ])
        _ = try home.write("cjk/story.json", story.json)
        let session = try Session(command: command("--name Ana '\(home.path("cjk"))'"), columns: 40)
        let screen = try session.waitFor("? help")
        func cells(_ line: Substring) -> Int {
            line.unicodeScalars.reduce(0) { total, scalar in
                let wide = (0x1100...0x115F).contains(scalar.value) || (0x2E80...0xA4CF).contains(scalar.value)
                    || (0xAC00...0xD7A3).contains(scalar.value) || (0xF900...0xFAFF).contains(scalar.value) || (0xFF00...0xFF60).contains(scalar.value)
                return total + (wide ? 2 : 1)
            }
        }
        let lines = screen.split(separator: "\n")
        #expect(lines.allSatisfy { cells($0) <= 40 }, "\(lines.filter { cells($0) > 40 })")
        // The CJK paragraph is cut into several lines, and both choices continue under their text.
        #expect(lines.filter { $0.contains("の") }.count >= 3, "\(screen)")
        let first = try #require(lines.firstIndex { $0.hasPrefix("  1) ") })
        #expect(lines[first + 1].hasPrefix("     ") && !lines[first + 1].hasPrefix("      "), "\(screen)")
        let second = try #require(lines.firstIndex { $0.hasPrefix("  2) ") })
        #expect(lines[second + 1].hasPrefix("     "), "\(screen)")
        try session.type("q", "Enter")
        #expect(try session.exitStatus() == 0)
    }

    @Test("cyd sync in a 40-column terminal wraps its report, continuations indented")
    func narrowSync() throws {
        let index = #"""
            { "cyd_catalogue_index": 1, "generated_at": 1795000000, "stories": [
              { "author": "ana", "repository": "tide", "url": "https://example.org/ana/tide.git",
                "commit": "0123456789abcdef0123456789abcdef01234567", "story_id": "tide",
                "title": "The Tide That Came In Twice", "rating": "G", "summary": "s", "chapters": 12 },
              { "author": "bo", "repository": "yoichi", "url": "https://example.org/bo/yoichi.git",
                "commit": "89abcdef0123456789abcdef0123456789abcdef", "story_id": "y",
                "title": "夜市の提灯と失くしたものを売る古い時計屋の話", "rating": "G", "summary": "s", "chapters": 3 } ] }
            """#
        _ = try home.write("site/index.json", index)
        // From an index nothing is fetched (neither story is cloned here): no network.
        let session = try Session(
            command: "env CYD_HOME='\(home.path("library"))' GITHUB_API_URL=http://127.0.0.1:9 '\(Command.cyd.path)' sync --catalogue '\(home.path("site"))'",
            columns: 40)
        #expect(try session.exitStatus() == 0)
        let lines = try session.screen().split(separator: "\n")
        let report = lines.prefix { !$0.hasPrefix("[exited") }
        #expect(report.first?.hasPrefix("Synced 2 repositories of 2 authors") == true, "\(lines)")
        // Two paragraphs (the summary, then what was verified), each wrapped with its
        // continuations indented.
        #expect(report.count >= 4 && report.filter { !$0.hasPrefix("    ") }.map { String($0.prefix(8)) } == ["Synced 2", "Unsigned"], "\(lines)")
        #expect(report.allSatisfy { $0.count <= 40 }, "\(lines)")
        #expect(report.joined(separator: " ").contains("2 new"), "\(lines)")
    }

    @Test("the prompt edits lines: left arrow moves the cursor, up recalls the last command")
    func lineEditing() throws {
        let session = try Session(command: command("--name Ana '\(Command.packageRoot.path)/Stories/seven-stairs'"))
        _ = try session.waitFor("1-9 choose")
        // "m ac", one step left, "b": the bookmark is named "abc".
        try session.type("m ac", "Left", "b", "Enter")
        var screen = try session.waitFor("as 'abc'")
        // Up brings "m abc" back; Enter runs it again.
        try session.type("Up", "Enter")
        screen = try session.waitFor("bookmark 'abc' is already on")
        try session.type("Home", "C-k", "h", "Enter")
        screen = try session.waitFor("1. The First Landing")
        #expect(!screen.contains("^[["), "arrow keys reached the parser: \(screen)")
        #expect(!screen.contains("is not a command"), "\(screen)")
        try session.type("q", "Enter")
        #expect(try session.exitStatus() == 0)
    }

    @Test("asks the name once, wraps to the window, shows help, chooses, and resumes after quitting")
    func readAndResume() throws {
        let session = try Session(command: command("'\(Command.packageRoot.path)/Stories/the-keeper-of-gull-rock'"))
        _ = try session.waitFor("What is your first name?")
        try session.type("Mara", "Enter")
        var screen = try session.waitFor("1-9 choose · b back")
        #expect(screen.contains("names you, Mara, keeper of the Gull Rock light"))
        #expect(screen.split(separator: "\n").allSatisfy { $0.count <= 90 })
        #expect(screen.contains("\u{2501}\u{2501} Gull Rock \u{2501}\u{2501}"))
        try session.type("2", "Enter")
        screen = try session.waitFor("The Lamp Room")
        try session.type("q", "Enter")
        #expect(try session.exitStatus() == 0)

        let again = try Session(command: command("'\(Command.packageRoot.path)/Stories/the-keeper-of-gull-rock'"))
        screen = try again.waitFor("Welcome back")
        #expect(screen.contains("The Lamp Room"))
        #expect(!screen.contains("What is your first name?"))
        try again.type("x", "Enter")
        _ = try again.waitFor("is not a command")
        try again.type("b", "Enter")
        _ = try again.waitFor("━━ Gull Rock ━━")
    }

    @Test("Ctrl-C at the line-editing prompt gives the terminal back as it was (echo, canonical mode)")
    func terminalModeRestored() throws {
        let story = "'\(Command.packageRoot.path)/Stories/seven-stairs' --name Ana"
        // After cyd ends, the shell in the pane prints the terminal's mode. (libedit catches the
        // signal, restores the mode, then passes it on to cyd's own handler, which saves and exits.)
        let session = try Session(command: command(story) + "; stty -a | tr ' ;' '\\n\\n' | grep -x -E -- '-?(icanon|echo)' | tr '\\n' ' '")
        _ = try session.waitFor("Climb after Pilot")
        try session.type("m ab", "Left")  // libedit is editing a line: the terminal is raw
        try session.type("C-c")
        let screen = try session.waitFor("[exited")
        #expect(screen.contains("icanon echo"), "the terminal stayed raw: \(screen)")
        #expect(!screen.contains("-icanon") && !screen.contains("-echo"), "\(screen)")
    }

    @Test("at an ending the key line offers no choice")
    func endingKeyLine() throws {
        let session = try Session(command: command("'\(Command.packageRoot.path)/Stories/seven-stairs' --name Ana"))
        _ = try session.waitFor("Climb after Pilot")
        #expect(try session.screen().contains("1-9 choose"))
        for choice in ["1", "1", "2"] {
            try session.type(choice, "Enter")
            Thread.sleep(forTimeInterval: 0.3)
        }
        let screen = try session.waitFor("The end.")
        let lastHints = screen.split(separator: "\n").last { $0.contains("q quit") } ?? ""
        #expect(lastHints.contains("the end · b back") && !lastHints.contains("choose"), "\(screen)")
        try session.type("q", "Enter")
        #expect(try session.exitStatus() == 0)
    }

    @Test("Ctrl-C and Ctrl-D save and exit cleanly with status 0")
    func interrupt() throws {
        let story = "'\(Command.packageRoot.path)/Stories/seven-stairs' --name Ana"
        let session = try Session(command: command(story))
        _ = try session.waitFor("Climb after Pilot")
        try session.type("1", "Enter")
        _ = try session.waitFor("The Third Flight")
        Thread.sleep(forTimeInterval: 0.3)
        try session.type("C-c")
        #expect(try session.exitStatus() == 0)
        let said = try session.screen()
        #expect(said.contains("your place in 'Seven Stairs' is kept in") && said.contains("takes you back"), "Ctrl-C says where the place is: \(said)")

        let resumed = try Session(command: command(story))
        _ = try resumed.waitFor("The Third Flight")
        // The heading is drawn before the prompt, and the line editor discards what was typed
        // before it took the terminal: wait for the prompt's help line, then a moment.
        _ = try resumed.waitFor("? help")
        Thread.sleep(forTimeInterval: 0.3)
        try resumed.type("C-d")
        #expect(try resumed.exitStatus() == 0)
    }

    @Test("cyd sync on a terminal: an overall bar naming the repositories in progress, then the summary")
    func syncProgress() throws {
        let git = try TestGitServer()
        let forge = try TestForge(serving: git)
        try git.publish("tide", files: ["story.json": SyncCommandTests.story("Tide"), "README.md": SyncCommandTests.readme])
        let authors = try home.write(
            "authors.json", #"{ "authors": [ { "name": "ana", "repos": ["\#(git.gitURL("tide"))", "\#(forge.stalledURL)"] } ] }"#)
        let session = try Session(
            command: "env CYD_HOME='\(home.path("library"))' '\(Command.cyd.path)' sync --catalogue '\(authors.path)' --stall-timeout 4")
        // Both start at once; the screen is read once the good one has finished (under load the
        // first screen naming ana/silent may still show both in progress).
        let during = try session.waitFor("1/2  ana/silent")
        #expect(during.contains("[############............] 1/2  ana/silent"), "half done, the stalled one named")
        #expect(during.contains("new      ana/tide \u{201C}Tide\u{201D}"))
        let after = try session.waitFor("Synced 2 repositories")
        // cyd wraps long lines itself, with indented continuations: compare words, not spaces.
        let unwrapped = after.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(unwrapped.contains("Failed: ana/silent (\(forge.stalledURL)): "), "\(after)")
        #expect(unwrapped.contains("127.0.0.1:\(forge.stallPort) stalled: nothing received for 4000 ms"), "\(after)")
        #expect(after.split(separator: "\n").allSatisfy { $0.count <= 90 }, "\(after)")
        #expect(!after.contains("[####"), "the bar is cleared at the end")
        #expect(try session.exitStatus() == 1)

        // Ctrl-C during a sync: the line is cleared, the reason given, status 130; the story it
        // fetched before is kept, so the next sync finds it unchanged.
        try git.publish("tide", files: ["story.json": SyncCommandTests.story("Tide, revised"), "README.md": SyncCommandTests.readme])
        let interrupted = try Session(
            command: "env CYD_HOME='\(home.path("library"))' '\(Command.cyd.path)' sync --catalogue '\(authors.path)' --stall-timeout 30")
        _ = try interrupted.waitFor("updated  ana/tide")
        try interrupted.type("C-c")
        let stopped = try interrupted.waitFor("sync interrupted")
        #expect(stopped.contains("cyd: sync interrupted; what finished is kept"))
        #expect(try interrupted.exitStatus() == 130)
        let tideOnly = try home.write("tide.json", #"{ "authors": [ { "name": "ana", "repos": ["\#(git.gitURL("tide"))"] } ] }"#)
        let next = try Command.cyd(["sync", "--catalogue", tideOnly.path, "--json"], environment: ["CYD_HOME": home.path("library")])
        let counts = (try JSONSerialization.jsonObject(with: Data(next.standardOutput.utf8)) as? [String: Any])?["counts"] as? [String: Int]
        #expect(counts?["unchanged"] == 1 && counts?["updated"] == 0, "\(next.standardOutput)")
    }
}

extension String {
    /// Without the spaces a joined capture keeps at the ends of lines.
    var trimmingSuffixSpaces: String { String(self[..<(lastIndex { $0 != " " }.map(index(after:)) ?? startIndex)]) }
}
