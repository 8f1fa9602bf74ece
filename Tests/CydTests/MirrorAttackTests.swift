import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A reader who trusts a keeper's key, and a mirror (an HTTP server and folders on 127.0.0.1
/// that the attacker controls) that tries every way around the signature: each file name, a
/// folder URL, a local folder whose signed files went missing, a git repository, with and
/// without a key given, before and after an interrupted sync. Each is refused in words with the
/// library unchanged, or read signed so that only what the keeper signed is applied.
@Suite("A signed catalogue: no path around the signature")
struct MirrorAttackTests: CatalogueWorld {
    let home = try! TemporaryFolder()
    let git = try! TestGitServer()
    func reader(_ name: String) -> (String...) throws -> CommandResult {
        let environment = ["CYD_HOME": home.path("reader-" + name), "GITHUB_API_URL": "http://127.0.0.1:9"]
        return { arguments in try Command.cyd(arguments, environment: environment) }
    }

    /// The keeper's signed site of two stories (ana/tide, bo/bridge) under `www/site`, an
    /// attacker's repository `evil`, and the keeper's public key.
    func signedSite() throws -> (site: String, key: String) {
        try git.publish("tide", files: ["story.json": Self.story("Tide"), "README.md": Self.readme])
        try git.publish("bridge", files: ["story.json": Self.story("Bridge"), "README.md": Self.readme])
        try git.publish("evil", files: ["story.json": Self.story("Evil"), "README.md": Self.readme])
        let authors = try writeAuthors([("ana", [git.gitURL("tide")]), ("bo", [git.gitURL("bridge")])])
        #expect(try keep("sync", "--catalogue", authors).status == 0)
        #expect(try keep("catalogue", "keygen", home.path("keeper-key")).status == 0)
        let site = home.path("www/site")
        let published = try keep("catalogue", "publish", site, "--sign", home.path("keeper-key.sec"))
        #expect(published.status == 0, "\(published.standardError)")
        return (site, home.path("keeper-key.pub"))
    }

    /// A copy of the site whose index.json points ana/tide at the attacker's repository.
    func tamperedCopy(of site: String, named name: String, removing: [String] = []) throws -> String {
        let copy = home.path("www/" + name)
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: site, toPath: copy)
        let index = copy + "/index.json"
        let text = try String(contentsOfFile: index, encoding: .utf8)
        #expect(text.contains(git.gitURL("tide")))
        try text.replacingOccurrences(of: git.gitURL("tide"), with: git.gitURL("evil")).replacingOccurrences(of: "\"Tide\"", with: "\"Tide (evil)\"")
            .write(toFile: index, atomically: true, encoding: .utf8)
        for file in removing { try FileManager.default.removeItem(atPath: copy + "/" + file) }
        return copy
    }

    /// The catalogue as the reader's library holds it.
    func available(_ read: (String...) throws -> CommandResult) throws -> String {
        try read("list", "--available", "--json").standardOutput
    }

    @Test("index.json, catalogue.json, a folder URL and a folder: with a key given or remembered, only what the keeper signed is applied")
    func everyFileNameIsReadSigned() throws {
        let (site, key) = try signedSite()
        let mirror = try tamperedCopy(of: site, named: "mirror")
        let server = try TestHTTPServer(files: home.path("www"))
        let names = [
            server.url("/files/mirror/index.json"), server.url("/files/mirror/catalogue.json"), server.url("/files/mirror/catalogue.sig"),
            server.url("/files/mirror/"), mirror, mirror + "/index.json",
        ]
        for (number, name) in names.enumerated() {
            // A key given on the first sync.
            let read = reader("given-\(number)")
            let given = try read("sync", "--catalogue", name, "--trust", key)
            #expect(given.status == 0, "\(name): \(given.standardOutput)\(given.standardError)")
            let listed = try available(read)
            #expect(listed.contains(git.gitURL("tide")) && !listed.contains("evil"), "\(name) with --trust: \(listed)")
            let got = try read("get", "ana/tide")
            #expect(got.standardOutput.contains("downloaded Tide (") && !got.standardOutput.contains("evil"), "\(name): \(got.standardOutput)\(got.standardError)")

            // A key remembered from an earlier sync of the signed root.
            // (Trust is remembered for the folder it was given for: the mirror's own, signed.)
            let remembered = reader("remembered-\(number)")
            let signedRoot = name.hasPrefix("http") ? server.url("/files/mirror/catalogue.sig") : mirror + "/catalogue.sig"
            #expect(try remembered("sync", "--catalogue", signedRoot, "--trust", key).status == 0)
            _ = try remembered("sync", "--catalogue", name)
            let after = try available(remembered)
            #expect(!after.contains("evil"), "\(name), key remembered: \(after)")
        }
    }

    @Test("a trusted catalogue whose signed root went missing is refused, named by any file, the library unchanged")
    func missingSignatureIsRefused() throws {
        let (site, key) = try signedSite()
        let bare = try tamperedCopy(of: site, named: "bare", removing: ["catalogue.sig", "catalogue.json"])
        let server = try TestHTTPServer(files: home.path("www"))
        for (number, name) in [bare, bare + "/index.json", server.url("/files/bare/index.json"), server.url("/files/bare/")].enumerated() {
            // The reader trusts the key for this folder: it was signed when they first synced.
            let read = reader("bare-\(number)")
            let signedName = name.hasPrefix("http") ? server.url("/files/bare/catalogue.sig") : bare + "/catalogue.sig"
            try FileManager.default.copyItem(atPath: site + "/catalogue.sig", toPath: bare + "/catalogue.sig")
            let first = try read("sync", "--catalogue", signedName, "--trust", key)
            #expect(first.status == 0, "\(first.standardError)")
            try FileManager.default.removeItem(atPath: bare + "/catalogue.sig")
            let before = try available(read)
            #expect(before.contains(git.gitURL("tide")))
            let synced = try read("sync", "--catalogue", name)
            #expect(synced.status != 0 && synced.standardError.contains("it is not signed, but this library trusts key"), "\(name): \(synced.standardOutput)\(synced.standardError)")
            #expect(try available(read) == before, "\(name): nothing applied")
            // With the key given and nothing remembered, the same.
            let fresh = reader("bare-fresh-\(number)")
            let given = try fresh("sync", "--catalogue", name, "--trust", key)
            #expect(given.status != 0 && given.standardError.contains("it is not signed"), "\(name): \(given.standardError)")
            #expect(!(try available(fresh)).contains("tide"), "\(name): nothing applied")
        }
    }

    @Test("a catalogue kept in a git repository: trusted while it carried catalogue.sig, refused once a push dropped it for a tampered index.json")
    func gitRepositoryLosesItsSignature() throws {
        let (site, key) = try signedSite()
        func files(_ folder: String, skipping: Set<String> = []) throws -> [String: [UInt8]] {
            var found: [String: [UInt8]] = [:]
            for path in try FileManager.default.subpathsOfDirectory(atPath: folder) where !skipping.contains(path) {
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder), !isFolder.boolValue {
                    found[path] = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + path)))
                }
            }
            return found
        }
        try git.publish("catalogue-repo", files: try files(site))
        let read = reader("git")
        let first = try read("sync", "--catalogue", git.gitURL("catalogue-repo"), "--trust", key)
        #expect(first.status == 0 && first.standardOutput.contains("Signed by key"), "\(first.standardOutput)\(first.standardError)")
        let before = try available(read)
        let tampered = try tamperedCopy(of: site, named: "git-tampered", removing: ["catalogue.sig", "catalogue.json"])
        try git.publish("catalogue-repo", files: try files(tampered), force: true)
        let synced = try read("sync", "--catalogue", git.gitURL("catalogue-repo"))
        #expect(synced.status != 0 && synced.standardError.contains("it is not signed, but this library trusts key"), "\(synced.standardOutput)\(synced.standardError)")
        #expect(try available(read) == before, "nothing applied")
    }

    @Test("--trust with an authors.json or an unsigned git catalogue is refused: a key given is a promise that what is read is signed")
    func keyGivenForSomethingUnsigned() throws {
        let (_, key) = try signedSite()
        let read = reader("authors")
        let authors = try writeAuthors([("ana", [git.gitURL("evil")])])
        let result = try read("sync", "--catalogue", authors, "--trust", key)
        #expect(result.status != 0 && result.standardError.contains("it is not signed"), "\(result.standardError)")
        #expect(!(try available(read)).contains("evil"))
        try git.publish("catalogue-repo", files: ["authors.json": Array(try String(contentsOfFile: authors, encoding: .utf8).utf8)])
        let fromGit = try read("sync", "--catalogue", git.gitURL("catalogue-repo"), "--trust", key)
        #expect(fromGit.status != 0 && fromGit.standardError.contains("it is not signed"), "\(fromGit.standardError)")
        #expect(!(try available(read)).contains("evil"))
    }

    @Test("an author the keeper removed: update keeps the checked version and says so; --unpinned takes the push, at the reader's word")
    func removedAuthorStaysPinned() throws {
        let (site, key) = try signedSite()
        let read = reader("pinned")
        #expect(try read("sync", "--catalogue", site + "/catalogue.sig", "--trust", key).status == 0)
        #expect(try read("get", "bo/bridge").status == 0)
        let other = reader("pinned-other")
        #expect(try other("sync", "--catalogue", site + "/catalogue.sig", "--trust", key).status == 0)
        #expect(try other("get", "bo/bridge").status == 0)
        try git.publish("bridge", files: ["story.json": Self.story("Bridge v2 UNCHECKED")])
        let authors = try writeAuthors([("ana", [git.gitURL("tide")])])
        #expect(try keep("sync", "--catalogue", authors).standardOutput.contains("1 removed (bo/bridge)"))
        #expect(try keep("catalogue", "publish", site, "--sign", home.path("keeper-key.sec")).status == 0)
        let synced = try read("sync", "--catalogue", site + "/catalogue.sig")
        #expect(synced.standardOutput.contains("1 removed (bo/bridge)"), "\(synced.standardOutput)")
        let update = try read("update")
        #expect(update.status == 0, "\(update.standardError)")
        #expect(update.standardOutput.contains("0 updated, 0 already up to date, 1 kept at the checked version (no longer in the catalogue)"), "\(update.standardOutput)")
        #expect(update.standardError.contains("is no longer in the catalogue that checked it") && update.standardError.contains("--unpinned"), "\(update.standardError)")
        let listed = try read("list").standardOutput
        #expect(listed.contains("Bridge") && !listed.contains("UNCHECKED"), "\(listed)")
        let added = try read("add", git.gitURL("bridge"))
        #expect(added.status != 0 && added.standardError.contains("--unpinned"), "naming the repository is no way around it either: \(added.standardError)")
        #expect(!(try read("list").standardOutput).contains("UNCHECKED"))
        let unpinned = try read("update", "--unpinned")
        #expect(unpinned.status == 0 && unpinned.standardOutput.contains("1 updated"), "\(unpinned.standardOutput)\(unpinned.standardError)")
        #expect(try read("list").standardOutput.contains("UNCHECKED"))

        // Removed, then added again by its URL: a new choice of the reader's, so the newest commit.
        #expect(try other("sync", "--catalogue", site + "/catalogue.sig").status == 0)
        #expect(try other("remove", "1", "--yes").status == 0)
        let again = try other("add", git.gitURL("bridge"))
        #expect(again.status == 0 && again.standardOutput.contains("UNCHECKED"), "\(again.standardOutput)\(again.standardError)")
    }

    @Test("a sync cut off by a closed pipe still remembers the root's version: the older root served next is a rollback")
    func interruptedSyncKeepsRollbackProtection() throws {
        let (site, key) = try signedSite()
        let read = reader("interrupted")
        #expect(try read("sync", "--catalogue", site + "/catalogue.sig", "--trust", key).status == 0)
        #expect(try read("get", "ana/tide").status == 0)
        #expect(try read("get", "bo/bridge").status == 0)
        let old = home.path("www/old")
        try FileManager.default.copyItem(atPath: site, toPath: old)
        try git.publish("tide", files: ["story.json": Self.story("Tide 2")])
        try git.publish("bridge", files: ["story.json": Self.story("Bridge 2")])
        #expect(try keep("sync", "--catalogue", try writeAuthors([("ana", [git.gitURL("tide")]), ("bo", [git.gitURL("bridge")])])).status == 0)
        #expect(try keep("catalogue", "publish", site, "--sign", home.path("keeper-key.sec")).status == 0)
        let library = home.path("reader-interrupted")
        // Progress (standard error) goes to a pipe whose reader has gone (as `2>&1 | head -1`
        // once it has its line): the first progress line, once the new shards are applied, kills
        // cyd with SIGPIPE.
        let cut = try ChildProcess.run(
            ["python3", "-c", "import os, subprocess, sys; r, w = os.pipe(); os.close(r); sys.exit(-subprocess.run(sys.argv[1:], stderr=w).returncode)",
             Command.cyd.path, "sync", "--catalogue", site + "/catalogue.sig"], in: home.path(""),
            environment: ["CYD_HOME": library, "GITHUB_API_URL": "http://127.0.0.1:9"])
        #expect(cut.status == SIGPIPE, "killed by the closed pipe: \(cut.standardOutput)")
        // The mirror now serves the previous signed root and its shards.
        try FileManager.default.removeItem(atPath: site)
        try FileManager.default.copyItem(atPath: old, toPath: site)
        let replayed = try read("sync", "--catalogue", site + "/catalogue.sig")
        #expect(replayed.status != 0 && replayed.standardError.contains("a rollback to an old copy"), "\(replayed.standardOutput)\(replayed.standardError)")
    }

    @Test("a story with an error (a choice to a missing chapter) is not offered: failing when it never was good, its last good version kept when it was")
    func errorsAreNotPublished() throws {
        func story(_ title: String, choiceTo target: String) -> [UInt8] {
            Array(TestStory(
                id: "s", title: title, summary: "A story",
                chapters: [.init("start", name: "Start", text: "Go.", choices: [(target, "On")], isFirst: true), .init("end", name: "End", text: "Done.", isEnding: true)]
            ).json.utf8)
        }
        try git.publish("lamp", files: ["story.json": story("Lamp", choiceTo: "ned"), "README.md": Self.readme])
        try git.publish("moor", files: ["story.json": story("Moor", choiceTo: "end"), "README.md": Self.readme])
        let authors = try writeAuthors([("ana", [git.gitURL("lamp"), git.gitURL("moor")])])
        let synced = try keep("sync", "--catalogue", authors)
        #expect(synced.status == 1 && synced.standardOutput.contains("1 new") && synced.standardOutput.contains("1 failed"), "\(synced.standardOutput)")
        #expect(synced.standardOutput.contains("ana/lamp") && synced.standardOutput.contains("invalid story"), "the story and why: \(synced.standardOutput)")
        try git.publish("moor", files: ["story.json": story("Moor 2", choiceTo: "nowhere")])
        _ = try keep("sync", "--catalogue", authors)
        let site = home.path("site")
        let published = try keep("catalogue", "publish", site, "--json")
        let counts = try #require(try JSONSerialization.jsonObject(with: Data(published.standardOutput.utf8)) as? [String: Any])["counts"] as? [String: Int]
        #expect(counts?["updated"] == 0 && counts?["broken"] == 1 && counts?["failed"] == 1, "\(published.standardOutput)")
        let status = try keep("catalogue", "status")
        #expect(status.status == 1, "\(status.standardOutput)")
        #expect(status.standardOutput.contains("ana/lamp  failing since") && status.standardOutput.contains("ana/moor  broken since"), "\(status.standardOutput)")
        #expect(!status.standardOutput.contains("1 warning"), "an error is never a warning: \(status.standardOutput)")
        let index = try String(contentsOfFile: site + "/index.json", encoding: .utf8)
        #expect(index.contains("\"Moor\"") && !index.contains("Moor 2") && !index.contains("Lamp"), "\(index)")
        #expect(try String(contentsOfFile: site + "/badges/ana/moor.svg", encoding: .utf8).contains(">broken</text>"))
        let read = reader("errors")
        #expect(try read("sync", "--catalogue", site).status == 0)
        let got = try read("get", "ana/moor")
        #expect(got.standardOutput.contains("downloaded Moor ("), "the last good version: \(got.standardOutput)\(got.standardError)")
    }

    @Test("a sync says what it verified: the key, the version and the expiry, or that nothing was; a signed site named by index.json is read signed, its key trusted on first use and named")
    func saysWhatWasVerified() throws {
        let (site, key) = try signedSite()
        let fingerprint = try #require(try String(contentsOfFile: key, encoding: .utf8).firstMatch(of: /key ([0-9a-f]{16})/).map { String($0.output.1) })
        let read = reader("verified")
        let signed = try read("sync", "--catalogue", site + "/catalogue.sig", "--trust", key)
        #expect(signed.standardOutput.contains("Signed by key \(fingerprint), version "), "\(signed.standardOutput)")
        #expect(signed.standardOutput.contains(", expires 20"), "\(signed.standardOutput)")
        let listed = try read("list", "--available")
        #expect(listed.standardOutput.contains("Catalogue: \(site)/, signed by key \(fingerprint), version "), "\(listed.standardOutput)")
        let report = try String(contentsOfFile: site + "/report.html", encoding: .utf8)
        #expect(report.contains("Root version ") && report.contains("signed by key \(fingerprint)."), "the keeper's report says what readers verify")
        let again = try keep("catalogue", "publish", site, "--sign", home.path("keeper-key.sec"), "--json")
        #expect(again.standardOutput.contains(#""storiesChanged":"#) && !again.standardOutput.contains("_"), "one key style: \(again.standardOutput)")

        let firstUse = reader("first-use")
        let tofu = try firstUse("sync", "--catalogue", site + "/index.json")
        #expect(tofu.status == 0, "\(tofu.standardError)")
        #expect(tofu.standardError.contains("trusting the catalogue's key \(fingerprint) from now on (first use)"), "\(tofu.standardError)")
        #expect(tofu.standardOutput.contains("Signed by key \(fingerprint)"), "\(tofu.standardOutput)")

        let unsignedSite = home.path("unsigned")
        #expect(try keep("catalogue", "publish", unsignedSite).status == 0)
        let plain = reader("plain")
        let unsigned = try plain("sync", "--catalogue", unsignedSite + "/index.json")
        #expect(unsigned.standardOutput.contains("Unsigned: no key is trusted for this catalogue"), "\(unsigned.standardOutput)")
        let json = try plain("sync", "--catalogue", unsignedSite + "/catalogue.json", "--json")
        #expect(json.standardOutput.contains(#""verification":{"signed":false}"#), "\(json.standardOutput)")
    }

    @Test("an expired signed catalogue: get and update refuse what it pins in words, list --available marks it, --allow-expired goes on")
    func expiredCatalogue() throws {
        let (site, key) = try signedSite()
        // The keeper's root expiring in a few seconds (publish takes a minute at least), signed
        // again with the keeper's key by OpenBSD's signify.
        var root = try String(contentsOfFile: site + "/catalogue.json", encoding: .utf8)
        let expiry = try #require(root.firstRange(of: /"expires_at": [0-9]+/))
        root.replaceSubrange(expiry, with: "\"expires_at\": \(Int(Date().timeIntervalSince1970) + 4)")
        try root.write(toFile: site + "/catalogue.json", atomically: true, encoding: .utf8)
        let resigned = try ChildProcess.run(
            ["signify-openbsd", "-S", "-e", "-s", home.path("keeper-key.sec"), "-m", site + "/catalogue.json", "-x", site + "/catalogue.sig"], in: home.path(""))
        #expect(resigned.status == 0, "\(resigned.standardError)")
        let read = reader("expired")
        #expect(try read("sync", "--catalogue", site + "/catalogue.sig", "--trust", key).status == 0)
        #expect(try read("get", "ana/tide").status == 0)
        Thread.sleep(forTimeInterval: 5)
        let get = try read("get", "bo/bridge")
        #expect(get.status != 0 && get.standardError.contains("expired on") && get.standardError.contains("--allow-expired"), "\(get.standardError)")
        #expect(!(try read("list").standardOutput).contains("Bridge"))
        let update = try read("update")
        #expect(update.status != 0 && update.standardError.contains("expired on"), "\(update.standardOutput)\(update.standardError)")
        let listed = try read("list", "--available")
        #expect(listed.standardOutput.contains("EXPIRED on"), "\(listed.standardOutput)")
        #expect(try read("list", "--available", "--json").standardOutput.contains(#""expired":true"#))
        let anyway = try read("get", "bo/bridge", "--allow-expired")
        #expect(anyway.status == 0 && anyway.standardOutput.contains("downloaded Bridge"), "\(anyway.standardError)")
    }
}
