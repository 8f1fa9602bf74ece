import CydWords
import ArgumentParser
import StoryAnalysis
import StoryCheck
import StoryFormat
import TerminalUI

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rules", abstract: "List every rule `cyd validate` checks.")

    @Option(help: "Only rules of this category (\(RuleCategory.allCases.map(\.rawValue).joined(separator: ", "))).") var category: String?
    @Flag(help: "Print the catalogue as Markdown (as in docs/rules.md).") var markdown = false

    func validate() throws {
        if let category, RuleCategory(rawValue: category) == nil {
            throw ValidationError("unknown category '\(VisibleText.escape(category))'; categories: \(RuleCategory.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() throws {
        let rules = RuleCatalogue.descriptions.filter { category == nil || $0.category.rawValue == category }
        Terminal.standardOutput.write(markdown ? RuleDocs.markdownTable(rules) : RuleDocs.plainTable(rules))
    }
}

struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "explain", abstract: "Explain a finding: what it means, why it matters, examples.")

    @Argument(help: "A code such as CYD302, or a rule name such as missing-choice-target.") var code: String

    func validate() throws {
        if RuleCatalogue.find(code) == nil {
            throw ValidationError("no rule '\(VisibleText.escape(code))'; `cyd rules` lists them")
        }
    }

    func run() throws {
        let rule = RuleCatalogue.find(code)!
        var text = RuleDocs.explanation(rule)
        if let fix = Fixes.descriptions[rule.code] { text += "\nFixable: `cyd fix` \(fix).\n" }
        Terminal.standardOutput.write(text)
    }
}
