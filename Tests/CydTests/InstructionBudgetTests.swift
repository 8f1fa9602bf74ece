import Foundation
import StoryFormat
import TestSupport
import Testing

/// The regression gate that noise cannot fool: callgrind counts the instructions of six core
/// operations on fixed inputs (scripts/instruction-counts.sh), and the gate fails when one grows
/// more than 10% over the budget kept in Tests/Fixtures/instruction-budgets.json.
@Suite("Instruction budgets")
struct InstructionBudgetTests {
    static let script = Command.packageRoot.appendingPathComponent("scripts/instruction-counts.sh").path
    static let operations = ["validate-clean", "validate-flawed", "add", "read-chapter", "chapter-pages", "extract-translations"]

    @Test("validating, adding, reading, building pages and extracting translations stay within 10% of their instruction budgets; one over its budget fails the gate, by name")
    func withinBudgets() async throws {
        let folder = try TemporaryFolder()
        let counts = folder.path("counts")
        let measured = try await Command.runDetached(
            URL(fileURLWithPath: "/bin/bash"), [Self.script], environment: ["CYD": Command.cyd.path, "COUNTS_OUT": counts])
        #expect(measured.status == 0, "\(measured.standardOutput)\(measured.standardError)")
        for operation in Self.operations {
            #expect(measured.standardOutput.split(separator: "\n").contains { $0.hasPrefix(operation + " ") && $0.hasSuffix("ok") }, "\(operation): \(measured.standardOutput)")
        }
        // The gate itself, on the counts just taken: budgets a fifth lower fail it, naming each
        // operation; budgets a fifth higher pass, with a word that they can be lowered.
        let kept = try String(contentsOfFile: counts, encoding: .utf8).split(separator: "\n").map { $0.split(separator: " ") }
        #expect(kept.map { String($0[0]) } == Self.operations)
        func budgets(_ factor: Double) throws -> String {
            let members = kept.map { "\"\($0[0])\": \(Int(Double(String($0[1]))! * factor))" }.joined(separator: ", ")
            return try folder.write("budgets-\(factor).json", "{\"budgets\": {\(members)}}\n").path
        }
        let over = try Command.run(URL(fileURLWithPath: "/bin/bash"), [Self.script, "--compare", counts], environment: ["BUDGETS": try budgets(0.8)])
        #expect(over.status == 1, "\(over.standardOutput)\(over.standardError)")
        for operation in Self.operations {
            #expect(over.standardOutput.split(separator: "\n").contains { $0.hasPrefix(operation + " ") && $0.hasSuffix("over budget by more than 10%") }, "\(operation): \(over.standardOutput)")
        }
        let under = try Command.run(URL(fileURLWithPath: "/bin/bash"), [Self.script, "--compare", counts], environment: ["BUDGETS": try budgets(1.25)])
        #expect(under.status == 0, "\(under.standardOutput)")
        #expect(under.standardOutput.contains("more than 10% under budget: lower it with --update"))
        // Within 10% either way is no change.
        let near = try Command.run(URL(fileURLWithPath: "/bin/bash"), [Self.script, "--compare", counts], environment: ["BUDGETS": try budgets(0.95)])
        #expect(near.status == 0 && !near.standardOutput.contains("budget by"), "\(near.standardOutput)")
    }
}
