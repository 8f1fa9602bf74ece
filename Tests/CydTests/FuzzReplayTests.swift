import Foundation
import TestSupport
import Testing

/// The fuzz targets SwiftPM builds (Tests/Fuzz/CydFuzz) replay every kept seed and regression
/// input in the suite, without libFuzzer: an input that once failed fails the suite too.
@Suite("Fuzz inputs replayed")
struct FuzzReplayTests {
    static let replayer = Command.cyd.deletingLastPathComponent().appendingPathComponent("CydFuzz")

    static var targets: [String] {
        #if BrowserReader
        ["serve-request", "catalogue", "forms", "interchange"]
        #else
        ["catalogue", "interchange"]
        #endif
    }

    @Test("every kept input of each target runs to its end", arguments: targets)
    func replay(_ target: String) throws {
        var inputs: [String] = []
        for kind in ["fuzz-seeds", "fuzz-regressions"] {
            let folder = Command.packageRoot.path + "/Tests/Fixtures/\(kind)/\(target)"
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] { inputs.append(folder + "/" + name) }
        }
        #expect(!inputs.isEmpty, "\(target) has seeds")
        let result = try Command.run(Self.replayer, [target] + inputs)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("replayed \(inputs.count) inputs of \(target): no crash"), "\(result.standardOutput)")
    }

    @Test("the mutation smoke runs each target on mutated inputs, and a crash ends it by its signal with the input kept")
    func mutationSmoke() throws {
        let folder = try TemporaryFolder()
        let seeds = Command.packageRoot.path + "/Tests/Fixtures/fuzz-seeds/catalogue"
        let inputs = try FileManager.default.contentsOfDirectory(atPath: seeds).map { seeds + "/" + $0 }
        let clean = try Command.run(Self.replayer, ["catalogue", "--mutate", "1", "--seed", "3", "--crash", folder.path("crash")] + inputs)
        #expect(clean.status == 0 && clean.standardOutput.contains("inputs of catalogue from \(inputs.count) seeds in 1.0 s (seed 3): no crash"), "\(clean.standardOutput)\(clean.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder.path("crash")) == false)
        // A fault planted on a token the mutations put in: the run ends by a signal, the input kept.
        let planted = try Command.run(
            Self.replayer, ["catalogue", "--mutate", "20", "--seed", "3", "--crash", folder.path("crash")] + inputs, environment: ["CYD_MUTATION_PLANT": "%ZZ"])
        #expect(planted.status != 0, "\(planted.standardOutput)")
        let kept = try Data(contentsOf: URL(fileURLWithPath: folder.path("crash")))
        #expect(String(decoding: kept, as: UTF8.self).contains("%ZZ"), "the crashing input is kept: \(kept.count) bytes")
    }
}
