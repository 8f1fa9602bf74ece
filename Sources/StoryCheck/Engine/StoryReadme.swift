/// What makes a story repository's README, decided once: the folder rules (CYD801, CYD802)
/// and the catalogue's sync of the repositories it reads with git both ask here.
public enum StoryReadme {
    /// The names a README may have at the story's root, in the order they are looked for: the
    /// Markdown and plain names GitHub shows as a repository's README. Exact names, since a git
    /// tree (and the checkout it becomes) is case-sensitive.
    public static let names = ["README.md", "readme.md", "Readme.md", "README.markdown", "README"]

    /// The tag a README carries to mark a repository as a story, matched without regard to case.
    public static let tag = "#ChooseYourDestiny"

    /// The first of `names` that `exists` says is there.
    public static func find(_ exists: (String) throws -> Bool) rethrows -> String? {
        for name in names where try exists(name) { return name }
        return nil
    }

    /// Whether a README's text carries the tag, in any case.
    public static func carriesTag(_ bytes: some Collection<UInt8>) -> Bool {
        String(decoding: bytes, as: UTF8.self).lowercased().contains(tag.lowercased())
    }
}
