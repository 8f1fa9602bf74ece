#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LocalFiles
import StoryCheck
import StoryFormat
import Transport

/// One side of a story change: story.json's bytes as a folder, a file or a git revision holds
/// them, and a way to read the story's other files (pictures, translations) from the same place.
public struct StoryVersion: Sendable {
    /// Where it came from, as the reader named it.
    public enum Origin: Sendable, Equatable {
        case folder(String)
        case file(String)
        /// A revision of the repository (`HEAD~1`, `main`) and the commit it named.
        case revision(String, commit: String)
    }

    public var origin: Origin
    /// The story.json's bytes: a large file mapped (`SourceBytes.open`, as validation maps
    /// it), not copied.
    public var source: SourceBytes
    /// Reads a file of the story by its path relative to the story's folder (`resources/x.png`,
    /// `translations/fr.po`); nil when there is none or it cannot be read.
    let read: @Sendable (String) -> [UInt8]?

    public init(origin: Origin, source: SourceBytes, read: @escaping @Sendable (String) -> [UInt8]?) {
        self.origin = origin
        self.source = source
        self.read = read
    }

    /// A version of bytes read already (kept as they are, not copied).
    public init(origin: Origin, bytes: [UInt8], read: @escaping @Sendable (String) -> [UInt8]?) {
        self.init(origin: origin, source: SourceBytes(keeping: bytes), read: read)
    }

    /// How the reader named it: the path, or the revision and its short commit.
    public var label: String {
        switch origin {
        case .folder(let path), .file(let path): path
        case .revision(let revision, let commit): "\(revision) (\(commit.prefix(8)))"
        }
    }

    /// A file of the story beside story.json, bounded.
    public func file(_ relative: String) -> [UInt8]? {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !relative.isEmpty, !relative.hasPrefix("/"), parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else { return nil }
        return read(relative)
    }

    /// The largest story.json read (the largest story cyd adds).
    public static let largestStory = 256 * 1024 * 1024
    /// The largest picture or translation read.
    public static let largestFile = 64 * 1024 * 1024

    /// Why a side could not be read.
    public enum Problem: Error, Sendable, Equatable {
        /// Neither a file, a folder nor a revision of the repository.
        case notFound(String, repository: String?)
        /// A folder without story.json, or a revision whose tree has no story.json there.
        case noStory(String, path: String)
        case unreadable(String, reason: String)
        /// More than `largestStory` bytes.
        case tooLarge(String, limit: Int)
        /// The repository could not be opened (libgit2's words).
        case repository(String, reason: String)
    }

    /// `load`, its problem kept as a value: a diff describes one side when the other fails.
    public static func result(_ name: String, storyFolder: String) -> Result<StoryVersion, Problem> {
        Result { () throws(Problem) in try load(name, storyFolder: storyFolder) }
    }

    /// The story as readers read it; nil when the bytes are not one.
    public var story: Story? {
        LoadedFile.asReadersRead(source).story.flatMap(StoryJSON.model)
    }

    /// The version `name` names: a story folder, a story file, or a revision of the git
    /// repository that holds `storyFolder` (its story.json at that revision).
    public static func load(_ name: String, storyFolder: String) throws(Problem) -> StoryVersion {
        if let status = FileStatus(name) {
            if status.isDirectory {
                let path = name.hasSuffix("/") ? name + "story.json" : name + "/story.json"
                guard FileStatus(path)?.isRegularFile == true else { throw .noStory(name, path: path) }
                return try local(path, folder: name, origin: .folder(name))
            }
            return try local(name, folder: AtomicFile.parentFolder(of: name), origin: .file(name))
        }
        return try revision(name, storyFolder: storyFolder)
    }

    private static func local(_ path: String, folder: String, origin: Origin) throws(Problem) -> StoryVersion {
        let source: SourceBytes
        do {
            source = try SourceBytes.open(path, limit: largestStory)
        } catch {
            if case .tooLarge = error { throw .tooLarge(path, limit: largestStory) }
            throw .unreadable(path, reason: error.description)
        }
        return StoryVersion(origin: origin, source: source) { relative in try? LocalFile.read(relative, inside: folder, limit: largestFile) }
    }

    private static func revision(_ name: String, storyFolder: String) throws(Problem) -> StoryVersion {
        let repository: GitRepository
        do {
            guard let found = try GitRepository.containing(storyFolder) else { throw Problem.notFound(name, repository: nil) }
            repository = found
        } catch let problem as Problem {
            throw problem
        } catch {
            throw .repository(storyFolder, reason: String(describing: error))
        }
        guard let commit = repository.commit(name) else { throw .notFound(name, repository: repository.workTree ?? repository.path) }
        // The story folder's place in the work tree: where story.json sits in every revision.
        let prefix = relativePrefix(of: storyFolder, in: repository.workTree ?? "")
        let storyPath = prefix + "story.json"
        let found: [UInt8]?
        do {
            found = try repository.file(storyPath, at: commit)
        } catch {
            throw .unreadable("\(name):\(storyPath)", reason: String(describing: error))
        }
        guard let bytes = found else { throw .noStory(name, path: storyPath) }
        guard bytes.count <= largestStory else { throw .tooLarge("\(name):\(storyPath)", limit: largestStory) }
        let shared = SharedRepository(repository)
        return StoryVersion(origin: .revision(name, commit: commit), bytes: bytes) { relative in
            shared.withLock { repository in
                guard let bytes = try? repository.file(prefix + relative, at: commit), bytes.count <= largestFile else { return nil }
                return bytes
            }
        }
    }

    /// `folder`'s path inside the work tree `root` (`stories/tide/`), empty at the root.
    static func relativePrefix(of folder: String, in root: String) -> String {
        guard !root.isEmpty, let resolved = realpath(folder, nil) else { return "" }
        defer { free(resolved) }
        var path = String(cString: resolved)
        var top = root.hasSuffix("/") ? String(root.dropLast()) : root
        if let real = realpath(top, nil) {
            top = String(cString: real)
            free(real)
        }
        guard path.hasPrefix(top) else { return "" }
        path.removeFirst(top.count)
        while path.hasPrefix("/") { path.removeFirst() }
        return path.isEmpty ? "" : path + "/"
    }
}

/// A repository read from one thread at a time (libgit2's objects are not shared across threads).
final class SharedRepository: @unchecked Sendable {
    private let repository: GitRepository
    private let lock = Lock()

    init(_ repository: GitRepository) { self.repository = repository }

    func withLock<T>(_ body: (GitRepository) -> T) -> T { lock.withLock { body(repository) } }
}
