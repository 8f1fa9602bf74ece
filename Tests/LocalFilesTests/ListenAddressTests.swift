import LocalFiles
import TestSupport
import Testing

@Suite("Addresses to listen on, and git work trees")
struct ListenAddressTests {
    @Test("ADDRESS:PORT as people write it, IPv6 in brackets; anything else is not one")
    func split() {
        #expect(ListenAddress.split("127.0.0.1:8080")! == ("127.0.0.1", 8080))
        #expect(ListenAddress.split("0.0.0.0:0")! == ("0.0.0.0", 0))
        #expect(ListenAddress.split("[::1]:65535")! == ("::1", 65535))
        for bad in ["8080", ":8080", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1", "a b:80", "a/b:80", "[]:80", "host:http"] {
            #expect(ListenAddress.split(bad) == nil, "\(bad)")
        }
    }

    @Test("a folder is in a git work tree when it or a folder above it holds .git")
    func gitWorkTree() throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("repo/.git/HEAD", "ref: refs/heads/main\n")
        _ = try folder.write("repo/story/resources/.gitkeep", "")
        _ = try folder.write("alone/story.json", "{}")
        #expect(LocalFile.isInGitWorkTree(folder.path("repo")))
        #expect(LocalFile.isInGitWorkTree(folder.path("repo/story/resources")))
        #expect(!LocalFile.isInGitWorkTree(folder.path("alone")), "a temporary folder is in no work tree")
    }
}
