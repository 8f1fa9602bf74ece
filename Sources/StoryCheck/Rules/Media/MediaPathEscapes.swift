import StoryFormat

enum MediaPathEscapes: CheckedRule {
    static let checks = DocumentKind.story
    static let description = RuleDescription(
        code: "CYD601", name: "media-path-escapes", category: .media, severity: .error,
        summary: "a pic_path or vid_path leaves the story's repository",
        rationale: """
            Repository paths are relative to the repository root. '..' segments, absolute paths \
            and backslashes cannot be served from the repository, and a reader that followed them \
            would read files outside the story.
            """,
        triggering: [
            .chapters(#"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true, "pic_path": ↓"../../etc/passwd" }"#),
            .chapters(#"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true, "pic_path": ↓"/resources/a.png" }"#),
            .chapters(#"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true, "vid_path": ↓"resources\\a.mp4" }"#),
        ],
        nonTriggering: [
            .chapters(#"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true, "pic_path": "resources/pub..old.png" }"#)
        ])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        for use in context.media {
            guard case .repository(let path) = use.reference, !MediaChecks.hasScheme(path) else { continue }
            let problem: String? =
                if path.hasPrefix("/") { "is an absolute path" }
                else if path.contains("\\") { "contains a backslash" }
                else if path.split(separator: "/", omittingEmptySubsequences: false).contains("..") { "goes up with '..'" }
                else if path.hasPrefix("~") { "starts with '~'" }
                else { nil }
            guard let problem else { continue }
            findings.add(
                "\(use.key) of \(use.owner) \(problem)",
                help: "write a path inside the story's repository, relative to its root, with '/' between folders (e.g. resources/pub.jpg)",
                at: use.path.node)
        }
    }
}

/// Small shared helpers of the media rules.
enum MediaChecks {
    /// Whether a value starts with a URL scheme ("ftp:", "data:"); a Windows drive ("C:") is not one.
    static func hasScheme(_ value: String) -> Bool {
        guard let colon = value.firstIndex(of: ":") else { return false }
        let scheme = value[..<colon]
        guard scheme.count >= 2, let first = scheme.unicodeScalars.first, ("a"..."z").contains(first) || ("A"..."Z").contains(first) else {
            return false
        }
        return scheme.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) }
    }
}

extension MediaChecks {
    /// Every distinct picture of the story folder that is a file in it, with its header: what
    /// CYD608-610 look at. A picture used by several chapters is reported once, at its first use.
    static func pictureHeaders(_ context: CheckContext) -> [(use: MediaUse, path: String, header: Result<PictureHeader, PictureHeader.Failure>)] {
        guard let folder = context.folder else { return [] }
        var seen: Set<String> = []
        var found: [(use: MediaUse, path: String, header: Result<PictureHeader, PictureHeader.Failure>)] = []
        for use in context.media where use.isPicture {
            guard case .repository(let path) = use.reference, isPlainRelativePath(path), seen.insert(path).inserted, folder.fileExists(path),
                let header = folder.pictureHeader(path)
            else { continue }
            found.append((use, path, header))
        }
        return found
    }
}
