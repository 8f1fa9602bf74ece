import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `cyd fix` rewrites an author's own file: whatever it cannot do safely, it refuses in words,
/// and it never loses an edit, widens a permission or changes the line ends.
@Suite("cyd fix keeps what the author had")
struct FixSafetyTests {
    let folder = try! TemporaryFolder()

    /// A story of `chapters` chapters, each with a trailing comma for fix to remove, and a
    /// summary holding `marker`.
    static func story(chapters: Int, marker: String = "m-000000", textLength: Int = 40) -> String {
        let text = String(repeating: "Fog rolls in. ", count: max(1, textLength / 14))
        var out = "{\"story\": {\"id\": \"s\", \"name\": \"Big\", \"rating\": \"G\", \"summary\": \"\(marker)\", \"chapters\": [\n"
        for index in 0..<chapters {
            let next = index + 1 < chapters ? "[{\"chapter_id\": \"c\(index + 1)\", \"text\": \"On\"},]" : "[]"
            out += "{\"id\": \"c\(index)\", \"name\": \"C\(index)\", \"text\": \"\(text)\"\(index == 0 ? ", \"is_first_chapter\": true" : ""), \"choices\": \(next),}"
            out += index + 1 < chapters ? ",\n" : "\n"
        }
        return out + "]}}\n"
    }

    func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    func mode(_ path: String) -> mode_t {
        var info = stat()
        stat(path, &info)
        return info.st_mode & 0o7777
    }

    @Test("a story.json that is a symbolic link: the file it leads to is fixed and the link stays")
    func symbolicLink() throws {
        let real = try folder.write("drafts/story.json", Self.story(chapters: 3)).path
        try folder.link("book/story.json", to: real)
        let result = try Command.cyd(["fix", folder.path("book")])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.path("book/story.json")) == real)
        #expect(try Command.cyd(["validate", "--strict", real]).status == 0, "the real file was fixed")
    }

    @Test("a hard-linked story.json is refused in words, both names unchanged")
    func hardLink() throws {
        let original = Self.story(chapters: 3)
        let path = try folder.write("story.json", original).path
        #expect(link(path, folder.path("backup.json")) == 0)
        let result = try Command.cyd(["fix", path])
        #expect(result.status == 2)
        #expect(result.standardError.contains("it has 2 hard links"), "\(result.standardError)")
        #expect(try text(path) == original && text(folder.path("backup.json")) == original)
    }

    @Test("a private story stays private; a read-only one is refused and left alone")
    func permissions() throws {
        let path = try folder.write("story.json", Self.story(chapters: 3)).path
        chmod(path, 0o600)
        #expect(try Command.cyd(["fix", path]).status == 0)
        #expect(mode(path) == 0o600)
        let locked = try folder.write("locked/story.json", Self.story(chapters: 3)).path
        chmod(locked, 0o444)
        let refused = try Command.cyd(["fix", locked])
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("is read-only"), "\(refused.standardError)")
        #expect(try text(locked) == Self.story(chapters: 3))
        #expect(mode(locked) == 0o444)
    }

    @Test("removing comments from a CRLF file keeps every line end CRLF")
    func crlfLineEnds() throws {
        let lines = [
            "{", "  // the castle story", "  \"story\": {", "    \"id\": \"s\", \"name\": \"S\", \"rating\": \"G\", \"summary\": \"S\", // one line",
            "    \"chapters\": [ { \"id\": \"a\", \"name\": \"A\", \"text\": \"End.\", \"is_first_chapter\": true, }, ],", "  }", "}", "",
        ]
        let path = try folder.write("story.json", lines.joined(separator: "\r\n")).path
        let result = try Command.cyd(["fix", path])
        #expect(result.status == 0 && result.standardOutput.contains("2 CYD103"), "\(result.standardOutput)")
        let fixed = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let lineFeeds = fixed.indices.filter { fixed[$0] == 0x0A }
        #expect(lineFeeds.count == 7)
        #expect(lineFeeds.allSatisfy { $0 > 0 && fixed[$0 - 1] == 0x0D }, "every line still ends in CRLF")
        #expect(try Command.cyd(["validate", "--strict", path]).status == 0)
    }

    /// Another program saves the story a few times while `cyd fix` works on it. Whatever the
    /// timing, the last save is never lost: either fix refused ("changed by another program")
    /// or it fixed a version that already held that save.
    @Test("edits saved by another program during a fix are never lost", arguments: ["rename", "in place"])
    func concurrentEdits(how: String) throws {
        let path = try folder.write("story.json", Self.story(chapters: 60_000, textLength: 120)).path
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        #expect(size > 10_000_000)
        // The editor's buffer: the story as it was, with a new summary at each save.
        let buffer = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let marker = try #require(Self.markerRange(in: buffer))
        for attempt in 0..<3 {
            try Data(buffer).write(to: URL(fileURLWithPath: path))
            let fix = try ChildProcess([Command.cyd.path, "fix", path], takesInput: false, output: .discarded, errors: .discarded, ownGroup: true)
            var saves = 0
            var last = ""
            // Save every 40 ms or so during the first half second of the fix (which takes
            // seconds on this story), then let it finish.
            let start = Date()
            while saves < 100, Date().timeIntervalSince(start) < 0.5 {
                if fix.poll() != nil { break }
                saves += 1
                last = String(format: "m-%06d", attempt * 10_000 + saves)
                var edited = buffer
                edited.replaceSubrange(marker, with: Array(last.utf8))
                if how == "rename" {
                    let saved = folder.path("story.json.save")
                    try Data(edited).write(to: URL(fileURLWithPath: saved))
                    rename(saved, path)
                } else {
                    let handle = try #require(FileHandle(forWritingAtPath: path))
                    try handle.write(contentsOf: Data(edited))
                    try handle.close()
                }
                usleep(40_000)
            }
            let code = fix.wait()
            #expect(code == 0 || code == 2, "exit \(code)")
            if saves > 0 {
                #expect(try text(path).contains("\"summary\": \"\(last)\""), "attempt \(attempt): the save \(last) was lost (fix exited \(code))")
            }
            #expect(try Command.cyd(["validate", "--lenient", path]).status != 2, "the file is still a story")
        }
    }

    static func markerRange(in bytes: [UInt8]) -> Range<Int>? {
        let needle = Array("\"summary\": \"m-".utf8)
        guard let start = (0..<min(bytes.count, 400)).first(where: { bytes[$0...].starts(with: needle) }) else { return nil }
        return (start + needle.count - 2)..<(start + needle.count + 6)
    }

    @Test("a fix ended by SIGTERM as its temporary file appears leaves nothing behind; one killed outright is tidied by the next")
    func killedMidWrite() throws {
        let path = try folder.write("story.json", Self.story(chapters: 40_000, textLength: 120)).path
        func partials() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.contains(".partial-") }
        }
        for signal in [SIGTERM, SIGTERM, SIGTERM, SIGKILL, SIGKILL] {
            try folder.write("story.json", Self.story(chapters: 40_000, textLength: 120))
            let fix = try ChildProcess([Command.cyd.path, "fix", path], takesInput: false, output: .discarded, errors: .discarded, ownGroup: true)
            // Poll for the temporary file (10 s at most), then send the signal at once.
            for _ in 0..<10_000 {
                if try !partials().isEmpty { break }
                if fix.poll() != nil { break }
                usleep(1_000)
            }
            fix.signal(signal)
            fix.wait()
            if signal == SIGTERM {
                let left = try partials()
                #expect(left.isEmpty, "SIGTERM left \(left)")
            }
        }
        try folder.write("story.json", Self.story(chapters: 3))
        #expect(try Command.cyd(["fix", path]).status == 0)
        #expect(try partials().isEmpty, "the next fix removed what SIGKILL left")
    }
}
