import Foundation
import Testing

/// scripts/build-static.sh makes the release archive: a cyd with Swift's runtime linked in.
/// It must run with an empty environment (`env -i`: no PATH, so no Swift anywhere) and need no
/// Swift shared library.
@Suite struct StaticBinaryTests {
    @Test func theReleaseArchiveRunsWithoutSwift() throws {
        let build = try Command.run(URL(fileURLWithPath: "/bin/bash"), ["scripts/build-static.sh"])
        #expect(build.status == 0, "\(build.standardOutput)\(build.standardError)")
        #expect(build.standardOutput.contains("KB stripped"), "\(build.standardOutput)")
        // A release build of our sources compiles without a warning.
        #expect(build.standardOutput.contains("compiler warnings in Sources: 0\n"), "\(build.standardOutput)")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cyd-static-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let machine = try Command.run(URL(fileURLWithPath: "/usr/bin/uname"), ["-m"]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let archive = Command.packageRoot.appendingPathComponent("dist/cyd-linux-\(machine).tar.gz")
        let unpack = try Command.run(URL(fileURLWithPath: "/usr/bin/tar"), ["-xzf", archive.path, "-C", folder.path])
        #expect(unpack.status == 0, "\(unpack.standardError)")
        let cyd = folder.appendingPathComponent("cyd").path

        let libraries = try Command.run(URL(fileURLWithPath: "/usr/bin/ldd"), [cyd]).standardOutput
        #expect(!libraries.contains("libswift") && !libraries.contains("libFoundation"), "\(libraries)")

        let env = URL(fileURLWithPath: "/usr/bin/env")
        let stories = Command.packageRoot.appendingPathComponent("Stories")
        let validate = try Command.run(env, ["-i", cyd, "validate", stories.appendingPathComponent("seven-stairs").path])
        #expect(validate.status == 0, "\(validate.standardOutput)\(validate.standardError)")
        #expect(validate.standardOutput.contains("no problems"))

        // The main job, reading, with nothing but a home for the library.
        let read = try Command.run(
            env, ["-i", "HOME=\(folder.path)", cyd, "read", stories.appendingPathComponent("seven-stairs").path], input: "1\nq\n")
        #expect(read.status == 0, "\(read.standardOutput)\(read.standardError)")
        #expect(read.standardOutput.contains("The First Landing"), "\(read.standardOutput)")

        let version = try Command.run(env, ["-i", cyd, "--version"])
        #expect(version.standardOutput.contains("libgit2 ") && version.standardOutput.contains("SQLite 3."), "\(version.standardOutput)")
    }
}
