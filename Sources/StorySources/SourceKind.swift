import StoryFormat
import StoryCheck
import StoryStore

/// One kind of place a story can come from. A kind recognises the strings that name it, fetches
/// the story file with the version it is at, and reads other files of the story (pictures) at a
/// version. `Sources.kinds` lists the kinds; adding one is a file with a type like this and one
/// line in that list.
public protocol SourceKind: Sendable {
    /// The name the library stores the kind under.
    static var kind: StorySource.Kind { get }
    /// The source `text` names, when it names one of this kind; nil to let the next kind try.
    /// Throws when the text is of this kind but cannot be used (plain http, a folder without a story).
    static func recognise(_ text: String) throws(SourceError) -> StorySource?
    /// The story file's bytes and the version they are at.
    static func fetch(_ source: StorySource, in context: SourceContext) throws(SourceError) -> FetchedStory
    /// Another file of the story (a picture) at `version`, by a path relative to the story file
    /// that `Sources.isSafe` accepted; nil when there is no such file.
    /// A file of the story's source at `version`, up to `limit` bytes; nil when there is none.
    static func file(_ path: String, of source: StorySource, at version: String, limit: Int, in context: SourceContext) throws(SourceError) -> [UInt8]?
    /// The same file as `SourceBytes`: a local one mapped where it is when it is large, rather
    /// than read into memory (a whole translation of a large story is 150 MB).
    static func fileSource(_ path: String, of source: StorySource, at version: String, limit: Int, in context: SourceContext) throws(SourceError) -> SourceBytes?
}

extension SourceKind {
    public static func fileSource(_ path: String, of source: StorySource, at version: String, limit: Int, in context: SourceContext) throws(SourceError) -> SourceBytes? {
        try file(path, of: source, at: version, limit: limit, in: context).map { SourceBytes(keeping: $0) }
    }
}

/// A story file as fetched.
public struct FetchedStory: Sendable {
    public let bytes: [UInt8]
    /// How findings name the file: a path, or "URL story.json".
    public let displayName: String
    private let versionSource: VersionSource

    private enum VersionSource: Sendable {
        case known(String)
        case hashing(BackgroundWork<String>)
    }

    /// A file at a known version (a commit).
    public init(bytes: [UInt8], version: String, displayName: String) {
        self.bytes = bytes
        self.displayName = displayName
        versionSource = .known(version)
    }

    /// A file with no version of its own: its version is a hash of the bytes, worked out on
    /// another core while the caller reads the story (hashing 80 MB takes a tenth of a second).
    public init(hashing bytes: [UInt8], displayName: String) {
        self.bytes = bytes
        self.displayName = displayName
        versionSource = .hashing(BackgroundWork { contentVersion(bytes) })
    }

    /// A commit, or a hash of the content.
    public var version: String {
        switch versionSource {
        case .known(let version): version
        case .hashing(let work): work.wait()
        }
    }
}

/// The exact version of a catalogue story: the commit the catalogue's keeper checked, and the
/// SHA-256 of its story.json and pictures.
public struct Pin: Sendable, Equatable {
    public var commit: String
    public var storySHA256: String?
    public var pictures: [String: String]

    public init(commit: String, storySHA256: String?, pictures: [String: String] = [:]) {
        self.commit = commit
        self.storySHA256 = storySHA256
        self.pictures = pictures
    }
}

/// What fetching needs from the outside: where caches go, and network settings.
public struct SourceContext: Sendable {
    /// Git clones are kept under `cacheDirectory/git`.
    public var cacheDirectory: String
    /// Extra certificate authorities (PEM) for https, as for `HTTPRequest`.
    public var certificateAuthorities: String?
    /// The largest story file accepted.
    public var maximumStoryBytes = 256 * 1024 * 1024
    /// A download that receives almost nothing (under 512 bytes a second) for this long is abandoned.
    public var stallSeconds = 15

    public init(cacheDirectory: String, certificateAuthorities: String? = nil) {
        self.cacheDirectory = cacheDirectory
        self.certificateAuthorities = certificateAuthorities
    }

    public init(location: LibraryLocation, certificateAuthorities: String? = nil) {
        self.init(cacheDirectory: location.cacheDirectory, certificateAuthorities: certificateAuthorities)
    }
}

/// The one place a string becomes a source, and a source becomes bytes.
public enum Sources {
    /// Tried in order: the first kind that recognises a string owns it.
    public static let kinds: [any SourceKind.Type] = [WebSource.self, GitSource.self, FolderSource.self, FileSource.self]

    /// The source a string names: an https story.json, a git URL, a story folder or a story file.
    public static func recognise(_ text: String) throws(SourceError) -> StorySource {
        for kind in kinds {
            if let source = try kind.recognise(text) { return source }
        }
        throw .unrecognised(text)
    }

    public static func kind(of source: StorySource) throws(SourceError) -> any SourceKind.Type {
        guard let kind = kinds.first(where: { $0.kind == source.kind }) else { throw .unknownKind(source.kind) }
        return kind
    }

    public static func fetch(_ source: StorySource, in context: SourceContext) throws(SourceError) -> FetchedStory {
        try kind(of: source).fetch(source, in: context)
    }

    /// A file of the story at a version; the path is checked to stay inside the story first.
    /// A file of the story's source (a picture by default: up to 10 MB).
    public static func file(
        _ path: String, of source: StorySource, at version: String, limit: Int = 10 * 1024 * 1024, in context: SourceContext
    ) throws(SourceError) -> [UInt8]? {
        guard isSafe(path) else { throw .pathLeavesStory(path) }
        return try kind(of: source).file(path, of: source, at: version, limit: limit, in: context)
    }

    /// The same file as `SourceBytes` (mapped when it is a large local file).
    public static func fileSource(
        _ path: String, of source: StorySource, at version: String, limit: Int = 10 * 1024 * 1024, in context: SourceContext
    ) throws(SourceError) -> SourceBytes? {
        guard isSafe(path) else { throw .pathLeavesStory(path) }
        return try kind(of: source).fileSource(path, of: source, at: version, limit: limit, in: context)
    }

    /// A relative path that stays inside the story: no "..", no absolute path, no backslash.
    public static func isSafe(_ path: String) -> Bool {
        !path.isEmpty && !path.hasPrefix("/") && !path.contains("\\")
            && !path.split(separator: "/", omittingEmptySubsequences: false).contains("..")
    }
}
