import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A keeper's catalogue over its life: repositories that vanish, authors who leave, shards
/// deleted by hand; what the keeper's counts and the readers' listings say of each.
@Suite("A keeper's life: what vanishes is said")
struct KeeperLifeTests: CatalogueWorld {
    let home = try! TemporaryFolder()
    let git = try! TestGitServer()
    func counts(_ result: CommandResult) throws -> [String: Int] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any], "\(result.standardOutput)\(result.standardError)")
        return try #require(object["counts"] as? [String: Int])
    }

    @Test("a repository that vanished is marked unreachable in the shard, counted as such, listed so, and get says it first")
    func unreachableRepository() throws {
        try git.publish("tide", files: ["story.json": Self.story("Tide"), "README.md": Self.readme])
        try git.publish("moor", files: ["story.json": Self.story("Moor"), "README.md": Self.readme])
        let authors = try writeAuthors([("ana", [git.gitURL("tide"), git.gitURL("moor")])])
        #expect(try keep("sync", "--catalogue", authors).status == 0)
        let site = home.path("site")
        #expect(try keep("catalogue", "publish", site).status == 0)

        // The author deletes the repository.
        try FileManager.default.removeItem(at: git.root.appendingPathComponent("served/moor.git"))
        let synced = try keep("sync", "--catalogue", authors)
        #expect(synced.status == 1, "\(synced.standardOutput)")
        let published = try keep("catalogue", "publish", site, "--json")
        #expect(try counts(published) == ["new": 0, "updated": 0, "unchanged": 1, "broken": 0, "unreachable": 1, "removed": 0, "failed": 0], "\(published.standardOutput)")
        let index = try String(contentsOfFile: site + "/index.json", encoding: .utf8)
        #expect(index.contains(#""state":"unreachable""#), "the shard and the index mark it: \(index)")
        let status = try keep("catalogue", "status")
        #expect(status.status == 1 && status.standardOutput.contains("unreachable since"), "\(status.standardOutput)")

        let readerSync = try read("sync", "--catalogue", site)
        #expect(readerSync.standardOutput.contains("1 unreachable (offered at the version last checked)"), "\(readerSync.standardOutput)")
        #expect(readerSync.standardOutput.contains("Unreachable (the keeper's last checks failed):\n  ana/moor: unreachable since"), "\(readerSync.standardOutput)")
        let listed = try read("list", "--available")
        #expect(listed.standardOutput.contains("ana/moor") && listed.standardOutput.contains("· unreachable since"), "\(listed.standardOutput)")
        let got = try read("get", "ana/moor")
        #expect(got.status != 0, "\(got.standardOutput)")
        let note = try #require(got.standardError.range(of: "has been unreachable since"), "said first: \(got.standardError)")
        #expect(got.standardError[..<note.lowerBound].contains("cannot download") == false, "said before the failure: \(got.standardError)")
    }

    @Test("removed stories are named by their id, even when the keeper's catalogue forgot them")
    func removedNamedByID() throws {
        try git.publish("tide", files: ["story.json": Self.story("Tide"), "README.md": Self.readme])
        try git.publish("moor", files: ["story.json": Self.story("Moor"), "README.md": Self.readme])
        #expect(try keep("sync", "--catalogue", try writeAuthors([("ana", [git.gitURL("tide")]), ("bo", [git.gitURL("moor")])])).status == 0)
        let site = home.path("site")
        #expect(try keep("catalogue", "publish", site).status == 0)
        #expect(try keep("sync", "--catalogue", try writeAuthors([("ana", [git.gitURL("tide")])])).status == 0)
        let published = try keep("catalogue", "publish", site)
        #expect(published.standardOutput.contains("removed bo/moor"), "\(published.standardOutput)")
        #expect(!published.standardOutput.contains("removed git://"), "\(published.standardOutput)")
        #expect(published.standardOutput.contains("1 shard (1 changed)"), "the removed shard is a change: \(published.standardOutput)")
        #expect(!FileManager.default.fileExists(atPath: site + "/badges/bo"), "no empty badge folder is left behind")
        #expect(FileManager.default.fileExists(atPath: site + "/badges/ana/tide.svg"))
        // A shard deleted by hand is written again, and said.
        for shard in try FileManager.default.contentsOfDirectory(atPath: site + "/shards") { try FileManager.default.removeItem(atPath: site + "/shards/" + shard) }
        let repaired = try keep("catalogue", "publish", site)
        #expect(repaired.standardOutput.contains("1 shard (1 changed)"), "\(repaired.standardOutput)")
    }

    @Test("a key handover: readers who trust the old key follow a handover it signed once, with a sentence; signify reads it; another key's handover or a handover to another key is refused with the remedy")
    func keyHandover() throws {
        try git.publish("tide", files: ["story.json": Self.story("Tide"), "README.md": Self.readme])
        #expect(try keep("sync", "--catalogue", try writeAuthors([("ana", [git.gitURL("tide")])])).status == 0)
        for name in ["old", "new", "evil"] { #expect(try keep("catalogue", "keygen", home.path(name)).status == 0) }
        func fingerprint(_ name: String) throws -> String {
            try #require(try String(contentsOfFile: home.path(name + ".pub"), encoding: .utf8).firstMatch(of: /key ([0-9a-f]{16})/).map { String($0.output.1) })
        }
        let (oldKey, newKey) = (try fingerprint("old"), try fingerprint("new"))
        let site = home.path("site")
        #expect(try keep("catalogue", "publish", site, "--sign", home.path("old.sec")).status == 0)
        #expect(try read("sync", "--catalogue", site + "/catalogue.sig", "--trust", home.path("old.pub")).status == 0)
        let saved = home.path("site-before")
        try FileManager.default.copyItem(atPath: site, toPath: saved)

        // An attacker's key with a handover signed by that same key: refused, the remedy named.
        let mirror = home.path("mirror")
        try FileManager.default.copyItem(atPath: site, toPath: mirror)
        #expect(try keep("catalogue", "publish", mirror, "--sign", home.path("evil.sec"), "--handover-from", home.path("evil.sec")).status == 0)
        #expect(try keep("catalogue", "publish", mirror, "--sign", home.path("evil.sec"), "--handover-from", home.path("new.sec")).status == 0)
        try FileManager.default.removeItem(atPath: site)
        try FileManager.default.copyItem(atPath: mirror, toPath: site)
        let attacked = try read("sync", "--catalogue", site + "/catalogue.sig")
        #expect(attacked.status != 0 && attacked.standardError.contains("not by the trusted key \(oldKey)"), "\(attacked.standardError)")
        #expect(attacked.standardError.contains("--handover-from OLD.sec") && attacked.standardError.contains("--replace-key"), "the remedy: \(attacked.standardError)")
        try FileManager.default.removeItem(atPath: site)
        try FileManager.default.copyItem(atPath: saved, toPath: site)

        // The keeper hands over from old to new.
        let handedOver = try keep("catalogue", "publish", site, "--sign", home.path("new.sec"), "--handover-from", home.path("old.sec"))
        #expect(handedOver.status == 0 && handedOver.standardOutput.contains("handed over from key \(oldKey) to key \(newKey)"), "\(handedOver.standardOutput)\(handedOver.standardError)")
        let signify = try ChildProcess.run(
            ["signify-openbsd", "-V", "-e", "-p", home.path("old.pub"), "-x", site + "/catalogue.handover", "-m", home.path("handed.pub")], in: home.path(""))
        #expect(signify.status == 0, "\(signify.standardError)")
        #expect(try String(contentsOfFile: home.path("handed.pub"), encoding: .utf8).contains(newKey) || (try Data(contentsOf: URL(fileURLWithPath: home.path("handed.pub")))) == (try Data(contentsOf: URL(fileURLWithPath: site + "/catalogue.pub"))))
        // A later publish with the new key alone keeps the handover for readers who missed it.
        #expect(try keep("catalogue", "publish", site, "--sign", home.path("new.sec")).status == 0)
        #expect(FileManager.default.fileExists(atPath: site + "/catalogue.handover"))

        let followed = try read("sync", "--catalogue", site + "/catalogue.sig")
        #expect(followed.status == 0, "\(followed.standardError)")
        #expect(followed.standardError.contains("the keeper handed over from key \(oldKey) to key \(newKey)"), "\(followed.standardError)")
        #expect(followed.standardOutput.contains("Signed by key \(newKey)"), "\(followed.standardOutput)")
        let next = try read("sync", "--catalogue", site + "/catalogue.sig")
        #expect(next.status == 0 && !next.standardError.contains("handed over"), "followed once: \(next.standardError)")
        // The old key no longer signs for this reader.
        try FileManager.default.removeItem(atPath: site)
        try FileManager.default.copyItem(atPath: saved, toPath: site)
        #expect(try keep("catalogue", "publish", site, "--sign", home.path("old.sec")).status == 0)
        let old = try read("sync", "--catalogue", site + "/catalogue.sig")
        #expect(old.status != 0 && old.standardError.contains("not by the trusted key \(newKey)"), "\(old.standardError)")
    }

    @Test("badges are links to one file per distinct badge: a story whose state changes gets its new badge and no other story's changes; nothing half-made is left")
    func badgesAsLinks() throws {
        for name in ["a1", "a2", "a3"] { try git.publish(name, files: ["story.json": Self.story(name), "README.md": Self.readme]) }
        let authors = try writeAuthors([("ana", [git.gitURL("a1"), git.gitURL("a2"), git.gitURL("a3")])])
        #expect(try keep("sync", "--catalogue", authors).status == 0)
        let site = home.path("site")
        #expect(try keep("catalogue", "publish", site).status == 0)
        func badge(_ name: String) throws -> String { try String(contentsOfFile: site + "/badges/ana/\(name).svg", encoding: .utf8) }
        #expect(try ["a1", "a2", "a3"].allSatisfy { try badge($0).contains(">valid</text>") })
        var info = stat()
        #expect(stat(site + "/badges/ana/a1.svg", &info) == 0 && info.st_nlink == 4, "three stories and the one source share a file")

        try git.publish("a2", files: ["story.json": Array(#"{ "name": "Broken", "chapters": [ "#.utf8)])
        _ = try keep("sync", "--catalogue", authors)
        #expect(try keep("catalogue", "publish", site).status == 0)
        #expect(try badge("a2").contains(">broken</text>"), "the changed story's badge")
        #expect(try badge("a1").contains(">valid</text>") && badge("a3").contains(">valid</text>"), "the others are as they were")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: site + "/badges/ana").filter { $0.contains("partial") }
        #expect(leftovers.isEmpty, "\(leftovers)")
        // Every name under badges/ is a regular file a static host serves.
        for file in try FileManager.default.subpathsOfDirectory(atPath: site + "/badges") where file.hasSuffix(".svg") {
            #expect(lstat(site + "/badges/" + file, &info) == 0 && info.st_mode & S_IFMT == S_IFREG, "\(file)")
        }
    }
}
