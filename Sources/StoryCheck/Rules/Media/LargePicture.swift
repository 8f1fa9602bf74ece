import StoryFormat

enum LargePicture: CheckedRule {
    static let checks = DocumentKind.story
    static let description = RuleDescription(
        code: "CYD606", name: "large-picture", category: .media, severity: .warning,
        summary: "a picture in the story folder is larger than 2 MiB",
        rationale: """
            Pictures are downloaded on phones, often over mobile data, the first time a chapter \
            is shown. A chapter picture rarely needs more than a few hundred kilobytes.
            """,
        triggering: [
            .chapters(
                #"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true, "pic_path": ↓"resources/huge.png" }"#,
                folderFiles: [
                    "README.md": RuleExample.taggedReadme,
                    "resources/huge.png": "⟨89⟩PNG\r\n⟨1A⟩\n⟨pad:\(MediaChecks.largePictureBytes)⟩",
                ])
        ],
        nonTriggering: [
            .chapters(
                #"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true, "pic_path": "resources/small.png" }"#,
                folderFiles: ["README.md": RuleExample.taggedReadme, "resources/small.png": "⟨89⟩PNG\r\n⟨1A⟩\n"])
        ])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        guard let folder = context.folder else { return }
        var reported: Set<String> = []
        for use in context.media where use.isPicture {
            guard case .repository(let path) = use.reference, MediaChecks.isPlainRelativePath(path), folder.fileExists(path),
                let size = folder.size(path), size > MediaChecks.largePictureBytes, reported.insert(path).inserted
            else { continue }
            findings.add(
                "picture '\(VisibleText.escape(path))' is \(size / 1024) KiB",
                help: "readers download it on their phones; scale it down or compress it below 2 MiB", at: use.path.node)
        }
    }
}
