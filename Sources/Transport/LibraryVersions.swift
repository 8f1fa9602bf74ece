import CCurl
import CGit2

/// The versions of the C libraries in use, for `cyd --version` and bug reports.
public enum LibraryVersions {
    /// "1.5.1" as libgit2 reports it at run time.
    public static var libgit2: String {
        if let unavailable = GitRepository.unavailable { return "not available (\(unavailable.message))" }
        var major: Int32 = 0
        var minor: Int32 = 0
        var revision: Int32 = 0
        git_libgit2_version(&major, &minor, &revision)
        return "\(major).\(minor).\(revision)"
    }

    /// libcurl's version and, in brackets, what it was built with ("7.88.1 (OpenSSL/3.0.19 ...)"),
    /// or why it could not be loaded (it is loaded on first use).
    public static var libcurl: String {
        guard let line = ccurl_version() else { return "not available (\(String(cString: ccurl_load_error())))" }
        let words = String(cString: line).split(separator: " ", maxSplits: 1)
        guard let first = words.first, first.hasPrefix("libcurl/") else { return String(cString: line) }
        let version = first.dropFirst("libcurl/".count)
        return words.count > 1 ? "\(version) (\(words[1]))" : String(version)
    }
}
