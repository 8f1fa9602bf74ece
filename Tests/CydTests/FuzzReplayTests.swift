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
        ["serve-request", "catalogue", "forms"]
        #else
        ["catalogue"]
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
}
