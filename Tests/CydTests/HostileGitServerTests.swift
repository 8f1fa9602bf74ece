import Foundation
import TestSupport
import Testing

/// A git server that misbehaves (Tests/Support/hostile_git_server.py) cannot hold `cyd add` past
/// its limits or grow it past 200 MB: each case ends in a clear failure naming the server and
/// the limit, with the child's peak memory measured by GNU time (its rusage).
@Suite("A hostile git server", .serialized)
struct HostileGitServerTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var mode: String
        var environment: [String: String]
        var message: String
        var seconds: Double
        var testDescription: String { "\(mode): \(message)" }
    }

    static let cases = [
        Case(mode: "endless-refs", environment: [:], message: "advertised more than 16777216 bytes of refs", seconds: 30),
        Case(mode: "endless-refs", environment: ["CYD_GIT_MAX_REFS_BYTES": "1000000000", "CYD_GIT_MAX_BYTES": "5000000"],
             message: "sent more than 5000000 bytes", seconds: 30),
        Case(mode: "many-refs", environment: [:], message: "advertised 20001 refs, more than the limit of 10000", seconds: 30),
        Case(mode: "trickle", environment: ["CYD_GIT_LOW_SPEED": "1024/3"], message: "is too slow: fewer than 1024 bytes a second for 3 s", seconds: 10),
        Case(mode: "trickle", environment: ["CYD_GIT_LOW_SPEED": "0/1", "CYD_GIT_TOTAL_SECONDS": "3"], message: "did not end within 3 s", seconds: 10),
        Case(mode: "garbage", environment: [:], message: "cannot clone", seconds: 10),
        Case(mode: "huge-pack", environment: [:], message: "holds 100000000 objects, more than the limit of 1000000", seconds: 30),
    ]

    @Test("each misbehaviour ends in a clear failure, in time and under 200 MB", arguments: cases)
    func hostile(_ test: Case) throws {
        let folder = try TemporaryFolder()
        let portFile = folder.path("port")
        let server = try ChildProcess(
            ["python3", Command.packageRoot.appendingPathComponent("Tests/Support/hostile_git_server.py").path, test.mode, portFile],
            takesInput: false, output: .discarded, errors: .discarded, ownGroup: true)
        var waited = 0
        while !FileManager.default.fileExists(atPath: portFile), waited < 200 {
            usleep(50_000)
            waited += 1
        }
        let port = try String(contentsOfFile: portFile, encoding: .utf8)
        let started = Date()
        let result = try Command.run(
            URL(fileURLWithPath: "/usr/bin/time"),
            ["-f", "peak-kb %M", "timeout", "--signal=KILL", "120", Command.cyd.path, "add", "git://127.0.0.1:\(port)/story.git"],
            environment: test.environment.merging(["CYD_HOME": folder.path("library")]) { $1 })
        let seconds = Date().timeIntervalSince(started)
        withExtendedLifetime(server) {}
        #expect(result.standardError.contains(test.message), "\(result.standardError)")
        #expect(result.standardError.contains("127.0.0.1:\(port)"))
        #expect(seconds < test.seconds, "took \(seconds) s")
        let peak = result.standardError.split(separator: "\n").last { $0.hasPrefix("peak-kb ") }.flatMap { Int($0.dropFirst(8)) } ?? .max
        #expect(peak < 200 * 1024, "peak \(peak) KB")
        let cached = (try? FileManager.default.contentsOfDirectory(atPath: folder.path("library/cache/git"))) ?? []
        #expect(cached.filter { !$0.hasPrefix(".") }.isEmpty, "no half clone left in the cache: \(cached)")
    }
}
