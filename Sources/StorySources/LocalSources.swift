import LocalFiles
import StoryCheck
import StoryFormat
import StoryStore

/// A story folder: its story.json, keyed by the folder's real path (symlinks and ".." resolved,
/// so one folder is one story however it is named). A path to a story.json is its folder.
public enum FolderSource: SourceKind {
    public static let kind = StorySource.Kind.folder

    public static func recognise(_ text: String) throws(SourceError) -> StorySource? {
        guard let status = FileStatus(text) else { return nil }
        guard let real = LocalFile.realPath(text) else { throw .unusableFile(path: text, reason: "its real path cannot be found") }
        if status.isDirectory {
            guard FileStatus(real + "/story.json") != nil else {
                throw .unusableFile(path: text, reason: "the folder has no story.json; give a story folder or a story file")
            }
            return StorySource(kind: kind, location: real)
        }
        guard real.hasSuffix("/story.json") else { return nil }  // any other file: FileSource
        return StorySource(kind: kind, location: String(real.dropLast("/story.json".count)))
    }

    public static func fetch(_ source: StorySource, in context: SourceContext) throws(SourceError) -> FetchedStory {
        try LocalStory.fetch(path: source.location + "/story.json", limit: context.maximumStoryBytes)
    }

    public static func file(_ path: String, of source: StorySource, at version: String, limit: Int, in context: SourceContext) throws(SourceError) -> [UInt8]? {
        try LocalStory.file(path, inside: source.location, limit: limit)
    }

    public static func fileSource(_ path: String, of source: StorySource, at version: String, limit: Int, in context: SourceContext) throws(SourceError) -> SourceBytes? {
        try LocalStory.fileSource(path, inside: source.location, limit: limit)
    }
}

/// Any other story file (tide.json beside other stories), keyed by its own real path.
public enum FileSource: SourceKind {
    public static let kind = StorySource.Kind.file

    public static func recognise(_ text: String) throws(SourceError) -> StorySource? {
        guard let status = FileStatus(text), !status.isDirectory else { return nil }
        guard let real = LocalFile.realPath(text) else { throw .unusableFile(path: text, reason: "its real path cannot be found") }
        return StorySource(kind: kind, location: real)
    }

    public static func fetch(_ source: StorySource, in context: SourceContext) throws(SourceError) -> FetchedStory {
        try LocalStory.fetch(path: source.location, limit: context.maximumStoryBytes)
    }

    public static func file(_ path: String, of source: StorySource, at version: String, limit: Int, in context: SourceContext) throws(SourceError) -> [UInt8]? {
        let folder = source.location[..<(source.location.lastIndex(of: "/") ?? source.location.startIndex)]
        return try LocalStory.file(path, inside: folder.isEmpty ? "/" : String(folder), limit: limit)
    }
}

/// What the two local kinds share: regular files only, never through a link out of the folder.
/// The version of a local story is a hash of its bytes (the current file is the only version).
enum LocalStory {
    /// Pictures are read up to this size.
    static let maximumPictureBytes = 10 * 1024 * 1024

    static func fetch(path: String, limit: Int) throws(SourceError) -> FetchedStory {
        do {
            let bytes = try LocalFile.read(path, limit: limit)
            return FetchedStory(hashing: bytes, displayName: path)
        } catch {
            throw .unusableFile(path: path, reason: error.description)
        }
    }

    static func file(_ relative: String, inside folder: String, limit: Int = maximumPictureBytes) throws(SourceError) -> [UInt8]? {
        do {
            return try LocalFile.read(relative, inside: folder, limit: limit)
        } catch .missing {
            return nil
        } catch {
            throw .unusableFile(path: relative, reason: error.description)
        }
    }

    /// The same, mapped when it is large; the same rules (a regular file, never through a link
    /// out of the folder).
    static func fileSource(_ relative: String, inside folder: String, limit: Int) throws(SourceError) -> SourceBytes? {
        do {
            return try SourceBytes.open(LocalFile.path(relative, inside: folder), limit: limit)
        } catch .missing {
            return nil
        } catch {
            throw .unusableFile(path: relative, reason: error.description)
        }
    }
}

/// XXH64 of the bytes: the version of a source that has no commit ("xxh64:" and 16 hex digits).
/// Versions made before it were FNV-1a's ("fnv64:"): a story stored with one is stored again,
/// unchanged, the first time it is updated or read from its folder.
public func contentVersion(_ bytes: [UInt8]) -> String {
    bytes.withUnsafeBufferPointer(contentVersion)
}

/// The same, of a file's bytes (mapped or not).
func contentVersion(_ bytes: SourceBytes) -> String {
    bytes.withUnsafeBufferPointer(contentVersion)
}

func contentVersion(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    let hex = String(XXH64.hash(bytes), radix: 16)
    return "xxh64:" + String(repeating: "0", count: 16 - hex.count) + hex
}
