import StoryFormat

enum MissingDiscoveryTag: CheckedRule {
    static let checks = DocumentKind.story
    static let description = RuleDescription(
        code: "CYD802", name: "missing-discovery-tag", category: .folder, severity: .warning,
        summary: "the README does not contain #ChooseYourDestiny",
        rationale: """
            The tag is how readers and catalogues discover story repositories (the original reader \
            searched READMEs for it). Without it the story is never listed.
            """,
        triggering: [
            .chapters(#"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true }"#, folderFiles: ["README.md": "# My story\n"])
        ],
        nonTriggering: [
            .chapters(#"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true }"#, folderFiles: ["README.md": RuleExample.taggedReadme]),
            .chapters(#"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true }"#, folderFiles: ["README": "A tale for #chooseyourdestiny readers\n"]),
        ])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        // A README that is a link out of the folder is CYD607's finding, not judged here.
        guard let folder = context.folder, let name = StoryReadme.find({ folder.fileExists($0) }) else { return }
        let data: [UInt8]
        do {
            data = try folder.read(name)
        } catch .outsideFolder {
            return
        } catch {
            findings.add(
                "\(name) cannot be read (\(error.description)), so its tag cannot be checked",
                help: "let this user read the file (chmod u+r \(name))", inFile: name)
            return
        }
        guard !StoryReadme.carriesTag(data) else { return }
        findings.add(
            "\(name) does not contain the tag \(StoryReadme.tag)",
            help: "add a line such as \"A story for \(StoryReadme.tag) readers.\" so catalogues can find it", inFile: name)
    }
}
