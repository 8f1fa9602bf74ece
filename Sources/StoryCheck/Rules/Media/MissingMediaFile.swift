import LocalFiles
import StoryFormat

enum MissingMediaFile: CheckedRule {
    static let checks = DocumentKind.story
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
            guard case .repository(let path) = use.reference, MediaChecks.isPlainRelativePath(path), !folder.fileExists(path),
                folder.leavesFolder(path) == nil  // CYD607 says why
            else { continue }
            let nearMiss = folder.caseInsensitiveMatch(path)
            if nearMiss == path, let kind = LocalFile.irregularKind(folder.url(path).path) {
                // It is there, with that very name, but it is no file (a FIFO, a folder, a device).
                findings.add(
                    "\(use.key) of \(use.owner) names '\(VisibleText.escape(path))', which is \(kind), not a file",
                    help: "a picture must be a regular file in the repository", at: use.path.node)
                continue
            }
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
}
