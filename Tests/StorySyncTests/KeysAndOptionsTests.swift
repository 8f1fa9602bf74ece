import Foundation
import StorySync
import TestSupport
import Testing

/// A keeper's signing key pair as `cyd catalogue keygen` writes it, and the sync options the
/// environment sets.
@Suite("A keeper's key pair, and the sync's options from the environment")
struct KeysAndOptionsTests {
    @Test("keygen writes a secret key only its owner reads and a public key that reads back; it never writes over a key")
    func keyPair() throws {
        let folder = try TemporaryFolder()
        let name = folder.path("keeper")
        let key = try Signify.writeKeyPair(named: name, purpose: "cyd catalogue key")
        var info = stat()
        #expect(stat(name + ".sec", &info) == 0 && info.st_mode & 0o777 == 0o600)
        let publicFile = try [UInt8](Data(contentsOf: URL(fileURLWithPath: name + ".pub")))
        #expect(try Signify.publicKey(publicFile) == key)
        #expect(String(decoding: publicFile, as: UTF8.self).hasPrefix("untrusted comment: cyd catalogue key \(key.fingerprint) public key\n"))
        let secret = try Signify.secretKey([UInt8](Data(contentsOf: URL(fileURLWithPath: name + ".sec"))))
        #expect(secret.publicKey == key)
        do {
            _ = try Signify.writeKeyPair(named: name, purpose: "x")
            Issue.record("a key was written over")
        } catch {
            guard case .exists(let path) = error else { Issue.record("\(error)"); return }
            #expect(path == name + ".sec")
        }
        #expect(try Signify.publicKey(Array(try Data(contentsOf: URL(fileURLWithPath: name + ".pub")))) == key, "the old key is kept")
    }

    @Test("the catalogue and GitHub's API and token come from the options, else the environment; an empty variable is unset")
    func fromEnvironment() {
        let bare = SyncOptions(catalogue: nil, githubAPI: nil, environment: [:])
        #expect(bare.catalogue == CatalogueSource.defaultLocation && bare.githubToken == nil && bare.githubAPI == GitHubAPI.defaultBaseURL)
        let set = SyncOptions(
            catalogue: nil, githubAPI: nil, environment: ["CYD_CATALOGUE": "/c/authors.json", "GITHUB_TOKEN": "t", "GITHUB_API_URL": "http://127.0.0.1:9/api"])
        #expect(set.catalogue == "/c/authors.json" && set.githubToken == "t" && set.githubAPI == "http://127.0.0.1:9/api")
        let given = SyncOptions(catalogue: "mine.json", githubAPI: "http://127.0.0.1:8/", environment: ["CYD_CATALOGUE": "/c/authors.json", "GITHUB_TOKEN": ""])
        #expect(given.catalogue == "mine.json" && given.githubToken == nil && given.githubAPI.hasPrefix("http://127.0.0.1:8"))
    }
}
