import Foundation
import TestSupport
import Testing

/// The benchmarks' ratios come from alternated rounds (scripts/alternate.py): each round runs
/// every command once, the order turning each round, so a slow spell of the machine falls on
/// both sides of a comparison; a ratio is the median of the rounds' ratios.
@Suite("Alternated benchmark rounds")
struct AlternatedRoundsTests {
    static let script = Command.packageRoot.appendingPathComponent("scripts/alternate.py").path

    @Test("each round runs every command once, the order turning by one each round; warm-up rounds are run and not kept; the input, the preparation and the exit codes are each run's")
    func rounds() throws {
        let folder = try TemporaryFolder()
        let log = folder.path("log")
        let input = try folder.write("input", "seen\n").path
        let out = folder.path("out.json")
        // Each command writes its name and the line it read to the log; the preparation marks
        // the log before every timed run.
        func command(_ name: String, exit code: Int) -> String {
            "python3 -c 'import sys; open(sys.argv[1], \"a\").write(sys.argv[2] + \":\" + sys.stdin.readline().strip() + \"\\n\"); sys.exit(\(code))' \(log) \(name)"
        }
        let run = try Command.run(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [Self.script, out, "3", "--warmup", "1", "--stdin", input, "--prepare", "echo - >> \(log)", "a", command("a", exit: 0), "b", command("b", exit: 1), "c", command("c", exit: 0)])
        #expect(run.status == 0, "\(run.standardError)")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        // Four rounds (one to warm up), three commands each, each after its preparation.
        #expect(lines == ["-", "a:seen", "-", "b:seen", "-", "c:seen", "-", "b:seen", "-", "c:seen", "-", "a:seen", "-", "c:seen", "-", "a:seen", "-", "b:seen", "-", "a:seen", "-", "b:seen", "-", "c:seen"])
        let written = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any])
        #expect(written["rounds"] as? Int == 3)
        let results = try #require(written["results"] as? [[String: Any]])
        #expect(results.map { $0["command"] as? String } == ["a", "b", "c"], "in the order given, whatever order they ran in")
        for result in results {
            #expect((result["times"] as? [Double])?.count == 3 && (result["times"] as? [Double])?.allSatisfy { $0 > 0 } == true)
            #expect((result["peak_kb"] as? [Int])?.count == 3)
        }
        #expect(results[1]["exit_codes"] as? [Int] == [1, 1, 1] && results[0]["exit_codes"] as? [Int] == [0, 0, 0], "a run that fails is kept, with its code")
        #expect(run.standardError == "alternate.py: 'b' exited with 1\n", "and said, the output being hidden")
    }

    @Test("the ratio of two commands is the median of their rounds' ratios, not the ratio of their medians; a command named twice is refused")
    func pairedRatio() throws {
        let folder = try TemporaryFolder()
        let results = try folder.write(
            "r.json", #"{"rounds": 3, "results": [{"command": "x", "times": [1.0, 4.0, 3.0]}, {"command": "base", "times": [1.0, 2.0, 6.0]}]}"#
        ).path
        let check = try Command.run(
            URL(fileURLWithPath: "/usr/bin/python3"),
            ["-c", "import sys; sys.path.insert(0, 'scripts'); from alternate import paired, medians; print(paired(sys.argv[1], 'x', 'base'), medians(sys.argv[1]))", results])
        // Rounds' ratios 1, 2 and 0.5: median 1; the medians' ratio would be 3 / 2.
        #expect(check.standardOutput == "1.0 {'x': 3.0, 'base': 2.0}\n", "\(check.standardError)")
        let twice = try Command.run(URL(fileURLWithPath: "/usr/bin/python3"), [Self.script, folder.path("o.json"), "1", "a", "true", "a", "true"])
        #expect(twice.status != 0 && twice.standardError.contains("two commands have the same name"))
    }
}
