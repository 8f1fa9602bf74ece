import StoryCheck

/// What `cyd --version` says: cyd's version, the C libraries it is running with, and the
/// features it was built with (`cyd serve` is the BrowserReader trait's).
public enum VersionWords {
    public static func report(libgit2: String, libcurl: String, sqlite: String, browserReader: Bool) -> String {
        let features = browserReader ? "features: BrowserReader (cyd serve)" : "features: none (cyd serve needs a build with --traits BrowserReader)"
        return """
            cyd \(CydVersion.current)
            libgit2 \(libgit2)
            libcurl \(libcurl)
            SQLite \(sqlite)
            \(features)
            """
    }
}
