import StoryFormat

enum PictureTooLarge: Rule {
    static let description = RuleDescription(
        code: "CYD608", name: "picture-too-large", category: .media, severity: .warning,
        summary: "a picture in the story folder is more than 4096 pixels on a side",
        rationale: """
            Read from the picture's header when a whole story folder is validated. No screen a \
            story is read on shows that many pixels: every reader scales the picture down, after \
            downloading and decoding all of it (a 6000 x 4000 photo takes 96 MB to decode). \
            2048 pixels on the longer side is plenty.
            """,
        triggering: [
            .chapters(
                #"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true, "pic_path": ↓"resources/wide.png" }"#,
                folderFiles: [
                    "README.md": RuleExample.taggedReadme,
                    "resources/wide.png": "⟨89⟩PNG\r\n⟨1A⟩\n⟨00⟩⟨00⟩⟨00⟩⟨0D⟩IHDR⟨00⟩⟨00⟩⟨13⟩⟨88⟩⟨00⟩⟨00⟩⟨0B⟩⟨B8⟩⟨08⟩⟨02⟩⟨00⟩⟨00⟩⟨00⟩",
                ])
        ],
        nonTriggering: [
            .chapters(
                #"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true, "pic_path": "resources/small.png" }"#,
                folderFiles: [
                    "README.md": RuleExample.taggedReadme,
                    "resources/small.png": "⟨89⟩PNG\r\n⟨1A⟩\n⟨00⟩⟨00⟩⟨00⟩⟨0D⟩IHDR⟨00⟩⟨00⟩⟨08⟩⟨00⟩⟨00⟩⟨00⟩⟨05⟩⟨00⟩⟨08⟩⟨02⟩⟨00⟩⟨00⟩⟨00⟩",
                ])
        ])

    static let largestSide = 4096

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        for (use, path, header) in MediaChecks.pictureHeaders(context) {
            guard case .success(let header) = header, max(header.width, header.height) > largestSide else { continue }
            findings.add(
                "picture '\(VisibleText.escape(path))' is \(header.width) x \(header.height) pixels",
                help: "readers scale it down after decoding all of it; 2048 pixels on the longer side is plenty", at: use.path.node)
        }
    }
}
