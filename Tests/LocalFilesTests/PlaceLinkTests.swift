import Foundation
import LocalFiles
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `AtomicFile.placeLink`: a name given a file's content as a hard link, whole, and never over
/// anything that is not a regular file.
@Suite struct PlaceLinkTests {
    let folder: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cyd-links-\(UUID().uuidString)").path
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    func links(_ path: String) -> Int {
        var info = stat()
        return lstat(path, &info) == 0 ? Int(info.st_nlink) : -1
    }

    func write(_ text: String, _ path: String) throws { try Data(text.utf8).write(to: URL(fileURLWithPath: path)) }
    func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    @Test("a new name is linked; an old file is replaced whole by the link; a name already linked is left; nothing partial is left behind")
    func linksAndReplaces() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let valid = folder + "/valid.svg", broken = folder + "/broken.svg"
        try write("valid", valid)
        try write("broken", broken)
        let badge = folder + "/a.svg", other = folder + "/b.svg"
        try AtomicFile.placeLink(to: valid, at: badge, orWrite: Array("valid".utf8))
        try AtomicFile.placeLink(to: valid, at: other, orWrite: Array("valid".utf8))
        let linked = try read(badge)
        #expect(links(valid) == 3 && linked == "valid")
        try AtomicFile.placeLink(to: valid, at: badge, orWrite: Array("valid".utf8))
        #expect(links(valid) == 3, "linked again to the same file: nothing changes")
        try AtomicFile.placeLink(to: broken, at: badge, orWrite: Array("broken".utf8))
        let (changed, kept) = (try read(badge), try read(other))
        #expect(changed == "broken" && kept == "valid", "one name changes, the other keeps its content")
        #expect(links(valid) == 2 && links(broken) == 2)
        let plain = folder + "/c.svg"
        try write("a file of its own", plain)
        try AtomicFile.placeLink(to: valid, at: plain, orWrite: Array("valid".utf8))
        #expect((try read(plain)) == "valid")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).allSatisfy { !$0.contains("partial") })
    }

    @Test("a FIFO, a folder or a symbolic link at the name is never replaced, and a link is not followed")
    func neverOverOtherThings() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let source = folder + "/valid.svg"
        try write("valid", source)
        let fifo = folder + "/fifo.svg"
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(throws: AtomicFile.Failure.notAFile(.unknown)) { try AtomicFile.placeLink(to: source, at: fifo, orWrite: Array("valid".utf8)) }
        let target = folder + "/target.txt"
        try write("theirs", target)
        let symbolic = folder + "/link.svg"
        #expect(symlink(target, symbolic) == 0)
        #expect(throws: AtomicFile.Failure.notAFile(.unknown)) { try AtomicFile.placeLink(to: source, at: symbolic, orWrite: Array("valid".utf8)) }
        #expect((try read(target)) == "theirs")
        try FileManager.default.createDirectory(atPath: folder + "/dir.svg", withIntermediateDirectories: false)
        #expect(throws: AtomicFile.Failure.notAFile(.unknown)) { try AtomicFile.placeLink(to: source, at: folder + "/dir.svg", orWrite: Array("valid".utf8)) }
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    }
}
