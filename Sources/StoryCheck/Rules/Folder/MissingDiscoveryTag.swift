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
        // A README that is a link out of the folder is CYD607's finding, not judged here.
        guard let folder = context.folder, folder.fileExists("README.md") else { return }
        let data: [UInt8]
        do {
            data = try folder.read("README.md")
        } catch .outsideFolder {
            return
        } catch {
            findings.add(
                "README.md cannot be read (\(error.description)), so its tag cannot be checked",
                help: "let this user read the file (chmod u+r README.md)", inFile: "README.md")
            return
        }
        let text = String(decoding: data, as: UTF8.self).lowercased()
        guard !text.contains("#chooseyourdestiny") else { return }
        findings.add(
            "README.md does not contain the tag #ChooseYourDestiny",
            help: "add a line such as \"A story for #ChooseYourDestiny readers.\" so catalogues can find it", inFile: "README.md")
    }
}
