import StoryFormat

enum InvalidRepositoryURL: CheckedRule {
    static let checks = DocumentKind.authors
    static let description = RuleDescription(
        code: "CYD903", name: "invalid-repository-url", category: .authors, severity: .error,
        summary: "an entry of an author's repos is not a git URL",
        rationale: """
            The repos extension lists an author's story repositories so that discovery needs no \
            search. Each must be a URL git can clone: https://, git://, ssh://, file:// or \
            user@host:path. Plain http:// is refused (anyone on the way can read and change what \
            is fetched) except to this machine (127.0.0.1, localhost, [::1]), for mirrors and tests.
            """,
        triggering: [
            .authors(#"{ "authors": [ { "name": "alice", "repos": [ ↓"github.com/alice/lighthouse" ] } ] }"#),
            .authors(#"{ "authors": [ { "name": "alice", "repos": [ ↓"http://example.com/alice/lighthouse.git" ] } ] }"#),
        ],
        nonTriggering: [
            .authors(
                #"{ "authors": [ { "name": "alice", "repos": [ "https://github.com/alice/lighthouse", "git@github.com:alice/tide.git", "http://127.0.0.1:8080/tide.git" ] } ] }"#
            )
        ])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        guard let authors = context.authors else { return }
        // One regex for the whole file: a literal evaluated for each URL was compiled again each
        // time (a tenth of the work of a sync that changes nothing, for 200 repositories).
        let pattern = cloneable()
        for author in authors.authors {
            for repo in author.repos where !isCloneable(repo.value, pattern) {
                let help =
                    repo.value.hasPrefix("http://")
                    ? "use https://: plain http can be read and changed on the way"
                    : "write a full URL such as https://github.com/\(author.name?.value ?? "NAME")/REPOSITORY"
                findings.add("'\(VisibleText.escape(repo.value))' is not a git URL cyd can clone", help: help, at: repo.node)
            }
        }
    }

    /// The same pattern as `repos` items in Schemas/authors.schema.json, so both agree:
    /// scheme://host/path for https, git and ssh; file://path; or scp-like user@host:path.
    public static func isCloneable(_ url: String) -> Bool { isCloneable(url, cloneable()) }

    static func isCloneable(_ url: String, _ pattern: Regex<Substring>) -> Bool {
        url.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F } && url.wholeMatch(of: pattern) != nil
    }

    /// The pattern, compiled where it is first matched; made afresh for each caller (a `Regex`
    /// is not `Sendable`, so it is not kept in a static).
    static func cloneable() -> Regex<Substring> {
        /(?:(?:https|git|ssh):\/\/[^\/\s]+\/\S*|http:\/\/(?:127\.0\.0\.1|localhost|\[::1\])(?::[0-9]+)?\/\S*|file:\/\/\S+|[^@\s\/:]+@[^:\s\/]+:\S+)/
    }
}
