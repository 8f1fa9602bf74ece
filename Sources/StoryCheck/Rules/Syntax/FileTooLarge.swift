import StoryFormat

enum FileTooLarge: Rule {
    // No example: the limit is a gibibyte; a unit test lowers it to show the finding.
    static let description = RuleDescription(
        code: .fileTooLarge, name: "file-too-large", category: .syntax, severity: .error,
        summary: "the file is larger than the reading limit (1 GiB)",
        rationale: """
            Positions are kept in 30 bits and the whole file is held in memory; a story of 100,000 \
            chapters is about 75 MB, so a larger file is a mistake or an attack.
            """,
        triggering: [],
        nonTriggering: [RuleExample("{}")])
}
