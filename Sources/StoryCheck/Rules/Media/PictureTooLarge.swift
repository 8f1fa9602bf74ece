import StoryFormat

enum PictureTooLarge: CheckedRule {
    static let checks = DocumentKind.story
    static let description = RuleDescription(
        code: "CYD608", name: "picture-too-large", category: .media, severity: .warning,
        summary: "a picture in the story folder is more than 4096 pixels on a side, or a JPEG of more scans than readers decode",
        rationale: """
            Read from the picture's header when a whole story folder is validated. No screen a \
            story is read on shows that many pixels: every reader scales the picture down, after \
            downloading and decoding all of it (a 6000 x 4000 photo takes 96 MB to decode). \
            2048 pixels on the longer side is plenty. A progressive JPEG is decoded once per scan: \
            ordinary ones have about ten, and readers stop after 100 (a file of thousands of \
            empty scans would hold them for minutes), so one with more shows nothing.
            """,
        triggering: [
            .chapters(
                #"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true, "pic_path": ↓"resources/wide.png" }"#,
                folderFiles: [
                    "README.md": RuleExample.taggedReadme,
                    "resources/wide.png": "⟨89⟩PNG\r\n⟨1A⟩\n⟨00⟩⟨00⟩⟨00⟩⟨0D⟩IHDR⟨00⟩⟨00⟩⟨13⟩⟨88⟩⟨00⟩⟨00⟩⟨0B⟩⟨B8⟩⟨08⟩⟨02⟩⟨00⟩⟨00⟩⟨00⟩",
                ]),
            .chapters(
                #"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true, "pic_path": ↓"resources/scans.jpg" }"#,
                folderFiles: [
                    "README.md": RuleExample.taggedReadme,
                    // A 16 x 16 progressive JPEG (SOF2) of 101 scans.
                    "resources/scans.jpg": "⟨FF⟩⟨D8⟩⟨FF⟩⟨C2⟩⟨00⟩⟨0B⟩⟨08⟩⟨00⟩⟨10⟩⟨00⟩⟨10⟩⟨01⟩⟨01⟩⟨11⟩⟨00⟩"
                        + String(repeating: "⟨FF⟩⟨DA⟩⟨00⟩⟨08⟩⟨01⟩⟨01⟩⟨00⟩⟨00⟩⟨3F⟩⟨00⟩⟨00⟩", count: 101) + "⟨FF⟩⟨D9⟩",
                ]),
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
            guard case .success(let header) = header else { continue }
            if max(header.width, header.height) > largestSide {
                findings.add(
                    "picture '\(VisibleText.escape(path))' is \(header.width) x \(header.height) pixels",
                    help: "readers scale it down after decoding all of it; 2048 pixels on the longer side is plenty", at: use.path.node)
            } else if let scans = header.scans, scans > PictureHeader.maximumScans {
                findings.add(
                    "picture '\(VisibleText.escape(path))' is a progressive JPEG of at least \(scans) scans",
                    help: "readers stop after \(PictureHeader.maximumScans) scans and show nothing; save it again as a baseline (not progressive) JPEG",
                    at: use.path.node)
            }
        }
    }
}
