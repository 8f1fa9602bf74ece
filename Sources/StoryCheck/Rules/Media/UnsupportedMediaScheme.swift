import StoryFormat

enum UnsupportedMediaScheme: CheckedRule {
    static let checks = DocumentKind.story
    static let description = RuleDescription(
        code: "CYD603", name: "unsupported-media-scheme", category: .media, severity: .error,
        summary: "a picture or video link is neither https:// nor a repository path",
        rationale: """
            Only https:// links and paths inside the repository can be loaded. ftp:, file:, data: \
            and malformed links such as "https:/x" or "HTTPS://x" fail in every reader.
            """,
        triggering: [
            .chapters(#"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true, "pic_path": ↓"ftp://example.com/pub.jpg" }"#),
            .chapters(#"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true, "pic_path": ↓"https:/example.com/pub.jpg" }"#),
        ],
        nonTriggering: [
            .chapters(#"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true, "pic_path": "https://example.com/pub.jpg" }"#),
            .chapters(#"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true, "pic_path": "resources/pub.jpg" }"#),
        ])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        for use in context.media {
            let problem: String
            switch use.reference {
            case .web(let link):
                guard !isWellFormedHTTPS(link) else { continue }
                problem = "is not a well-formed https:// link"
            case .repository(let path):
                guard MediaChecks.hasScheme(path), !path.lowercased().hasPrefix("http://") else { continue }
                let scheme = path.prefix { $0 != ":" }
                problem = "uses the unsupported scheme '\(VisibleText.escape(String(scheme)))'"
            }
            findings.add(
                "\(use.key) of \(use.owner) \(problem)",
                help: "use an https:// link (https://host/path) or a path inside the repository such as resources/pub.jpg",
                at: use.path.node)
        }
    }

    static func isWellFormedHTTPS(_ link: String) -> Bool {
        guard link.hasPrefix("https://") else { return false }
        let rest = link.dropFirst("https://".count)
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return !host.isEmpty && !host.contains(" ") && !link.contains(where: { $0.isWhitespace })
    }
}
