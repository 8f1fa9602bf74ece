/// Where a story came from; the key of a story in the library.
public struct StorySource: Sendable, Hashable, CustomStringConvertible {
    /// `folder`: a story folder (its story.json); `file`: any other story file, keyed by its own
    /// path, so two files in one folder are two stories; `git`; `url`: an https story.json.
    public enum Kind: String, Sendable { case folder, file, git, url }
    public var kind: Kind
    /// An absolute folder or file path, a git URL or an https URL.
    public var location: String

    public init(kind: Kind, location: String) {
        self.kind = kind
        self.location = location
    }

    /// "folder:/home/ana/stories/tide": unique, and what progress is keyed by.
    public var key: String { "\(kind.rawValue):\(location)" }
    public var description: String { key }

    /// The folder pictures are read from, for folder and file sources.
    public var folder: String? {
        switch kind {
        case .folder: location
        case .file: String(location[..<(location.lastIndex(of: "/") ?? location.startIndex)])
        case .git, .url: nil
        }
    }

    public init?(key: String) {
        guard let colon = key.firstIndex(of: ":"), let kind = Kind(rawValue: String(key[..<colon])) else { return nil }
        self.init(kind: kind, location: String(key[key.index(after: colon)...]))
    }
}

/// A story in the library.
public struct StoryRecord: Sendable, Hashable {
    public var id: Int64
    public var source: StorySource
    /// The author's id for the story (not unique across authors).
    public var storyKey: String
    public var title: String
    public var rating: String
    public var summary: String
    public var author: String?
    public var picPath: String?
    public var version: String
    public var firstChapter: String
    public var chapterCount: Int
    public var endingCount: Int
    public var addedAt: Double
    public var updatedAt: Double
}

public struct ChoiceRecord: Sendable, Hashable {
    public var position: Int
    public var target: String
    public var label: String
    /// False when the target chapter does not exist (the validator reports it; readers show the
    /// choice as unavailable).
    public var isAvailable: Bool
}

/// One chapter with its choices: all a reader needs to show it, loaded on its own.
public struct ChapterRecord: Sendable, Hashable {
    public var key: String
    public var position: Int
    public var name: String
    public var body: String
    public var picPath: String?
    public var vidPath: String?
    public var isMarkedEnding: Bool
    public var choices: [ChoiceRecord]

    /// Reading ends here.
    public var isEnding: Bool { choices.isEmpty }
}

public struct Progress: Sendable, Hashable {
    public var chapterKey: String
    /// Chapters visited before the current one, oldest first (bounded).
    public var history: [String]
    public var updatedAt: Double

    public init(chapterKey: String, history: [String], updatedAt: Double) {
        self.chapterKey = chapterKey
        self.history = history
        self.updatedAt = updatedAt
    }
}

public struct Bookmark: Sendable, Hashable {
    public var name: String
    public var chapterKey: String
    public var createdAt: Double
}

public struct Note: Sendable, Hashable {
    public var id: Int64
    public var chapterKey: String
    public var body: String
    public var createdAt: Double
}

public struct StoredPicture: Sendable, Hashable {
    public var path: String
    public var data: [UInt8]
    public var mediaType: String?

    public init(path: String, data: [UInt8], mediaType: String?) {
        self.path = path
        self.data = data
        self.mediaType = mediaType
    }
}

public struct SearchHit: Sendable, Hashable {
    public var story: StoryRecord
    /// The best-matching chapter, when the match is in chapter text or a chapter title.
    public var chapterKey: String?
    /// A short excerpt with the match between « and ».
    public var snippet: String
}
