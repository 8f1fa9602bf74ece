import StoryFormat

enum InvalidRepositoryURL: Rule {
    static let description = RuleDescription(
        code: "CYD903", name: "invalid-repository-url", category: .authors, severity: .error,
        summary: "an entry of an author's repos is not a git URL",
        rationale: """
            The repos extension lists an author's story repositories so that discovery needs no \
            search. Each must be a URL git can clone: https://, git://, ssh://, file:// or \
            user@host:path.
            """,
        triggering: [
            .authors(#"{ "authors": [ { "name": "alice", "repos": [ ↓"github.com/alice/lighthouse" ] } ] }"#),
            .authors(#"{ "authors": [ { "name": "alice", "repos": [ ↓"http://example.com/alice/lighthouse.git" ] } ] }"#),
        ],
        nonTriggering: [
            .authors(
                #"{ "authors": [ { "name": "alice", "repos": [ "https://github.com/alice/lighthouse", "git@github.com:alice/tide.git" ] } ] }"#
            )
        ])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        guard let authors = context.authors else { return }
        for author in authors.authors {
            for repo in author.repos where !isCloneable(repo.value) {
                let help =
                    repo.value.hasPrefix("http://")
                    ? "use https://: plain http can be read and changed on the way"
                    : "write a full URL such as https://github.com/\(author.name?.value ?? "NAME")/REPOSITORY"
                findings.add("'\(VisibleText.escape(repo.value))' is not a git URL cyd can clone", help: help, at: repo.node)
            }
        }
    }

    public static func isCloneable(_ url: String) -> Bool {
        if url.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 } == true }) { return false }
        for scheme in ["https://", "git://", "ssh://"] where url.hasPrefix(scheme) {
            let host = url.dropFirst(scheme.count).prefix { $0 != "/" }
            return !host.isEmpty && url.dropFirst(scheme.count).contains("/")
        }
        if url.hasPrefix("file://") { return url.count > "file://".count }
        // scp-like: user@host:path
        if let at = url.firstIndex(of: "@"), let colon = url[at...].firstIndex(of: ":") {
            return url.distance(from: url.startIndex, to: at) > 0 && url.index(after: at) < colon && url.index(after: colon) < url.endIndex
        }
        return false
    }
}
