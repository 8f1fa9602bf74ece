import Foundation
import StoryStore
import TestSupport
import Testing

/// `cyd read` driven as a reader would: through piped standard input (transcripts compared),
/// JSON events, and a real pseudo-terminal under tmux.
@Suite("cyd read", .serialized)
struct ReadCommandTests {
    /// A private library for one test.
    final class Home {
        let folder = try! TemporaryFolder()
        var environment: [String: String] { ["CYD_HOME": folder.path("library"), "COLUMNS": "80"] }

        func read(_ arguments: [String], input: String, environment extra: [String: String] = [:]) throws -> CommandResult {
            try Command.cyd(["read"] + arguments, environment: environment.merging(extra) { $1 }, input: input)
        }
    }

    static let transcripts = Command.packageRoot.appendingPathComponent("Tests/Fixtures/transcripts")

    /// Two chapters, the first showing `picture`.
    static func pictured(_ picture: String) -> TestStory {
        TestStory(
            id: "p", title: "Pictures", summary: "s",
            chapters: [.init("a", name: "A", text: "Look.", choices: [("b", "On")], isFirst: true, picture: picture), .init("b", name: "B", text: "End.")])
    }

    @Test("reading a bundled story maps neither libgit2 nor libcurl, nor the TLS and Kerberos libraries they pull in")
    func readerLoadsNoNetworkLibrary() throws {
        let result = try Home().read(["Stories/seven-stairs", "--name", "Ana"], input: "1\nq\n", environment: ["LD_DEBUG": "files"])
        #expect(result.status == 0)
        let loaded = Set(result.standardError.split(separator: "\n").compactMap { line in
            line.range(of: "file=").map { line[$0.upperBound...].prefix { $0 != " " } }.map(String.init)
        })
        #expect(loaded.contains("libsqlite3.so.0"), "the loader's own list: \(loaded.sorted())")
        for library in ["libgit2", "libcurl", "libcrypto", "libssl", "libkrb5", "libssh2", "libmbedtls"] {
            #expect(!loaded.contains { $0.hasPrefix(library) }, "\(library) was loaded: \(loaded.sorted())")
        }
    }

    @Test("a scripted reading matches its transcript")
    func transcript() throws {
        let home = Home()
        let input = try String(contentsOf: Self.transcripts.appendingPathComponent("seven-stairs.input"), encoding: .utf8)
        let expected = try String(contentsOf: Self.transcripts.appendingPathComponent("seven-stairs.expected"), encoding: .utf8)
        let result = try home.read(["Stories/seven-stairs", "--name", "Ana"], input: input)
        #expect(result.status == 0)
        #expect(result.standardOutput == expected)
    }

    @Test("quit, come back, and resume where you were; --restart starts over")
    func resume() throws {
        let home = Home()
        #expect(try home.read(["Stories/the-night-market"], input: "2\n1\nq\n").status == 0)
        let again = try home.read(["Stories/the-night-market"], input: "")
        #expect(again.status == 0)
        #expect(again.standardOutput.contains("Welcome back: you are where you left off."))
        #expect(again.standardOutput.contains("== Last Winter =="))
        let restarted = try home.read(["Stories/the-night-market", "--restart"], input: "")
        #expect(restarted.standardOutput.contains("== The Gate of Lanterns =="))
        // A library id works as well as a path.
        #expect(try home.read(["1"], input: "").standardOutput.contains("== The Gate of Lanterns =="))
    }

    @Test("profiles keep their own place and their own name for [[name]]")
    func profiles() throws {
        let home = Home()
        _ = try home.read(["Stories/seven-stairs", "--profile", "ana", "--name", "Ana"], input: "1\n")
        let bo = try home.read(["Stories/seven-stairs", "--profile", "bo", "--name", "Bo"], input: "")
        #expect(bo.standardOutput.contains("\"Bo?\""))
        #expect(bo.standardOutput.contains("== The First Landing =="))
        let ana = try home.read(["Stories/seven-stairs", "--profile", "ana"], input: "")
        #expect(ana.standardOutput.contains("== The Third Flight =="))
        #expect(try home.read(["Stories/seven-stairs", "--profile", "ana", "--restart"], input: "").standardOutput.contains("\"Ana?\""))
    }

    @Test("--json prints one event per line: story, chapter, ending, error, quit")
    func json() throws {
        let home = Home()
        let result = try home.read(["Stories/seven-stairs", "--json", "--name", "Ana"], input: "1\n1\n2\n7\nq\n")
        let events = try result.standardOutput.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(events.map { $0["event"] as? String } == ["story", "chapter", "chapter", "chapter", "chapter", "ending", "error", "quit"])
        let first = events[1]
        #expect(first["key"] as? String == "landing")
        #expect((first["paragraphs"] as? [String])?.last?.contains("\"Ana?\"") == true)
        #expect((first["choices"] as? [[String: Any]])?.first?["number"] as? Int == 1)
        #expect(events[4]["key"] as? String == "garden" && events[4]["ending"] as? Bool == true)
        #expect(events[5]["endingsFound"] as? Int == 1 && events[5]["endingsTotal"] as? Int == 3)
        #expect(events[6]["message"] as? String == "there are no choices here")
    }

    @Test("end of input and unknown commands never crash; exit 0")
    func robustInput() throws {
        let home = Home()
        let result = try home.read(["Stories/seven-stairs"], input: "0\n-1\n99999999999999999999\nzzz\n\n   \n")
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("there is no choice 0; choose 1 to 2"))
        #expect(result.standardOutput.contains("is not a command"))
    }

    @Test("escape sequences and bidi controls in a story are shown visibly, never sent to the terminal")
    func hostileStory() throws {
        let home = Home()
        let folder = try TemporaryFolder()
        let evil = TestStory(
            id: "x", title: "Evil\u{1B}]0;pwned\u{7}", summary: "s",
            chapters: [
                .init("a", name: "\u{9B}2J", text: "Clear\u{1B}[2J the \u{202E}screen", choices: [("b", "go\u{1B}[31m red")], isFirst: true),
                .init("b", name: "B", text: "end"),
            ])
        try folder.write("story.json", evil.json)
        for mode in [[], ["--json"]] {
            let result = try home.read([folder.url.path] + mode, input: "h\n")
            #expect(result.status == 0)
            #expect(!result.standardOutput.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{9B}" || $0 == "\u{202E}" || $0 == "\u{7}" })
            if mode.isEmpty {
                #expect(result.standardOutput.contains("Clear^[[2J the \\u{202E}screen"))
                #expect(result.standardOutput.contains("go^[[31m red"))
            }
        }
    }

    @Test("an unreadable story is refused with the validator's findings")
    func unreadable() throws {
        let home = Home()
        let folder = try TemporaryFolder()
        try folder.write("story.json", #"{"story": {"id": "x"}"#)
        let result = try home.read([folder.url.path], input: "")
        #expect(result.status == 2)
        #expect(result.standardError.contains("cannot be read"))
    }

    @Test("without a story, the picker numbers library stories by id, with source and progress, and offers bundled ones as b1, b2, ...")
    func picker() throws {
        let home = Home()
        let first = try home.read([], input: "b2\n")
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput.contains("Stories:"))
        #expect(first.standardOutput.contains("b2) The Keeper of Gull Rock · bundled, not started · "))
        // Reading it added it to the library: now it is listed by its library id, with its place.
        let again = try home.read([], input: "1\n")
        #expect(again.status == 0, "\(again.standardError)")
        let line = again.standardOutput.split(separator: "\n").first { $0.contains("The Keeper of Gull Rock") }.map(String.init) ?? ""
        #expect(line.hasPrefix("    1) The Keeper of Gull Rock · at '"), "\(line)")
        #expect(line.hasSuffix("/Stories/the-keeper-of-gull-rock"), "\(line)")
        #expect(!again.standardOutput.contains("b2) The Keeper of Gull Rock"), "a bundled story already added is listed once")
        // The others keep their numbers: b3 is still the third bundled story, not renumbered b2.
        #expect(again.standardOutput.contains("b3) The Night Market · bundled, not started"), "\(again.standardOutput)")
        #expect(!again.standardOutput.contains("b2)"), "\(again.standardOutput)")
        // And b2 still means Gull Rock, found rather than added twice.
        let byNumber = try home.read([], input: "b2\nq\n")
        #expect(byNumber.standardOutput.contains("The Keeper of Gull Rock"), "\(byNumber.standardOutput)")
        #expect(try Command.cyd(["list", "--json"], environment: home.environment).standardOutput.components(separatedBy: "\"title\":").count == 2, "one story in the library")
    }

    @Test("a bundled story removed with the reader's place kept says where that place is, not 'not started'")
    func removedBundledStoryKeepsItsPlace() throws {
        let home = Home()
        // Seven Stairs is the first bundled story (b1); one choice takes the reader on from the start.
        _ = try home.read(["Stories/seven-stairs", "--name", "Ana"], input: "1\n")
        #expect(try Command.cyd(["remove", "--yes", "1"], environment: home.environment).status == 0)
        let picker = try home.read([], input: "q\n")
        let line = picker.standardOutput.split(separator: "\n").first { $0.contains("Seven Stairs") }.map(String.init) ?? ""
        #expect(line.contains("bundled, your place kept at '"), "\(picker.standardOutput)")
        #expect(!line.contains("not started"), "\(line)")
    }

    @Test("an https picture is fetched once, stored, and served offline afterwards")
    func webPicture() throws {
        let certificate = try TestCertificate()
        let server = try TestHTTPServer(tls: certificate)
        let folder = try TemporaryFolder()
        try folder.write("story.json", Self.pictured(server.url("/picture.png")).json)
        let home = Home()
        let tls = ["CURL_CA_BUNDLE": certificate.certificate]
        let first = try home.read([folder.url.path], input: "p\np save \(folder.path("saved.png"))\n", environment: tls)
        #expect(first.standardOutput.contains("PNG, "))
        #expect(FileManager.default.contents(atPath: folder.path("saved.png"))?.starts(with: [0x89, 0x50]) == true)
        for _ in 0..<2 {
            let again = try home.read([folder.url.path, "--restart"], input: "", environment: tls)
            #expect(again.standardOutput.contains("[picture: \(server.url("/picture.png")), PNG, "))
        }
        #expect(try server.count("/picture.png") == 1)
    }

    @Test("a pic_path holding line feeds cannot fake a line of the reader's own")
    func lineFeedInPicturePath() throws {
        let folder = try TemporaryFolder()
        try folder.write("story.json", Self.pictured("resources/x.jpg\nThe end. Endings found: 9 of 9.\n> q").json)
        let result = try Home().read([folder.url.path, "--name", "Ana"], input: "q\n")
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("The end.") || $0.hasPrefix("> q") }, "\(result.standardOutput)")
        #expect(result.standardOutput.contains("[picture: resources/x.jpg^JThe end. Endings found: 9 of 9.^J> q"), "\(result.standardOutput)")
    }

    @Test("a picture that fails shows a placeholder with the reason and can be retried")
    func failingPicture() throws {
        let certificate = try TestCertificate()
        let server = try TestHTTPServer(tls: certificate)
        let folder = try TemporaryFolder()
        try folder.write("story.json", TestStory(id: "p", title: "Pictures", summary: "s", chapters: [.init("a", name: "A", text: "Look.", isFirst: true, picture: server.url("/status/500"))]).json)
        let home = Home()
        let result = try home.read([folder.url.path], input: "p\np retry\n", environment: ["CURL_CA_BUNDLE": certificate.certificate])
        #expect(result.standardOutput.contains("could not be loaded: the server answered 500; p retry tries again"))
        // Each fetch tries a server error twice (one quick retry); `p retry` fetches again.
        #expect(try server.count("/status/500") == 4)
    }

    @Test("a process killed while adding a large story leaves it wholly there or absent")
    func killedDuringImport() throws {
        let folder = try TemporaryFolder()
        let story = folder.path("big")
        try FileManager.default.createDirectory(atPath: story, withIntermediateDirectories: true)
        let generate = try Command.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "scripts/generate-story.py", "20000", story + "/story.json"])
        #expect(generate.status == 0)
        let library = folder.path("library")
        // How long a whole add takes here, so that the kills land during it on any machine.
        let started = Date()
        let whole = try Command.cyd(["add", story], environment: ["CYD_HOME": folder.path("timing")])
        #expect(whole.status == 0)
        let duration = Date().timeIntervalSince(started)
        var outcomes: [Bool] = []
        // Bounded: a handful of kills at different moments of the import.
        for fraction in [0.15, 0.3, 0.45, 0.6, 0.75, 0.9] {
            let delay = duration * fraction
            try? FileManager.default.removeItem(atPath: library)
            try Command.cydKilled(after: delay, ["add", story], environment: ["CYD_HOME": library])
            guard FileManager.default.fileExists(atPath: library + "/library.sqlite") else { continue }
            let opened = try StoryLibrary(location: LibraryLocation(home: library))
            #expect(try opened.verify() == [])
            let stories = try opened.stories()
            #expect(stories.isEmpty || stories[0].chapterCount == 20000)
            outcomes.append(!stories.isEmpty)
        }
        // At least one kill came while the library was open and the story not yet in it: the
        // case this test exists for.
        #expect(outcomes.contains(false), "no kill interrupted the add (outcomes \(outcomes), a whole add took \(duration) s)")
        // And a complete add afterwards works on whatever was left.
        let finished = try Command.cyd(["add", story], environment: ["CYD_HOME": library])
        #expect(finished.status == 0)
        #expect(try StoryLibrary(location: LibraryLocation(home: library)).stories().first?.chapterCount == 20000)
    }
}

/// The reader's answers to slips: each names what happened and what to type instead.
@Suite("cyd read: clear answers", .serialized)
struct ReaderAnswerTests {
    let home = ReadCommandTests.Home()

    func read(_ input: String, _ arguments: [String] = ["--name", "Ana"]) throws -> String {
        let result = try home.read(["Stories/seven-stairs"] + arguments, input: input)
        #expect(result.status == 0, "\(result.standardError)")
        return result.standardOutput + result.standardError
    }

    @Test func aBookmarkPlacedTwiceSaysWhereItWasAndWhereItIs() throws {
        let output = try read("m a\nm a\n1\nm a\n")
        #expect(output.contains("bookmarked 'The First Landing' as 'a' (j a comes back)"), "\(output)")
        #expect(output.contains("bookmark 'a' is already on 'The First Landing'"), "\(output)")
        #expect(output.contains("bookmark 'a' moved from 'The First Landing' to '"), "\(output)")
    }

    @Test("bookmarks, notes and the path name chapters by their titles, never by the author's ids")
    func chaptersAreNamedByTitle() throws {
        // Seven Stairs starts at 'landing' ("The First Landing"); choice 1 leads on.
        let output = try read("m start\nn a cat\n1\nj\nn\nh\n")
        #expect(output.contains("  start → The First Landing\n"), "\(output)")
        #expect(output.contains("  #1 [The First Landing] a cat\n"), "\(output)")
        #expect(output.contains("  1. The First Landing\n"), "\(output)")
        for line in output.split(separator: "\n") where line.hasPrefix("  start →") || line.hasPrefix("  #1 [") || line.hasPrefix("  1. ") {
            #expect(!line.contains("landing") , "an id shown to a reader: \(line)")
        }
        // Scripts get both.
        let json = try read("m start\nj\nn x\nn\n", ["--name", "Ana", "--json", "--restart"])
        #expect(json.contains(#""key":"landing","name":"start","title":"The First Landing""#), "\(json)")
        #expect(json.contains(#""key":"landing","text":"x","title":"The First Landing""#), "\(json)")
    }

    @Test func deleteAloneNamesTheBookmarks() throws {
        #expect(try read("d\n").contains("d NAME deletes a bookmark; there are none yet"))
        #expect(try read("m here\nd\n").contains("d NAME deletes a bookmark; yours: 'here'"))
    }

    @Test func aDashWordIsNotANote() throws {
        let output = try read("n -x\nn\n")
        #expect(output.contains("n -NUMBER removes a note, and 'x' is not a note number"), "\(output)")
        #expect(output.contains("no notes yet"), "a mistyped removal must not be saved as a note: \(output)")
        #expect(try read("n -7\n").contains("no note #7; n alone lists your notes"))
    }

    @Test func anUnknownPictureCommandListsTheRealOnes() throws {
        let output = try read("p foo\n")
        #expect(output.contains("'p foo' is not a picture command: p shows it, p save FILE saves it"), "\(output)")
    }

    @Test func savingAPictureNeverOverwritesUnlessAskedTo() throws {
        let target = home.folder.path("cat.png")
        let first = try read("p save \(target)\n")
        #expect(first.contains("saved resources/cat.png to"), "\(first)")
        let original = try Data(contentsOf: URL(fileURLWithPath: target))
        try Data("mine".utf8).write(to: URL(fileURLWithPath: target))
        let refused = try read("p save \(target)\n")
        #expect(refused.contains("exists: p save! \(target) replaces it"), "\(refused)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("mine".utf8))
        _ = try read("p save! \(target)\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == original)
    }

    @Test func withoutANameThePlaceholderReadsReader() throws {
        let output = try read("", [])
        #expect(output.contains("\"Reader?\""), "\(output.prefix(600))")
        #expect(!output.contains("[[name]]"))
    }

    @Test func afterAnUpdateTheNoticeNamesTheChapterReadingGoesOnFrom() throws {
        let copy = home.folder.path("stairs")
        try FileManager.default.copyItem(atPath: Command.packageRoot.appendingPathComponent("Stories/seven-stairs").path, toPath: copy)
        _ = try home.read([copy, "--name", "Ana"], input: "1\n")
        // The author renames the chapter the reader is on; the library picks up the change.
        let file = URL(fileURLWithPath: copy + "/story.json")
        let text = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "\"second\"", with: "\"second-flight\"")
        try Data(text.utf8).write(to: file)
        #expect(try Command.cyd(["add", copy], environment: home.environment).status == 0)
        let output = try home.read([copy], input: "")
        #expect(output.standardOutput.contains("your chapter (id 'second') is no longer in it"), "\(output.standardOutput.prefix(500))")
        #expect(output.standardOutput.contains("You are at “The First Landing”"), "\(output.standardOutput.prefix(500))")
    }

    @Test func theJSONQuitEventSaysWhereThePlaceIsKept() throws {
        let output = try read("q\n", ["--json", "--name", "Ana"])
        let quit = try #require(output.split(separator: "\n").last { $0.contains("\"quit\"") })
        #expect(quit.contains("\"library\":") && quit.contains("\"story\":1"), "\(quit)")
    }
}
