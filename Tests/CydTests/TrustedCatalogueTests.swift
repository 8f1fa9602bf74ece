import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A catalogue readers can trust: pinned commits and hashes, signed roots (checked by OpenBSD's
/// signify), expiry, rollback, shards fetched conditionally, and counts that add up.
@Suite("A trusted catalogue: pinned, signed, sharded, with the keeper's report")
struct TrustedCatalogueTests: CatalogueWorld {
    let home = try! TemporaryFolder()
    let git = try! TestGitServer()
    static let broken = Array(#"{ "name": "Bridge", "chapters": [ "#.utf8)

    func json(_ result: CommandResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any], "\(result.standardOutput)\(result.standardError)")
    }

    @Test("the keeper's sequence: a broken push keeps the last good version, a removal is named, counts add up, and readers get the pinned commit")
    func keeperSequence() throws {
        try git.publish("lantern", files: ["story.json": Self.story("Lantern v1"), "README.md": Self.readme])
        let v2 = try git.publish("lantern", files: ["story.json": Self.story("Lantern v2")])
        try git.publish("bridge", files: ["story.json": Self.story("Bridge"), "README.md": Self.readme])
        try git.publish("tide", files: ["story.json": Self.story("Tide"), "README.md": Self.readme])
        try git.publish("moor", files: ["story.json": Self.story("Moor"), "README.md": Self.readme])
        var authors = try writeAuthors([("ana", [git.gitURL("lantern"), git.gitURL("tide")]), ("bo", [git.gitURL("bridge"), git.gitURL("moor")])])
        #expect(try keep("sync", "--catalogue", authors).status == 0)
        let site = home.path("site")
        let first = try keep("catalogue", "publish", site, "--json")
        #expect(first.status == 0, "\(first.standardError)")
        #expect((try json(first)["counts"] as? [String: Int]) == ["new": 4, "updated": 0, "unchanged": 0, "broken": 0, "unreachable": 0, "removed": 0, "failed": 0])
        let synced = try read("sync", "--catalogue", site + "/catalogue.json", "--json")
        #expect((try json(synced)["counts"] as? [String: Int])?["new"] == 4, "\(synced.standardOutput)")

        // ana pushes v3 after the keeper's check: readers still get v2, the commit the index lists.
        try git.publish("lantern", files: ["story.json": Self.story("Lantern v3")])
        let get = try read("get", "ana/lantern")
        #expect(get.status == 0 && get.standardOutput.contains("Lantern v2"), "\(get.standardOutput)\(get.standardError)")
        let update = try read("update")
        #expect(update.standardOutput.contains("0 updated, 1 already up to date"), "update takes the catalogue's commit, not the push: \(update.standardOutput)")

        // bo pushes a broken story; bo's moor leaves authors.json.
        try git.publish("bridge", files: ["story.json": Self.broken])
        authors = try writeAuthors([("ana", [git.gitURL("lantern"), git.gitURL("tide")]), ("bo", [git.gitURL("bridge")])])
        let keeperSync = try keep("sync", "--catalogue", authors)
        #expect(keeperSync.standardOutput.contains("1 updated, 1 unchanged, 1 removed (bo/moor), 1 broken (kept at their last good version), 0 failed"), "\(keeperSync.standardOutput)")
        #expect(keeperSync.standardOutput.contains("Kept at their last good version:\n  bo/bridge: upstream broken since "), "\(keeperSync.standardOutput)")
        let second = try keep("catalogue", "publish", site, "--json")
        #expect((try json(second)["counts"] as? [String: Int]) == ["new": 0, "updated": 1, "unchanged": 1, "broken": 1, "unreachable": 0, "removed": 1, "failed": 0], "\(second.standardOutput)")
        let index = try String(contentsOfFile: site + "/index.json", encoding: .utf8)
        #expect(index.contains("\"repository\":\"bridge\"") && index.contains("\"state\":\"broken\""), "the broken story keeps its last good entry, marked")

        let readerSync = try read("sync", "--catalogue", site + "/catalogue.json")
        #expect(readerSync.standardOutput.contains("Synced 3 repositories of 2 authors from the index"), "\(readerSync.standardOutput)")
        #expect(readerSync.standardOutput.contains("0 new, 1 updated, 1 unchanged, 1 removed (bo/moor), 1 broken (kept at their last good version), 0 failed"), "\(readerSync.standardOutput)")
        let bridge = try read("get", "bo/bridge")
        #expect(bridge.status == 0 && bridge.standardError.contains("upstream is broken since") && bridge.standardOutput.contains("Bridge"), "\(bridge.standardError)")

        // Every hint can be followed: validate a catalogue id, a git URL; status names the break.
        let validateID = try read("validate", "bo/bridge")
        #expect(validateID.status == 0, "the catalogue's (last good) version is valid: \(validateID.standardOutput)\(validateID.standardError)")
        let validateURL = try read("validate", git.gitURL("bridge"))
        #expect(validateURL.status == 0, "a URL in the catalogue is read at the catalogue's commit: \(validateURL.standardError)")
        let status = try keep("catalogue", "status")
        #expect(status.status == 1 && status.standardOutput.contains("bo/bridge    broken since"), "columns aligned to the widest id: \(status.standardOutput)")
        let columns = Set(status.standardOutput.split(separator: "\n").filter { $0.contains("  at ") }.map { $0.distance(from: $0.startIndex, to: $0.range(of: "  at ")!.lowerBound) })
        #expect(columns.count == 1, "the commit column starts at one place on every line: \(status.standardOutput)")
        let statusJSON = try json(try keep("catalogue", "status", "--json"))
        let states = (statusJSON["stories"] as? [[String: Any]])?.map { "\($0["id"]!)=\($0["state"]!)" }
        #expect(states == ["ana/lantern=valid", "ana/tide=valid", "bo/bridge=broken"], "\(String(describing: states))")
        let totals = statusJSON["totals"] as? [String: Int]
        #expect(totals?["stories"] == 3 && totals?["good"] == 2 && totals?["valid"] == 2 && totals?["broken"] == 1 && totals?["failing"] == 0, "\(String(describing: totals))")
        #expect(try String(contentsOfFile: site + "/badges/bo/bridge.svg", encoding: .utf8).contains(">broken</text>"))
        #expect(try String(contentsOfFile: site + "/badges/ana/tide.svg", encoding: .utf8).contains(">valid</text>"))
        #expect(FileManager.default.fileExists(atPath: site + "/badges/bo/moor.svg") == false, "a removed story's badge goes")
        let report = try String(contentsOfFile: site + "/report.html", encoding: .utf8)
        #expect(report.contains("broken since") && !report.contains("<script"))
        _ = v2
    }

    @Test("a signed catalogue: signify verifies it; a tampered shard, an expired or rolled-back root, a wrong key are refused and the library is unchanged")
    func signedCatalogue() throws {
        try git.publish("tide", files: ["story.json": Self.story("Tide"), "README.md": Self.readme])
        let authors = try writeAuthors([("ana", [git.gitURL("tide")])])
        #expect(try keep("sync", "--catalogue", authors).status == 0)
        let keys = home.path("keys")
        try FileManager.default.createDirectory(atPath: keys, withIntermediateDirectories: true)
        let made = try keep("catalogue", "keygen", keys + "/keeper")
        #expect(made.status == 0, "\(made.standardError)")
        var info = stat()
        stat(keys + "/keeper.sec", &info)
        #expect(info.st_mode & 0o777 == 0o600, "the secret key is readable by its owner only")
        #expect(try keep("catalogue", "keygen", keys + "/keeper").status != 0, "a key is never overwritten")
        let site = home.path("site")
        let published = try keep("catalogue", "publish", site, "--sign", keys + "/keeper.sec")
        #expect(published.status == 0 && published.standardOutput.contains("signed by key"), "\(published.standardOutput)\(published.standardError)")

        // OpenBSD's signify verifies our signature, and its own key signs what we verify.
        let signify = try ChildProcess.run(["signify-openbsd", "-V", "-e", "-p", keys + "/keeper.pub", "-x", site + "/catalogue.sig", "-m", home.path("verified.json")], in: home.path(""))
        #expect(signify.status == 0, "\(signify.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: home.path("verified.json"))) == Data(contentsOf: URL(fileURLWithPath: site + "/catalogue.json")))
        let theirs = try ChildProcess.run(["signify-openbsd", "-G", "-n", "-p", keys + "/theirs.pub", "-s", keys + "/theirs.sec"], in: home.path(""))
        #expect(theirs.status == 0, "\(theirs.standardError)")
        #expect(try keep("catalogue", "publish", home.path("site2"), "--sign", keys + "/theirs.sec").status == 0, "a key made by signify signs")
        let mutual = try ChildProcess.run(["signify-openbsd", "-V", "-e", "-p", keys + "/theirs.pub", "-x", home.path("site2/catalogue.sig"), "-m", "/dev/null"], in: home.path(""))
        #expect(mutual.status == 0, "\(mutual.standardError)")

        // A wrong key: refused, nothing stored.
        let wrong = try read("sync", "--catalogue", site + "/catalogue.sig", "--trust", keys + "/theirs.pub")
        #expect(wrong.status != 0 && wrong.standardError.contains("not by the trusted key"), "\(wrong.standardError)")
        #expect(try read("list", "--available").standardOutput.contains("ana/tide") == false)

        // The right key; then remembered, and a different key later is refused loudly.
        let good = try read("sync", "--catalogue", site + "/catalogue.sig", "--trust", keys + "/keeper.pub")
        #expect(good.status == 0 && good.standardOutput.contains("1 new"), "\(good.standardOutput)\(good.standardError)")
        let changed = try read("sync", "--catalogue", site + "/catalogue.sig", "--trust", keys + "/theirs.pub")
        #expect(changed.status != 0 && changed.standardError.contains("is not the key this library trusts") && changed.standardError.contains("--replace-key"), "\(changed.standardError)")
        let unsignedNow = try read("sync", "--catalogue", site + "/catalogue.json")
        #expect(unsignedNow.status == 0, "a trusted catalogue named by its catalogue.json is read signed: \(unsignedNow.standardError)")

        // A tampered shard.
        let shards = try FileManager.default.contentsOfDirectory(atPath: site + "/shards")
        let shard = site + "/shards/" + shards[0]
        let original = try Data(contentsOf: URL(fileURLWithPath: shard))
        try Data(String(decoding: original, as: UTF8.self).replacingOccurrences(of: "Tide", with: "Evil").utf8).write(to: URL(fileURLWithPath: shard))
        try git.publish("tide", files: ["story.json": Self.story("Tide 2")])
        #expect(try keep("sync", "--catalogue", authors).status == 0)
        let saved = try Data(contentsOf: URL(fileURLWithPath: site + "/catalogue.sig"))
        #expect(try keep("catalogue", "publish", site, "--sign", keys + "/keeper.sec").status == 0)
        try original.write(to: URL(fileURLWithPath: shard))  // a mirror serving the old shard under the new root
        let tampered = try read("sync", "--catalogue", site + "/catalogue.sig")
        #expect(tampered.status != 0 && tampered.standardError.contains("is not the one the root names"), "\(tampered.standardError)")
        #expect(try read("list", "--available").standardOutput.contains("Tide 2") == false, "nothing applied")
        #expect(try keep("catalogue", "publish", site, "--sign", keys + "/keeper.sec").status == 0)
        let fresh = try read("sync", "--catalogue", site + "/catalogue.sig")
        #expect(fresh.status == 0 && fresh.standardOutput.contains("1 updated"), "\(fresh.standardOutput)\(fresh.standardError)")

        // A rolled-back root (an older signed copy replayed).
        try saved.write(to: URL(fileURLWithPath: site + "/catalogue.sig"))
        let rolledBack = try read("sync", "--catalogue", site + "/catalogue.sig")
        #expect(rolledBack.status != 0 && rolledBack.standardError.contains("a rollback to an old copy"), "\(rolledBack.standardError)")

        // A content change after signing.
        #expect(try keep("catalogue", "publish", site, "--sign", keys + "/keeper.sec").status == 0)
        var signed = try Data(contentsOf: URL(fileURLWithPath: site + "/catalogue.sig"))
        signed[signed.count - 3] ^= 0x01
        try signed.write(to: URL(fileURLWithPath: site + "/catalogue.sig"))
        let forged = try read("sync", "--catalogue", site + "/catalogue.sig")
        #expect(forged.status != 0 && forged.standardError.contains("its signature does not match its content"), "\(forged.standardError)")

        // An expired root: published with a minute's expiry, its expiry moved into the past and re-signed by a key the reader trusts is not possible here, so an unsigned catalogue shows it.
        let old = home.path("old")
        #expect(try keep("catalogue", "publish", old, "--expires", "60").status == 0)
        var root = try String(contentsOfFile: old + "/catalogue.json", encoding: .utf8)
        let expiry = try #require(root.firstRange(of: /"expires_at": [0-9]+/))
        root.replaceSubrange(expiry, with: "\"expires_at\": 1000")
        try root.write(toFile: old + "/catalogue.json", atomically: true, encoding: .utf8)
        let expired = try Command.cyd(["sync", "--catalogue", old + "/catalogue.json"], environment: ["CYD_HOME": home.path("third"), "GITHUB_API_URL": "http://127.0.0.1:9"])
        #expect(expired.status != 0 && expired.standardError.contains("it expired on 1970-01-01"), "\(expired.standardError)")
    }

    @Test("a commit the host lost and a story.json whose hash differs are refused in words, nothing stored")
    func pinnedContent() throws {
        try git.publish("tide", files: ["story.json": Self.story("Tide"), "README.md": Self.readme])
        let authors = try writeAuthors([("ana", [git.gitURL("tide")])])
        #expect(try keep("sync", "--catalogue", authors).status == 0)
        let site = home.path("site")
        #expect(try keep("catalogue", "publish", site).status == 0)
        #expect(try read("sync", "--catalogue", site).status == 0)

        // The author rewrites history: the pinned commit is gone from the host.
        try git.publish("tide", files: ["story.json": Self.story("Tide, rewritten"), "README.md": Self.readme], force: true)
        try ChildProcess.run(["git", "-C", git.root.appendingPathComponent("served/tide.git").path, "gc", "-q", "--prune=now"], in: home.path(""))
        let lost = try read("get", "ana/tide")
        #expect(lost.status != 0 && lost.standardError.contains("no longer has commit") && lost.standardError.contains("nothing was stored"), "\(lost.standardError)")
        #expect(try read("list").standardOutput.contains("Tide") == false)

        // A keeper's index whose hash does not match the story at its commit.
        let keeperIndex = try String(contentsOfFile: site + "/index.json", encoding: .utf8)
        let hash = try #require(keeperIndex.firstRange(of: /"story_sha256":"[0-9a-f]{64}"/))
        var forged = keeperIndex
        forged.replaceSubrange(hash, with: "\"story_sha256\":\"" + String(repeating: "0", count: 64) + "\"")
        try home.write("forged/index.json", forged)
        let again = ["CYD_HOME": home.path("again"), "GITHUB_API_URL": "http://127.0.0.1:9"]
        try git.publish("tide", files: ["story.json": Self.story("Tide"), "README.md": Self.readme], force: true)
        let fixedCommit = try git.publish("tide", files: ["story.json": Self.story("Tide")])
        try home.write("forged/index.json", forged.replacingOccurrences(of: try #require(forged.firstMatch(of: /"commit":"([0-9a-f]{40})"/)).output.1, with: fixedCommit))
        #expect(try Command.cyd(["sync", "--catalogue", home.path("forged/index.json")], environment: again).status == 0)
        let mismatch = try Command.cyd(["get", "ana/tide"], environment: again)
        #expect(mismatch.status != 0 && mismatch.standardError.contains("is not the file the catalogue checked"), "\(mismatch.standardError)")
        #expect(try Command.cyd(["list"], environment: again).standardOutput.contains("Tide") == false)
    }

    @Test("over http: a no-op sync is one conditional request answered 304; one changed author costs the root and one shard")
    func conditionalShards() throws {
        for name in ["a1", "a2", "b1", "c1"] { try git.publish(name, files: ["story.json": Self.story(name), "README.md": Self.readme]) }
        let authors = try writeAuthors([("ana", [git.gitURL("a1"), git.gitURL("a2")]), ("bo", [git.gitURL("b1")]), ("cy", [git.gitURL("c1")])])
        #expect(try keep("sync", "--catalogue", authors).status == 0)
        let files = home.path("www")
        #expect(try keep("catalogue", "publish", files + "/site").status == 0)
        let server = try TestHTTPServer(files: files)
        let root = server.url("/files/site/catalogue.json")
        let first = try read("sync", "--catalogue", root)
        #expect(first.status == 0 && first.standardOutput.contains("4 new"), "\(first.standardOutput)\(first.standardError)")
        let shardFiles = try FileManager.default.contentsOfDirectory(atPath: files + "/site/shards")
        func requests() throws -> Int {
            try server.count("/files/site/catalogue.json") + shardFiles.reduce(0) { $0 + (try server.count("/files/site/shards/" + $1)) }
        }
        let afterFirst = try requests()
        #expect(afterFirst == 1 + shardFiles.count)
        let noop = try read("sync", "--catalogue", root)
        #expect(noop.standardOutput.contains("0 new, 0 updated, 4 unchanged"), "\(noop.standardOutput)")
        #expect(try requests() == afterFirst + 1, "one request, for the root")

        try git.publish("b1", files: ["story.json": Self.story("b1 again")])
        #expect(try keep("sync", "--catalogue", authors).status == 0)
        let republished = try keep("catalogue", "publish", files + "/site", "--json")
        #expect((try json(republished)["shardsWritten"] as? Int) == 1, "one shard changed: \(republished.standardOutput)")
        let changed = try read("sync", "--catalogue", root)
        #expect(changed.standardOutput.contains("0 new, 1 updated, 3 unchanged"), "\(changed.standardOutput)")
        #expect(try requests() == afterFirst + 3, "the root and the one changed shard")
    }

    @Test("a hostile root: huge, deep, paths as shard names, too many shards; refused in words")
    func hostileRoot() throws {
        let cases: [(String, String)] = [
            ("deep", #"{ "cyd_catalogue": 2, "version": 1, "expires_at": 99999999999, "shards": "# + String(repeating: "[", count: 5000)),
            ("path", #"{ "cyd_catalogue": 2, "version": 1, "expires_at": 99999999999, "shards": [ { "name": "../../etc/passwd", "sha256": "00" } ] }"#),
            ("version", #"{ "cyd_catalogue": 3, "version": 1, "expires_at": 99999999999, "shards": [] }"#),
            ("huge", #"{ "cyd_catalogue": 2, "version": 1, "expires_at": 99999999999, "pad": ""# + String(repeating: "x", count: 2 << 20) + #"", "shards": [] }"#),
        ]
        for (name, text) in cases {
            try home.write("\(name)/catalogue.json", text)
            let result = try read("sync", "--catalogue", home.path("\(name)/catalogue.json"))
            #expect(result.status != 0 && result.standardError.contains("is not trusted, and nothing of it was used"), "\(name): \(result.standardError)")
        }
    }

    @Test("init --catalogue: a scheduled workflow whose sync and publish steps work on the catalogue it made, signing with the secret key")
    func catalogueWorkflow() throws {
        try git.publish("tide", files: ["story.json": Self.story("Tide"), "README.md": Self.readme])
        let folder = home.path("catalogue")
        let made = try Command.cyd(["init", "--catalogue", folder])
        #expect(made.status == 0 && made.standardOutput.contains("authors.json, .github/workflows/catalogue.yml"), "\(made.standardOutput)\(made.standardError)")
        #expect(try Command.cyd(["init", "--catalogue", folder]).status == 2, "never over an existing workflow")
        try home.write("catalogue/authors.json", #"{ "authors": [ { "name": "ana", "repos": ["\#(git.gitURL("tide"))"] } ] }"#)
        let parsed = try Command.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", "-c", """
                import json, sys, ruamel.yaml as y
                w = y.YAML(typ='safe').load(open(sys.argv[1]))
                steps = w['jobs']['publish']['steps']
                cache = [s['with']['path'].split() for s in steps if s.get('uses', '').startswith('actions/cache@')]
                print(json.dumps({'cron': [c['cron'] for c in w['on']['schedule']], 'pages': w['permissions']['pages'], 'cached': cache[0] if cache else [],
                  'run': [s['run'] for s in steps if 'run' in s], 'uses': [s['uses'] for s in steps if 'uses' in s] + [s['uses'] for s in w['jobs']['deploy']['steps']]}))
                """, folder + "/.github/workflows/catalogue.yml"])
        #expect(parsed.status == 0, "\(parsed.standardError)")
        let workflow = try #require(try JSONSerialization.jsonObject(with: Data(parsed.standardOutput.utf8)) as? [String: Any])
        #expect(workflow["cron"] as? [String] == ["17 */6 * * *"] && workflow["pages"] as? String == "write")
        let uses = workflow["uses"] as? [String] ?? []
        #expect(uses.contains("actions/upload-pages-artifact@v3") && uses.contains("actions/deploy-pages@v4") && uses.contains("actions/cache@v4"), "\(uses)")
        let cached = workflow["cached"] as? [String] ?? []
        #expect(cached.contains(".cyd-library") && cached.contains("_site"), "the library and the published site are kept between runs: \(cached)")
        // The run steps, as the runner runs them (bash -e), with cyd on PATH and the key as the
        // secret: twice, each run in a fresh checkout given only what the cache step restores.
        #expect(try Command.cyd(["catalogue", "keygen", home.path("keeper")]).status == 0)
        let key = try String(contentsOfFile: home.path("keeper.sec"), encoding: .utf8).trimmingCharacters(in: .newlines)
        let temporary = home.path("runner")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        func runSteps(in checkout: String) throws -> String {
            var output = ""
            for step in workflow["run"] as? [String] ?? [] {
                let ran = try ChildProcess.run(["bash", "-e", "-c", step], in: checkout, environment: [
                    "PATH": Command.cyd.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? ""),
                    "CYD_HOME": checkout + "/.cyd-library", "KEY": key, "RUNNER_TEMP": temporary, "GITHUB_API_URL": "http://127.0.0.1:9",
                ])
                #expect(ran.status == 0, "\(step): \(ran.standardError)")
                output += ran.standardOutput
            }
            return output
        }
        let firstRun = try runSteps(in: folder)
        #expect(firstRun.contains("1 new, 0 updated, 0 unchanged"), "\(firstRun)")
        #expect(FileManager.default.fileExists(atPath: folder + "/_site/catalogue.sig") && FileManager.default.fileExists(atPath: folder + "/_site/report.html"))
        #expect(FileManager.default.fileExists(atPath: temporary + "/keeper.sec") == false, "the key does not outlive the step")
        let synced = try read("sync", "--catalogue", folder + "/_site/catalogue.sig", "--trust", home.path("keeper.pub"))
        #expect(synced.status == 0 && synced.standardOutput.contains("1 new"), "\(synced.standardOutput)\(synced.standardError)")

        // The second run: a fresh checkout, the cached paths restored, an author who left.
        let second = home.path("checkout-2")
        try FileManager.default.createDirectory(atPath: second, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: folder + "/.github", toPath: second + "/.github")
        for path in cached { try FileManager.default.copyItem(atPath: folder + "/" + path, toPath: second + "/" + path) }
        try git.publish("moor", files: ["story.json": Self.story("Moor"), "README.md": Self.readme])
        try Data(#"{ "authors": [ { "name": "bo", "repos": ["\#(git.gitURL("moor"))"] } ] }"#.utf8).write(to: URL(fileURLWithPath: second + "/authors.json"))
        let secondRun = try runSteps(in: second)
        #expect(secondRun.contains("1 new, 0 updated, 0 unchanged") && secondRun.contains("1 removed") && secondRun.contains("removed ana/tide"), "\(secondRun)")
        let third = try runSteps(in: second)
        #expect(third.contains("0 new, 0 updated, 1 unchanged"), "a run with nothing new says so: \(third)")
    }

    @Test("report.html and the badges in Chromium with scripts off: axe-core finds nothing in light and dark, a hostile title is shown as written")
    func reportInABrowser() throws {
        let hostile = "<img src=x onerror=alert(1)>Lantern"
        try git.publish("lantern", files: ["story.json": Self.story(hostile), "README.md": Self.readme])
        try git.publish("bridge", files: ["story.json": Self.story("Bridge"), "README.md": Self.readme])
        let authors = try writeAuthors([("ana", [git.gitURL("lantern")]), ("bo", [git.gitURL("bridge")])])
        #expect(try keep("sync", "--catalogue", authors).status == 0)
        try git.publish("bridge", files: ["story.json": Self.broken])
        _ = try keep("sync", "--catalogue", authors)
        let site = home.path("site")
        #expect(try keep("catalogue", "publish", site).status == 0)
        let check = try ChildProcess.run(["python3", Command.packageRoot.path + "/Tests/Support/report_check.py", site, hostile], in: home.path(""))
        #expect(check.status == 0 && check.standardOutput.contains("all passed"), "\(check.standardOutput)\n\(check.standardError)")
    }
}
