import StoryFormat

enum HTTPMediaLink: CheckedRule {
    static let checks = DocumentKind.story
    static let description = RuleDescription(
        code: "CYD602", name: "http-media-link", category: .media, severity: .warning,
        summary: "a picture or video link uses http:// instead of https://",
        rationale: """
            The original reader fetched only values beginning with "https"; anything else was read \
            as a path in the repository, so an http:// link failed. Plain http is also readable \
            and changeable by anyone on the network.
            """,
        triggering: [
            .chapters(#"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true, "pic_path": ↓"http://example.com/pub.jpg" }"#)
        ],
        nonTriggering: [
            .chapters(#"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true, "pic_path": "https://example.com/pub.jpg" }"#)
        ],
        repair: Repair(
            "changes http:// to https://",
            examples: [
                Repair.Example(
                    .chapters(#"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true, "pic_path": "HTTP://example.com/pub.jpg" }"#),
                    becomes: RuleExample.chapters(#"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true, "pic_path": "https://example.com/pub.jpg" }"#).source)
            ]))

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        for use in context.media where use.path.value.lowercased().hasPrefix("http://") {
            findings.add(
                "\(use.key) of \(use.owner) is an http:// link",
                help: "use https://; the original reader could not load http:// links", at: use.path.node)
        }
    }
}
