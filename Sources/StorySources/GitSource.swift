#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import LocalFiles
import StoryFormat
import StoryStore
import Transport

/// Stories that live in git repositories: cloned bare into the cache with libgit2, fetched again
/// to update, and read from the default branch's story.json without a checkout. Pictures are read
/// from the same clone, at the commit the story was stored from.
public enum GitSource: SourceKind {
    public static let kind = StorySource.Kind.git

    /// https://, git://, ssh://, file://, user@host:path, and plain http to this machine.
    public static func recognise(_ text: String) throws(SourceError) -> StorySource? {
        isGitURL(text) ? StorySource(kind: kind, location: text) : nil
    }

    /// Whether a string names a git repository rather than a folder.
    public static func isGitURL(_ source: String) -> Bool {
        ["https://", "git://", "ssh://", "file://"].contains { source.hasPrefix($0) } || source.wholeMatch(of: /[^@\s\/:]+@[^:\s\/]+:\S+/) != nil
            || isLoopbackHTTP(source)  // plain http: this machine only
    }

    public static func fetch(_ source: StorySource, in context: SourceContext) throws(SourceError) -> FetchedStory {
        let url = source.location
        let repository: GitRepository
        let commit: String
        do {
            (repository, commit) = try update(url, cache: cachePath(for: url, in: context))
        } catch let error as GitError {
            throw .transport(source: url, failure: .git(error))
        } catch let error as SourceError {
            throw error
        } catch {
            throw .cache(path: cachePath(for: url, in: context), reason: String(describing: error))
        }
        let bytes: [UInt8]?
        do { bytes = try repository.file("story.json", at: commit) } catch { throw .transport(source: url, failure: .git(error)) }
        guard let bytes else { throw .noStoryFile(url: url) }
        return FetchedStory(bytes: bytes, version: commit, displayName: "\(url) story.json")
    }

    /// The story file at exactly `pin.commit`, checked against `pin.storySHA256`: from the clone
    /// when it has the commit, else after fetching the branches, else after asking for the commit
    /// by id. Refused in words when the host no longer has it or the bytes differ.
    public static func fetch(_ url: String, pinned pin: Pin, in context: SourceContext) throws(SourceError) -> FetchedStory {
        let cache = cachePath(for: url, in: context)
        var repository = try? GitRepository.open(cache)
        if repository?.hasCommit(pin.commit) != true {
            do {
                let (updated, _) = try update(url, cache: cache)
                repository = updated
                if !updated.hasCommit(pin.commit) { try updated.fetch(commit: pin.commit, from: url) }
            } catch let error as GitError {
                throw .transport(source: url, failure: .git(error))
            } catch let error as SourceError {
                throw error
            } catch {
                throw .cache(path: cache, reason: String(describing: error))
            }
        }
        guard let repository, repository.hasCommit(pin.commit) else { throw .pinnedCommitMissing(url: url, commit: pin.commit) }
        let bytes: [UInt8]?
        do { bytes = try repository.file("story.json", at: pin.commit) } catch { throw .transport(source: url, failure: .git(error)) }
        guard let bytes else { throw .noStoryFile(url: url) }
        if let expected = pin.storySHA256 {
            let actual: String
            do { actual = try Digest.sha256Hex(bytes) } catch { throw .hashMismatch(url: url, path: "story.json", expected: expected, actual: error.description) }
            guard actual == expected else { throw .hashMismatch(url: url, path: "story.json", expected: expected, actual: actual) }
        }
        for (path, expected) in pin.pictures.sorted(by: { $0.key < $1.key }) where Sources.isSafe(path) {
            guard let picture = try? repository.file(path, at: pin.commit) else { continue }
            let actual = (try? Digest.sha256Hex(picture)) ?? ""
            guard actual == expected else { throw .hashMismatch(url: url, path: path, expected: expected, actual: actual) }
        }
        return FetchedStory(bytes: bytes, version: pin.commit, displayName: "\(url) story.json")
    }

    public static func file(_ path: String, of source: StorySource, at version: String, limit: Int, in context: SourceContext) throws(SourceError) -> [UInt8]? {
        let bytes: [UInt8]?
        do {
            let repository = try GitRepository.open(cachePath(for: source.location, in: context))
            bytes = try repository.file(path, at: version)
        } catch {
            throw .transport(source: source.location, failure: .git(error))
        }
        if let bytes, bytes.count > limit { throw .unusableFile(path: path, reason: "it is larger than \(limit >> 20) MB") }
        return bytes
    }

    /// Where the bare clone of a repository is kept: a readable name and a hash of the URL.
    public static func cachePath(for url: String, in context: SourceContext) -> String {
        cachePath(for: url, cacheDirectory: context.cacheDirectory)
    }

    public static func cachePath(for url: String, cacheDirectory: String) -> String {
        let name = url.split(whereSeparator: { $0 == "/" || $0 == ":" }).last.map(String.init) ?? "repository"
        let safe = String(name.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }.prefix(40))
        let hash = String(FNV1a.hash(Array(url.utf8)), radix: 16)
        return cacheDirectory + "/git/" + (safe.isEmpty ? "repository" : safe) + "-" + hash
    }

    /// Brings the bare clone of `url` at `cache` up to date (fetching, or cloning when there is
    /// none yet) and returns it with the commit of its HEAD.
    ///
    /// One thread or process at a time fetches into a cache entry (flock on its folder, released
    /// by the system if the process dies), so lock files git left inside by a process that was
    /// killed are known to be stale, and are cleared before fetching.
    public static func update(_ url: String, cache: String, progress: ((GitProgress) -> Bool)? = nil) throws -> (GitRepository, String) {
        if FileManager.default.fileExists(atPath: cache) {
            // The repository folder itself carries the lock (flock works on directories).
            let lock = open(cache, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if lock >= 0 {
                while flock(lock, LOCK_EX) != 0 && errno == EINTR {}
            }
            defer {
                if lock >= 0 { close(lock) }  // closing releases the lock
            }
            removeStaleLocks(in: cache)
            if let repository = try? GitRepository.open(cache) {
                return (repository, try repository.fetch(from: url, progress: progress))
            }
            // Not a repository any more (damaged by hand or by a disk problem): the cache is only
            // a cache, so it is cloned afresh.
            do {
                try FileManager.default.removeItem(atPath: cache)
            } catch {
                throw SourceError.cache(path: cache, reason: "a damaged clone cannot be removed (\(Self.folderProblem(cache)))")
            }
        }
        let repository = try cloneAtomically(url, to: cache, progress: progress)
        return (repository, try repository.headCommit())
    }

    /// git's own lock files (refs/heads/main.lock, packed-refs.lock, config.lock, ...) left by a
    /// process killed mid-fetch; only called while holding the entry's lock.
    static func removeStaleLocks(in repository: String) {
        guard let walker = FileManager.default.enumerator(atPath: repository) else { return }
        var visited = 0
        while let name = walker.nextObject() as? String, visited < 100_000 {
            visited += 1
            if name.hasSuffix(".lock") { try? FileManager.default.removeItem(atPath: repository + "/" + name) }
        }
    }

    /// Clones into a temporary folder beside the cache entry and renames it into place, so a clone
    /// killed half-way never looks like a repository. Leftovers of killed processes are removed.
    static func cloneAtomically(_ url: String, to path: String, progress: ((GitProgress) -> Bool)? = nil) throws -> GitRepository {
        let slash = path.lastIndex(of: "/") ?? path.startIndex
        let parent = String(path[..<slash])
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw SourceError.cache(path: parent, reason: "the folder cannot be made (\(Self.folderProblem(parent)))")
        }
        let prefix = String(path[path.index(after: slash)...]) + ".partial-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? [] where name.hasPrefix(prefix) {
            if let pid = Int32(name.dropFirst(prefix.count)), kill(pid, 0) == 0 || errno == EPERM { continue }  // still cloning
            try? FileManager.default.removeItem(atPath: parent + "/" + name)
        }
        let temporary = path + ".partial-\(getpid())"
        try? FileManager.default.removeItem(atPath: temporary)
        // An empty template: no sample hooks, description or info/exclude in every clone.
        let template = parent + "/.empty-template"
        try? FileManager.default.createDirectory(atPath: template, withIntermediateDirectories: true)
        do {
            _ = try GitRepository.cloneBare(url, to: temporary, templatePath: template, progress: progress)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
        if rename(temporary, path) != 0 {
            // Another process cloned it first: theirs is as good as ours.
            try? FileManager.default.removeItem(atPath: temporary)
            guard FileManager.default.fileExists(atPath: path) else { throw SourceError.cache(path: path, reason: "the clone of \(url) cannot be moved into place") }
        }
        return try GitRepository.open(path)
    }

    /// Why a cache folder cannot be made or changed, in words: the nearest existing folder on
    /// the way, and what is wrong with it (Foundation's own error texts never reach a reader).
    static func folderProblem(_ path: String) -> String {
        var probe = path
        while !probe.isEmpty, access(probe, F_OK) != 0 { probe = String(probe[..<(probe.lastIndex(of: "/") ?? probe.startIndex)]) }
        if probe.isEmpty { probe = "/" }
        if let status = FileStatus(probe), !status.isDirectory { return "'\(probe)' is not a folder" }
        if access(probe, W_OK) != 0 { return errno == EROFS ? "the file system is read-only" : "'\(probe)' cannot be written (permission denied)" }
        return "the disk may be full"
    }
}
