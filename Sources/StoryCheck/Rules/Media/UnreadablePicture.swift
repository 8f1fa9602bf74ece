import StoryFormat

enum UnreadablePicture: CheckedRule {
    static let checks = DocumentKind.story
    static let description = RuleDescription(
        code: "CYD609", name: "unreadable-picture", category: .media, severity: .warning,
        summary: "a picture in the story folder starts like a PNG, JPEG, GIF or WebP but its header is broken",
        rationale: """
            Checked when a whole story folder is validated: the header (the picture's size and \
            the start of its data) is read, not the whole picture. A file cut short by an \
            interrupted upload, or damaged, shows as nothing or as a broken picture.
            """,
        triggering: [
            .chapters(
                #"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true, "pic_path": ↓"resources/cut.jpg" }"#,
                folderFiles: ["README.md": RuleExample.taggedReadme, "resources/cut.jpg": "⟨FF⟩⟨D8⟩⟨FF⟩⟨E0⟩⟨00⟩⟨10⟩JFIF"])
        ],
        nonTriggering: [
            .chapters(
                #"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true, "pic_path": "resources/whole.gif" }"#,
                folderFiles: ["README.md": RuleExample.taggedReadme, "resources/whole.gif": "GIF89a⟨10⟩⟨00⟩⟨10⟩⟨00⟩⟨00⟩⟨00⟩⟨00⟩;"])
        ])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        for (use, path, header) in MediaChecks.pictureHeaders(context) {
            guard case .failure(let failure) = header else { continue }
            findings.add(
                "picture '\(VisibleText.escape(path))' cannot be read: \(failure.reason)",
                help: "save the picture again from the original (a file cut short by an interrupted copy looks like this)", at: use.path.node)
        }
    }
}
