import Foundation
import StorySync
import TestSupport
import Testing

/// The badges a catalogue keeper publishes (badges/AUTHOR/REPOSITORY.svg), written by StorySync
/// in-process: one file per distinct badge, a hard link per story, only what changed rewritten.
@Suite("A catalogue's badges")
struct CatalogueBadgesTests {
    func inode(_ path: String) -> (inode: UInt64, links: UInt64)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return (UInt64(info.st_ino), UInt64(info.st_nlink))
    }

    @Test("each story's badge links to one file per distinct badge; a second publish touches nothing; changes and removals are exact")
    func badges() throws {
        let folder = try TemporaryFolder()
        let badges = folder.path("badges")
        var drawnTimes: [String: Int] = [:]
        func draw(_ message: String) -> [UInt8] {
            drawnTimes[message, default: 0] += 1
            return Array("<svg>\(message)</svg>".utf8)
        }
        let first: [(id: String, message: String)] = [
            ("alice/tide", "valid"), ("alice/gull", "valid"), ("bob/night", "2 warnings"), ("../escape", "valid"), ("carol/.hidden", "valid"),
            ("no-slash", "valid"),
        ]
        try CatalogueBadges.write(first, draw: draw, into: badges)
        #expect(drawnTimes == ["valid": 1, "2 warnings": 1], "each distinct badge is drawn once")
        let tide = try #require(inode(badges + "/alice/tide.svg"))
        #expect(inode(badges + "/alice/gull.svg")?.inode == tide.inode, "the same badge is one file")
        #expect(tide.links == 3, "two stories and the badge's own source name")
        #expect(try String(contentsOfFile: badges + "/bob/night.svg", encoding: .utf8) == "<svg>2 warnings</svg>")
        for unsafe in ["/../escape.svg", "/carol/.hidden.svg", "/no-slash.svg", "/carol"] {
            #expect(!FileManager.default.fileExists(atPath: badges + unsafe), "\(unsafe)")
        }

        // The same again: nothing drawn, nothing replaced.
        drawnTimes = [:]
        try CatalogueBadges.write(first, draw: draw, into: badges)
        #expect(drawnTimes == [:])
        #expect(inode(badges + "/alice/tide.svg")?.inode == tide.inode)

        // Bob's story now broken, Alice's gull gone: one badge redrawn, one removed with nothing else.
        try CatalogueBadges.write([("alice/tide", "valid"), ("bob/night", "broken")], draw: draw, into: badges)
        #expect(drawnTimes == ["broken": 1])
        #expect(try String(contentsOfFile: badges + "/bob/night.svg", encoding: .utf8) == "<svg>broken</svg>")
        #expect(!FileManager.default.fileExists(atPath: badges + "/alice/gull.svg"))
        #expect(inode(badges + "/alice/tide.svg")?.inode == tide.inode)
        // The "2 warnings" source no story links to any more is gone; the rest are not.
        let sources = try FileManager.default.contentsOfDirectory(atPath: badges).filter { $0.hasPrefix(".cyd-badge-") }
        #expect(sources.count == 2, "\(sources)")

        // Bob leaves: his folder goes with his last badge.
        try CatalogueBadges.write([("alice/tide", "valid")], draw: draw, into: badges)
        #expect(!FileManager.default.fileExists(atPath: badges + "/bob"))
    }

    @Test("a badge path that is not a regular file is never replaced: the publish fails naming it")
    func notAFile() throws {
        let folder = try TemporaryFolder()
        let badges = folder.path("badges")
        try FileManager.default.createDirectory(atPath: badges + "/alice", withIntermediateDirectories: true)
        #expect(mkfifo(badges + "/alice/tide.svg", 0o600) == 0)
        #expect(throws: SyncError.self) {
            try CatalogueBadges.write([("alice/tide", "valid")], draw: { Array("<svg>\($0)</svg>".utf8) }, into: badges)
        }
        var info = stat()
        #expect(lstat(badges + "/alice/tide.svg", &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the FIFO is still there")
    }
}
