import StoryFormat

enum LinkLeavesFolder: CheckedRule {
    static let checks = DocumentKind.story
    static let description = RuleDescription(
        code: "CYD607", name: "link-leaves-folder", category: .media, severity: .error,
        summary: "a picture, video or README is a symbolic link that leads outside the story folder",
        rationale: """
            A story folder is read as its repository would be: a link to a file elsewhere on the \
            author's machine (/etc/passwd, a private photo) would be shown or copied by readers \
            of a folder, and is only the link's text in git. cyd never reads such a file.
            """,
        triggering: [
            .chapters(
                #"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true, "pic_path": ↓"resources/link.png" }"#,
                folderFiles: ["README.md": RuleExample.taggedReadme, "resources/link.png": RuleExample.link("/etc/passwd")])
        ],
        nonTriggering: [
            .chapters(
                #"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true, "pic_path": "resources/link.png" }"#,
                folderFiles: [
                    "README.md": RuleExample.taggedReadme, "resources/pub.png": "⟨89⟩PNG\r\n⟨1A⟩\n",
                    "resources/link.png": RuleExample.link("pub.png"),
                ])
        ])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        guard let folder = context.folder else { return }
        for use in context.media {
            guard case .repository(let path) = use.reference, MediaChecks.isPlainRelativePath(path),
                let real = folder.leavesFolder(path)
            else { continue }
            findings.add(
                "\(use.key) of \(use.owner) is a link to '\(VisibleText.escape(real))', outside the story folder",
                help: "copy the file into the story folder instead of linking to it; cyd does not read it",
                at: use.path.node)
        }
        if let real = folder.leavesFolder("README.md") {
            findings.add(
                "README.md is a link to '\(VisibleText.escape(real))', outside the story folder",
                help: "put the README itself in the story folder; cyd does not read it", inFile: "README.md")
        }
    }
}
