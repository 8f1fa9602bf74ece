import Foundation
import StoryFormat
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The hostile corpus: inputs made to hang, exhaust or fool a validator. Each one ends in
/// located findings or a clear exit-2 message, never a crash or a hang, within a bound stated
/// here: at most 10 times what a clean file of the same size costs (plus a second for starting a
/// debug build). The large files come from scripts/generate-hostile.py at a scale set by
/// CYD_HOSTILE_SCALE (0.1 by default, so the suite stays quick; 1 is the full corpus).
@Suite("Hostile input", .serialized)
struct HostileInputTests {
    static let scale = ProcessInfo.processInfo.environment["CYD_HOSTILE_SCALE"] ?? "0.1"
    static let fixtures = Command.packageRoot.appendingPathComponent("Tests/Fixtures/hostile")

    /// Generated once for the suite.
    static let corpus: TemporaryFolder = {
        let folder = try! TemporaryFolder()
        let result = try! Command.run(
            try Command.program("python3"), [Command.packageRoot.appendingPathComponent("scripts/generate-hostile.py").path, folder.url.path, "--scale", scale])
        precondition(result.status == 0, result.standardError)
        return folder
    }()

    /// The finding each generated file must produce (nil: the file is valid and must pass).
    static let expected: [String: String?] = [
        "nesting-10k": "CYD105", "nesting-1m": "CYD105", "unterminated-string": "CYD101",
        "minified-with-findings": "CYD302", "megabyte-text-line": nil, "tiny-chapters": nil,
        "all-ids-duplicated": "CYD301", "misspelt-targets": "CYD302", "escape-flood": "CYD704",
        "many-choices": nil, "unreachable-flood": "CYD501", "invalid-utf8-everywhere": "CYD104",
    ]

    /// Runs cyd under `timeout`, so a hang fails the test (status 124) instead of stopping the suite.
    static func cyd(_ arguments: [String], seconds: Int = 120, input: String? = nil, environment: [String: String] = [:]) throws -> (CommandResult, Double) {
        let started = Date()
        let result = try Command.run(
            try Command.program("timeout"), ["--signal=KILL", String(seconds), Command.cyd.path] + arguments, environment: environment, input: input)
        return (result, Date().timeIntervalSince(started))
    }

    /// Runs cyd under `timeout` and GNU time; returns the CPU seconds it used (user + system).
    /// The bounds compare CPU time, not wall time: other tests (release builds among them) run
    /// beside these and stretch wall time by whatever share of two cores they take.
    static func cydCPU(_ arguments: [String], seconds: Int = 120) throws -> (CommandResult, Double) {
        let times = FileManager.default.temporaryDirectory.appendingPathComponent("cyd-time-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: times) }
        let result = try Command.run(
            try Command.program("timeout"),
            ["--signal=KILL", String(seconds), "/usr/bin/time", "-q", "-o", times.path, "-f", "%U %S", Command.cyd.path] + arguments)
        let words = ((try? String(contentsOf: times, encoding: .utf8)) ?? "").split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        // No reading (no GNU time, or cyd killed) counts as over any bound.
        return (result, words.count == 2 ? words.reduce(0, +) : .infinity)
    }

    @Test("each generated file: its finding, located, in text and json, within 10x a clean file of its size", arguments: expected.keys.sorted())
    func generated(name: String) throws {
        let file = Self.corpus.path(name + ".json")
        let clean = Self.corpus.path("clean-" + name + ".json")
        let (cleanResult, cleanSeconds) = try Self.cydCPU(["validate", clean])
        #expect(cleanResult.status == 0, "the clean file of the same size is clean: \(cleanResult.standardOutput.suffix(300))")

        let (text, textSeconds) = try Self.cydCPU(["validate", file])
        let (json, jsonSeconds) = try Self.cydCPU(["validate", "--format", "json", file])
        let bound = 10 * cleanSeconds + 1
        #expect(textSeconds <= bound, "text took \(textSeconds) s of CPU; clean \(cleanSeconds) s")
        #expect(jsonSeconds <= bound, "json took \(jsonSeconds) s of CPU; clean \(cleanSeconds) s")
        for result in [text, json] {
            #expect([0, 1].contains(result.status), "no crash, no hang: status \(result.status) \(result.standardError.prefix(300))")
            #expect(TerminalSafetyCheck.unsafe(result.standardOutput + result.standardError).isEmpty)
        }
        let report = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as! [String: Any]
        let findings = ((report["files"] as! [[String: Any]])[0]["diagnostics"] as! [[String: Any]])
        if let code = Self.expected[name]! {
            let matching = findings.filter { $0["code"] as? String == code }
            #expect(!matching.isEmpty, "\(name): expected \(code), found \(Set(findings.compactMap { $0["code"] as? String }))")
            #expect(matching.allSatisfy { ($0["line"] as! Int) >= 1 && ($0["column"] as! Int) >= 1 })
            #expect(text.standardOutput.contains("[\(code)]"))
        } else {
            #expect(json.status == 0, "\(name) is valid: \(findings.prefix(3))")
        }
        if name == "misspelt-targets" {
            let misspelt = findings.filter { $0["code"] as? String == "CYD302" }
            #expect(misspelt.allSatisfy { ($0["help"] as? String)?.contains("did you mean") == true }, "every misspelt target gets its suggestion")
        }
    }

    @Test("a FIFO, a device or a folder where story.json should be: exit 2 at once, with the reason")
    func notRegularFiles() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("fifo-story"), withIntermediateDirectories: true)
        #expect(mkfifo(folder.path("fifo-story/story.json"), 0o644) == 0)
        #expect(mkfifo(folder.path("lonely.fifo"), 0o644) == 0)
        try FileManager.default.createDirectory(atPath: folder.path("folder-story/story.json"), withIntermediateDirectories: true)
        let library = ["CYD_HOME": folder.path("library")]
        for (arguments, reason) in [
            (["validate", folder.path("fifo-story")], "it is a FIFO"),
            (["validate", folder.path("lonely.fifo")], "it is a FIFO"),
            (["validate", "/dev/zero"], "it is a character device"),
            (["validate", folder.path("folder-story")], "story.json"),
            (["add", folder.path("fifo-story")], "it is a FIFO"),
            (["read", folder.path("lonely.fifo")], "it is a FIFO"),
        ] {
            let (result, seconds) = try Self.cyd(arguments, seconds: 20, input: "q\n", environment: library)
            #expect(result.status == 2, "\(arguments): \(result.status) \(result.standardError)")
            #expect(result.standardError.contains(reason), "\(arguments): \(result.standardError)")
            #expect(seconds < 10)
        }
    }

    @Test("a picture linked out of the story folder is CYD607, and the reader never shows or saves it")
    func linkOutOfFolder() throws {
        let folder = try TemporaryFolder()
        let story = TestStory(id: "s", title: "Linked", summary: "x", chapters: [.init("a", name: "A", text: "Look.", isFirst: true, picture: "resources/link.png")])
        try folder.write("story/story.json", story.json)
        try folder.write("story/README.md", "A story for #ChooseYourDestiny readers.\n")
        try folder.write("secret.txt", "root:x:0:0:the secret\n")
        try folder.link("story/resources/link.png", to: folder.path("secret.txt"))
        try FileManager.default.createSymbolicLink(atPath: folder.path("story/resources/folder-link"), withDestinationPath: folder.url.path)

        let (validated, _) = try Self.cyd(["validate", folder.path("story")])
        #expect(validated.status == 1)
        #expect(validated.standardOutput.contains("error[CYD607]: pic_path of chapter 'a' is a link to"))
        #expect(!validated.standardOutput.contains("CYD604"), "not reported as missing as well")

        let saved = folder.path("saved.png")
        let (read, _) = try Self.cyd(
            ["read", folder.path("story"), "--name", "Ana"], seconds: 30, input: "p\np save \(saved)\nq\n",
            environment: ["CYD_HOME": folder.path("library")])
        #expect(read.status == 0, "\(read.standardError)")
        #expect(read.standardOutput.contains("outside the story folder"), "\(read.standardOutput)")
        #expect(!read.standardOutput.contains("the secret"))
        #expect(!FileManager.default.fileExists(atPath: saved))
    }

    @Test("picture paths that climb out, absolute paths and file: links are findings")
    func picturePathsOut() throws {
        let (result, _) = try Self.cyd(["validate", Self.fixtures.appendingPathComponent("pic-path-escapes.json").path])
        #expect(result.status == 1)
        #expect(result.standardOutput.components(separatedBy: "[CYD601]").count - 1 == 3)
        #expect(result.standardOutput.contains("[CYD603]"))
    }

    @Test("ids with a NUL: validate says CYD305 and exits 1; add refuses the story and stores nothing")
    func nulInIDs() throws {
        let file = Self.fixtures.appendingPathComponent("nul-in-ids.json").path
        let (validated, _) = try Self.cyd(["validate", file])
        #expect(validated.status == 1)
        #expect(validated.standardOutput.contains("error[CYD305]: control character U+0000 in an id"))
        let folder = try TemporaryFolder()
        let library = ["CYD_HOME": folder.path("library")]
        let (added, _) = try Self.cyd(["add", file], environment: library)
        #expect(added.status == 2)
        #expect(added.standardError.contains("cannot be read"), "\(added.standardError)")
        let (listed, _) = try Self.cyd(["list", "--json"], environment: library)
        #expect(!listed.standardOutput.contains("Ids with a NUL"))
    }

    @Test("--output into a missing folder or onto a folder: a sentence naming the path, exit 2")
    func outputErrors() throws {
        let folder = try TemporaryFolder()
        let story = Command.packageRoot.appendingPathComponent("Stories/seven-stairs/story.json").path
        let (missing, _) = try Self.cyd(["validate", story, "--output", folder.path("nowhere/report.txt")])
        #expect(missing.status == 2)
        #expect(missing.standardError == "cyd: cannot write '\(folder.path("nowhere/report.txt"))': no such folder: '\(folder.path("nowhere"))'\n")
        let (onto, _) = try Self.cyd(["validate", story, "--output", folder.url.path])
        #expect(onto.status == 2)
        #expect(onto.standardError.contains("it is a folder"))
        #expect(!(missing.standardError + onto.standardError).contains("NSCocoaErrorDomain"))
    }

    @Test("p save onto a folder or into a missing one: the reason is shown and reading goes on")
    func saveErrors() throws {
        let folder = try TemporaryFolder()
        let story = TestStory(
            id: "s", title: "Pictured", summary: "x",
            chapters: [.init("a", name: "A", text: "Look.", choices: [("b", "On")], isFirst: true, picture: "resources/p.png"), .init("b", name: "B", text: "The end.")])
        try folder.write("story/story.json", story.json)
        try folder.write("story/resources/p.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0])
        let input = "p save \(folder.url.path)\np save \(folder.path("missing/p.png"))\n1\nq\n"
        let (read, _) = try Self.cyd(["read", folder.path("story"), "--name", "Ana"], seconds: 30, input: input, environment: ["CYD_HOME": folder.path("library")])
        #expect(read.status == 0, "\(read.standardError)")
        #expect(read.standardOutput.contains("it is a folder"), "\(read.standardOutput)")
        #expect(read.standardOutput.contains("no such folder: '\(folder.path("missing"))'"))
        #expect(read.standardOutput.contains("The end."), "reading went on")
        #expect(!read.standardOutput.contains("NSCocoaErrorDomain"))
    }
}

/// What the terminal-safety test checks, for outputs of the command line too.
enum TerminalSafetyCheck {
    static func unsafe(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { $0 != "\n" && VisibleText.isUnsafe($0) }
    }
}
