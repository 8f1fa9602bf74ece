import Foundation
import Testing

/// The README's rule table is `cyd rules --markdown`, so a new rule cannot be missing from it.
@Suite("README")
struct ReadmeTests {
    @Test("the rule table in the README is exactly what cyd rules --markdown prints")
    func ruleTable() throws {
        let readme = try String(contentsOf: Command.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let table = try Command.cyd(["rules", "--markdown"]).standardOutput
        #expect(!table.isEmpty)
        #expect(readme.contains(table), "run `cyd rules --markdown` and paste it into the README's rule table")
    }

    @Test("CI runs exactly the README's test command")
    func ciRunsTheReadmeCommand() throws {
        let readme = try String(contentsOf: Command.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let ci = try String(contentsOf: Command.packageRoot.appendingPathComponent(".ci/run"), encoding: .utf8)
        let lines = readme.split(separator: "\n")
        let comment = try #require(lines.firstIndex { $0.hasPrefix("# the tests") }, "the README names its test command")
        let command = lines[comment + 1]
        #expect(command.hasPrefix("scripts/install-deps.sh && "))
        #expect(ci.split(separator: "\n").contains(command), ".ci/run must run: \(command)")
    }
}
