/// A story as its reader sees it: plain values, no source positions.
public struct Story: Sendable, Hashable, Codable {
    /// The author's id. Not unique across authors ("story01" is common).
    public var id: String
    public var name: String
    /// Audience rating; the original reader had badges for "G" and "PG".
    public var rating: String
    public var summary: String
    public var picPath: String?
    public var vidPath: String?
    public var chapters: [Chapter]

    public init(
        id: String, name: String, rating: String, summary: String, picPath: String? = nil,
        vidPath: String? = nil, chapters: [Chapter]
    ) {
        self.id = id
        self.name = name
        self.rating = rating
        self.summary = summary
        self.picPath = picPath
        self.vidPath = vidPath
        self.chapters = chapters
    }

    /// Where reading starts: the first chapter marked `is_first_chapter`, as the original reader chose.
    public var firstChapter: Chapter? { chapters.first(where: \.isFirstChapter) }

    public func chapter(id: String) -> Chapter? { chapters.first { $0.id == id } }
}

public struct Chapter: Sendable, Hashable, Codable {
    public var id: String
    public var name: String
    /// Paragraphs separated by blank lines; `[[name]]` stands for the reader's first name.
    public var text: String
    public var isFirstChapter: Bool
    /// Extension: `"is_ending": true` marks a chapter without choices as an intended ending.
    public var isEnding: Bool
    public var picPath: String?
    /// Extension: `pic_alt` says what the chapter's picture shows, for readers who cannot see it
    /// (a screen reader, pictures off); without it the chapter's title stands in.
    public var picAlt: String?
    public var vidPath: String?
    public var choices: [Choice]

    public init(
        id: String, name: String, text: String, isFirstChapter: Bool = false, isEnding: Bool = false,
        picPath: String? = nil, picAlt: String? = nil, vidPath: String? = nil, choices: [Choice] = []
    ) {
        self.id = id
        self.name = name
        self.text = text
        self.isFirstChapter = isFirstChapter
        self.isEnding = isEnding
        self.picPath = picPath
        self.picAlt = picAlt
        self.vidPath = vidPath
        self.choices = choices
    }

    /// The paragraphs of the text: blank lines separate them (CR LF is read as LF). Works on the
    /// UTF-8 bytes (a line feed is never part of another character there), so a chapter of
    /// 50 MB is split in a few tens of milliseconds.
    public var paragraphs: [String] {
        var result: [String] = []
        var text = text
        text.withUTF8 { bytes in
            var paragraph: [UInt8] = []
            var lineStart = 0
            func endLine(_ end: Int) {
                var last = end
                if last > lineStart, bytes[last - 1] == 0x0D { last -= 1 }
                var blank = true
                for index in lineStart..<last where bytes[index] != 0x20 && bytes[index] != 0x09 {
                    blank = false
                    break
                }
                if blank {
                    if !paragraph.isEmpty { result.append(String(decoding: paragraph, as: UTF8.self)) }
                    paragraph.removeAll(keepingCapacity: true)
                } else {
                    if !paragraph.isEmpty { paragraph.append(0x0A) }
                    paragraph.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[lineStart..<last]))
                }
            }
            for index in 0..<bytes.count where bytes[index] == 0x0A {
                endLine(index)
                lineStart = index + 1
            }
            endLine(bytes.count)
            if !paragraph.isEmpty { result.append(String(decoding: paragraph, as: UTF8.self)) }
        }
        return result
    }
}

public struct Choice: Sendable, Hashable, Codable {
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
