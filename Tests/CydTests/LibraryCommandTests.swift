import Foundation
import TestSupport
import Testing

@Suite("cyd add, list, remove and search")
struct LibraryCommandTests {
    let home = try! TemporaryFolder()
    var environment: [String: String] { ["CYD_HOME": home.path("library")] }

    func cyd(_ arguments: String...) throws -> CommandResult { try Command.cyd(arguments, environment: environment) }

    @Test("add, then list as text and JSON with ids, progress and endings")
    func addAndList() throws {
        let added = try cyd("add", "Stories/the-night-market")
        #expect(added.status == 0)
        #expect(added.standardOutput == "added The Night Market (id 1, 13 chapters)\n")
        #expect(try cyd("add", "Stories/the-night-market").standardOutput.hasPrefix("already up to date: The Night Market"))
        _ = try Command.cyd(["read", "1"], environment: environment, input: "2\n1\n1\n")
        let list = try cyd("list")
        #expect(list.standardOutput.contains("The Night Market  [G] 13 chapters · at 'The Last Song' · endings found: 1 of 4"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try cyd("list", "--json").standardOutput.utf8)) as? [[String: Any]])
        #expect(json.first?["id"] as? Int == 1)
        #expect(json.first?["title"] as? String == "The Night Market")
        #expect(json.first?["endingsFound"] as? Int == 1)
    }

    @Test("an unreadable story is refused with findings and exit 2")
    func addUnreadable() throws {
        let folder = try TemporaryFolder()
        try folder.write("story.json", #"{ "story": { "id": "x", "name": "X", "rating": "G", "summary": "s", "chapters": [ { "id": "a" } ] } }"#)
        let result = try cyd("add", folder.url.path)
        #expect(result.status == 2)
        #expect(result.standardError.contains("error[CYD201]"))
        #expect(result.standardError.contains("nothing was added"))
        #expect(try cyd("list", "--json").standardOutput == "[]\n")
    }

    @Test("remove asks on a terminal, needs --yes otherwise, and keeps progress unless told")
    func remove() throws {
        _ = try cyd("add", "Stories/seven-stairs")
        _ = try Command.cyd(["read", "1"], environment: environment, input: "1\n")
        let refused = try cyd("remove", "1")
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("pass --yes"))
        let removed = try cyd("remove", "1", "--yes")
        #expect(removed.standardOutput == "removed Seven Stairs; reading progress kept\n")
        let again = try Command.cyd(["read", "Stories/seven-stairs"], environment: environment, input: "")
        #expect(again.standardOutput.contains("Welcome back"))
        #expect(try cyd("remove", "2", "--yes", "--forget-progress").standardOutput.contains("and its reading progress"))
        #expect(try cyd("remove", "99", "--yes").status == 2)
    }

    @Test("search finds words in titles and chapter text, with a snippet")
    func search() throws {
        _ = try cyd("add", "Stories/the-keeper-of-gull-rock")
        _ = try cyd("add", "Stories/seven-stairs")
        let byText = try cyd("search", "paraffin")
        #expect(byText.status == 0)
        // The chapter is named by its title, and the snippet is text on one line.
        #expect(byText.standardOutput.hasPrefix("   1  The Keeper of Gull Rock\n      in “"), "\(byText.standardOutput)")
        #expect(byText.standardOutput.contains("«paraffin»"))
        #expect(!byText.standardOutput.contains("^J"), "\(byText.standardOutput)")
        let json = try cyd("search", "paraffin", "--json").standardOutput
        #expect(json.contains("\"chapterTitle\":\""), "\(json)")
        #expect(try cyd("search", "seven").standardOutput.hasPrefix("   2  Seven Stairs\n"))
        #expect(try cyd("search", "zeppelin").status == 1)
    }

    @Test("search lists every chapter a word is in, each with the command that opens the story there")
    func searchHitsLeadToTheirChapters() throws {
        _ = try cyd("add", "Stories/the-keeper-of-gull-rock")
        let result = try cyd("search", "paraffin")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        // Two chapters of Gull Rock mention paraffin: one story heading, two hits.
        #expect(lines.filter { $0.hasPrefix("   1  ") }.count == 1, "\(result.standardOutput)")
        let commands = lines.filter { $0.hasPrefix("        cyd read 1 --chapter ") }
        #expect(commands.count == 2, "\(result.standardOutput)")
        let hits = try #require(try JSONSerialization.jsonObject(with: Data(try cyd("search", "paraffin", "--json").standardOutput.utf8)) as? [[String: Any]])
        #expect(Set(hits.compactMap { $0["chapter"] as? String }).count == 2)
        // Each printed command opens the story at the chapter its line names; b goes back.
        for (index, command) in commands.enumerated() {
            let chapter = String(command.split(separator: " ").last!)
            let title = try #require(lines[lines.firstIndex(of: command)! - 1].split(separator: "“").last?.split(separator: "”").first.map(String.init))
            let read = try Command.cyd(["read", "1", "--chapter", chapter, "--name", "Ana", "--json"], environment: environment, input: "q\n")
            #expect(read.status == 0, "\(read.standardError)")
            #expect(read.standardOutput.contains(#""resumption":"jumped""#), "\(read.standardOutput)")
            #expect(read.standardOutput.contains(#""key":"\#(chapter)""#), "hit \(index): \(read.standardOutput)")
            #expect(read.standardOutput.contains(title), "hit \(index) names “\(title)”")
        }
        let missing = try Command.cyd(["read", "1", "--chapter", "no-such-chapter", "--name", "Ana"], environment: environment, input: "q\n")
        #expect(missing.status == 2 && missing.standardError.contains("chapter 'no-such-chapter' is not in this story"), "\(missing.standardError)")
    }

    @Test("the README's search example finds something in the bundled stories")
    func readmeSearchExample() throws {
        for folder in try FileManager.default.contentsOfDirectory(atPath: Command.packageRoot.appendingPathComponent("Stories").path) {
            _ = try cyd("add", "Stories/" + folder)
        }
        let readme = try String(contentsOf: Command.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let line = try #require(readme.split(separator: "\n").first { $0.hasPrefix("$ cyd search ") })
        let words = line.dropFirst("$ cyd search ".count).split(separator: "#")[0].split(separator: " ").map(String.init)
        let result = try Command.cyd(["search"] + words, environment: environment)
        #expect(result.status == 0, "cyd search \(words.joined(separator: " ")): \(result.standardOutput)")
        #expect(result.standardOutput.contains("«"), "\(result.standardOutput)")
    }

    @Test("add and read a story from a git repository served by git daemon")
    func gitSource() throws {
        let server = try TestGitServer()
        let story = try Data(contentsOf: Command.packageRoot.appendingPathComponent("Stories/seven-stairs/story.json"))
        let commit = try server.publish("stairs", files: ["story.json": [UInt8](story)])
        let added = try cyd("add", server.gitURL("stairs"))
        #expect(added.status == 0, "\(added.standardError)")
        #expect(added.standardOutput == "added Seven Stairs (id 1, 10 chapters)\n")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(try cyd("list", "--json").standardOutput.utf8)) as? [[String: Any]])
        #expect(list.first?["version"] as? String == commit)
        let read = try Command.cyd(["read", server.gitURL("stairs")], environment: environment, input: "1\n")
        #expect(read.standardOutput.contains("== The Third Flight =="))
        let missing = try cyd("add", server.gitURL("nothing-here"))
        #expect(missing.status == 2)
        #expect(missing.standardError.hasPrefix("cyd: cannot clone"))
    }
}
