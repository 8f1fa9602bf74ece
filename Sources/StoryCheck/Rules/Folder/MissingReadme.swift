import StoryFormat

enum MissingReadme: Rule {
    static let description = RuleDescription(
        code: "CYD801", name: "missing-readme", category: .folder, severity: .warning,
        summary: "the story folder has no README.md",
        rationale: """
            Catalogues find story repositories by a README.md that contains #ChooseYourDestiny; \
            without one the story is never listed. Checked when a folder is validated.
            """,
        triggering: [
            .chapters(#"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true }"#, folderFiles: [:])
        ],
        nonTriggering: [
            .chapters(#"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true }"#, folderFiles: ["README.md": RuleExample.taggedReadme])
        ])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        guard let folder = context.folder else { return }
        if let problem = folder.listingProblem() {
            findings.add(
                "the story folder cannot be listed (\(problem)), so its README.md cannot be checked",
                help: "let this user read the folder (chmod u+rx)", inFile: "README.md")
            return
        }
        guard !folder.fileExists("README.md"), folder.leavesFolder("README.md") == nil else { return }
        let other = folder.caseInsensitiveMatch("README.md")
        findings.add(
            "the story folder has no README.md",
            help: other.map { "rename '\(VisibleText.escape($0))' to README.md: the name is case-sensitive" }
                ?? "add a README.md that describes the story and contains #ChooseYourDestiny",
            inFile: "README.md")
    }
}
