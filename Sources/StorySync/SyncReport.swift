#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import LocalFiles
import StorySources
import StoryStore

/// What one sync did, repository by repository, as cases a caller can act on. Nothing here is
/// escaped for a terminal: the CLI does that when it prints.
public struct SyncReport: Sendable {
    /// The five columns of the summary.
    public enum Change: String, Sendable, Equatable {
        /// A story new to the catalogue, or one that changed since the last sync.
        case new, updated
        /// Nothing moved: nothing was fetched.
        case unchanged
        /// Checked less than the maximum age ago: not asked.
        case recent
        /// Not a story: skipped quietly.
        case notStory = "not-story"
        /// A broken source: reported, skipped, and the sync exits 1.
        case failed
        /// Its new upstream version cannot be read: the last good version stays offered.
        case broken
        /// In the catalogue at the last sync, gone now (each is named).
        case removed
        /// Its repository cannot be reached (gone, or its host down): still offered at the
        /// version last checked, marked, so readers are told before they try.
        case unreachable
    }

    public enum Outcome: Sendable, Equatable {
        case new, updated, unchanged, recent
        case notStory(NotStoryReason)
        case failed(SyncFailure)
        /// Upstream broken since (Unix time), why; the last good version is kept and offered.
        case broken(since: Double, reason: String)
        case removed
        /// Unreachable since (Unix time), why; the version last checked stays offered, marked.
        case unreachable(since: Double, reason: String)

        public var change: Change {
            switch self {
            case .broken: .broken
            case .unreachable: .unreachable
            case .removed: .removed
            case .new: .new
            case .updated: .updated
            case .unchanged: .unchanged
            case .recent: .recent
            case .notStory: .notStory
            case .failed: .failed
            }
        }
    }

    /// Why a discovered repository is not a story: nobody's fault, so not a failure.
    public enum NotStoryReason: String, Sendable, Equatable {
        /// A GitHub repository without a README.
        case noReadme
        /// A GitHub repository whose README lacks the tag.
        case untagged
        /// A GitHub repository whose README mentions the tag but that holds no story.json (the
        /// reader app's own repository mentions the tag in its instructions).
        case noStoryFile
    }

    public enum SyncFailure: Sendable, Equatable {
        /// story.json is there but cannot be read as a story; the first findings, located.
        case invalidStory([Finding])
        /// A repository authors.json lists explicitly has no story.json.
        case noStoryFile
        /// git or HTTP failed.
        case transport(TransportFailure)
        /// GitHub answered a request about the repository with an error.
        case gitHub(GitHubAPI.Failure)
        /// The library or the cache could not be written.
        case storage(StorageProblem)
        /// An entry of a published index that cannot be used (a missing key, a number out of
        /// range, a control character, an id listed twice): skipped, the others are used.
        case invalidIndexEntry(Finding)
        /// The repository's last check failed (why, in words): it is not published.
        case lastCheck(String)
    }

    /// A finding with its place: what a person needs to fix it.
    public struct Finding: Sendable, Equatable, CustomStringConvertible {
        public var file: String
        public var line: Int
        public var column: Int
        public var code: String
        public var message: String
        public var help: String?

        public var description: String {
            "\(file):\(line):\(column): \(code) \(message)" + (help.map { " (\($0))" } ?? "")
        }
    }

    public enum ItemWarning: Sendable, Equatable {
        /// A repository listed in authors.json whose README does not carry the tag (or that has
        /// no README): still a story, since the author listed it.
        case untaggedListed(hasReadme: Bool)
        /// An index entry whose id was another repository's at the last sync.
        case moved(from: String)

        /// How the library keeps a warning that outlives the sync (decisions read the code, never
        /// the words); nil for one that is not kept.
        public var storedCode: String? {
            switch self {
            case .untaggedListed(let hasReadme): hasReadme ? "untagged-listed" : "no-readme-listed"
            case .moved: nil
            }
        }

        public init?(storedCode: String) {
            switch storedCode {
            case "untagged-listed": self = .untaggedListed(hasReadme: true)
            case "no-readme-listed": self = .untaggedListed(hasReadme: false)
            default: return nil
            }
        }
    }

    public struct Item: Sendable {
        public var id: String
        public var url: String
        public var outcome: Outcome
        public var title: String?
        public var warning: ItemWarning?

        public var change: Change { outcome.change }

        public init(id: String, url: String, outcome: Outcome, title: String? = nil, warning: ItemWarning? = nil) {
            self.id = id
            self.url = url
            self.outcome = outcome
            self.title = title
            self.warning = warning
        }

        /// Why it failed, why it is not a story, or what it warns of, in words.
        public var detail: String? {
            switch outcome {
            case .notStory(let reason): SyncWords.notStory(reason)
            case .failed(let failure): SyncWords.failure(failure)
            case .broken(let since, let reason): SyncWords.broken(since: since, reason: reason)
            case .removed: "no longer in the catalogue"
            case .unreachable(let since, let reason): SyncWords.unreachable(since: since, reason: reason)
            default: warning.map(SyncWords.warning)
            }
        }
    }

    public enum AuthorFailure: Sendable, Equatable {
        /// The author's entry in authors.json cannot be used (a name GitHub would refuse, a
        /// repository that is not a git URL).
        case invalidEntry(Finding)
        case unknownGitHubUser
        case gitHub(GitHubAPI.Failure)
        case storage(StorageProblem)
    }

    public var items: [Item] = []
    public var authorFailures: [(author: String, failure: AuthorFailure)] = []
    /// Warnings about authors.json itself (duplicates, unknown keys), with their positions.
    public var catalogueWarnings: [Finding] = []
    /// When GitHub's rate limit stopped discovery: when it refills (Unix time), if GitHub said.
    public var rateLimited: (reset: Double?, message: String)?
    /// Authors synced without an error of their own.
    public var authors: Int = 0
    /// Whether the catalogue was a published index (no GitHub, no ls-remote).
    public var fromIndex = false
    /// The key (its number, hex) of a signed catalogue trusted for the first time by this sync.
    public var trustedOnFirstUse: String?
    /// The version of the published root applied.
    public var catalogueVersion: Int?
    /// The keys of a handover followed by this sync: from the key trusted before to the new one.
    public var handedOver: (from: String, to: String)?
    /// What was verified of a published catalogue (nil for an authors.json).
    public var verification: Verification?

    /// What a reader's sync verified of a published catalogue.
    public enum Verification: Sendable, Equatable {
        /// The root was signed by this key (its fingerprint), at this version, expiring then.
        case signed(key: String, version: Int, expiresAt: Double)
        /// An unsigned root or index: no key is trusted for this catalogue.
        case unsigned
    }

    public init() {}

    public var hasFailures: Bool { items.contains { $0.change == .failed } || !authorFailures.isEmpty || rateLimited != nil }
    public func count(_ change: Change) -> Int { items.count { $0.change == change } }
}

/// Errors and outcomes in words, for people (the CLI escapes them).
public enum SyncWords {
    public static func notStory(_ reason: SyncReport.NotStoryReason) -> String {
        switch reason {
        case .noReadme: "no README"
        case .untagged: "its README does not carry \(CatalogueSync.tag)"
        case .noStoryFile: "its README mentions \(CatalogueSync.tag), but it has no story.json at the root of its default branch"
        }
    }

    public static func failure(_ failure: SyncReport.SyncFailure) -> String {
        switch failure {
        case .invalidStory(let findings):
            let first = findings.first.map { "\($0)" } ?? "no readable chapters"
            // Whether it is offered is said where it is known (a story that was good keeps its
            // last good version on offer): the reason says only what is wrong.
            return "invalid story: \(first)\(findings.count > 1 ? " and \(findings.count - 1) more" : "")"
        case .noStoryFile: return "no story.json at the root of the default branch (authors.json lists it as a story)"
        case .transport(let failure): return failure.description
        case .gitHub(let failure): return failure.description
        case .storage(let problem): return problem.description
        case .invalidIndexEntry(let finding): return "the index entry cannot be used (not offered): \(finding)"
        case .lastCheck(let reason): return "not published: \(reason)"
        }
    }

    public static func unreachable(since: Double, reason: String) -> String {
        "unreachable since \(date(since)); offered at the version last checked, which a download may not reach: \(reason)"
    }

    public static func broken(since: Double, reason: String) -> String {
        "upstream broken since \(date(since)); the last good version is kept: \(reason)"
    }

    /// "2026-11-24 13:05 UTC".
    public static func date(_ time: Double) -> String { UTCTime(time).dateAndClock }

    public static func warning(_ warning: SyncReport.ItemWarning) -> String {
        switch warning {
        case .untaggedListed(let hasReadme):
            hasReadme
                ? "README.md does not mention \(CatalogueSync.tag); listed in authors.json, so offered anyway"
                : "no README.md; listed in authors.json, so offered anyway (a README with \(CatalogueSync.tag) lets GitHub discovery find it)"
        case .moved(let from): "moved: this id was \(from) at the last sync"
        }
    }

    public static func author(_ failure: SyncReport.AuthorFailure, name: String) -> String {
        switch failure {
        case .invalidEntry(let finding): "\(finding)"
        case .unknownGitHubUser: "GitHub has no user named \(name)"
        case .gitHub(let failure): failure.description
        case .storage(let problem): problem.description
        }
    }
}
