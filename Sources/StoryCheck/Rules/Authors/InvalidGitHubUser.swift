import StoryFormat

enum InvalidGitHubUser: CheckedRule {
    static let checks = DocumentKind.authors
    static let description = RuleDescription(
        code: "CYD902", name: "invalid-github-user", category: .authors, severity: .error,
        summary: "an author name that cannot be a GitHub user name",
        rationale: """
            Discovery looks authors up on GitHub by name. User names have 1 to 39 letters, digits \
            or single hyphens, and do not start or end with a hyphen.
            """,
        triggering: [
            .authors(#"{ "authors": [ { "name": ↓"alice smith" } ] }"#),
            .authors(#"{ "authors": [ { "name": ↓"-alice" } ] }"#),
        ],
        nonTriggering: [.authors(#"{ "authors": [ { "name": "alice-smith42" } ] }"#)])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        guard let authors = context.authors else { return }
        for author in authors.authors {
            guard let name = author.name, !name.value.isEmpty, !isValid(name.value) else { continue }
            findings.add(
                "'\(VisibleText.escape(name.value))' cannot be a GitHub user name",
                help: "use the user name from the author's GitHub address (github.com/NAME): letters, digits and single hyphens",
                at: name.node)
        }
    }

    public static func isValid(_ name: String) -> Bool {
        let scalars = Array(name.unicodeScalars)
        guard (1...39).contains(scalars.count), scalars.first != "-", scalars.last != "-" else { return false }
        var previousHyphen = false
        for scalar in scalars {
            let isAlphanumeric = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            if scalar == "-" {
                if previousHyphen { return false }
                previousHyphen = true
            } else if isAlphanumeric {
                previousHyphen = false
            } else {
                return false
            }
        }
        return true
    }
}
