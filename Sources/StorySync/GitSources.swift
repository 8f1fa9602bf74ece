#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import StoryFormat
import StoryStore
import Transport

/// Stories that live in git repositories: cloned bare into the cache with libgit2, fetched again
/// to update, and imported from the default branch's story.json without a checkout.
public enum GitSources {
    /// Whether a source names a git repository rather than a folder.
    public static func isGitURL(_ source: String) -> Bool {
        ["https://", "git://", "ssh://", "file://"].contains { source.hasPrefix($0) } || source.wholeMatch(of: /[^@\s\/:]+@[^:\s\/]+:\S+/) != nil
    }

    /// Clones (or fetches) the repository and imports its story.json at the remote HEAD.
    public static func add(_ url: String, to library: StoryLibrary, author: String? = nil) throws -> ImportResult {
        let cache = library.location.gitCachePath(for: url)
        let repository: GitRepository
        if FileManager.default.fileExists(atPath: cache) {
            repository = try GitRepository.open(cache)
            try repository.fetch()
        } else {
            repository = try cloneAtomically(url, to: cache)
        }
        let commit = try repository.headCommit()
        guard let bytes = try repository.file("story.json", at: commit) else {
            throw ImportError.input("\(VisibleText.escape(url)) has no story.json at the root of its default branch")
        }
        return try library.importStory(
            bytes: bytes, displayPath: "\(url) story.json", source: StorySource(kind: .git, location: url), version: commit, author: author)
    }

    /// Clones into a temporary folder beside the cache entry and renames it into place, so a clone
    /// killed half-way never looks like a repository.
    static func cloneAtomically(_ url: String, to path: String) throws -> GitRepository {
        let parent = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        let temporary = path + ".partial-\(getpid())"
        try? FileManager.default.removeItem(atPath: temporary)
        do {
            _ = try GitRepository.cloneBare(url, to: temporary)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
        try FileManager.default.moveItem(atPath: temporary, toPath: path)
        return try GitRepository.open(path)
    }
}
