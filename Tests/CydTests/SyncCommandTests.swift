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

    static func story(_ title: String, rating: String = "G") -> [UInt8] { TestStory.twoChapters(title: title, rating: rating).bytes }
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
        // Plain `cyd list` marks it too, in words and in JSON.
        let waiting = try cyd("list").standardOutput
        #expect(waiting.contains("at 'Cliff' · endings found: 1 of 1 · update waiting (`cyd update 1`)"), "\(waiting)")
        let waitingJSON = try #require(try JSONSerialization.jsonObject(with: Data(try cyd("list", "--json").standardOutput.utf8)) as? [[String: Any]])
        #expect(waitingJSON.first?["updateAvailable"] as? Bool == true)
        let update = try cyd("update")
        #expect(update.status == 0)
        #expect(update.standardOutput.contains("updated Tide, revised (id 1)"))
        let list = try #require(try JSONSerialization.jsonObject(with: Data(try cyd("list", "--json").standardOutput.utf8)) as? [[String: Any]])
        #expect(list.first?["title"] as? String == "Tide, revised")
        #expect(list.first?["progress"] as? String == "Cliff", "the reader's place survived the update")
        #expect(list.first?["updateAvailable"] as? Bool == false)
        #expect(!(try cyd("list").standardOutput.contains("update waiting")))
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

    @Test("the real catalogue's layout: names only, branch master, a README tag after a space, trailing commas, the reader app's tagged repository without a story; every story read by its catalogue id")
    func realLayout() throws {
        let forge = try TestForge(serving: git)
        var environment = self.environment
        environment["GITHUB_API_URL"] = forge.apiURL
        func cyd(_ arguments: String...) throws -> CommandResult { try Command.cyd(arguments, environment: environment) }
        let lenient = String(decoding: Self.story("Gull Rock"), as: UTF8.self).replacingOccurrences(of: "\"Wind.\" }", with: "\"Wind.\", }")
        try git.publish("tide-story", files: ["story.json": Self.story("Tide"), "README.md": Array("# Tide\n\nA story for #ChooseYourDestiny\n".utf8)], branch: "master")
        try git.publish("gull-rock", files: ["story.json": Array(lenient.utf8), "README.md": Array("# Gull Rock #ChooseYourDestiny\n".utf8)], branch: "master")
        try git.publish("ChooseYourDestiny", files: ["README.md": Array("Tag your story repository with #ChooseYourDestiny to have it listed.\n".utf8)], branch: "master")
        try forge.configure(users: [
            "jonathandgrubb": [
                .init(name: "tide-story", cloneURL: git.gitURL("tide-story"), readme: "# Tide\n\nA story for #ChooseYourDestiny\n"),
                .init(name: "ChooseYourDestiny", cloneURL: git.gitURL("ChooseYourDestiny"), readme: "Tag your story repository with #ChooseYourDestiny to have it listed."),
            ],
            "geekygamer1": [.init(name: "gull-rock", cloneURL: git.gitURL("gull-rock"), readme: "# Gull Rock #ChooseYourDestiny")],
            "dshrout": [],
        ])
        let authors = try home.write("authors.json", #"{ "authors": [ { "name": "jonathandgrubb" }, { "name": "geekygamer1" }, { "name": "dshrout" } ] }"#).path

        let sync = try cyd("sync", "--catalogue", authors)
        #expect(sync.status == 0, "\(sync.standardOutput)\(sync.standardError)")
        #expect(sync.standardOutput.contains("Synced 3 repositories of 3 authors"), "\(sync.standardOutput)")
        #expect(sync.standardOutput.contains("2 new, 0 updated, 0 unchanged, 1 not a story, 0 failed."), "\(sync.standardOutput)")
        #expect(!sync.standardOutput.contains("Failed"))

        for (id, title, chapter) in [("jonathandgrubb/tide-story", "Tide", "Shore"), ("geekygamer1/gull-rock", "Gull Rock", "Shore")] {
            let get = try cyd("get", id)
            #expect(get.status == 0, "\(get.standardError)")
            #expect(get.standardOutput.hasPrefix("downloaded \(title)"))
            let read = try Command.cyd(["read", id, "--plain"], environment: environment, input: "1\n")
            #expect(read.status == 0, "\(read.standardError)")
            #expect(read.standardOutput.contains("== \(chapter) =="), "\(read.standardOutput)")
            #expect(read.standardOutput.contains("== Cliff =="), "the choice was followed")
            let listed = try JSONSerialization.jsonObject(with: Data(try cyd("list", id, "--json").standardOutput.utf8)) as? [[String: Any]]
            #expect(listed?.count == 1 && listed?.first?["title"] as? String == title)
            let update = try cyd("update", id)
            #expect(update.status == 0 && update.standardOutput == "0 updated, 1 already up to date\n", "\(update.standardOutput)\(update.standardError)")
        }
        let notDownloaded = try cyd("read", "dshrout/none")
        #expect(notDownloaded.status == 2 && notDownloaded.standardError.contains("no story 'dshrout/none' in the library"))
        let removed = try cyd("remove", "geekygamer1/gull-rock", "--yes")
        #expect(removed.status == 0 && removed.standardOutput.hasPrefix("removed Gull Rock"), "\(removed.standardError)")
        let gone = try cyd("read", "geekygamer1/gull-rock")
        #expect(gone.standardError.contains("is in the catalogue but not downloaded; `cyd get geekygamer1/gull-rock` downloads it"), "\(gone.standardError)")
    }

    @Test("a published index: a reader syncs from it with no git traffic, and picks up a changed commit")
    func publishedIndex() throws {
        let forge = try TestForge(serving: git)
        try git.publish("tide", files: ["story.json": Self.story("Tide"), "README.md": Self.readme])
        try git.publish("night", files: ["story.json": Self.story("Night Walk"), "README.md": Self.readme])
        let authors = try writeAuthors([("ana", [forge.httpURL("tide"), forge.httpURL("night")])])
        #expect(try cyd("sync", "--catalogue", authors).status == 0)
        let site = home.path("site")
        let published = try cyd("catalogue", "publish", site)
        #expect(published.status == 0 && published.standardOutput.hasPrefix("published 2 stories of 1 author to \(site): version "), "\(published.standardOutput)\(published.standardError)")
        #expect(try cyd("catalogue", "publish", site + "/").standardOutput.contains("report: \(site)/report.html"), "one slash")

        let reader = ["CYD_HOME": home.path("reader"), "GITHUB_API_URL": "http://127.0.0.1:9"]
        let before = try forge.count("GET /git/tide.git/info/refs")
        let first = try Command.cyd(["sync", "--catalogue", site], environment: reader)
        #expect(first.status == 0 && first.standardOutput.contains("Synced 2 repositories of 1 author from the index"), "\(first.standardOutput)")
        #expect(first.standardOutput.contains("2 new"))
        let again = try Command.cyd(["sync", "--catalogue", site + "/index.json"], environment: reader)
        #expect(again.standardOutput.contains("0 new, 0 updated, 2 unchanged"), "\(again.standardOutput)")
        #expect(try forge.count("GET /git/tide.git/info/refs") == before, "no ls-remote: the index is enough")
        let get = try Command.cyd(["get", "ana/tide"], environment: reader)
        #expect(get.status == 0, "\(get.standardError)")

        // The author pushes; the keeper syncs and publishes; the reader sees one update.
        try git.publish("tide", files: ["story.json": Self.story("Tide Rising")])
        #expect(try cyd("sync", "--catalogue", authors).status == 0)
        #expect(try cyd("catalogue", "publish", site).status == 0)
        let changed = try Command.cyd(["sync", "--catalogue", site, "--json"], environment: reader)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(changed.standardOutput.utf8)) as? [String: Any])
        #expect((report["counts"] as? [String: Int])?["updated"] == 1 && (report["counts"] as? [String: Int])?["unchanged"] == 1)
        #expect(report["fromIndex"] as? Bool == true)
        let list = try Command.cyd(["list", "--available"], environment: reader)
        #expect(list.standardOutput.contains("update available"), "\(list.standardOutput)")
        let update = try Command.cyd(["update", "ana/tide"], environment: reader)
        #expect(update.standardOutput.contains("updated Tide Rising"), "\(update.standardOutput)\(update.standardError)")

        // A broken index is refused with its place, and the catalogue is left alone.
        try home.write("bad/index.json", #"{ "cyd_catalogue_index": 1, "stories": [ { "author": "ana" } ] }"#)
        let bad = try Command.cyd(["sync", "--catalogue", home.path("bad")], environment: reader)
        #expect(bad.status == 1 && bad.standardError.contains("index.json:1:"), "\(bad.standardError)")
    }

    /// An index entry as publish writes it, with `chapters` written as given (a JSON number text).
    static func indexEntry(_ author: String, _ repository: String, url: String, chapters: String = "3") -> String {
        #"{ "author": "\#(author)", "repository": "\#(repository)", "url": "\#(url)", "commit": "0123456789abcdef0123456789abcdef01234567", "#
            + #""story_id": "s", "title": "T \#(repository)", "rating": "G", "summary": "s", "chapters": \#(chapters) }"#
    }

    @Test("a hostile index: numbers out of range, control characters, paths and duplicate ids are refused entry by entry, with exact counts")
    func hostileIndexEntries() throws {
        let entries = [
            Self.indexEntry("ana", "tide", url: "https://example.org/ana/tide.git"),
            Self.indexEntry("big", "number", url: "https://example.org/big/number.git", chapters: "1e19"),
            Self.indexEntry("neg", "number", url: "https://example.org/neg/number.git", chapters: "-1e19"),
            Self.indexEntry("huge", "int", url: "https://example.org/huge/int.git", chapters: "9223372036854775808"),
            Self.indexEntry("far", "out", url: "https://example.org/far/out.git", chapters: "1e308"),
            Self.indexEntry("nul\\u0000x", "repo", url: "https://example.org/nul/repo.git"),
            Self.indexEntry("dup", "same", url: "https://example.org/dup/one.git"),
            Self.indexEntry("DUP", "SAME", url: "https://example.org/dup/two.git"),
            Self.indexEntry("twice", "same", url: "https://example.org/twice/same.git"),
            Self.indexEntry("twice", "same", url: "https://example.org/twice/same.git"),
            Self.indexEntry("dots", "..", url: "https://example.org/dots/x.git"),
        ]
        let index = try home.write("site/index.json", #"{ "cyd_catalogue_index": 1, "generated_at": 1, "stories": [\#n"# + entries.joined(separator: ",\n") + "\n] }\n").path
        let first = try cyd("sync", "--catalogue", index)
        #expect(first.status == 1, "failures make exit 1, and nothing crashed: \(first.standardError)")
        #expect(first.standardOutput.contains("2 new, 0 updated, 0 unchanged, 8 failed"), "a fresh library: \(first.standardOutput)")
        for message in [
            "\"chapters\" must be a whole number from 0 to 10000000", "\"author\" holds a control character (nul^@x)",
            "\"repository\" must be a name, not a path ('..')", "the id 'dup/same' is listed 2 times with different repositories",
        ] {
            #expect(first.standardOutput.contains(message), "\(message): \(first.standardOutput)")
        }
        let ambiguous = try cyd("get", "dup/same")
        #expect(ambiguous.status != 0 && ambiguous.standardError.contains("no story 'dup/same'"), "neither is offered: \(ambiguous.standardError)")
        let list = try cyd("list", "--available", "--json")
        #expect(!list.standardOutput.contains("\"author\":\"nul") && !list.standardOutput.contains("nul/repo"), "a name with a control character is never listed, cut or whole")

        // The keeper fixes the index; ana/tide moves to another repository.
        let fixed = [Self.indexEntry("ana", "tide", url: "https://example.org/ana/tide-moved.git"), Self.indexEntry("twice", "same", url: "https://example.org/twice/same.git")]
        try home.write("site/index.json", #"{ "cyd_catalogue_index": 1, "generated_at": 2, "stories": [\#n"# + fixed.joined(separator: ",\n") + "\n] }\n")
        let moved = try cyd("sync", "--catalogue", index)
        #expect(moved.status == 0, "\(moved.standardError)")
        #expect(moved.standardOutput.contains("1 new, 0 updated, 1 unchanged, 0 failed"), "\(moved.standardOutput)")
        #expect(moved.standardOutput.contains("moved: this id was https://example.org/ana/tide.git at the last sync"), "\(moved.standardOutput)")
        // The same bytes again: nothing is compared, and the counts are the same.
        let again = try cyd("sync", "--catalogue", index)
        #expect(again.standardOutput.contains("0 new, 0 updated, 2 unchanged, 0 failed"), "\(again.standardOutput)")
    }

    @Test("an index that nests deeply before its marker is called an index, with its place")
    func deepIndex() throws {
        let deep = String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)
        let index = try home.write("deep/index.json", #"{ "padding": \#(deep), "cyd_catalogue_index": 1, "stories": [] }"#).path
        let result = try cyd("sync", "--catalogue", index)
        #expect(result.status == 1)
        #expect(result.standardError.contains("is not a usable catalogue index"), "\(result.standardError)")
        #expect(!result.standardError.contains("authors.json"), "\(result.standardError)")
    }

    @Test("an index larger than 8 MB syncs over https, and a no-op sync of it changes nothing and is quick")
    func largeIndexOverHTTPS() throws {
        let entries = (0..<36_000).map { Self.indexEntry("author\($0 % 3_000)", "story\($0)", url: "https://example.org/a\($0 % 3_000)/story\($0).git") }
        let folder = try TemporaryFolder()
        try folder.write("index.json", #"{ "cyd_catalogue_index": 1, "generated_at": 1, "stories": [\#n"# + entries.joined(separator: ",\n") + "\n] }\n")
        #expect(try FileManager.default.attributesOfItem(atPath: folder.path("index.json"))[.size] as! Int > 8 << 20)
        let certificate = try TestCertificate()
        let server = try TestHTTPServer(tls: certificate, files: folder.url.path)
        var tls = environment
        tls["CURL_CA_BUNDLE"] = certificate.certificate
        let url = server.url("/files/index.json")
        let first = try Command.cyd(["sync", "--catalogue", url], environment: tls)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput.contains("36000 new, 0 updated, 0 unchanged, 0 failed"), "\(first.standardOutput)")
        let started = Date()
        let again = try Command.cyd(["sync", "--catalogue", url], environment: tls)
        let noOp = Date().timeIntervalSince(started)
        #expect(again.standardOutput.contains("0 new, 0 updated, 36000 unchanged, 0 failed"), "\(again.standardOutput)")
        #expect(noOp < 10, "a no-op sync took \(noOp) s")
    }

    @Test("after a sync from authors.json, the same index bytes are applied again, not taken as a no-op")
    func indexAfterAuthors() throws {
        let entries = [Self.indexEntry("ana", "a", url: "https://example.org/ana/a.git"), Self.indexEntry("bo", "b", url: "https://example.org/bo/b.git")]
        let index = try home.write("site/index.json", #"{ "cyd_catalogue_index": 1, "stories": [\#n"# + entries.joined(separator: ",\n") + "\n] }\n").path
        #expect(try cyd("sync", "--catalogue", index).standardOutput.contains("2 new, 0 updated, 0 unchanged, 0 failed"))
        let authors = try home.write("authors.json", #"{ "authors": [ { "name": "zed", "repos": [] } ] }"#).path
        _ = try cyd("sync", "--catalogue", authors)
        #expect(try cyd("list", "--available").standardOutput.contains("Available (0)"), "authors.json replaced the catalogue")
        let again = try cyd("sync", "--catalogue", index)
        #expect(again.standardOutput.contains("2 new, 0 updated, 0 unchanged, 0 failed"), "\(again.standardOutput)")
        #expect(try cyd("list", "--available").standardOutput.contains("Available (2)"))
    }
}
