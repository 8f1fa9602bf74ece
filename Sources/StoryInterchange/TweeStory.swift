import StoryFormat

/// What reading a Twee file found that a story cannot hold, or that it had to guess, with the
/// place in the file (1-based line and column).
public struct TweeFinding: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// No line starts with `::`: not Twee.
        case noPassages
        /// Text before the first passage header, which the notation has no place for.
        case textOutsidePassages
        /// A passage of code (`script`, `stylesheet`) or one a story format runs itself
        /// (`StoryInit`, a `header` tag...): left out, since a story holds no code.
        case codeLeftOut(passage: String)
        /// A macro or an insert of the story format: kept in the chapter as text.
        case macroKeptAsText(passage: String, code: String)
        /// A link that sets a variable (`[[a|b][$x to 1]]`): the choice is kept, the setter left out.
        case setterLeftOut(passage: String, setter: String)
        /// A second passage of the same name: left out.
        case duplicatePassage(String)
        /// StoryData's `start` names no passage; reading starts at `Start` or the first passage.
        case startMissing(String)
        /// StoryData or cyd's metadata passage is not JSON: left out.
        case unreadableData(passage: String)
        /// A Twine archive holds more stories than the first, which was read.
        case moreStories
    }

    public var kind: Kind
    public var line: Int
    public var column: Int
    /// Whether the story could be read at all.
    public var isError: Bool { kind == .noPassages }

    public init(kind: Kind, line: Int, column: Int) {
        self.kind = kind
        self.line = line
        self.column = column
    }
}

/// A story in Twee 3 and back, exactly. StoryTitle is the story's name; StoryData holds the IFID,
/// the story format and the first chapter; each chapter is a passage named by its id, its text
/// as written (`[[name]]` becomes the story format's variable), its choices as links at the end
/// (`[[text->id]]`). What Twee has no place for (chapter titles, rating, summary, pictures,
/// endings), and anything the links and text cannot carry exactly, travels in a `CydMetadata`
/// passage tagged `cyd`, holding JSON. Export checks itself: it reads back what it wrote, and
/// whatever differs goes into the metadata, so reading the file gives the same story.
public enum TweeStory {
    /// The Twine story formats a story can be written for: they differ in how the reader's name
    /// is written.
    public enum Format: String, CaseIterable, Sendable {
        case harlowe = "Harlowe", sugarcube = "SugarCube", chapbook = "Chapbook"

        /// The version written into StoryData (the format's current release when this was written).
        public var version: String {
            switch self {
            case .harlowe: "3.3.9"
            case .sugarcube: "2.37.3"
            case .chapbook: "2.2.0"
            }
        }

        /// How the format prints a variable named `name`.
        var nameVariable: String { self == .chapbook ? "{name}" : "$name" }

        init?(named name: String?) {
            guard let name, let format = Format.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else { return nil }
            self = format
        }
    }

    /// Why a story cannot be written as Twee.
    public enum ExportProblem: Error, Sendable, Equatable {
        /// Two chapters share an id; passages need names of their own.
        case duplicateChapter(String)
        /// A chapter id is empty or holds a line break.
        case unusableChapterID(String)
        /// A chapter id is a name Twine or a story format gives a meaning of its own.
        case reservedName(String)
    }

    /// Passage names Twee compilers and story formats treat as their own.
    static let specialPassages: Set<String> = [
        "StoryTitle", "StoryData", "StoryInit", "StoryCaption", "StoryMenu", "StoryBanner", "StorySubtitle", "StoryAuthor",
        "StoryInterface", "StoryShare", "PassageReady", "PassageDone", "PassageHeader", "PassageFooter", "StoryIncludes", metadataPassage,
    ]
    static let codeTags: Set<String> = ["script", "stylesheet", "header", "footer", "startup", "debug-header", "debug-footer", "debug-startup", "widget", "init"]
    static let metadataPassage = "CydMetadata"

    // MARK: Export

    public static func twee(_ story: Story, format: Format = .harlowe) throws(ExportProblem) -> String {
        var seen = Set<String>()
        for chapter in story.chapters {
            // Bytes, not characters: "\r\n" is one character, equal to neither.
            if chapter.id.isEmpty || chapter.id.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) { throw .unusableChapterID(chapter.id) }
            if specialPassages.contains(chapter.id) { throw .reservedName(chapter.id) }
            if !seen.insert(chapter.id).inserted { throw .duplicateChapter(chapter.id) }
        }
        // Written plainly, read back; whatever did not survive goes into the metadata.
        // Read back from the text itself, as an importer will (line ends and all).
        let plain = TweeDocument.parse(Array(document(story, format: format, overrides: [:]).text.utf8))
        let derived = read(plain, ignoringOverrides: true).story
        var overrides: [String: [(String, JSONValue)]] = [:]
        for (index, chapter) in story.chapters.enumerated() {
            let back = derived.flatMap { index < $0.chapters.count ? $0.chapters[index] : nil }
            var fields: [(String, JSONValue)] = []
            if chapter.name != chapter.id { fields.append(("name", .string(chapter.name))) }
            if back?.text != chapter.text { fields.append(("text", .string(chapter.text))) }
            if back?.choices != chapter.choices {
                fields.append(("choices", .array(chapter.choices.map { .object([("chapter_id", .string($0.chapterID)), ("text", .string($0.text))]) })))
            }
            if back?.isFirstChapter != chapter.isFirstChapter { fields.append(("is_first_chapter", .bool(chapter.isFirstChapter))) }
            if chapter.isEnding { fields.append(("is_ending", true)) }
            if let path = chapter.picPath { fields.append(("pic_path", .string(path))) }
            if let alt = chapter.picAlt { fields.append(("pic_alt", .string(alt))) }
            if let path = chapter.vidPath { fields.append(("vid_path", .string(path))) }
            if !fields.isEmpty { overrides[chapter.id] = fields }
        }
        return document(story, format: format, overrides: overrides).text
    }

    /// A stable IFID for a story (the Treaty of Babel's form: a version 4 UUID, upper case), made
    /// from its id and name, so exporting the same story twice gives the same IFID.
    public static func ifid(for story: Story) -> String {
        let seed = Array(("cyd\u{0}" + story.id + "\u{0}" + story.name).utf8)
        var high = FNV1a.hash(seed), low = FNV1a.hash(seed.reversed() + [0x2A])
        high = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000  // version 4
        low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000  // variant 10
        let digits = Array("0123456789ABCDEF")
        var hex = ""
        for value in [high, low] {
            for shift in stride(from: 60, through: 0, by: -4) { hex.append(digits[Int((value >> UInt64(shift)) & 0xF)]) }
        }
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return parts.joined(separator: "-")
    }

    static func document(_ story: Story, format: Format, overrides: [String: [(String, JSONValue)]]) -> TweeDocument {
        var passages: [TweeDocument.Passage] = []
        passages.append(.init(name: "StoryTitle", content: passageSafe(story.name)))
        let start = story.firstChapter?.id ?? story.chapters.first?.id ?? ""
        let data: JSONValue = .object([
            ("ifid", .string(ifid(for: story))), ("format", .string(format.rawValue)), ("format-version", .string(format.version)), ("start", .string(start)),
        ])
        passages.append(.init(name: "StoryData", content: data.pretty()))
        var storyFields: [(String, JSONValue)] = [("id", .string(story.id)), ("name", .string(story.name)), ("rating", .string(story.rating)), ("summary", .string(story.summary))]
        if let path = story.picPath { storyFields.append(("pic_path", .string(path))) }
        if let path = story.vidPath { storyFields.append(("vid_path", .string(path))) }
        let chapters = story.chapters.compactMap { chapter in overrides[chapter.id].map { (chapter.id, JSONValue.object($0)) } }
        let metadata: JSONValue = .object([("format", "cyd story.json"), ("story", .object(storyFields)), ("chapters", .object(chapters))])
        passages.append(.init(name: metadataPassage, tags: ["cyd"], content: metadata.pretty()))
        for (index, chapter) in story.chapters.enumerated() {
            let position = "{\"position\":\"\(100 + (index % 10) * 125),\(100 + (index / 10) * 125)\",\"size\":\"100,100\"}"
            passages.append(.init(name: chapter.id, metadata: position, content: content(of: chapter, format: format)))
        }
        return TweeDocument(passages: passages)
    }

    /// A chapter's passage: its text with the reader's name as the format's variable, then its
    /// choices as links, one a line. A line of text that would start a passage (`::`) is indented
    /// by a space (the metadata then keeps the exact text).
    static func content(of chapter: Chapter, format: Format) -> String {
        let text = chapter.text.replacingBytes("[[name]]", with: format.nameVariable)
        let links = chapter.choices.map { TweeLink(text: $0.text, target: $0.chapterID).written }
        if links.isEmpty { return passageSafe(text) }
        if text.isEmpty { return passageSafe(links.joined(separator: "\n")) }
        return passageSafe(text + "\n\n" + links.joined(separator: "\n"))
    }

    /// Text as a passage's content: a line that would start a passage (`::`, also after a
    /// carriage return) is indented by a space.
    static func passageSafe(_ text: String) -> String {
        guard Substring(text).firstBytes("::") != nil else { return text }
        return Substring(text).lines.map { $0.hasPrefix("::") ? " " + $0 : String($0) }.joined(separator: "\n")
    }

    // MARK: Import

    /// What reading a Twee file gave: the story (nil when the file holds no passage), the IFID
    /// and story format it names, and what it found on the way.
    public struct Imported: Sendable {
        public var story: Story?
        public var ifid: String?
        public var format: String?
        public var findings: [TweeFinding]
        /// Whether the file carried cyd's metadata passage (a file cyd wrote); without it, the
        /// rating is "G" and the summary empty, for the author to fill in.
        public var carriedMetadata = false
    }

    public static func story(from bytes: [UInt8]) -> Imported {
        read(TweeDocument.parse(bytes), ignoringOverrides: false)
    }

    static func read(_ document: TweeDocument, ignoringOverrides: Bool) -> Imported {
        var findings = document.strayLines.map { TweeFinding(kind: .textOutsidePassages, line: $0, column: 1) }
        guard !document.passages.isEmpty else {
            return Imported(story: nil, ifid: nil, format: nil, findings: findings + [TweeFinding(kind: .noPassages, line: 1, column: 1)])
        }
        var title: String?
        var data: JSONValue?
        var metadata: JSONValue?
        var passages: [TweeDocument.Passage] = []
        var names = Set<String>()
        for passage in document.passages {
            switch passage.name {
            case "StoryTitle": title = passage.content
            case "StoryData":
                data = JSONValue.parse(Array(passage.content.utf8))
                if data == nil { findings.append(TweeFinding(kind: .unreadableData(passage: passage.name), line: passage.line + 1, column: 1)) }
            case metadataPassage:
                metadata = JSONValue.parse(Array(passage.content.utf8))
                if metadata == nil { findings.append(TweeFinding(kind: .unreadableData(passage: passage.name), line: passage.line + 1, column: 1)) }
            default:
                if specialPassages.contains(passage.name) || !codeTags.isDisjoint(with: passage.tags) {
                    findings.append(TweeFinding(kind: .codeLeftOut(passage: passage.name), line: passage.line, column: 1))
                } else if !names.insert(passage.name).inserted {
                    findings.append(TweeFinding(kind: .duplicatePassage(passage.name), line: passage.line, column: 1))
                } else {
                    passages.append(passage)
                }
            }
        }
        let formatName = data?["format"]?.string
        let format = Format(named: formatName)
        let storyFields = metadata?["story"]
        // Each chapter's fields by id, looked up once each (a story may have 100,000).
        var chapterFields: [String: JSONValue] = [:]
        if !ignoringOverrides, case .object(let members)? = metadata?["chapters"] {
            for (id, fields) in members where chapterFields[id] == nil { chapterFields[id] = fields }
        }
        var chapters: [Chapter] = []
        for passage in passages {
            var (chapter, found) = derive(passage, format: format)
            findings += found
            if let fields = chapterFields[passage.name] {
                if let name = fields["name"]?.string { chapter.name = name }
                if let text = fields["text"]?.string { chapter.text = text }
                if let choices = fields["choices"]?.array {
                    chapter.choices = choices.compactMap { choice in
                        guard let target = choice["chapter_id"]?.string, let text = choice["text"]?.string else { return nil }
                        return Choice(chapterID: target, text: text)
                    }
                }
                chapter.isEnding = fields["is_ending"]?.bool ?? false
                chapter.picPath = fields["pic_path"]?.string
                chapter.picAlt = fields["pic_alt"]?.string
                chapter.vidPath = fields["vid_path"]?.string
            }
            chapters.append(chapter)
        }
        // Reading starts at StoryData's start, else at Start, else at the first passage.
        let ids = Set(chapters.map(\.id))
        var start = data?["start"]?.string
        if let named = start, !ids.contains(named) {
            let line = document.passages.first { $0.name == "StoryData" }.map { $0.line + 1 } ?? 1
            findings.append(TweeFinding(kind: .startMissing(named), line: line, column: 1))
            start = nil
        }
        let first = start ?? (ids.contains("Start") ? "Start" : chapters.first?.id)
        for index in chapters.indices {
            chapters[index].isFirstChapter = chapters[index].id == first
            if let flag = chapterFields[chapters[index].id]?["is_first_chapter"]?.bool { chapters[index].isFirstChapter = flag }
        }
        let name = storyFields?["name"]?.string ?? title ?? "Untitled story"
        let story = Story(
            id: storyFields?["id"]?.string ?? slug(name), name: name, rating: storyFields?["rating"]?.string ?? "G",
            summary: storyFields?["summary"]?.string ?? "", picPath: storyFields?["pic_path"]?.string, vidPath: storyFields?["vid_path"]?.string,
            chapters: chapters)
        return Imported(story: story, ifid: data?["ifid"]?.string, format: formatName, findings: findings, carriedMetadata: storyFields != nil)
    }

    /// A passage as a chapter: links become choices (a line that is only a link goes; a link in
    /// a sentence leaves its text), trailing blank lines go, the format's name variable becomes
    /// `[[name]]`; macros stay as text, each with a finding.
    static func derive(_ passage: TweeDocument.Passage, format: Format?) -> (Chapter, [TweeFinding]) {
        var findings: [TweeFinding] = []
        var lines: [String] = []
        var choices: [Choice] = []
        for (offset, line) in Substring(passage.content).lines.enumerated() {
            let number = passage.line + 1 + offset
            findings += macros(in: line, passage: passage.name, line: number, format: format)
            // Work on the UTF-8 view: a line is only looked at for `[[`, `]]`, spaces and tabs.
            let bytes = line.utf8
            guard bytes.contains(UInt8(ascii: "[")) else {
                lines.append(String(line))
                continue
            }
            let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
            let first = bytes.firstIndex { !blank($0) } ?? bytes.endIndex
            let last = bytes.lastIndex { !blank($0) }.map { bytes.index(after: $0) } ?? first
            let bare = Substring(bytes[first..<max(first, last)])
            if bare.utf8.count >= 4, bare.utf8.starts(with: [0x5B, 0x5B]), bare.utf8.reversed().starts(with: [0x5D, 0x5D]),
                Substring(bare.utf8.dropFirst(2).dropLast(2)).firstBytes("]]") == nil
            {
                let link = TweeLink(inner: Substring(bare.utf8.dropFirst(2).dropLast(2)))
                if let setter = link.setter {
                    findings.append(TweeFinding(kind: .setterLeftOut(passage: passage.name, setter: setter), line: number, column: 1))
                }
                choices.append(Choice(chapterID: link.target, text: link.text))
                continue
            }
            // Links inside a line of text: the text stays, the link becomes a choice.
            var out = ""
            var rest = Substring(line)
            while let open = rest.firstBytes("[["), let close = rest[open.upperBound...].firstBytes("]]") {
                out += rest[..<open.lowerBound]
                let link = TweeLink(inner: rest[open.upperBound..<close.lowerBound])
                out += link.text
                choices.append(Choice(chapterID: link.target, text: link.text))
                rest = rest[close.upperBound...]
            }
            lines.append(out + rest)
        }
        while let last = lines.last, last.utf8.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { lines.removeLast() }
        var text = lines.joined(separator: "\n")
        if format != .chapbook { text = replacingVariable(text) }
        if format == .chapbook || format == nil, text.utf8.contains(UInt8(ascii: "{")) { text = text.replacingBytes("{name}", with: "[[name]]") }
        let chapter = Chapter(id: passage.name, name: passage.name, text: text, choices: choices)
        return (chapter, findings)
    }

    /// `$name` (not `$names`) as `[[name]]`.
    static func replacingVariable(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "$")) else { return text }
        var out = ""
        var rest = Substring(text)
        while let found = rest.firstBytes("$name") {
            let after = rest[found.upperBound...].first
            out += rest[..<found.lowerBound]
            if let after, after.isLetter || after.isNumber || after == "_" {
                out += "$name"
            } else {
                out += "[[name]]"
            }
            rest = rest[found.upperBound...]
        }
        return out + rest
    }

    /// The story formats' code in a line: Harlowe's `(macro:`, SugarCube's `<<macro>>`,
    /// Snowman's `<% %>`, Chapbook's `{insert}` (all of them when the format is not known).
    static func macros(in line: Substring, passage: String, line number: Int, format: Format?) -> [TweeFinding] {
        var found: [TweeFinding] = []
        guard line.utf8.contains(where: { $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "{") }) else { return found }
        let characters = Array(line)
        var index = 0
        func report(_ start: Int, _ length: Int) {
            let code = String(characters[start..<min(characters.count, start + length)])
            found.append(TweeFinding(kind: .macroKeptAsText(passage: passage, code: code), line: number, column: start + 1))
        }
        while index < characters.count {
            let character = characters[index]
            if character == "(", format == .harlowe || format == nil {
                var end = index + 1
                while end < characters.count, characters[end].isLetter || characters[end] == "-" { end += 1 }
                if end > index + 1, end < characters.count, characters[end] == ":" {
                    report(index, end - index + 1)
                    index = end
                }
            } else if character == "<", index + 1 < characters.count, characters[index + 1] == "<" || characters[index + 1] == "%" {
                if format == .sugarcube || format == nil || characters[index + 1] == "%" {
                    report(index, 2 + (characters[(index + 2)...].firstIndex { !$0.isLetter }.map { $0 - index - 2 } ?? 0))
                    index += 1
                }
            } else if character == "{", format == .chapbook || format == nil {
                if let close = characters[index...].firstIndex(of: "}") {
                    let inner = String(characters[(index + 1)..<close])
                    if inner != "name", !inner.isEmpty, inner.first?.isLetter == true { report(index, close - index + 1) }
                }
            }
            index += 1
        }
        return found
    }

    /// A story id from a title: lower-case letters and digits, runs of anything else as one `-`.
    static func slug(_ title: String) -> String {
        var out = ""
        for character in title.lowercased() {
            if character.isASCII, character.isLetter || character.isNumber {
                out.append(character)
            } else if !out.isEmpty, out.last != "-" {
                out.append("-")
            }
        }
        while out.last == "-" { out.removeLast() }
        return out.isEmpty ? "story" : String(out.prefix(40))
    }
}
