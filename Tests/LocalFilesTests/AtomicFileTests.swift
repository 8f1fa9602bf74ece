import Foundation
import LocalFiles
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

@Suite("Atomic file writing keeps what the person had")
struct AtomicFileTests {
    let folder = try! TemporaryFolder()

    func mode(_ path: String) -> mode_t {
        var info = stat()
        stat(path, &info)
        return info.st_mode & 0o7777
    }

    func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    @Test("writing through a symbolic link writes the file it leads to and keeps the link")
    func symbolicLink() throws {
        let real = try folder.write("real/story.json", "old").path
        let link = try folder.link("story.json", to: real).path
        try AtomicFile.write(Array("new".utf8), to: link)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == real)
        #expect(try text(real) == "new")
    }

    @Test("a private file stays private, a shared one stays shared")
    func modeIsKept() throws {
        let secret = try folder.write("secret.json", "old").path
        chmod(secret, 0o600)
        try AtomicFile.write(Array("new".utf8), to: secret)
        #expect(mode(secret) == 0o600)
        let shared = try folder.write("shared.json", "old").path
        chmod(shared, 0o664)
        try AtomicFile.write(Array("new".utf8), to: shared)
        #expect(mode(shared) == 0o664)
        #expect(try text(shared) == "new")
    }

    @Test("a read-only file is refused and left as it was")
    func readOnly() throws {
        let path = try folder.write("story.json", "old").path
        chmod(path, 0o444)
        #expect(throws: AtomicFile.Failure.readOnly) { try AtomicFile.write(Array("new".utf8), to: path) }
        #expect(try text(path) == "old")
        #expect(mode(path) == 0o444)
    }

    @Test("a file with another hard link is refused, so the two names never part")
    func hardLink() throws {
        let path = try folder.write("story.json", "old").path
        let other = folder.path("copy.json")
        #expect(link(path, other) == 0)
        #expect(throws: AtomicFile.Failure.hardLinked(links: 2)) { try AtomicFile.write(Array("new".utf8), to: path) }
        #expect(try text(path) == "old" && text(other) == "old")
    }

    @Test("a file edited in place after it was read is not replaced")
    func editedInPlace() throws {
        let path = try folder.write("story.json", "version one").path
        let original = try AtomicFile.readForReplacing(path, limit: 1 << 20)
        usleep(10_000)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data("VERSION".utf8))  // same size, new bytes
        try handle.close()
        #expect(throws: AtomicFile.Failure.changedSinceRead) { try AtomicFile.replace(original, with: Array("fixed".utf8)) }
        #expect(try text(path) == "VERSION one")
    }

    @Test("a file saved by rename (as editors save) after it was read is not replaced")
    func savedByRename() throws {
        let path = try folder.write("story.json", "version one").path
        let original = try AtomicFile.readForReplacing(path, limit: 1 << 20)
        let saved = try folder.write("story.json.swp", "version two").path
        #expect(rename(saved, path) == 0)
        #expect(throws: AtomicFile.Failure.changedSinceRead) { try AtomicFile.replace(original, with: Array("fixed".utf8)) }
        #expect(try text(path) == "version two")
    }

    @Test("a file removed after it was read is not brought back")
    func removedMeanwhile() throws {
        let path = try folder.write("story.json", "version one").path
        let original = try AtomicFile.readForReplacing(path, limit: 1 << 20)
        unlink(path)
        #expect(throws: AtomicFile.Failure.changedSinceRead) { try AtomicFile.replace(original, with: Array("fixed".utf8)) }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("an unchanged file is replaced, keeping its mode")
    func unchangedIsReplaced() throws {
        let path = try folder.write("story.json", "version one").path
        chmod(path, 0o640)
        let original = try AtomicFile.readForReplacing(path, limit: 1 << 20)
        try AtomicFile.replace(original, with: Array("fixed".utf8))
        #expect(try text(path) == "fixed")
        #expect(mode(path) == 0o640)
    }

    @Test("leftovers of killed writers are removed; a live writer's temporary file is left alone")
    func leftovers() throws {
        // A process that has ended: its pid is free (checked), so its temporary file is stale.
        let ended = try ChildProcess(["/bin/true"])
        ended.wait()
        let dead = ended.pid
        #expect(kill(dead, 0) != 0)
        let stale = try folder.write(".story.json.partial-\(dead)", "half").path
        let live = try folder.write(".story.json.partial-1", "someone else's").path  // pid 1 always runs
        let unrelated = try folder.write(".other.json.partial-\(dead)", "not ours").path
        try AtomicFile.write(Array("new".utf8), to: folder.path("story.json"))
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: live))
        #expect(FileManager.default.fileExists(atPath: unrelated))
    }

    @Test("each failure is a case, not a sentence: a missing folder names the folder")
    func missingFolder() throws {
        let path = folder.path("no/such/story.json")
        #expect(throws: AtomicFile.Failure.folderMissing(folder: folder.path("no/such"))) { try AtomicFile.write([1], to: path) }
        #expect(throws: AtomicFile.Failure.isFolder) { try AtomicFile.write([1], to: folder.url.path) }
    }
}
