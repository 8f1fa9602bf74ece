import StoryCheck
import StoryStore
import Transport

/// Why a source could not be recognised, fetched, read or stored: cases a caller can act on.
/// `description` words them for people; the CLI escapes them for the terminal.
public enum SourceError: Error, Sendable, CustomStringConvertible {
    /// Not a folder or file that exists, and not a URL of a kind we know.
    case unrecognised(String)
    /// Plain http to another machine: anyone on the way can read and change what is fetched.
    case plainHTTP(url: String)
    /// A source stored by a newer version, of a kind this one does not know.
    case unknownKind(StorySource.Kind)
    /// A folder or file that cannot be used: it holds no story.json, or cannot be read.
    case unusableFile(path: String, reason: String)
    /// A repository with no story.json at the root of its default branch.
    case noStoryFile(url: String)
    /// The network or the git transport failed; Transport's error says how.
    case transport(source: String, failure: TransportFailure)
    /// The server answered, but not with the file.
    case httpStatus(url: String, status: Int)
    /// The story cannot be read as a story; the reports say where and why.
    case unreadable(reports: [FileReport])
    /// A picture path that leaves the story's folder or repository.
    case pathLeavesStory(String)
    /// The git cache could not be used.
    case cache(path: String, reason: String)
    /// The library refused (storage, or another story held by the source).
    case library(LibraryError)
    /// The host no longer has the commit the catalogue pins (force-pushed away, or rewritten).
    case pinnedCommitMissing(url: String, commit: String)
    /// The story was stored at the commit a catalogue pinned, and no catalogue pins it now (its
    /// keeper dropped it): it is kept as it is rather than taken at a commit nobody checked.
    case noLongerPinned(url: String, commit: String)
    /// The catalogue that pins the story expired then: what it pins may be an old copy replayed
    /// by a mirror, or a keeper who stopped publishing.
    case catalogueExpired(source: String, at: Double)
    /// A file at the pinned commit is not the one the catalogue names (its SHA-256 differs).
    case hashMismatch(url: String, path: String, expected: String, actual: String)

    public var description: String {
        switch self {
        case .unrecognised(let text):
            return "no story folder, story file or URL '\(text)'; give a story folder, a story.json, an https URL of a story.json, or a git URL"
        case .plainHTTP(let url):
            return "\(url): plain http:// is refused (anyone on the way can read and change what is fetched); use https://"
        case .unknownKind(let kind):
            return "the source kind '\(kind)' was stored by a newer version; upgrade to use it"
        case .unusableFile(let path, let reason): return "\(path): \(reason)"
        case .noStoryFile(let url): return "\(url) has no story.json at the root of its default branch"
        case .transport(let source, let failure):
            // Transport's own words usually name the URL already ("cannot clone git://...").
            let words = failure.description
            return words.contains(source) ? words : "cannot fetch \(source): \(words)"
        case .httpStatus(let url, let status): return "cannot download \(url): the server answered \(status)"
        case .unreadable(let reports):
            return "the story cannot be read (\(ReportTotals(reports).phrase)); a check of the story shows where and why"
        case .pathLeavesStory(let path): return "the path \(path) leaves the story's folder"
        case .cache(let path, let reason): return "the git cache \(path) cannot be used: \(reason)"
        case .library(let error): return error.description
        case .pinnedCommitMissing(let url, let commit):
            return "\(url) no longer has commit \(commit.prefix(12)), the version the catalogue checked (it was force-pushed away); nothing was stored, and the keeper's next publish will name a version the host has"
        case .noLongerPinned(let url, let commit):
            return "\(url) is no longer in the catalogue that checked it (you have commit \(commit.prefix(12)), the version its keeper checked); it is kept as it is, since a newer commit is one no keeper checked"
        case .catalogueExpired(let source, let at):
            return "the catalogue \(source) expired (Unix time \(Int(at))): what it pins may be an old copy replayed by a mirror, or a keeper stopped publishing"
        case .hashMismatch(let url, let path, let expected, let actual):
            return "\(path) at the catalogue's commit of \(url) is not the file the catalogue checked (SHA-256 \(actual.prefix(16))…, expected \(expected.prefix(16))…); refused, nothing was stored"
        }
    }

}

/// A failure of git or HTTP, as Transport reported it.
public enum TransportFailure: Error, Sendable, Equatable, CustomStringConvertible {
    case git(GitError)
    case http(HTTPError)

    public var description: String {
        switch self {
        case .git(let error): error.description
        case .http(let error): error.description
        }
    }
}
