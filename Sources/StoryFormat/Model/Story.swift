#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A story as its reader sees it: plain values, no source positions.
public struct Story: Sendable, Hashable {
    /// The author's id. Not unique across authors ("story01" is common).
    public var id: String
    public var name: String
    /// Audience rating; the original reader had badges for "G" and "PG".
    public var rating: String
    public var summary: String
    public var picPath: String?
    public var vidPath: String?
    /// Extension: what Twine keeps of a story that a story.json has no other place for (its
    /// IFID, story format and version, zoom, tags and tag colours), as `cyd import twee` and
    /// `cyd import twine` found it, so an export gives it back. Kept as written; readers ignore it.
    public var twine: JSONValue?
    public var chapters: [Chapter]

    public init(
        id: String, name: String, rating: String, summary: String, picPath: String? = nil,
        vidPath: String? = nil, twine: JSONValue? = nil, chapters: [Chapter]
    ) {
        self.id = id
        self.name = name
        self.rating = rating
        self.summary = summary
        self.picPath = picPath
        self.vidPath = vidPath
        self.twine = twine
        self.chapters = chapters
    }

    /// Where reading starts: the first chapter marked `is_first_chapter`, as the original reader chose.
    public var firstChapter: Chapter? { chapters.first(where: \.isFirstChapter) }

    public func chapter(id: String) -> Chapter? { chapters.first { $0.id == id } }
}

public struct Chapter: Sendable, Hashable {
    public var id: String
    public var name: String
    /// Paragraphs separated by blank lines; `[[name]]` stands for the reader's first name.
    public var text: String
    // Declared before the flags (the initializer takes them after): the memberwise initializer
    // then never matches a call written for the public one, so both can be (see the extension).
    public var choices: [Choice]
    public var isFirstChapter: Bool
    /// Extension: `"is_ending": true` marks a chapter without choices as an intended ending.
    public var isEnding: Bool
    public var picPath: String?
    /// Extension: `pic_alt` says what the chapter's picture shows, for readers who cannot see it
    /// (a screen reader, pictures off); without it the chapter's title stands in.
    public var picAlt: String?
    public var vidPath: String?
    /// Extension: what Twine keeps of the chapter's passage (its tags, and its place and size on
    /// Twine's story map), kept as written; readers ignore it.
    public var twine: JSONValue?
}

// The initializer is in an extension, so the chapter keeps its memberwise initializer: one that
// set the fields one by one made the chapter and then copied it (Swift 6.3: its strings and
// arrays retained and released, a chapter at a time, the outlined copy in the disassembly).
extension Chapter {
    public init(
        id: String, name: String, text: String, isFirstChapter: Bool = false, isEnding: Bool = false,
        picPath: String? = nil, picAlt: String? = nil, vidPath: String? = nil, choices: [Choice] = [], twine: JSONValue? = nil
    ) {
        self = Chapter(
            id: id, name: name, text: text, choices: choices, isFirstChapter: isFirstChapter, isEnding: isEnding, picPath: picPath, picAlt: picAlt,
            vidPath: vidPath, twine: twine)
    }

    /// The paragraphs of the text: blank lines separate them (CR LF is read as LF). Works on the
    /// UTF-8 bytes (a line feed is never part of another character there), so a chapter of
    /// 50 MB is split in a few tens of milliseconds.
    public var paragraphs: [String] { Self.paragraphs(of: text) }

    /// The paragraphs of any chapter text, as `paragraphs` splits them.
    public static func paragraphs(of text: String) -> [String] {
        var result: [String] = []
        // Read where the text is (a copy to call `withUTF8` on was retained and released).
        text.withExistingUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            // Without carriage returns a paragraph is its lines as written, one range of the
            // text; with them, its lines are joined without their carriage returns.
            let joining = memchr(base, 0x0D, bytes.count) != nil
            var paragraph: [UInt8] = []
            var start = -1  // where the paragraph's first line starts; -1 between paragraphs
            var end = 0  // where its last line ends
            var lineStart = 0
            func close() {
                guard start >= 0 else { return }
                result.append(joining ? String(decoding: paragraph, as: UTF8.self) : String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
                paragraph.removeAll(keepingCapacity: true)
                start = -1
            }
            func endLine(_ lineEnd: Int) {
                var last = lineEnd
                if last > lineStart, bytes[last - 1] == 0x0D { last -= 1 }
                var blank = true
                for index in lineStart..<last where bytes[index] != 0x20 && bytes[index] != 0x09 {
                    blank = false
                    break
                }
                guard !blank else { return close() }
                if joining {
                    if start >= 0 { paragraph.append(0x0A) }
                    paragraph.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[lineStart..<last]))
                }
                if start < 0 { start = lineStart }
                end = last
            }
            var index = 0
            while let found = memchr(base + index, 0x0A, bytes.count - index) {
                let lineEnd = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                endLine(lineEnd)
                lineStart = lineEnd + 1
                index = lineStart
            }
            endLine(bytes.count)
            close()
        }
        return result
    }
}

/// The keys a chapter of story.json may hold: the one declaration of them, in the order authors
/// write them and cyd writes them. The decoder's key table, the one story.json writer
/// (`StoryJSON`), the metadata a Twee passage carries and the library's chapter rows are all made
/// from `allCases`; what each key is and holds is said by the switches below, which the compiler
/// holds to every case. A key that only passes through (kept, written back, stored) needs a case
/// here, its property on `Chapter`, its line in Schemas/story.schema.json and docs/format.md.
public enum ChapterField: String, CaseIterable, Sendable {
    case id
    case name
    case isFirstChapter = "is_first_chapter"
    case text
    case picPath = "pic_path"
    case picAlt = "pic_alt"
    case vidPath = "vid_path"
    case isEnding = "is_ending"
    case choices
    case twine

    /// What a key holds.
    public enum Kind: Sendable {
        /// A string, which may be empty.
        case text
        /// A string that must not be empty or blank.
        case nonEmptyText
        /// `true` or `false`; written only when true.
        case flag
        /// The chapter's choices.
        case choices
        /// An object, kept as it is written (another tool's data that passes through).
        case object
    }

    /// A picture or video path (gathered with the story's for the media checks).
    public enum Media: Sendable { case picture, video }

    /// The key as story.json spells it.
    public var key: String { rawValue }

    /// `allCases` made once (a synthesized `allCases` is a new array at each call): for loops
    /// that run for every chapter.
    public static let all = allCases

    /// Its place in `allCases` (a test holds the two together).
    public var ordinal: Int {
        switch self {
        case .id: 0
        case .name: 1
        case .isFirstChapter: 2
        case .text: 3
        case .picPath: 4
        case .picAlt: 5
        case .vidPath: 6
        case .isEnding: 7
        case .choices: 8
        case .twine: 9
        }
    }

    public var kind: Kind {
        switch self {
        case .id, .name, .picPath, .picAlt, .vidPath: .nonEmptyText
        case .text: .text
        case .isFirstChapter, .isEnding: .flag
        case .choices: .choices
        case .twine: .object
        }
    }

    /// The original reader refuses a chapter without it.
    public var isRequired: Bool {
        switch self {
        case .id, .name, .text: true
        case .isFirstChapter, .picPath, .picAlt, .vidPath, .isEnding, .choices, .twine: false
        }
    }

    /// Readers of another language see it translated (a translation unit of its own).
    public var isTranslated: Bool {
        switch self {
        case .name, .text, .picAlt, .choices: true
        case .id, .isFirstChapter, .picPath, .vidPath, .isEnding, .twine: false
        }
    }

    public var media: Media? {
        switch self {
        case .picPath: .picture
        case .vidPath: .video
        case .id, .name, .isFirstChapter, .text, .picAlt, .isEnding, .choices, .twine: nil
        }
    }

    /// What `chapter` holds under this key, nil when the key is left out of the file (an absent
    /// optional value, a false flag, no choices).
    public func value(in chapter: Chapter) -> ChapterValue? {
        switch self {
        case .id: .text(chapter.id)
        case .name: .text(chapter.name)
        case .text: .text(chapter.text)
        case .isFirstChapter: chapter.isFirstChapter ? .flag(true) : nil
        case .isEnding: chapter.isEnding ? .flag(true) : nil
        case .picPath: chapter.picPath.map(ChapterValue.text)
        case .picAlt: chapter.picAlt.map(ChapterValue.text)
        case .vidPath: chapter.vidPath.map(ChapterValue.text)
        case .choices: chapter.choices.isEmpty ? nil : .choices(chapter.choices)
        case .twine: chapter.twine.map(ChapterValue.object)
        }
    }

    /// Sets this key of `chapter` (nil, or a value of another kind, clears it: no text, false, no
    /// choices).
    public func set(_ value: ChapterValue?, in chapter: inout Chapter) {
        switch self {
        case .id: chapter.id = value?.text ?? ""
        case .name: chapter.name = value?.text ?? ""
        case .text: chapter.text = value?.text ?? ""
        case .isFirstChapter: chapter.isFirstChapter = value?.flag ?? false
        case .isEnding: chapter.isEnding = value?.flag ?? false
        case .picPath: chapter.picPath = value?.text
        case .picAlt: chapter.picAlt = value?.text
        case .vidPath: chapter.vidPath = value?.text
        case .choices: chapter.choices = value?.choices ?? []
        case .twine: chapter.twine = value?.object
        }
    }
}

/// The value of one chapter key (`ChapterField`).
public enum ChapterValue: Sendable, Hashable {
    case text(String)
    case flag(Bool)
    case choices([Choice])
    case object(JSONValue)

    public var text: String? { if case .text(let text) = self { text } else { nil } }
    public var flag: Bool? { if case .flag(let flag) = self { flag } else { nil } }
    public var choices: [Choice]? { if case .choices(let choices) = self { choices } else { nil } }
    public var object: JSONValue? { if case .object(let value) = self { value } else { nil } }
}

public struct Choice: Sendable, Hashable {
    public var chapterID: String
    public var text: String
    public init(chapterID: String, text: String) {
        self.chapterID = chapterID
        self.text = text
    }
}

/// A picture or video reference as written in `pic_path` / `vid_path`.
public enum MediaReference: Sendable, Hashable {
    /// An `https://` link, fetched from the web.
    case web(String)
    /// A path relative to the story repository's root.
    case repository(String)

    /// The original reader's rule: a value that begins with "https" is a link; anything else is
    /// a repository path (so an `http://` link was read as a path and failed).
    public init(_ value: String) {
        self = value.hasPrefix("https") ? .web(value) : .repository(value)
    }
}

/// The reader's name, which `[[name]]` in a chapter's text stands for.
public enum ReaderName {
    /// What `[[name]]` reads when the reader has given no name: one word for every reader of
    /// ours (the terminal, the browser reader, the static site, a book), so a story reads the same
    /// in each, and the placeholder itself never reaches the page.
    public static let fallback = "Reader"
}
