import StoryFormat

enum DuplicateAuthor: CheckedRule {
    static let checks = DocumentKind.authors
    static let description = RuleDescription(
        code: "CYD901", name: "duplicate-author", category: .authors, severity: .warning,
        summary: "an author is listed twice in authors.json",
        rationale: "GitHub user names are case-insensitive: the two entries are one author (sync merges their repos lists), and the second is usually a slip to tidy up.",
        triggering: [.authors(#"{ "authors": [ { "name": "alice" }, { "name": ↓"Alice" } ] }"#)],
        nonTriggering: [.authors(#"{ "authors": [ { "name": "alice" }, { "name": "bob" } ] }"#)])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        guard let authors = context.authors else { return }
        var seen: [String: Int] = [:]
        for author in authors.authors {
            guard let name = author.name else { continue }
            let key = name.value.lowercased()
            if let first = seen[key] {
                findings.add(
                    "author '\(VisibleText.escape(name.value))' is listed twice", help: "remove one entry (merge their repos lists)",
                    at: name.node, related: [RelatedLocation(message: "first listed here", range: authors.document.range(first))])
            } else {
                seen[key] = name.node
            }
        }
    }
}
