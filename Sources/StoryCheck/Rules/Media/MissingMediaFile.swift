import StoryFormat

enum MissingMediaFile: Rule {
    static let description = RuleDescription(
        code: "CYD604", name: "missing-media-file", category: .media, severity: .error,
        summary: "a picture or video path names a file the story folder does not have",
        rationale: """
            Checked when a whole story folder is validated. Paths are case-sensitive on the git \
            server even where the author's disk is not, so "resources/Pub.jpg" and \
            "resources/pub.jpg" are different files.
            """,
        triggering: [
            .chapters(
                #"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true, "pic_path": ↓"resources/pub.png" }"#,
                folderFiles: ["README.md": RuleExample.taggedReadme, "resources/Pub.png": "⟨89⟩PNG\r\n⟨1A⟩\n"])
        ],
        nonTriggering: [
            .chapters(
                #"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true, "pic_path": "resources/Pub.png" }"#,
                folderFiles: ["README.md": RuleExample.taggedReadme, "resources/Pub.png": "⟨89⟩PNG\r\n⟨1A⟩\n"])
        ])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        guard let folder = context.folder else { return }
        for use in context.media {
            guard case .repository(let path) = use.reference, MediaChecks.isPlainRelativePath(path), !folder.fileExists(path) else { continue }
            let nearMiss = folder.caseInsensitiveMatch(path)
            findings.add(
                "\(use.key) of \(use.owner) names '\(VisibleText.escape(path))', which is not in the story folder",
                help: nearMiss.map { "the file is named '\(VisibleText.escape($0))'; paths are case-sensitive on the server" }
                    ?? "add the file to the repository, or fix the path",
                at: use.path.node)
        }
    }
}

extension MediaChecks {
    /// A path the folder checks can look up: relative, inside the folder, no scheme.
    static func isPlainRelativePath(_ path: String) -> Bool {
        !path.isEmpty && !path.hasPrefix("/") && !path.contains("\\") && !hasScheme(path)
            && !path.split(separator: "/", omittingEmptySubsequences: false).contains("..")
    }

    static let largePictureBytes = 2 * 1024 * 1024

    /// The picture format named by a file's first bytes, or nil.
    static func pictureFormat(_ prefix: [UInt8]) -> String? {
        if prefix.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "PNG" }
        if prefix.starts(with: [0xFF, 0xD8, 0xFF]) { return "JPEG" }
        if prefix.starts(with: Array("GIF87a".utf8)) || prefix.starts(with: Array("GIF89a".utf8)) { return "GIF" }
        if prefix.count >= 12, prefix.starts(with: Array("RIFF".utf8)), Array(prefix[8..<12]) == Array("WEBP".utf8) { return "WebP" }
        return nil
    }
}
