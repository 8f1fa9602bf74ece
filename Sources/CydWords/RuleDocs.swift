import StoryCheck
import StoryFormat
import TerminalUI

/// The rule catalogue as text, for `cyd rules`, `cyd explain` and docs/rules.md: all from the
/// rules' own descriptions, so the documentation cannot drift from the checks.
public enum RuleDocs {
    public static func plainTable(_ rules: [RuleDescription]) -> String {
        let nameWidth = rules.map(\.name.count).max() ?? 0
        var out = ""
        var category: RuleCategory?
        for rule in rules {
            if rule.category != category {
                category = rule.category
                out += (out.isEmpty ? "" : "\n") + rule.category.rawValue + "\n"
            }
            let severity = rule.severity.rawValue + (rule.lenientSeverity.map { "/\($0.rawValue)" } ?? "")
            out += "  \(rule.code)  \(rule.name.padding(nameWidth))  \(severity.padding(13))  \(rule.summary)\n"
        }
        return out
    }

    public static func markdownTable(_ rules: [RuleDescription]) -> String {
        var out = "| code | name | category | severity | summary |\n|---|---|---|---|---|\n"
        for rule in rules {
            let severity = rule.severity.rawValue + (rule.lenientSeverity.map { " (\($0.rawValue) with --lenient)" } ?? "")
            out += "| \(rule.code) | `\(rule.name)` | \(rule.category.rawValue) | \(severity) | \(rule.summary.replacingPipes) |\n"
        }
        return out
    }

    public static func explanation(_ rule: RuleDescription) -> String {
        var out = "\(rule.code) \(rule.name) (\(rule.category.rawValue), \(rule.severity.rawValue)"
        if let lenient = rule.lenientSeverity { out += "; \(lenient.rawValue) with --lenient" }
        out += ")\n\n\(rule.summary).\n\n\(wrap(rule.rationale, width: 88))\n"
        if let example = rule.triggering.first {
            out += "\nFor example, this is reported:\n\n\(indent(example.displayText))\n"
        }
        if let example = rule.nonTriggering.first {
            out += "\nThis is fine:\n\n\(indent(example.displayText))\n"
        }
        return out
    }

    public static func indent(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + VisibleText.escape(String($0), keepTabs: true) }
            .joined(separator: "\n")
    }

    public static func wrap(_ text: String, width: Int) -> String { TextLayout.wrap(text, width: width).joined(separator: "\n") }
}

extension String {
    var replacingPipes: String { split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|") }
}
