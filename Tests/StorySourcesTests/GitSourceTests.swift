import Foundation
import StoryReader
import StorySources
import StoryStore
import TestSupport
import Testing
import Transport

@Suite("Stories from git repositories (libgit2, against git daemon on 127.0.0.1)")
struct GitSourceTests {
    static func story(_ title: String, picture: String? = nil) -> [UInt8] {
        TestStory.twoChapters(title: title, summary: "From git", picture: picture).bytes
    }
    static let readme = TestStory.taggedReadme

    final class Setup {
        let server = try! TestGitServer()
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("cyd-sync-\(UUID().uuidString)")
        lazy var library = try! StoryLibrary(location: LibraryLocation(home: home.path))
        deinit { try? FileManager.default.removeItem(at: home) }
        @discardableResult
        func add(_ url: String) throws(SourceError) -> ImportResult { try StoryImporter(library: library).add(url) }
    }

    @Test("a repository is cloned bare over git:// and its story imported at the remote HEAD")
    func cloneAndImport() throws {
        let setup = Setup()
        let commit = try setup.server.publish("tale", files: ["story.json": Self.story("Tale"), "README.md": Self.readme])
        #expect(try GitRepository.remoteHead(setup.server.gitURL("tale")) == commit)
        let result = try setup.add(setup.server.gitURL("tale"))
        #expect(result.change == .added)
        #expect(result.story.version == commit)
        #expect(result.story.source == StorySource(kind: .git, location: setup.server.gitURL("tale")))
        #expect(FileManager.default.fileExists(atPath: GitSource.cachePath(for: setup.server.gitURL("tale"), cacheDirectory: setup.library.location.cacheDirectory) + "/HEAD"))
    }

    @Test("a pushed change is fetched and updates the story in place; nothing new, nothing changes")
    func update() throws {
        let setup = Setup()
        try setup.server.publish("tale", files: ["story.json": Self.story("Tale")])
        let url = setup.server.fileURL("tale")
        try setup.add(url)
        #expect(try setup.add(url).change == .unchanged)
        let second = try setup.server.publish("tale", files: ["story.json": Self.story("Tale, revised")])
        let updated = try setup.add(url)
        #expect(updated.change == .updated)
        #expect(updated.story.title == "Tale, revised" && updated.story.version == second)
        let forced = try setup.server.publish("tale", files: ["story.json": Self.story("Tale, rewritten")], force: true)
        let rewritten = try setup.add(url)
        #expect(rewritten.story.version == forced && rewritten.story.title == "Tale, rewritten")
    }

    @Test("a repository without story.json, or that does not exist, is an error that names it")
    func failures() throws {
        let setup = Setup()
        try setup.server.publish("empty", files: ["README.md": Self.readme])
        #expect {
            try setup.add(setup.server.gitURL("empty"))
        } throws: { error in
            guard case SourceError.noStoryFile = error else { return false }
            return true
        }
        for missing in [setup.server.gitURL("missing"), setup.server.fileURL("missing")] {
            #expect {
                try setup.add(missing)
            } throws: { error in
                guard case SourceError.transport(let source, .git) = error else { return false }
                return source == missing
            }
        }
        #expect(try setup.library.stories().isEmpty)
    }

    @Test("a cache that cannot be made is said in words, naming the folder and why")
    func unusableCache() throws {
        let setup = Setup()
        try setup.server.publish("tale", files: ["story.json": Self.story("Tale")])
        try FileManager.default.createDirectory(atPath: setup.library.location.cacheDirectory, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: setup.library.location.cacheDirectory + "/git", contents: Data("not a folder".utf8))
        #expect {
            try setup.add(setup.server.gitURL("tale"))
        } throws: { error in
            guard case SourceError.cache(let path, let reason) = error else { return false }
            return path.hasSuffix("/git") && reason.contains("is not a folder") && !reason.contains("NSCocoaErrorDomain")
        }
    }

    @Test("repository pictures are read from the bare clone at the imported commit")
    func pictures() throws {
        let setup = Setup()
        try setup.server.publish("tale", files: [
            "story.json": Self.story("Tale", picture: "resources/a.png"), "resources/a.png": [0x89, 0x50, 0x4E, 0x47, 9, 9],
        ])
        let story = try setup.add(setup.server.gitURL("tale")).story
        let pictures = PictureFetcher(library: setup.library, source: LibraryPictures(context: SourceContext(location: setup.library.location)))
        let session = try ReadingSession(library: setup.library, story: story, profile: "p", firstName: nil, pictures: pictures)
        try session.begin()
        guard case .ready(let picture) = session.picture() else { Issue.record("\(session.picture())"); return }
        #expect(picture.data == [0x89, 0x50, 0x4E, 0x47, 9, 9])
    }

    @Test("progress callbacks see the transfer, and returning false cancels it")
    func progressAndCancel() throws {
        let setup = Setup()
        try setup.server.publish("tale", files: ["story.json": Self.story("Tale")])
        let target = setup.home.appendingPathComponent("clone").path
        var calls = 0
        _ = try GitRepository.cloneBare(setup.server.gitURL("tale"), to: target) { _ in
            calls += 1
            return true
        }
        #expect(calls > 0)
        #expect {
            try GitRepository.cloneBare(setup.server.gitURL("tale"), to: target + "2") { _ in false }
        } throws: { error in
            (error as? GitError)?.message == "cancelled"
        }
    }
}
