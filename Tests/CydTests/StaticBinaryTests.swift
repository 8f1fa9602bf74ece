import Foundation
import Testing

/// scripts/build-static.sh makes the release archive: a cyd with Swift's runtime linked in.
/// It must run with an empty environment (`env -i`: no PATH, so no Swift anywhere) and need no
/// Swift shared library. The test links the objects of the build it tests (`--from-build`), so
/// nothing is compiled twice; the release compile is the pre-commit hook's test's.
@Suite struct StaticBinaryTests {
    @Test func theReleaseArchiveRunsWithoutSwift() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cyd-static-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let archive = folder.appendingPathComponent("cyd.tar.gz")
        // The archive, and the same binary on its own (`--binary`, as install-cyd.sh and
        // bench-all.sh take it); the link's one known warning (static Foundation's mktemp) is
        // not passed on.
        let installed = folder.appendingPathComponent("installed/cyd")
        let build = try Command.run(
            URL(fileURLWithPath: "/bin/bash"),
            ["scripts/build-static.sh", "--from-build", Command.cyd.deletingLastPathComponent().path, "--archive", archive.path, "--binary", installed.path])
        #expect(build.status == 0, "\(build.standardOutput)\(build.standardError)")
        #expect(build.standardOutput.contains("KB stripped") && build.standardOutput.contains("nothing compiled"), "\(build.standardOutput)")
        #expect(!build.standardError.contains("mktemp"), "\(build.standardError)")

        let unpack = try Command.run(URL(fileURLWithPath: "/usr/bin/tar"), ["-xzf", archive.path, "-C", folder.path])
        #expect(unpack.status == 0, "\(unpack.standardError)")
        let cyd = folder.appendingPathComponent("cyd").path
        #expect(FileManager.default.contentsEqual(atPath: cyd, andPath: installed.path), "--binary writes the archive's binary")

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
        #expect(version.standardOutput.contains("features: BrowserReader (cyd serve)"), "the static cyd serves too: \(version.standardOutput)")
    }
}
