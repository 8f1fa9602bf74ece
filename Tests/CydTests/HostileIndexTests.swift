import Foundation
import TestSupport
import Testing

/// The hostile-index corpus (scripts/generate-hostile-index.py, at CYD_HOSTILE_SCALE, 0.1 by
/// default): published indexes made to crash, hang or fool a reader. Each sync ends in its
/// outcome, within a bound, printing nothing a terminal would act on, following no URL.
@Suite("Hostile catalogue indexes", .serialized)
struct HostileIndexTests {
    static let scale = ProcessInfo.processInfo.environment["CYD_HOSTILE_SCALE"] ?? "0.1"

    static let corpus: TemporaryFolder = {
        let folder = try! TemporaryFolder()
        let result = try! Command.run(
            try Command.program("python3"), [Command.packageRoot.appendingPathComponent("scripts/generate-hostile-index.py").path, folder.url.path, "--scale", scale])
        precondition(result.status == 0, result.standardError)
        return folder
    }()

    /// Exit status and a phrase each sync must print (standard output and error together).
    static let expected: [String: (Int32, String)] = [
        "many-entries": (0, "0 updated, 0 unchanged, 0 failed"),
        "deep-before-marker": (1, "is not a usable catalogue index"),
        "deep-inside-entry": (1, "nesting is deeper than 128 levels"),
        "hostile-urls": (1, "1 new, 0 updated, 0 unchanged, 8 failed"),
        "hostile-names": (1, "1 new, 0 updated, 0 unchanged, 9 failed"),
        "duplicate-ids": (1, "none of them is offered until the index names one"),
        "numbers": (1, "1 new, 0 updated, 0 unchanged, 9 failed"),
        "not-objects": (1, "each story must be an object"),
        "huge-strings": (0, "1 new, 0 updated, 0 unchanged, 0 failed"),
        "wrong-version": (1, "cyd_catalogue_index must be 1"),
    ]

    @Test("each index ends in its outcome, in words, quickly, with nothing raw printed", arguments: expected.keys.sorted())
    func sync(name: String) throws {
        let home = try TemporaryFolder()
        let started = Date()
        let result = try Command.run(
            try Command.program("timeout"), ["--signal=KILL", "120", Command.cyd.path, "sync", "--catalogue", Self.corpus.path("\(name).json")],
            environment: ["CYD_HOME": home.path("library"), "GITHUB_API_URL": "http://127.0.0.1:9"])
        let (status, phrase) = try #require(Self.expected[name])
        let output = result.standardOutput + result.standardError
        #expect(result.status == status, "\(name): exit \(result.status)\n\(output.prefix(2000))")
        #expect(output.contains(phrase), "\(name): \(output.prefix(2000))")
        #expect(!output.contains("\u{1B}") && !output.contains("\u{202E}") && !output.contains("\u{0}"), "\(name): raw control characters printed")
        #expect(Date().timeIntervalSince(started) < 100)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/cyd-pwned"), "an ext:: or -o URL was followed")
        if name == "hostile-urls" {
            let get = try Command.cyd(["get", "bad/u0"], environment: ["CYD_HOME": home.path("library")])
            #expect(get.status != 0 && get.standardError.contains("no story 'bad/u0'"), "a file:// entry is never offered: \(get.standardError)")
        }
    }
}
