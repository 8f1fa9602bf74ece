import StoryCheck
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
        /// A passage's metadata (`{...}` on its header) is not JSON (`member` nil), or holds a
        /// member other than the position and size, which a story keeps: left out.
        case passageMetadataLeftOut(passage: String, member: String?)
        /// An HTML file holds no `<tw-storydata>` element: not a Twine archive or published story.
        case noStory
        /// The archive's story has no passages.
        case noArchivePassages(story: String)
        /// An archive's story stylesheet or JavaScript: code, left out.
        case storyCodeLeftOut(isScript: Bool)
        /// The file ends inside the archive's story (no `</tw-storydata>`), and inside the
        /// element of passage `passage` when that is not closed either: the file is cut short,
        /// and what it lost cannot be known, so no story is read from it.
        case archiveCutShort(story: String, passage: String?)
        /// A byte that is not UTF-8 (the first of the file): no story is read, since its text
        /// would change.
        case notUTF8(byte: UInt8)
        /// The file is UTF-16, not UTF-8.
        case utf16
    }

    public var kind: Kind
    public var line: Int
    public var column: Int
    /// Whether no story is read from the file (none is there, or not all of it).
    public var isError: Bool {
        switch kind {
        case .noPassages, .noStory, .noArchivePassages, .archiveCutShort, .notUTF8, .utf16: true
        default: false
        }
    }

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
    /// The largest Twee file or Twine archive read, by the importer and the validator alike (a
    /// Twee file of 100,000 chapters is about 80 MB).
    public static let largestFile = 256 * 1024 * 1024

    /// The Twine story formats a story can be written for: they differ in how the reader's name
    /// is written.
    public enum Format: String, CaseIterable, Sendable {
        case harlowe = "Harlowe", sugarcube = "SugarCube", chapbook = "Chapbook"

        /// The version written into StoryData (the format's current release when this was written).
        public var version: String {
            switch self {
            case .harlowe: "3.3.9"
            case .sugarcube: "2.37.3"
            case .chapbook: "2.3.0"
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
    static let metadataPassage = "CydMetadata"
    /// Whether a special passage's name begins with each byte.
    static let specialInitials: [Bool] = (0...255).map { byte in specialPassages.contains { $0.utf8.first == UInt8(byte) } }
    /// The passages that hold the story's own data, not a chapter.
    static let storyPassages: Set<String> = ["StoryTitle", "StoryData", metadataPassage]

    // MARK: Export

    /// The story format an export declares: `format`, else the one the story's `twine` object
    /// names, else Harlowe.
    public static func formatName(of story: Story, format: Format?) -> String {
        TwineData.declared(story, chosen: format).name
    }

    /// The story as Twee, for `format` (nil: the story format its `twine` object names, else Harlowe).
    public static func twee(_ story: Story, format: Format? = nil) throws(ExportProblem) -> String {
        String(decoding: try tweeBytes(story, format: format), as: UTF8.self)
    }

    /// The Twee file as UTF-8 bytes, as written to disk.
    public static func tweeBytes(_ story: Story, format: Format? = nil) throws(ExportProblem) -> [UInt8] {
        Array(try exported(story, format: format).tweePieces.joined())
    }

    /// The same bytes as `tweeBytes`, made a megabyte at a time as a writer takes them (the next
    /// two on the other core while one is written). A chapter's passage is written from the
    /// chapter when its piece is made: the pieces hold the story until the last is made.
    public static func tweeChunks(_ story: Story, format: Format? = nil) throws(ExportProblem) -> FilePieces {
        try exported(story, format: format).tweePieces
    }

    /// What an export writes: StoryTitle, StoryData and cyd's metadata passage (`leading`), then
    /// a passage a chapter, in the story's order, written from the chapter as the file is made.
    /// A chapter whose passage reads back whole (`readsBackWhole`, most of them) has its passage
    /// written straight from its fields; the others' content was made and read back when they
    /// were checked (`checked`). Making a passage of each chapter first, then the file from the
    /// passages, was half of exporting 100,000 chapters: a string a chapter made, held and freed.
    struct Exported: Sendable {
        let chapters: [Chapter]
        let format: Format
        let leading: [TweeDocument.Passage]
        let checked: [Checked]
        /// Each chapter's place on Twine's story map.
        let places: [TwineData.Place]

        /// No more than `appendContent` writes for chapter `index`.
        func leastContentSize(_ index: Int) -> Int { checked[index].content?.utf8.count ?? chapters[index].text.utf8.count }

        /// Chapter `index`'s passage content, as the Twee file holds it.
        func appendContent(_ index: Int, to out: inout [UInt8]) {
            if let content = checked[index].content {
                out.append(contentsOf: content.utf8)
            } else {
                // A passage that reads back whole has no line `passageSafe` would change (no `::`).
                TweeStory.appendContent(of: chapters[index], format: format, to: &out)
            }
        }

        /// The tags of chapter `index`'s passage.
        func tags(_ index: Int) -> [String] {
            let twine = chapters[index].twine
            return twine == nil ? [] : TwineData.passageTags(twine: twine)
        }

        /// Chapter `index`'s passage as the Twee file holds it, after the blank line before it.
        func appendTweePassage(_ index: Int, to out: inout [UInt8]) {
            TweeDocument.appendHeader(chapters[index].id, tags: tags(index), first: false, to: &out)
            out.append(0x20)
            TwineData.appendMetadata(places[index], to: &out)
            out.append(0x0A)
            appendContent(index, to: &out)
        }

        /// The Twee file in pieces of about a megabyte, made as a writer takes them.
        var tweePieces: FilePieces {
            let exported = self
            let head = TweeDocument(passages: leading)
            let lead = leading.count
            return FilePieces(PiecesMadeAhead(
                count: lead + chapters.count,
                leastSize: { index in
                    index < lead
                        ? head.passages[index].name.utf8.count + head.passages[index].content.utf8.count + (index > 0 ? 6 : 4)
                        : exported.chapters[index - lead].id.utf8.count + exported.leastContentSize(index - lead) + 6
                },
                tail: [0x0A],
                append: { index, out in
                    if index < lead { head.appendPassage(index, to: &out) } else { exported.appendTweePassage(index - lead, to: &out) }
                }))
        }
    }

    /// What an export of `story` writes (`Exported`), each chapter checked and placed.
    static func exported(_ story: Story, format chosen: Format?, archive: Bool = false) throws(ExportProblem) -> Exported {
        let declared = TwineData.declared(story, chosen: chosen)
        let format = declared.format
        if story.chapters.count < 1000, let refusal = Self.problem(story) { throw refusal }
        // Each passage is written plainly and read back as an importer reads it from the file
        // (`readBack`: line ends and all); whatever did not survive goes into the metadata. The
        // chapters are checked in two halves, one on another core.
        let start = story.firstChapter?.id ?? story.chapters.first?.id ?? ""
        let count = story.chapters.count
        let checked: [Checked]
        let places: [(x: Int, y: Int)]
        if count >= 1000 {
            // The ids' checks and the layout cost about as much as checking a fifth of the
            // chapters (most chapters are not read back: `readsBackWhole`).
            let split = count * 13 / 20
            let second = BackgroundWork { () -> (ExportProblem?, [(x: Int, y: Int)], [Checked]) in
                if let refusal = Self.problem(story) { return (refusal, [], []) }
                return (nil, TweeLayout.positions(of: story), check(story, split..<count, start: start, format: format))
            }
            var first = check(story, 0..<split, start: start, format: format)
            var (refusal, laidOut, rest) = second.take()
            if let refusal { throw refusal }
            // The second half moved after the first, not both copied into a third array (every
            // passage's text retained and let go on this thread alone).
            first.appendMoving(&rest, leaving: Checked(content: "", metadata: nil))
            checked = first
            places = laidOut
        } else {
            checked = check(story, 0..<count, start: start, format: format)
            places = TweeLayout.positions(of: story)
        }
        return exported(story, declared: declared, archive: archive, checked: consume checked, positions: places)
    }

    /// Why the story's chapter ids cannot name its passages, if they cannot.
    static func problem(_ story: Story) -> ExportProblem? {
        var seen = Set<String>(minimumCapacity: story.chapters.count)
        return story.chapters.withUnsafeBufferPointer { chapters -> ExportProblem? in
            for index in chapters.indices {
                let id = chapters[index].id
                // Bytes, not characters: "\r\n" is one character, equal to neither.
                if id.isEmpty || id.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) { return .unusableChapterID(id) }
                if specialPassages.contains(id) { return .reservedName(id) }
                if !seen.insert(id).inserted { return .duplicateChapter(id) }
                // The header as written must read back as the id (it always should: this keeps it so).
                guard id.utf8.contains(where: { $0 == 0x5C || $0 == 0x5B || $0 == 0x5D || $0 == 0x7B || $0 == 0x7D || Bytes.isBlank($0) }) else { continue }
                var header: [UInt8] = []
                TweeDocument.appendEscaped(id, to: &header)
                let name = header.withUnsafeBufferPointer { TweeDocument.header($0, from: 0, to: $0.count, line: 0).name }
                if name != id { return .unusableChapterID(id) }
            }
            return nil
        }
    }

    /// A chapter's passage content as written, nil when it is the chapter's fields as they are
    /// (`readsBackWhole`: written from the chapter), and what the metadata must carry for it: its
    /// member of the metadata's `chapters` object, written out (after the comma that separates
    /// members). A chapter with Twine's data keeps its fields until its place on the map is known.
    struct Checked: Sendable {
        var content: String?
        var metadata: [UInt8]?
        var pending: [(String, JSONValue)]? = nil
    }

    /// A chapter's member of the metadata's `chapters` object, written out, or nil without fields.
    static func member(_ id: String, _ fields: [(String, JSONValue)]) -> [UInt8]? {
        guard !fields.isEmpty else { return nil }
        var writer = StoryJSON.PrettyWriter(levels: [true, false])
        writer.key(id)
        writer.write(.object(fields))
        return writer.out
    }

    static func check(_ story: Story, _ range: Range<Int>, start: String, format: Format) -> [Checked] {
        var checked: [Checked] = []
        checked.reserveCapacity(range.count)
        var unused: [TweeFinding] = []
        var noMap: TweeSourceMap?
        // Each chapter copied out once (its strings retained): a chapter read from the array or a
        // buffer of it is copied for every call it is handed to (four of them here).
        for index in range {
            let chapter = story.chapters[index]
            let content: String?
            let fields: [(String, JSONValue)]
            if readsBackWhole(chapter) {
                // Most chapters: nothing in them that reading the passage back could change; the
                // passage is written from the chapter when the file is.
                content = nil
                fields = overrides(chapter, back: nil, start: start)
            } else {
                // Kept as the file reads it back (a carriage return before a line feed and
                // blank lines at the end are not read): what is checked is what is written.
                let readBack = readBack(self.content(of: chapter, format: format))
                content = readBack
                let back = derive(content: readBack, name: chapter.id, firstLine: 0, format: format, findings: &unused, map: &noMap)
                unused.removeAll(keepingCapacity: true)
                fields = overrides(chapter, back: back, start: start)
            }
            if chapter.twine != nil {
                checked.append(Checked(content: content, metadata: nil, pending: fields))
            } else {
                checked.append(Checked(content: content, metadata: member(chapter.id, fields)))
            }
        }
        return checked
    }

    /// The keys a passage itself carries: the id and name in its name, the text in its content,
    /// the choices as links, the first chapter as StoryData's start, Twine's data in its tags and
    /// metadata. The rest are the metadata's.
    static let passageFields: Set<ChapterField> = [.id, .name, .text, .choices, .isFirstChapter, .twine]
    static let metadataFields = ChapterField.allCases.filter { !passageFields.contains($0) }

    static func json(_ value: ChapterValue) -> JSONValue {
        switch value {
        case .text(let text): .string(text)
        case .flag(let flag): .bool(flag)
        case .choices(let choices): .array(choices.map { .object([("chapter_id", .string($0.chapterID)), ("text", .string($0.text))]) })
        case .object(let value): value
        }
    }

    /// What the metadata must say of `chapter` for it to read back whole, given what its passage
    /// alone reads back as (nil: the chapter's own text and choices, `readsBackWhole`).
    static func overrides(_ chapter: Chapter, back: Chapter?, start: String) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = []
        if chapter.name != chapter.id { fields.append(("name", .string(chapter.name))) }
        if let back, back.text != chapter.text { fields.append(("text", .string(chapter.text))) }
        if let back, back.choices != chapter.choices { fields.append((ChapterField.choices.key, json(.choices(chapter.choices)))) }
        if (chapter.id == start) != chapter.isFirstChapter { fields.append(("is_first_chapter", .bool(chapter.isFirstChapter))) }
        // Every other key has no place in a passage: it is carried as it is.
        for field in metadataFields {
            if let value = field.value(in: chapter) { fields.append((field.key, json(value))) }
        }
        return fields
    }

    /// Whether `chapter`'s passage, as `content(of:format:)` writes it, surely reads back (`readBack`,
    /// then `derive`) as the chapter's own text and choices, in any story format, and is written
    /// as `readBack` leaves it: true only when the text has none of what reading changes or
    /// takes for code or a link (`[`, `$`, `{`, a carriage return, `::`), its last line is not
    /// blank, and each choice's text and target have no bracket, line break or carriage return
    /// and its target no `->` (a link is read at its last arrow). Checking this costs a few
    /// searches at memory speed (memchr) over bytes already in cache; reading the passage back
    /// costs a chapter made and compared, and a check a byte at a time cost more than that.
    static func readsBackWhole(_ chapter: Chapter) -> Bool {
        let textIsPlain = chapter.text.withExistingUTF8 { p -> Bool in
            let end = p.count
            guard Bytes.first(0x5B, in: p, from: 0, to: end) == end, Bytes.first(0x24, in: p, from: 0, to: end) == end,
                Bytes.first(0x7B, in: p, from: 0, to: end) == end, Bytes.first(0x0D, in: p, from: 0, to: end) == end,
                Bytes.first("::", in: p, from: 0, to: end) == nil
            else { return false }
            guard end > 0 else { return true }
            var lastLine = end
            while lastLine > 0, p[lastLine - 1] != 0x0A { lastLine -= 1 }
            return !Bytes.isBlank(p, from: lastLine, to: end)
        }
        guard textIsPlain else { return false }
        /// Whether a choice's text or target can stand in `[[text->target]]` on a line of its own.
        func isLinkPart(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
            let end = p.count
            return Bytes.first(0x5B, in: p, from: 0, to: end) == end && Bytes.first(0x5D, in: p, from: 0, to: end) == end
                && Bytes.first(0x0A, in: p, from: 0, to: end) == end && Bytes.first(0x0D, in: p, from: 0, to: end) == end
        }
        for choice in chapter.choices {
            guard choice.text.withExistingUTF8(isLinkPart),
                choice.chapterID.withExistingUTF8({ isLinkPart($0) && Bytes.first("->", in: $0, from: 0, to: $0.count) == nil })
            else { return false }
        }
        return true
    }

    /// A passage's content as `TweeDocument.parse` reads it back from a file: the carriage
    /// return before each line feed dropped, blank lines at the end left out.
    static func readBack(_ content: String) -> String {
        content.withExistingUTF8 { p in
            var position = 0
            var end = 0
            var hasReturns = false
            while true {
                let newline = Bytes.first(0x0A, in: p, from: position, to: p.count)
                var lineEnd = newline
                if lineEnd > position, p[lineEnd - 1] == 0x0D {
                    lineEnd -= 1
                    hasReturns = true
                }
                if !Bytes.isBlank(p, from: position, to: lineEnd) { end = lineEnd }
                if newline >= p.count { break }
                position = newline + 1
            }
            if !hasReturns && end == p.count { return content }
            return hasReturns ? TweeDocument.withoutReturns(p, from: 0, to: end) : Bytes.string(p, 0, end)
        }
    }

    /// A stable IFID for a story (the Treaty of Babel's form: a version 4 UUID, upper case), made
    /// from its id and name, so exporting the same story twice gives the same IFID.
    public static func ifid(for story: Story) -> String {
        let seed = Array(("cyd\u{0}" + story.id + "\u{0}" + story.name).utf8)
        var high = FNV1a.hash(seed), low = FNV1a.hash(seed.reversed() + [0x2A])
        high = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000  // version 4
        low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000  // variant 10
        let hex = Hex.digits(high, width: 16) + Hex.digits(low, width: 16)
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return parts.joined(separator: "-")
    }

    static func exported(_ story: Story, declared: TwineData.Declared, archive: Bool, checked: consuming [Checked], positions: [(x: Int, y: Int)]) -> Exported {
        let start = story.firstChapter?.id ?? story.chapters.first?.id ?? ""
        let storyData = TwineData.storyData(story, declared: declared, start: start)
        var storyFields: [(String, JSONValue)] = [("id", .string(story.id)), ("name", .string(story.name)), ("rating", .string(story.rating)), ("summary", .string(story.summary))]
        if let path = story.picPath { storyFields.append(("pic_path", .string(path))) }
        if let path = story.vidPath { storyFields.append(("vid_path", .string(path))) }
        // What the story had of Twine's: an import of a file cyd wrote takes it from here where
        // the file says the same or nothing.
        if let twine = story.twine { storyFields.append(("twine", twine)) }
        // And what the file says of it as written, so that what the author changes in Twine
        // afterwards is told from what cyd wrote.
        guard case .object(let dataMembers) = storyData else { preconditionFailure("StoryData is an object") }
        let written = archive ? TwineData.archiveMembers(story, declared: declared) : dataMembers.filter { !TwineData.storyDataOwn.contains($0.0) }
        storyFields.append((TwineData.writtenKey, .object(written)))
        // Each chapter's place, and the metadata of the chapters with Twine's data (their object
        // goes into it when reading the passage back would not give it): in two halves for a
        // large story, the second on another core, each filling its own slots.
        let count = story.chapters.count
        var checked = checked  // moved, not copied: the caller gives it up
        let places = [TwineData.Place](unsafeUninitializedCapacity: count) { placesBuffer, placesMade in
            checked.withUnsafeMutableBufferPointer { checkedBuffer in
                story.chapters.withUnsafeBufferPointer { chapters in
                    let slots = Slots(places: placesBuffer, checked: checkedBuffer, chapters: chapters)
                    if count >= 1000 {
                        let middle = count / 2
                        let second = BackgroundWork { slots.fill(middle..<count, positions: positions) }
                        slots.fill(0..<middle, positions: positions)
                        second.wait()
                    } else {
                        slots.fill(0..<count, positions: positions)
                    }
                }
            }
            placesMade = count
        }
        // Laid out as `JSONValue.pretty()` would; each chapter's member was written as it was checked.
        var metadata = StoryJSON.PrettyWriter()
        metadata.begin(0x7B)
        metadata.member("format", "cyd story.json")
        metadata.key("story")
        metadata.write(.object(storyFields))
        metadata.key("chapters")
        metadata.begin(0x7B)
        var members = 0
        for member in checked.lazy.compactMap(\.metadata) {
            if members > 0 { metadata.out.append(0x2C) }
            metadata.out += member
            members += 1
        }
        if members > 0 { metadata.markFilled() }
        metadata.end(0x7D)
        metadata.end(0x7D)
        let leading: [TweeDocument.Passage] = [
            .init(name: "StoryTitle", content: passageSafe(story.name)),
            .init(name: "StoryData", content: storyData.pretty()),
            .init(name: metadataPassage, tags: ["cyd"], content: String(decoding: metadata.out, as: UTF8.self)),
        ]
        return Exported(chapters: story.chapters, format: declared.format, leading: leading, checked: checked, places: places)
    }

    /// Where `exported` puts each chapter's place and its metadata member: slots of buffers a
    /// half of the chapters each fills, on two threads (no slot is filled twice).
    struct Slots: @unchecked Sendable {
        let places: UnsafeMutableBufferPointer<TwineData.Place>
        let checked: UnsafeMutableBufferPointer<Checked>
        let chapters: UnsafeBufferPointer<Chapter>

        func fill(_ range: Range<Int>, positions: [(x: Int, y: Int)]) {
            for index in range {
                let twine = chapters[index].twine
                let place = TwineData.place(twine: twine, laidOut: positions[index])
                (places.baseAddress! + index).initialize(to: place)
                if var fields = checked[index].pending {
                    if let twine, TwineData.readBack(twine: twine, place: place, laidOut: positions[index]) != twine {
                        fields.append((ChapterField.twine.key, twine))
                    }
                    checked[index].metadata = member(chapters[index].id, fields)
                }
            }
        }
    }

    /// A chapter's passage: its text with the reader's name as the format's variable, then its
    /// choices as links, one a line. A line of text that would start a passage (`::`) is indented
    /// by a space (the metadata then keeps the exact text).
    static func content(of chapter: Chapter, format: Format) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(chapter.text.utf8.count + chapter.choices.count * 48)
        appendContent(of: chapter, format: format, to: &out)
        return passageSafe(String(decoding: out, as: UTF8.self))
    }

    /// `content(of:format:)` appended to `out` (which may hold bytes before it), but for `passageSafe`.
    static func appendContent(of chapter: Chapter, format: Format, to out: inout [UInt8]) {
        let start = out.count
        chapter.text.withExistingUTF8 { p in
            var copied = 0
            while let found = Bytes.first("[[name]]", in: p, from: copied, to: p.count) {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: p[copied..<found]))
                out.append(contentsOf: format.nameVariable.utf8)
                copied = found + 8
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: p[copied..<p.count]))
        }
        for (index, choice) in chapter.choices.enumerated() {
            if index > 0 {
                out.append(0x0A)
            } else if out.count > start {
                out.append(0x0A)
                out.append(0x0A)
            }
            out.append(0x5B); out.append(0x5B)
            out.append(contentsOf: choice.text.utf8)
            out.append(0x2D); out.append(0x3E)
            out.append(contentsOf: choice.chapterID.utf8)
            out.append(0x5D); out.append(0x5D)
        }
    }

    /// Text as a passage's content: a line that would start a passage (its first bytes `::`) is
    /// indented by a space.
    static func passageSafe(_ text: String) -> String {
        text.withExistingUTF8 { p in
            guard let first = Bytes.first("::", in: p, from: 0, to: p.count) else { return text }
            var out: [UInt8] = []
            out.reserveCapacity(p.count + 16)
            var copied = 0
            var found: Int? = first
            while let at = found {
                if at == 0 || p[at - 1] == 0x0A {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: p[copied..<at]))
                    out.append(0x20)
                    copied = at
                }
                found = Bytes.first("::", in: p, from: at + 2, to: p.count)
            }
            if copied == 0 && !(p.count >= 2 && p[0] == 0x3A && p[1] == 0x3A) { return text }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: p[copied..<p.count]))
            return String(decoding: out, as: UTF8.self)
        }
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
        /// Where each part of the story was in the file.
        public var places = TweeSourceMap()
    }

    /// The story of a Twee file. `placing`: whether `places` says where each part of the story
    /// was in the file (for findings pointed into it, as validation does); an import that only
    /// writes the story does without, in less memory.
    public static func story(from bytes: [UInt8], placing: Bool = true) -> Imported {
        story(from: SourceBytes(bytes), placing: placing)
    }

    /// The same, of a file's bytes wherever they are (a mapped file is read where it lies, its
    /// pages given back as the passages are read).
    public static func story(from source: SourceBytes, placing: Bool = true) -> Imported {
        if source.count >= 1 << 20 { ThreadHeaps.writableWhole() }  // passages made chapters in halves, on two threads
        return source.withUnsafeBufferPointer { file in
            if let wrong = utf16Finding(file) { return Imported(story: nil, ifid: nil, format: nil, findings: [wrong]) }
            // Checked as UTF-8 as it is read: a large file in two halves, each on its own core.
            let (document, invalid) = TweeDocument.parseImported(file)
            if let invalid { return Imported(story: nil, ifid: nil, format: nil, findings: [notUTF8Finding(file, at: invalid)]) }
            return read(document, ignoringOverrides: false, file: FileBytes(bytes: file, source: source), placing: placing, firstHalf: 10)
        }
    }

    /// Why a file cannot be read as UTF-8, at its place: it is UTF-16 (a byte order mark, or a
    /// zero byte in the first two; this finding), or the first byte that is not UTF-8 (a file
    /// saved as Windows-1252 or Latin-1; `notUTF8Finding`). Read anyway, those bytes would
    /// become U+FFFD without a word.
    static func utf16Finding(_ p: UnsafeBufferPointer<UInt8>) -> TweeFinding? {
        guard p.count >= 2, (p[0] == 0xFF && p[1] == 0xFE) || (p[0] == 0xFE && p[1] == 0xFF) || p[0] == 0 || p[1] == 0 else { return nil }
        return TweeFinding(kind: .utf16, line: 1, column: 1)
    }

    /// The byte at `bad`, which is not UTF-8, at its line and column.
    static func notUTF8Finding(_ p: UnsafeBufferPointer<UInt8>, at bad: Int) -> TweeFinding {
        let line = Bytes.lineFeeds(in: p, from: 0, to: bad) + 1
        var lineStart = bad
        while lineStart > 0, p[lineStart - 1] != 0x0A { lineStart -= 1 }
        return TweeFinding(kind: .notUTF8(byte: p[bad]), line: line, column: Bytes.scalars(p, from: lineStart, to: bad) + 1)
    }

    /// The bytes of the file being read, which passages' bodies point into; alive while
    /// `read` runs (it waits for the work it hands to another thread).
    struct FileBytes: @unchecked Sendable {
        let bytes: UnsafeBufferPointer<UInt8>?
        /// The mapped file `bytes` lie in, if they do: its pages are given back behind the
        /// passages as they are read into chapters.
        var source: SourceBytes? = nil
    }

    /// `document` is given up: its passages (an archive's unescaped texts are tens of megabytes)
    /// are let go as soon as they are read into chapters.
    /// `firstHalf`: the share of the passages read into chapters here, in twentieths, the rest on
    /// another core: half for a Twee file, eleven twentieths for an archive's passages (chosen by
    /// measuring: an archive's import split in half took 1.03 times as long, a Twee file's 0.97).
    static func read(
        _ document: consuming TweeDocument, ignoringOverrides: Bool, file: FileBytes = FileBytes(bytes: nil), placing: Bool = true, firstHalf: Int = 11
    ) -> Imported {
        var findings = document.strayLines.map { TweeFinding(kind: .textOutsidePassages, line: $0, column: 1) }
        guard !document.passages.isEmpty else {
            return Imported(story: nil, ifid: nil, format: nil, findings: findings + [TweeFinding(kind: .noPassages, line: 1, column: 1)])
        }
        var places = TweeSourceMap()
        var title: String?
        var data: JSONValue?
        var metadata: MetadataTree?
        /// The metadata being read, where its finding goes if it cannot be, and its line.
        var readingMetadata: (BackgroundWork<MetadataTree?>, Int, Int)?
        // The chapters' passages, by their place in the document (not copied: in most files they
        // are the passages after StoryTitle, StoryData and cyd's metadata, a slice).
        var kept: [Int32] = []
        kept.reserveCapacity(document.passages.count)
        var names = Set<String>(minimumCapacity: document.passages.count)
        var storyPassagesRead = Set<String>()
        var storyDataContentLine: Int?
        // Each passage looked at where it is, not copied out (four strings retained and let go,
        // 100,000 times); a name is looked up among the special passages' only when it begins
        // as one of them does.
        document.passages.withUnsafeBufferPointer { all in
            for index in all.indices {
                let mayBeSpecial = all[index].name.utf8.first.map { specialInitials[Int($0)] } ?? false
                if mayBeSpecial, storyPassages.contains(all[index].name) {
                    // A second StoryTitle, StoryData or metadata passage is left out and said, as
                    // any second passage of a name is: the first one read is the story's.
                    let passage = all[index]
                    guard storyPassagesRead.insert(passage.name).inserted else {
                        findings.append(TweeFinding(kind: .duplicatePassage(passage.name), line: passage.line, column: 1))
                        continue
                    }
                    if passage.name == "StoryTitle" {
                        title = passage.content
                        places.storyTitle = passage.line
                    } else if passage.name == "StoryData" {
                        data = JSONValue.parse(Array(passage.content.utf8))
                        places.storyData = passage.line
                        storyDataContentLine = passage.contentLine
                        if data == nil { findings.append(TweeFinding(kind: .unreadableData(passage: passage.name), line: passage.contentLine, column: 1)) }
                    } else {
                        // Read on another core while the passages after it are gathered: cyd's
                        // metadata of a large story is megabytes of JSON.
                        let content = passage.content
                        readingMetadata = (BackgroundWork { JSONValue.document(Array(content.utf8)).map(MetadataTree.init) }, findings.count, passage.contentLine)
                        places.metadata = passage.line
                    }
                } else if (mayBeSpecial && specialPassages.contains(all[index].name))
                    || (!all[index].tags.isEmpty && !TwineFacts.codeTags.isDisjoint(with: all[index].tags))
                {
                    findings.append(TweeFinding(kind: .codeLeftOut(passage: all[index].name), line: all[index].line, column: 1))
                } else if !names.insert(all[index].name).inserted {
                    findings.append(TweeFinding(kind: .duplicatePassage(all[index].name), line: all[index].line, column: 1))
                } else {
                    kept.append(Int32(index))
                }
            }
        }
        var passages: ArraySlice<TweeDocument.Passage>
        if let first = kept.first, let last = kept.last, Int(last - first) == kept.count - 1 {
            passages = document.passages[Int(first)...Int(last)]
        } else {
            passages = ArraySlice(kept.map { document.passages[Int($0)] })
        }
        document.passages = []
        kept = []
        // What reading needs of the names once they are gathered: whether StoryData's start and
        // a passage named Start are among them. The set is let go before the chapters are made.
        let startNamed = data?["start"]?.string
        let startFound = startNamed.map { names.contains($0) } ?? false
        let hasStartPassage = names.contains("Start")
        names = []
        // cyd's metadata is taken before the chapters are read, not read beside them: its parse
        // tree and theirs at once raised the imports' peak by 17 MB (import twine's past 3x the
        // file), for 0.01 s.
        if let (reading, findingAt, line) = readingMetadata {
            metadata = reading.take()
            if metadata == nil { findings.insert(TweeFinding(kind: .unreadableData(passage: metadataPassage), line: line, column: 1), at: findingAt) }
        }
        let formatName = data?["format"]?.string
        let format = Format(named: formatName)
        let storyFields = metadata.flatMap { tree in tree.first("story", in: tree.root).map { JSONValue(tree.document, $0) } }
        // The passages are read in two halves, one on another core; findings keep their order.
        let split = passages.startIndex + (passages.count >= 1000 ? passages.count * firstHalf / 20 : passages.count)
        // In a file cyd wrote, passages' positions are kept apart until cyd's layout is known.
        let fromCyd = storyFields != nil
        // The first half's arrays have room for the second's, which is taken from its thread (the
        // thread keeps no copy) and let go once appended: the story's chapters are never held
        // twice over, nor the passages they were read from once they are read.
        let second = split < passages.endIndex ? BackgroundWork { [passages] in derive(passages[split...], file: file, format: format, positionsApart: fromCyd, placing: placing) } : nil
        var (chapters, found, map, positions) = derive(passages[..<split], file: file, format: format, positionsApart: fromCyd, placing: placing, room: passages.count)
        // Read. Read in halves, they are freed on a thread of their own (when the second half's
        // thread is done first, the last reference is this one, and 100,000 passages freed here
        // held up the import).
        if second != nil {
            var gathered: ArraySlice<TweeDocument.Passage>? = passages
            passages = []
            LargeValues.release(&gathered)
        } else {
            passages = []
        }
        if let second {
            var (rest, restFound, restMap, restPositions) = second.take()
            chapters.appendMoving(&rest, leaving: Chapter(id: "", name: "", text: ""))
            found += restFound
            map.append(restMap)
            restMap = TweeSourceMap()
            positions += restPositions
        }
        var chapterFields = ChapterFields()
        if !ignoringOverrides, let metadata, let chaptersNode = metadata.first("chapters", in: metadata.root), metadata.document.kind(chaptersNode) == .object {
            chapterFields = ChapterFields(metadata.document, members: chaptersNode)
        }
        findings += found
        places.chapters = map.chapters
        places.textLines = map.textLines
        places.choices = map.choices
        // What cyd's metadata says of each chapter, written into it where it is.
        var firstFlags: [Int: Bool] = [:]
        var twineKept: [Int: JSONValue] = [:]
        // A chapter's members are read in one pass, each key's first member being its value (as a
        // look-up by key finds it); a look-up of each key the chapter might have, 100,000 times,
        // kept the import's other core idle.
        for index in chapters.indices where !chapterFields.isEmpty {
            guard let fields = chapterFields.fields(of: chapters[index].id), let document = chapterFields.document, document.kind(fields) == .object else { continue }
            var taken: UInt32 = 0
            for (keyNode, value) in document.members(of: fields) {
                guard let field = ChapterField(rawValue: document.string(keyNode)), field != .id else { continue }
                let bit = UInt32(1) << field.ordinal
                guard taken & bit == 0 else { continue }
                taken |= bit
                let kind = document.kind(value)
                let string = kind == .string ? document.string(value) : nil
                let flag: Bool? = kind == .true ? true : kind == .false ? false : nil
                switch field {
                case .id: break
                case .name: if let string { chapters[index].name = string }
                case .text:
                    guard let string else { break }
                    chapters[index].text = string
                    if placing { places.chapters[index].textLines = nil }
                case .choices:
                    guard kind == .array else { break }
                    chapters[index].choices = document.elements(of: value).compactMap { element in
                        let choice = JSONValue(document, element)
                        guard let target = choice["chapter_id"]?.string, let text = choice["text"]?.string else { return nil }
                        return Choice(chapterID: target, text: text)
                    }
                    if placing { places.chapters[index].choices = nil }
                case .isFirstChapter: if let flag { firstFlags[index] = flag }
                case .twine: twineKept[index] = JSONValue(document, value)
                default:
                    // The keys a passage has no place for (`metadataFields`), as they are written.
                    switch field.kind {
                    case .text, .nonEmptyText: field.set(string.map(ChapterValue.text), in: &chapters[index])
                    case .flag: field.set(flag.map(ChapterValue.flag), in: &chapters[index])
                    case .object: field.set(.object(JSONValue(document, value)), in: &chapters[index])
                    case .choices: break
                    }
                }
            }
        }
        // The metadata's tree is let go once written into the chapters (the story's own fields
        // are kept apart).
        chapterFields = ChapterFields()
        metadata = nil
        // Reading starts at StoryData's start, else at Start, else at the first passage. The
        // chapters' ids are the passages' names that were kept.
        var start = startNamed
        if let named = start, !startFound {
            let line = storyDataContentLine ?? 1
            findings.append(TweeFinding(kind: .startMissing(named), line: line, column: 1))
            start = nil
        }
        let first = start ?? (hasStartPassage ? "Start" : chapters.first?.id)
        for index in chapters.indices {
            chapters[index].isFirstChapter = firstFlags[index] ?? (chapters[index].id == first)
        }
        let name = storyFields?["name"]?.string ?? title ?? "Untitled story"
        var story = Story(
            id: storyFields?["id"]?.string ?? slug(name), name: name, rating: storyFields?["rating"]?.string ?? "G",
            summary: storyFields?["summary"]?.string ?? "", picPath: storyFields?["pic_path"]?.string, vidPath: storyFields?["vid_path"]?.string,
            chapters: [])
        // Twine's data. In a file cyd wrote, a passage at the place cyd lays it out at was put
        // there by cyd, not by the author; what the metadata carries stands over the passage's.
        if fromCyd, positions.contains(where: { $0 != nil }) {
            story.chapters = chapters
            let laidOut = TweeLayout.positions(of: story)
            story.chapters = []
            for index in chapters.indices {
                guard let position = positions[index], !TwineData.isLaidOut(position, laidOut[index]) else { continue }
                chapters[index].twine = TwineData.adding(position: position, to: chapters[index].twine)
            }
        }
        // A member `null` says the chapter has none (`JSONValue` takes `nil` as a literal: a bare
        // `nil` in this choice was `.null` itself, written out as `"twine": null`).
        for (index, twine) in twineKept { chapters[index].twine = twine == .null ? JSONValue?.none : twine }
        story.chapters = chapters
        if case .object(let members)? = data {
            story.twine = TwineData.story(file: members, carried: storyFields?["twine"], written: storyFields?[TwineData.writtenKey])
        }
        return Imported(
            story: story, ifid: data?["ifid"]?.string, format: formatName, findings: findings, carriedMetadata: storyFields != nil, places: places)
    }

    /// cyd's metadata passage read into its nodes: the story's fields and each chapter's are
    /// read where they lie, not made a tree of values (100,000 chapters' objects, keys and
    /// strings, made on another core while the import waited for them).
    struct MetadataTree: Sendable {
        let document: JSONDocument
        let root: Int

        /// The first member of `object` named `key` (as `JSONValue`'s look-up finds it), if
        /// `object` is an object.
        func first(_ key: String, in object: Int) -> Int? {
            document.kind(object) == .object ? document.firstMember(object, key) : nil
        }
    }

    /// Each chapter's fields in cyd's metadata, found by id. The metadata lists the chapters in
    /// the passages' order, so each is looked for where the last one was found; only one found
    /// elsewhere makes an index of them all (the first member of an id is its), where a table of
    /// 100,000 ids, made for every file, cost ten megabytes. Ids are equal as Swift compares
    /// strings (a composed and a decomposed name are one), as the passages' names are.
    struct ChapterFields {
        let document: JSONDocument?
        let members: [(key: Int, value: Int)]
        var next = 0
        var index: [String: Int]?

        init() {
            document = nil
            members = []
        }

        /// The members of the metadata's `chapters` object, `node`.
        init(_ document: JSONDocument, members node: Int) {
            self.document = document
            members = Array(document.members(of: node))
        }

        var isEmpty: Bool { members.isEmpty }

        /// Consecutive finds from the first member are the first of their id: every member
        /// before was a chapter's, and chapters' ids differ. The node of the chapter's fields.
        mutating func fields(of id: String) -> Int? {
            // By the key's bytes here; a key written in another normalization than the id, or
            // otherwise escaped, is found in the table, as strings.
            if index == nil, next < members.count, let document, document.keyEquals(members[next].key, id) {
                next += 1
                return members[next - 1].value
            }
            guard let document else { return nil }
            if index == nil {
                var made: [String: Int] = [:]
                made.reserveCapacity(members.count)
                for position in members.indices {
                    let key = document.string(members[position].key)
                    if made[key] == nil { made[key] = position }
                }
                index = made
            }
            return index![id].map { members[$0].value }
        }
    }

    /// Passages as chapters, with their findings and places.
    /// With `positionsApart`, each passage's position is not put into its chapter's `twine`
    /// object but returned, a position (or nil) for each chapter.
    /// `room` is how many chapters the arrays returned have room for (the other half's too).
    /// Without `placing`, the map returned is empty.
    static func derive(
        _ passages: ArraySlice<TweeDocument.Passage>, file: FileBytes, format: Format?, positionsApart: Bool = false, placing: Bool = true, room: Int = 0
    ) -> ([Chapter], [TweeFinding], TweeSourceMap, [String?]) {
        var chapters: [Chapter] = []
        chapters.reserveCapacity(max(room, passages.count))
        var positions: [String?] = []
        if positionsApart { positions.reserveCapacity(max(room, passages.count)) }
        var findings: [TweeFinding] = []
        var map: TweeSourceMap? = placing ? TweeSourceMap() : nil
        // A mapped file's pages go back behind the passages read (the chapters hold their own
        // text): the file and the story are not both in memory whole. Only this half's pages.
        var sweep = file.source.flatMap { source in passages.lazy.compactMap(\.textStart).first.map { source.sweep(from: $0) } }
        for passage in passages {
            if let start = passage.textStart { sweep?.release(upTo: start) }
            if let body = passage.body, let bytes = file.bytes {
                chapters.append(
                    derive(
                        UnsafeBufferPointer(rebasing: bytes[body]), name: passage.name, firstLine: passage.contentLine, header: passage.line, format: format,
                        findings: &findings, map: &map))
            } else {
                chapters.append(
                    derive(content: passage.content, name: passage.name, firstLine: passage.contentLine, header: passage.line, format: format, findings: &findings, map: &map))
            }
            // Twine's data of the passage: its tags, its place and size on the story map.
            let place = passage.metadata.map(TwineData.place(metadata:))
            if let place, place.unreadable || !place.others.isEmpty {
                let members: [String?] = place.unreadable ? [nil] : place.others
                for member in members {
                    findings.append(TweeFinding(kind: .passageMetadataLeftOut(passage: passage.name, member: member), line: passage.line, column: 1))
                }
            }
            if positionsApart { positions.append(place?.position) }
            if !passage.tags.isEmpty || place != nil {
                chapters[chapters.count - 1].twine = TwineData.chapter(
                    tags: passage.tags, position: positionsApart ? nil : place?.position, size: place?.size, laidOut: nil)
            }
        }
        // To the last text read from the file (a passage's text ends before the next one's starts).
        sweep?.end(at: max(passages.last(where: { $0.body != nil })?.body?.upperBound ?? 0, passages.last?.textStart ?? 0))
        return (chapters, findings, map ?? TweeSourceMap(), positions)
    }

    /// A passage as a chapter: links become choices (a line that is only a link goes; a link in
    /// a sentence leaves its text), trailing blank lines go, the format's name variable becomes
    /// `[[name]]`; macros stay as text, each with a finding. `firstLine` is the content's first
    /// line in the file and `header` its header's (the line before, unless a Twine archive's);
    /// where the text's lines and the links were goes into `map`.
    static func derive(
        content: String, name: String, firstLine: Int, header: Int? = nil, format: Format?, findings: inout [TweeFinding], map: inout TweeSourceMap?
    ) -> Chapter {
        content.withExistingUTF8 { derive($0, name: name, firstLine: firstLine, header: header, format: format, findings: &findings, map: &map) }
    }

    /// A passage's content, `p`, as a chapter.
    static func derive(
        _ p: UnsafeBufferPointer<UInt8>, name: String, firstLine: Int, header: Int? = nil, format: Format?, findings: inout [TweeFinding],
        map: inout TweeSourceMap?
    ) -> Chapter {
        let textLinesStart = map?.textLines.count ?? 0
        let choicesStart = map?.choices.count ?? 0
        var choices: [Choice] = []
        var out: [UInt8] = []
        var keptLines = 0
        do {
            let count = p.count
            out.reserveCapacity(count)
            var kept = 0  // the text through its last line that is not blank
            var lines = 0
            var position = 0
            var number = firstLine
            while true {
                let end = Bytes.first(0x0A, in: p, from: position, to: count)
                if Bytes.contains(0x28, 0x3C, 0x7B, in: p, from: position, to: end) || Bytes.first(0x24, in: p, from: position, to: end) < end {
                    macros(p, from: position, to: end, passage: name, line: number, into: &findings)
                }
                let bracket = Bytes.first(0x5B, in: p, from: position, to: end)
                var wholeLineLink = false
                if bracket < end {
                    var first = position
                    while first < end, Bytes.isBlank(p[first]) { first += 1 }
                    var last = end
                    while last > first, Bytes.isBlank(p[last - 1]) { last -= 1 }
                    if last - first >= 4, p[first] == 0x5B, p[first + 1] == 0x5B, p[last - 1] == 0x5D, p[last - 2] == 0x5D,
                        Bytes.first("]]", in: p, from: first + 2, to: last - 2) == nil
                    {
                        let link = TweeLink.read(p, from: first + 2, to: last - 2)
                        if let setter = link.setter {
                            findings.append(TweeFinding(kind: .setterLeftOut(passage: name, setter: setter), line: number, column: 1))
                        }
                        choices.append(Choice(chapterID: link.target, text: link.text))
                        map?.choices.append(.init(line: number, byte: first - position))
                        wholeLineLink = true
                    }
                }
                if !wholeLineLink {
                    if lines > 0 { out.append(0x0A) }
                    lines += 1
                    map?.textLines.append(Int32(number))
                    let lineStart = out.count
                    var rest = position
                    // Links inside a line of text: the text stays, the link becomes a choice.
                    if bracket < end {
                        while let open = Bytes.first("[[", in: p, from: rest, to: end), let close = Bytes.first("]]", in: p, from: open + 2, to: end) {
                            out.append(contentsOf: UnsafeBufferPointer(rebasing: p[rest..<open]))
                            let link = TweeLink.read(p, from: open + 2, to: close)
                            out.append(contentsOf: link.text.utf8)
                            choices.append(Choice(chapterID: link.target, text: link.text))
                            map?.choices.append(.init(line: number, byte: open - position))
                            rest = close + 2
                        }
                    }
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: p[rest..<end]))
                    if out[lineStart...].contains(where: { !Bytes.isBlank($0) }) {
                        kept = out.count
                        keptLines = lines
                    }
                }
                if end >= count { break }
                position = end + 1
                number += 1
            }
            out.removeSubrange(kept...)
        }
        if var places = map {
            map = nil  // one owner while it is changed, not a copy of 100,000 chapters' places
            places.textLines.removeSubrange((textLinesStart + keptLines)...)
            places.chapters.append(.init(header: header ?? firstLine - 1, textLines: textLinesStart..<places.textLines.count, choices: choicesStart..<places.choices.count))
            map = places
        }
        if format != .chapbook, out.contains(0x24) { out = replacingVariable(out) }
        var text = String(decoding: out, as: UTF8.self)
        if format == .chapbook || format == nil, out.contains(0x7B) { text = text.replacingBytes("{name}", with: "[[name]]") }
        return Chapter(id: name, name: name, text: text, choices: choices)
    }

    /// `$name` (not `$names`) as `[[name]]`.
    static func replacingVariable(_ text: [UInt8]) -> [UInt8] {
        text.withUnsafeBufferPointer { p in
            var out: [UInt8] = []
            out.reserveCapacity(p.count + 16)
            var rest = 0
            while let found = Bytes.first("$name", in: p, from: rest, to: p.count) {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: p[rest..<found]))
                if Bytes.continuesName(p, at: found + 5, end: p.count) {
                    out.append(contentsOf: "$name".utf8)
                } else {
                    out.append(contentsOf: "[[name]]".utf8)
                }
                rest = found + 5
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: p[rest..<p.count]))
            return out
        }
    }

    /// Every story format's code on a line, whatever format the file declares (a file's
    /// declaration can be wrong, and a reader here runs none of them): Harlowe's `(macro:`,
    /// SugarCube's `<<macro>>` and `<</macro>>`, Snowman's `<% %>`, Chapbook's `{insert}`, and
    /// the variables Harlowe and SugarCube print (`$oil`). `$name` and `{name}` are the reader's
    /// name, and links are read elsewhere (a link's setter is its own finding). Each is said
    /// once, by its opening; what is inside it is not said again. Columns count Unicode scalars.
    static func macros(_ p: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, passage: String, line number: Int, into found: inout [TweeFinding]) {
        func report(_ at: Int, _ upTo: Int) {
            let code = Bytes.string(p, at, min(upTo, end))
            found.append(TweeFinding(kind: .macroKeptAsText(passage: passage, code: code), line: number, column: Bytes.scalars(p, from: start, to: at) + 1))
        }
        func isVariableByte(_ byte: UInt8) -> Bool { Bytes.isNameByte(byte) || byte == 0x5F || (byte >= 0x30 && byte <= 0x39) }
        /// Past the parenthesis that closes the one open at `open` (nested ones counted), or the end.
        func pastClosing(_ open: Int) -> Int {
            var depth = 0
            var at = open
            while at < end {
                if p[at] == 0x28 { depth += 1 } else if p[at] == 0x29 { depth -= 1 }
                at += 1
                if depth == 0 { return at }
            }
            return end
        }
        var index = start
        while index < end {
            let byte = p[index]
            if byte == 0x5B, index + 1 < end, p[index + 1] == 0x5B {  // a link: read as a choice
                index = Bytes.first("]]", in: p, from: index + 2, to: end).map { $0 + 2 } ?? end
                continue
            } else if byte == 0x28 {  // (name:
                var after = index + 1
                while after < end, Bytes.isNameByte(p[after]) || p[after] == 0x2D { after += 1 }
                if after > index + 1, after < end, p[after] == 0x3A {
                    report(index, after + 1)
                    index = pastClosing(index)
                    continue
                }
            } else if byte == 0x3C, index + 1 < end, p[index + 1] == 0x3C || p[index + 1] == 0x25 {  // <<name, <</name, <%
                var after = index + 2
                if p[index + 1] == 0x3C, after < end, p[after] == 0x2F { after += 1 }
                while after < end, Bytes.isNameByte(p[after]) { after += 1 }
                report(index, after)
                let close = p[index + 1] == 0x3C ? Bytes.first(">>", in: p, from: after, to: end) : Bytes.first("%>", in: p, from: after, to: end)
                index = close.map { $0 + 2 } ?? end
                continue
            } else if byte == 0x7B {  // {insert}
                let close = Bytes.first(0x7D, in: p, from: index, to: end)
                let inner = index + 1
                if close < end, close > inner, Bytes.isNameByte(p[inner]), !(close - inner == 4 && Bytes.first("name", in: p, from: inner, to: close) == inner) {
                    report(index, close + 1)
                    index = close + 1
                    continue
                }
            } else if byte == 0x24, index + 1 < end, Bytes.isNameByte(p[index + 1]) || p[index + 1] == 0x5F {  // $variable
                var after = index + 1
                while after < end, isVariableByte(p[after]) { after += 1 }
                let isReadersName = after - index == 5 && Bytes.first("name", in: p, from: index + 1, to: after) == index + 1
                if !isReadersName { report(index, after) }
                index = after
                continue
            }
            index += 1
        }
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
