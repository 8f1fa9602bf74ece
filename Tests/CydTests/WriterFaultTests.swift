import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Every thing cyd writes, under the two faults a careful user meets: the process killed at any
/// moment (SIGKILL: no chance to tidy up) and a full disk (a small tmpfs, filled). Killed, each
/// file it writes is the old one or the new one, whole, and the library opens; on a full disk the
/// command fails with a sentence naming the file, nothing half-written is left, the old files
/// are as they were and the library is still readable.
@Suite("Every writer, killed or on a full disk", .serialized)
struct WriterFaultTests {
    static let sevenStairs = Command.packageRoot.path + "/Stories/seven-stairs"

    /// One writer: what to lay out in a work folder, and the command that writes there.
    struct Writer: Sendable {
        var name: String
        /// Lays out the inputs (and the old outputs) in `folder`; the command's arguments.
        var prepare: @Sendable (_ folder: String) throws -> [String]
        /// Whether it writes the library (under `folder`/library): checked by `cyd list`.
        var writesLibrary = false
        /// Whether its files carry the time they were made (a catalogue's root and index), so a
        /// killed run's file is checked whole by its form, not against another run's bytes.
        var datedOutput = false
    }

    /// A book made twice is the same book (its modified date from SOURCE_DATE_EPOCH).
    static let environment = ["SOURCE_DATE_EPOCH": "1700000000", "GITHUB_API_URL": "http://127.0.0.1:9"]

    static func copyStory(to folder: String) throws -> String {
        let story = folder + "/story"
        try? FileManager.default.removeItem(atPath: story)
        try FileManager.default.copyItem(atPath: sevenStairs, toPath: story)
        return story
    }

    static let writers: [Writer] = [
        Writer(name: "export twee -o") { folder in
            try Data("old twee\n".utf8).write(to: URL(fileURLWithPath: folder + "/out.twee"))
            return ["export", "twee", sevenStairs, "-o", folder + "/out.twee"]
        },
        Writer(name: "export epub -o") { folder in
            try Data("old book".utf8).write(to: URL(fileURLWithPath: folder + "/book.epub"))
            return ["export", "epub", sevenStairs, "-o", folder + "/book.epub"]
        },
        Writer(name: "import twee -o") { folder in
            let twee = folder + "/in.twee"
            if !FileManager.default.fileExists(atPath: twee) { _ = try Command.cyd(["export", "twee", sevenStairs, "-o", twee]) }
            try Data("{\"old\": true}\n".utf8).write(to: URL(fileURLWithPath: folder + "/story.json"))
            return ["import", "twee", twee, "-o", folder + "/story.json"]
        },
        Writer(name: "validate --output") { folder in
            try Data("old report\n".utf8).write(to: URL(fileURLWithPath: folder + "/report.sarif"))
            return ["validate", sevenStairs, "--format", "sarif", "--output", folder + "/report.sarif"]
        },
        Writer(name: "graph -o") { folder in
            try Data("old map\n".utf8).write(to: URL(fileURLWithPath: folder + "/map.dot"))
            return ["graph", sevenStairs, "-o", folder + "/map.dot"]
        },
        Writer(name: "l10n update") { folder in
            let story = try copyStory(to: folder)
            // A changed title: the template and fr.po both change.
            let path = story + "/story.json"
            let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "\"Seven Stairs\"", with: "\"Seven Stairs Again\"")
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return ["l10n", "update", "--story", story]
        },
        Writer(name: "fix") { folder in
            let story = try copyStory(to: folder)
            let path = story + "/story.json"
            var text = try String(contentsOfFile: path, encoding: .utf8)
            let end = try #require(text.lastIndex(of: "]"))
            text.insert(",", at: text.index(after: end))  // a trailing comma: CYD102, which fix repairs
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return ["fix", path]
        },
        Writer(name: "build web") { folder in
            return ["build", "web", folder + "/site", sevenStairs]
        },
        Writer(name: "sync (the library)", prepare: { folder in
            ["sync", "--library", folder + "/library", "--catalogue", try authors(in: folder)]
        }, writesLibrary: true),
        Writer(name: "catalogue publish", prepare: { folder in
            let synced = try Command.cyd(["sync", "--library", folder + "/keeper", "--catalogue", try authors(in: folder)], environment: ["GITHUB_API_URL": "http://127.0.0.1:9"])
            guard synced.status == 0 else { throw TestSupportError("sync: \(synced.standardError)") }
            return ["catalogue", "publish", folder + "/site", "--library", folder + "/keeper"]
        }, datedOutput: true),
        Writer(name: "add (the library)", prepare: { folder in
            ["add", "--library", folder + "/library", sevenStairs]
        }, writesLibrary: true),
        Writer(name: "read (the library)", prepare: { folder in
            _ = try Command.cyd(["add", "--library", folder + "/library", sevenStairs])
            return ["read", "--library", folder + "/library", "--plain", "--name", "Ana", "1"]
        }, writesLibrary: true),
    ]

    /// Two stories on a git daemon of the suite's own, and an authors.json naming them in `folder`.
    static let git: TestGitServer = {
        let server = try! TestGitServer()
        for name in ["tide", "fog"] {
            _ = try! server.publish(name, files: ["story.json": TestStory.twoChapters(title: name.capitalized).bytes, "README.md": Array("# \(name)\n\n#ChooseYourDestiny\n".utf8)])
        }
        return server
    }()

    static func authors(in folder: String) throws -> String {
        let path = folder + "/authors.json"
        let text = "{ \"authors\": [ { \"name\": \"ana\", \"repos\": [\"\(git.gitURL("tide"))\", \"\(git.gitURL("fog"))\"] } ] }\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Every regular file under `folder` (but temporary files of a write), by path.
    static func snapshot(_ folder: String) -> [String: Data] {
        var files: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return files }
        for case let path as String in walker where !path.contains(".partial-") && !path.hasPrefix("library/") && !path.hasPrefix("keeper/") && !path.hasPrefix("filler") {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder), !isFolder.boolValue,
                let data = FileManager.default.contents(atPath: folder + "/" + path)
            {
                files[path] = data
            }
        }
        return files
    }

    /// A file complete in its form: JSON that parses, a page or picture that ends.
    static func isWhole(_ path: String, _ data: Data) -> Bool {
        if path.hasSuffix(".json") { return (try? JSONSerialization.jsonObject(with: data)) != nil }
        let text = String(decoding: data, as: UTF8.self)
        if path.hasSuffix(".html") { return text.contains("</html>") }
        if path.hasSuffix(".svg") { return text.contains("</svg>") }
        return false
    }

    static func partials(_ folder: String) -> [String] {
        (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).filter { $0.contains(".partial-") }
    }

    /// The library under `folder`, when there is one, opens and lists.
    static func libraryOpens(_ folder: String) throws -> Bool {
        guard FileManager.default.fileExists(atPath: folder + "/library") else { return true }
        let list = try Command.cyd(["list", "--json", "--library", folder + "/library"])
        return list.status == 0
    }

    @Test("killed at eight moments, each file a writer writes is the old one or the new one, whole, and the library opens", arguments: writers.map(\.name))
    func killed(_ name: String) throws {
        let writer = try #require(Self.writers.first { $0.name == name })
        // What a finished run makes, from the same start.
        let finished = try TemporaryFolder()
        let arguments = try writer.prepare(finished.url.path)
        let old = Self.snapshot(finished.url.path)
        let run = try Command.cyd(arguments, environment: Self.environment, input: "1\n2\nq\n")
        #expect(run.status == 0 || run.status == 1, "\(name): \(run.standardError)")
        let new = Self.snapshot(finished.url.path)
        #expect(old != new || writer.writesLibrary, "\(name) changed something")
        for delay in [0.0, 0.01, 0.02, 0.04, 0.08, 0.15, 0.3, 0.6] {
            let folder = try TemporaryFolder()
            let arguments = try writer.prepare(folder.url.path)
            try Command.cydKilled(after: delay, arguments, environment: Self.environment)
            for (path, data) in Self.snapshot(folder.url.path) {
                let relative = path
                #expect(data == old[relative] || data == new[relative] || (writer.datedOutput && Self.isWhole(relative, data)), "\(name) killed after \(delay) s: \(relative) is neither the old file nor the new one (\(data.count) bytes)")
            }
            #expect(try Self.libraryOpens(folder.url.path), "\(name) killed after \(delay) s: the library does not open")
            // The next run finishes and tidies what the killed one left.
            let again = try Command.cyd(arguments, environment: Self.environment, input: "q\n")
            #expect(again.status == 0 || again.status == 1, "\(name) after a kill: \(again.standardError)")
            #expect(Self.partials(folder.url.path).filter { !$0.hasPrefix("library/") }.isEmpty, "\(name): temporary files left after the next run")
        }
    }

    @Test("on a full disk each writer fails with a sentence naming the file; the old files stay, nothing half-written is left, the library still opens",
        .enabled(if: TmpfsMounts.available, "needs root to mount a tmpfs"), arguments: writers.map(\.name))
    func fullDisk(_ name: String) throws {
        let writer = try #require(Self.writers.first { $0.name == name })
        let mount = try FileSystemFaultTests.Mount(size: "12m")
        let folder = mount.folder.url.path
        let arguments = try writer.prepare(folder)
        let old = Self.snapshot(folder)
        // Fill the disk: dd stops when no block is left.
        _ = try Command.run(URL(fileURLWithPath: "/bin/dd"), ["if=/dev/zero", "of=\(folder)/filler", "bs=4k"])
        let run = try Command.cyd(arguments, input: "1\nq\n")
        let said = run.standardOutput + run.standardError
        if writer.writesLibrary {
            #expect(said.contains("the disk is full") || said.contains("not saved"), "\(name): \(said.suffix(600))")
        } else {
            #expect(run.status == 2, "\(name) on a full disk: exit \(run.status): \(said.suffix(600))")
            #expect(said.contains("the disk is full") || said.contains("No space left"), "\(name): \(said.suffix(600))")
            #expect(said.contains(folder), "\(name) names the file: \(said.suffix(600))")
        }
        #expect(!said.contains("SQLite error"), "\(name)")
        #expect(Self.snapshot(folder) == old, "\(name): the old files are as they were")
        #expect(Self.partials(folder).filter { !$0.hasPrefix("library/") }.isEmpty, "\(name): nothing half-written left: \(Self.partials(folder))")
        try FileManager.default.removeItem(atPath: folder + "/filler")
        #expect(try Self.libraryOpens(folder), "\(name): the library opens once space is freed")
    }
}
