import StoryFormat

enum NotAPicture: CheckedRule {
    static let checks = DocumentKind.story
    static let description = RuleDescription(
        code: "CYD605", name: "not-a-picture", category: .media, severity: .warning,
        summary: "a pic_path names a file that is not a PNG, JPEG, GIF or WebP picture",
        rationale: """
            Checked when a whole story folder is validated, by the file's first bytes rather than \
            its name. Readers show nothing for other formats (or for a text file saved as .jpg).
            """,
        triggering: [
            .chapters(
                #"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true, "pic_path": ↓"resources/map.jpg" }"#,
                folderFiles: ["README.md": RuleExample.taggedReadme, "resources/map.jpg": "version https://git-lfs.github.com/spec/v1\n"])
        ],
        nonTriggering: [
            .chapters(
                #"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true, "pic_path": "resources/map.jpg" }"#,
                folderFiles: ["README.md": RuleExample.taggedReadme, "resources/map.jpg": "⟨FF⟩⟨D8⟩⟨FF⟩⟨E0⟩JFIF"])
        ])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        guard let folder = context.folder else { return }
        for use in context.media where use.isPicture {
            guard case .repository(let path) = use.reference, MediaChecks.isPlainRelativePath(path), folder.fileExists(path),
                PictureFormat.detect(folder.prefix(path)) == nil
            else { continue }
            findings.add(
                "pic_path of \(use.owner) names '\(VisibleText.escape(path))', which is not a PNG, JPEG, GIF or WebP picture",
                help: "save the picture in one of those formats (a Git LFS pointer file means the picture itself was not committed)",
                at: use.path.node)
        }
    }
}
