import Foundation
import TestSupport
import Testing

@Suite("The library under faults, from the command line", .serialized)
struct LibraryFaultCommandTests {
    /// Starts `count` cyd processes at once and waits for all of them.
    static func together(_ count: Int, _ arguments: [String], environment: [String: String]) throws -> [(Int32, String)] {
        let children = try (0..<count).map { _ in
            try ChildProcess([Command.cyd.path] + arguments, environment: environment, takesInput: false, output: .discarded)
        }
        return children.map { child in
            let result = child.finish()
            return (result.status, result.standardError)
        }
    }

    @Test("2, 4 and 8 processes starting together on a new library, 100 times: none is refused")
    func concurrentOpens() throws {
        let folder = try TemporaryFolder()
        var failures: [String] = []
        for round in 0..<100 {
            let count = [2, 4, 8][round % 3]
            let library = folder.path("library-\(round)")
            for (status, message) in try Self.together(count, ["list"], environment: ["CYD_HOME": library]) where status != 0 {
                failures.append("round \(round), \(count) processes: \(status) \(message)")
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    @Test("a library written by a newer cyd is refused untouched, naming what is unknown")
    func newerLibrary() throws {
        let folder = try TemporaryFolder()
        let environment = ["CYD_HOME": folder.path("library")]
        #expect(try Command.cyd(["list"], environment: environment).status == 0)
        let database = folder.path("library/library.sqlite")
        for statement in [
            "INSERT INTO grdb_migrations VALUES ('v3: something from the future')",
            "DELETE FROM grdb_migrations WHERE identifier LIKE 'v3%'; PRAGMA user_version = 99",
        ] {
            let edit = try Command.run(
                try Command.program("python3"),
                ["-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()", database, statement])
            #expect(edit.status == 0, "\(edit.standardError)")
            let before = try Data(contentsOf: URL(fileURLWithPath: database))
            let result = try Command.cyd(["list"], environment: environment)
            #expect(result.status == 2)
            #expect(result.standardError.contains("was written by a newer cyd"), "\(result.standardError)")
            #expect(result.standardError.contains("upgrade cyd or use another --library"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before, "nothing changed")
        }
    }

    @Test("a damaged library file and a missing HOME are told in words, not as SQL")
    func storageErrorsInWords() throws {
        let folder = try TemporaryFolder()
        try folder.write("library/library.sqlite", Array(repeating: UInt8(ascii: "x"), count: 8192))
        let damaged = try Command.cyd(["list"], environment: ["CYD_HOME": folder.path("library")])
        #expect(damaged.status == 2)
        #expect(damaged.standardError.contains("the database file is damaged"), "\(damaged.standardError)")
        #expect(!damaged.standardError.contains("SQLite error"))

        let renamed = folder.path("renamed")
        #expect(try Command.cyd(["add", Command.packageRoot.appendingPathComponent("Stories/seven-stairs").path], environment: ["CYD_HOME": renamed]).status == 0)
        _ = try Command.run(
            try Command.program("python3"),
            ["-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('ALTER TABLE progress RENAME COLUMN chapter_key TO x'); c.commit()",
             renamed + "/library.sqlite"])
        let tampered = try Command.cyd(["list"], environment: ["CYD_HOME": renamed])
        #expect(tampered.status == 2)
        #expect(tampered.standardError.contains("the database file is damaged"), "\(tampered.standardError)")

        try folder.write("not-a-folder", "x")
        let blocked = try Command.cyd(["list"], environment: ["CYD_HOME": folder.path("not-a-folder/library")])
        #expect(blocked.status == 2)
        #expect(blocked.standardError.contains("is not a folder"), "\(blocked.standardError)")
        #expect(!blocked.standardError.contains("NSCocoaErrorDomain"))

        let homeless = try ChildProcess.run(
            [Command.cyd.path, "list"], in: folder.url.path, removing: ["HOME", "CYD_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"])
        #expect(homeless.status == 2)
        #expect(homeless.standardError == "cyd: HOME is not set, so there is no place for the library; set CYD_HOME or pass --library with a folder\n")
        #expect(!FileManager.default.fileExists(atPath: folder.path(".local")), "no library made in the current folder")
    }

    @Test("cyd add of two story files in one folder keeps both, and the reader's place")
    func twoFilesTwoStories() throws {
        let folder = try TemporaryFolder()
        let environment = ["CYD_HOME": folder.path("library")]
        let stories = Command.packageRoot.appendingPathComponent("Stories")
        try folder.write("x/a.json", try Data(contentsOf: stories.appendingPathComponent("seven-stairs/story.json")).map { $0 })
        try folder.write("x/b.json", try Data(contentsOf: stories.appendingPathComponent("the-night-market/story.json")).map { $0 })
        #expect(try Command.cyd(["add", folder.path("x/a.json")], environment: environment).standardOutput.hasPrefix("added Seven Stairs"))
        _ = try Command.cyd(["read", folder.path("x/a.json"), "--name", "Ana"], environment: environment, input: "1\nq\n")
        let second = try Command.cyd(["add", folder.path("x/b.json")], environment: environment)
        #expect(second.standardOutput.hasPrefix("added The Night Market"), "\(second.standardOutput)")
        let list = try Command.cyd(["list"], environment: environment).standardOutput
        #expect(list.contains("Seven Stairs") && list.contains("The Night Market"))

        // b.json copied over a.json: another story under a's source is refused without --replace.
        try FileManager.default.removeItem(atPath: folder.path("x/a.json"))
        try FileManager.default.copyItem(atPath: folder.path("x/b.json"), toPath: folder.path("x/a.json"))
        let refused = try Command.cyd(["add", folder.path("x/a.json")], environment: environment)
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("add it again with --replace"), "\(refused.standardError)")
        #expect(try Command.cyd(["add", "--replace", folder.path("x/a.json")], environment: environment).status == 0)
    }
}
