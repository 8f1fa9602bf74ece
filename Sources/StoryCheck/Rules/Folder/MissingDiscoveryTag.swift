import StoryFormat

enum MissingDiscoveryTag: Rule {
    static let description = RuleDescription(
        code: "CYD802", name: "missing-discovery-tag", category: .folder, severity: .warning,
        summary: "README.md does not contain #ChooseYourDestiny",
        rationale: """
            The tag is how readers and catalogues discover story repositories (the original reader \
            searched READMEs for it). Without it the story is never listed.
            """,
        triggering: [
            .chapters(#"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true }"#, folderFiles: ["README.md": "# My story\n"])
        ],
        nonTriggering: [
            .chapters(#"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true }"#, folderFiles: ["README.md": RuleExample.taggedReadme])
        ])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        // A README that cannot be read (a link out of the folder: CYD607) is not judged here.
        guard let folder = context.folder, folder.fileExists("README.md"), let data = try? folder.read("README.md") else { return }
        let text = String(decoding: data, as: UTF8.self).lowercased()
        guard !text.contains("#chooseyourdestiny") else { return }
        findings.add(
            "README.md does not contain the tag #ChooseYourDestiny",
            help: "add a line such as \"A story for #ChooseYourDestiny readers.\" so catalogues can find it", inFile: "README.md")
    }
}
