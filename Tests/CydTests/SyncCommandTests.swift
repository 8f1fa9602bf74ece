import Foundation
import StoryStore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("cyd sync, list --available, get and update, against git daemon on 127.0.0.1")
struct SyncCommandTests {
    let home = try! TemporaryFolder()
    let git = try! TestGitServer()
    var environment: [String: String] { ["CYD_HOME": home.path("library"), "GITHUB_API_URL": "http://127.0.0.1:9"] }

    func cyd(_ arguments: String...) throws -> CommandResult { try Command.cyd(arguments, environment: environment) }

    static func story(_ title: String, rating: String = "G") -> [UInt8] {
        Array(#"""
            { "story": { "id": "story01", "name": "\#(title)", "rating": "\#(rating)", "summary": "A tale told in git",
              "chapters": [ { "id": "a", "name": "Shore", "is_first_chapter": true, "text": "Waves.", "choices": [ { "chapter_id": "b", "text": "Walk on" } ] },
                            { "id": "b", "name": "Cliff", "text": "Wind." } ] } }
            """#.utf8)
    }
    static let readme = Array("# A story\n\n#ChooseYourDestiny\n".utf8)

    func writeAuthors(_ authors: [(String, [String])]) throws -> String {
        let entries = authors.map { name, repos in #"{ "name": "\#(name)", "repos": [\#(repos.map { "\"\($0)\"" }.joined(separator: ", "))] }"# }
        return try home.write("authors.json", "{ \"authors\": [ \(entries.joined(separator: ", ")) ] }\n").path
    }

    @Test("sync reports failures and exits 1; list --available, get, read, update keep the reader's place")
    func keeperAndReader() throws {
        try git.publish("tide", files: ["story.json": Self.story("Tide"), "README.md": Self.readme])
        try git.publish("broken", files: ["README.md": Self.readme])
        try git.publish("night", files: ["story.json": Self.story("Night Walk", rating: "PG"), "README.md": Self.readme])
        let authors = try writeAuthors([("ana", [git.gitURL("tide"), git.gitURL("night")]), ("ben", [git.gitURL("broken")])])

        let sync = try cyd("sync", "--catalogue", authors)
        #expect(sync.status == 1)
        #expect(sync.standardOutput.contains("Synced 3 repositories of 2 authors"))
        #expect(sync.standardOutput.contains("2 new, 0 updated, 0 unchanged, 1 failed"))
        #expect(sync.standardOutput.contains("Failed:\n  ben/broken (\(git.gitURL("broken"))): no story.json at the root of the default branch"))
        #expect(sync.standardError.contains("new      ana/tide \u{201C}Tide\u{201D}"), "plain progress lines when not on a terminal")

        let report = try cyd("sync", "--catalogue", authors, "--json")
        #expect(report.status == 1)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(report.standardOutput.utf8)) as? [String: Any])
        #expect((parsed["counts"] as? [String: Int])?["unchanged"] == 2)
        let failed = (parsed["repositories"] as? [[String: Any]])?.first { $0["change"] as? String == "failed" }
        #expect(failed?["id"] as? String == "ben/broken")
        #expect((failed?["detail"] as? String)?.contains("no story.json") == true)

        let json = try #require(try JSONSerialization.jsonObject(with: Data(try cyd("list", "--available", "--json").standardOutput.utf8)) as? [String: Any])
        let available = try #require(json["available"] as? [[String: Any]])
        #expect(available.compactMap { $0["id"] as? String }.sorted() == ["ana/night", "ana/tide"])
        #expect(available.first { $0["id"] as? String == "ana/tide" }?["chapters"] as? Int == 2)
        #expect(available.allSatisfy { $0["downloaded"] as? Bool == false })

        let text = try cyd("list", "--available", "--match", "TID")
        #expect(text.standardOutput.contains("Available (1):\n  ana/tide  Tide  [G] 2 chapters · by ana\n      A tale told in git"))
        #expect(try cyd("list", "--available", "--rating", "pg").standardOutput.contains("ana/night  Night Walk  [PG]"))
        #expect(try cyd("list", "--available", "--match", "nobody").standardOutput.contains("Available (0):"))

        let get = try cyd("get", "ana/tide")
        #expect(get.status == 0)
        #expect(get.standardOutput.hasPrefix("downloaded Tide (id 1, 2 chapters)"))
        #expect(try cyd("get", "no-such-story").status == 1)
        _ = try Command.cyd(["read", "1"], environment: environment, input: "1\n")

        try git.publish("tide", files: ["story.json": Self.story("Tide, revised")])
        let resync = try cyd("sync", "--catalogue", authors)
        #expect(resync.standardOutput.contains("0 new, 1 updated, 1 unchanged, 1 failed"))
        #expect(try cyd("list", "--available").standardOutput.contains("update available (`cyd update 1`)"))
        let update = try cyd("update")
        #expect(update.status == 0)
        #expect(update.standardOutput.contains("updated Tide, revised (id 1)"))
        let list = try #require(try JSONSerialization.jsonObject(with: Data(try cyd("list", "--json").standardOutput.utf8)) as? [[String: Any]])
        #expect(list.first?["title"] as? String == "Tide, revised")
        #expect(list.first?["progress"] as? String == "Cliff", "the reader's place survived the update")
    }

    @Test("a sync killed part-way leaves a consistent library, and the next sync carries on")
    func killedAndResumed() throws {
        var urls: [String] = []
        for index in 0..<16 {
            try git.publish("s\(index)", files: ["story.json": Self.story("Story \(index)"), "README.md": Self.readme])
            urls.append(git.gitURL("s\(index)"))
        }
        let authors = try writeAuthors([("ana", urls)])
        let library = home.path("library")
        // Bounded: a few kills at different moments.
        for delay in [0.1, 0.3, 0.6] {
            try Command.cydKilled(after: delay, ["sync", "--catalogue", authors, "--jobs", "2"], environment: environment)
            guard FileManager.default.fileExists(atPath: library + "/library.sqlite") else { continue }
            let opened = try StoryLibrary(location: LibraryLocation(home: library))
            #expect(try opened.verify() == [])
            for entry in try opened.catalogue() where entry.isStory == true {
                #expect(entry.title?.hasPrefix("Story ") == true && entry.headCommit != nil, "a recorded story is whole")
            }
        }
        let finished = try cyd("sync", "--catalogue", authors)
        #expect(finished.status == 0, "\(finished.standardOutput)")
        let opened = try StoryLibrary(location: LibraryLocation(home: library))
        #expect(try opened.catalogue().filter { $0.isStory == true }.count == 16)
        let cache = ((try? FileManager.default.contentsOfDirectory(atPath: library + "/cache/git")) ?? []).filter { !$0.hasPrefix(".") }
        #expect(cache.count == 16 && !cache.contains { $0.contains(".partial-") }, "one clone each; clones cut short are cleared away")
        #expect(try cyd("sync", "--catalogue", authors).standardOutput.contains("0 new, 0 updated, 16 unchanged"))
    }

    @Test("a spent GitHub rate limit: exit 1, and the message says when to try again and how to get more")
    func rateLimited() throws {
        let forge = try TestForge(serving: git)
        try forge.configure(users: [:], rateLimited: true)
        let authors = try home.write("authors.json", #"{ "authors": [ { "name": "alice" } ] }"#).path
        var environment = environment
        environment["GITHUB_API_URL"] = forge.apiURL
        environment.removeValue(forKey: "GITHUB_TOKEN")
        let result = try Command.cyd(["sync", "--catalogue", authors], environment: environment.merging(["GITHUB_TOKEN": ""]) { $1 })
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("GitHub's rate limit is spent (asking for the repositories of alice): API rate limit exceeded"))
        #expect(result.standardOutput.contains("Discovery stopped there"))
        #expect(result.standardOutput.contains("Try again in 30 minutes") || result.standardOutput.contains("Try again in 29 minutes"))
        #expect(result.standardOutput.contains("or set GITHUB_TOKEN for a larger allowance"))
    }
}
