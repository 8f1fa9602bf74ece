import StoryFormat

enum MissingReadme: CheckedRule {
    static let checks = DocumentKind.story
    static let description = RuleDescription(
        code: "CYD801", name: "missing-readme", category: .folder, severity: .warning,
        summary: "the story folder has no README",
        rationale: """
            Catalogues find story repositories by a README that contains #ChooseYourDestiny; \
            without one the story is never listed. A README is README.md, readme.md, Readme.md, \
            README.markdown or README at the story's root, as the catalogue's sync looks for it. \
            Checked when a folder is validated.
            """,
        triggering: [
            .chapters(#"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true }"#, folderFiles: [:])
        ],
        nonTriggering: [
            .chapters(#"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true }"#, folderFiles: ["README.md": RuleExample.taggedReadme]),
            .chapters(#"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true }"#, folderFiles: ["Readme.md": RuleExample.taggedReadme]),
        ])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        guard let folder = context.folder else { return }
        if let problem = folder.listingProblem() {
            findings.add(
                "the story folder cannot be listed (\(problem)), so its README.md cannot be checked",
                help: "let this user read the folder (chmod u+rx)", inFile: "README.md")
            return
        }
        guard StoryReadme.find({ folder.fileExists($0) || folder.leavesFolder($0) != nil }) == nil else { return }
        let other = StoryReadme.names.lazy.compactMap { folder.caseInsensitiveMatch($0) }.first
        findings.add(
            "the story folder has no README",
            help: other.map { "rename '\(VisibleText.escape($0))' to README.md: catalogues look for README.md, readme.md, Readme.md, README.markdown or README, in that case" }
                ?? "add a README.md that describes the story and contains \(StoryReadme.tag)",
            inFile: "README.md")
    }
}
