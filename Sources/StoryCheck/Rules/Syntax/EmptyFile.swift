import StoryFormat

enum EmptyFile: Rule {
    static let description = RuleDescription(
        code: .emptyFile, name: "empty-file", category: .syntax, severity: .error,
        summary: "the file holds nothing but white space",
        rationale: "An empty story.json is usually a failed save or an unfinished commit.",
        triggering: [RuleExample("↓"), RuleExample("  \n\n↓")],
        nonTriggering: [RuleExample("{}")])
}
