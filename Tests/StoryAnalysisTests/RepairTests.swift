import StoryCheck
import StoryFormat
import Testing

@testable import StoryAnalysis

/// Every repair is declared by its rule, beside the rule's examples: what it does, and files
/// before and after. These run each declared example through the repairs `cyd fix` and the
/// language server make.
@Suite("Repairs declared by their rules")
struct RepairTests {
    static let repaired = RuleCatalogue.descriptions.filter { $0.repair != nil }

    @Test("each rule's repair examples become exactly what the rule says, and need no second pass", arguments: repaired)
    func examples(rule: RuleDescription) throws {
        let repair = try #require(rule.repair)
        #expect(!repair.examples.isEmpty, "\(rule.code) declares a repair without an example")
        for example in repair.examples {
            let before = example.before.bytesAndMarkers.bytes
            let (edits, _) = Fixes.edits(for: SourceBytes(before), path: example.before.fileName)
            #expect(edits.contains { $0.code == rule.code }, "\(rule.code): the example is not repaired at all")
            let after = Fixes.apply(edits.filter { $0.code == rule.code }, to: SourceBytes(before))
            #expect(String(decoding: after, as: UTF8.self) == example.after, "\(rule.code):\n\(String(decoding: after, as: UTF8.self))")
            let again = Fixes.edits(for: SourceBytes(after), path: example.before.fileName).edits.filter { $0.code == rule.code }
            #expect(again.isEmpty, "\(rule.code) repairs its own result again")
        }
    }

    @Test("what cyd fix and the editor say a repair does is what its rule declares")
    func descriptionsComeFromTheRules() {
        #expect(Set(Fixes.descriptions.keys) == Set(Self.repaired.map(\.code)))
        #expect(Self.repaired.count >= 5)
        for rule in Self.repaired { #expect(Fixes.descriptions[rule.code] == rule.repair?.does) }
    }
}
