import StoryCheck
import StoryFormat

/// Twine 2's archive HTML (twine-specs, `twine-2-archive-spec.md` and `twine-2-htmloutput-spec.md`):
/// what Twine's Library > Archive writes and Library > Import reads: a `<tw-storydata>` element
/// a story, its metadata in attributes, a `<tw-passagedata>` element a passage. The same
/// passages as `TweeStory` writes (cyd's metadata passage included), so a round trip is as
/// exact; reading goes through the same mapping, with the same findings.
public enum TwineArchive {
    /// The archive of one story (two line feeds after the element, as the specification says).
    public static func html(_ story: Story, format: TweeStory.Format? = nil) throws(TweeStory.ExportProblem) -> String {
        String(decoding: try htmlBytes(story, format: format), as: UTF8.self)
    }

    /// The archive as UTF-8 bytes: the passages of the Twee file `TweeStory` writes, each holding
    /// what that file reads back as, so the archive reads back as exactly.
    public static func htmlBytes(_ story: Story, format: TweeStory.Format? = nil) throws(TweeStory.ExportProblem) -> [UInt8] {
        Array(try htmlChunks(story, format: format).joined())
    }

    /// The same bytes as `htmlBytes`, in pieces of about a megabyte made as a writer takes them
    /// (the next two on the other core while one is written). A chapter's element is written
    /// from the chapter when its piece is made, as with `TweeStory.tweeChunks`.
    public static func htmlChunks(_ story: Story, format: TweeStory.Format? = nil) throws(TweeStory.ExportProblem) -> FilePieces {
        try htmlChunks(story, format: format, pieceSize: 1 << 20)
    }

    package static func htmlChunks(_ story: Story, format: TweeStory.Format?, pieceSize: Int) throws(TweeStory.ExportProblem) -> FilePieces {
        let exported = try TweeStory.exported(story, format: format, archive: true)
        // StoryTitle and StoryData lead the passages; they are attributes of the archive. The
        // passages after them (cyd's metadata) are taken where they are (a slice, not a copy),
        // then the chapters'.
        var name = story.name
        var data: JSONValue?
        var leading = 0
        for passage in exported.leading {
            switch passage.name {
            case "StoryTitle": name = TweeStory.readBack(passage.content)
            case "StoryData": data = JSONValue.parse(Array(passage.content.utf8))
            default: break
            }
            guard passage.name == "StoryTitle" || passage.name == "StoryData" else { break }
            leading += 1
        }
        let passages = exported.leading[leading...]
        let start = data?["start"]?.string
        // The start is a chapter (a chapter cannot be named as cyd's metadata passage is).
        let startPID = exported.chapters.firstIndex { $0.id == start }.map { passages.count + $0 + 1 } ?? 1
        var out: [UInt8] = []
        func text(_ value: String) { out.append(contentsOf: value.utf8) }
        func escaped(_ value: String) { MarkupText.append(value, to: &out) }
        text("<tw-storydata name=\"")
        escaped(name)
        let declared = TwineData.declared(story, chosen: format)
        text("\" startnode=\"\(startPID)\" creator=\"cyd\" creator-version=\"1\" format=\"")
        escaped(data?["format"]?.string ?? declared.name)
        text("\" format-version=\"")
        escaped(data?["format-version"]?.string ?? declared.version)
        text("\" ifid=\"")
        escaped(data?["ifid"]?.string ?? TwineData.ifid(story))
        text("\" options=\"")
        escaped(story.twine?["options"]?.string ?? "")
        text("\" tags=\"")
        escaped(TwineData.tags(story.twine?["tags"]).joined(separator: " "))
        text("\" zoom=\"")
        text(TwineData.zoom(story))
        text("\" hidden>")
        // Tag colours are elements of their own in an archive.
        for (tag, color) in TwineData.tagColors(story) {
            text("<tw-tag name=\"")
            escaped(tag)
            text("\" color=\"")
            escaped(color)
            text("\"></tw-tag>")
        }
        text("<style role=\"stylesheet\" id=\"twine-user-stylesheet\" type=\"text/twine-css\"></style>")
        text("<script role=\"script\" id=\"twine-user-script\" type=\"text/twine-javascript\"></script>")
        // cyd's metadata passage first, then the chapters' passages, in the story's order.
        let firstChapter = passages.count
        let base = leading
        return FilePieces(PiecesMadeAhead(
            count: passages.count + exported.chapters.count, pieceSize: pieceSize,
            // An element's markup is at least 80 bytes; a passage before the chapters may read
            // back shorter than it is held.
            leastSize: { index in
                index < firstChapter
                    ? passages[base + index].name.utf8.count + 80
                    : exported.chapters[index - firstChapter].id.utf8.count + exported.leastContentSize(index - firstChapter) + 80
            },
            head: out, tail: Array("</tw-storydata>\n\n".utf8),
            appendingUnits: { units, out in
                // A chapter's content is made here, then escaped into the piece.
                var content: [UInt8] = []
                for index in units {
                    if index < firstChapter {
                        let passage = passages[base + index]
                        // The passages before the chapters (cyd's metadata) sit in the first row
                        // beside the first chapter, which has that row to itself (TweeLayout): no
                        // two boxes on one place.
                        let position = TwineData.laidOut((x: TweeLayout.margin + (index + 1) * TweeLayout.spacing, y: TweeLayout.margin))
                        appendElement(index, name: passage.name, tags: passage.tags, place: TwineData.Place(position: position, size: TwineData.defaultSize), to: &out) { out in
                            MarkupText.append(TweeStory.readBack(passage.content), to: &out)
                        }
                    } else {
                        let chapter = index - firstChapter
                        appendElement(index, name: exported.chapters[chapter].id, tags: exported.tags(chapter), place: exported.places[chapter], to: &out) { out in
                            // Chapters' passages hold what the Twee file reads back already.
                            content.removeAll(keepingCapacity: true)
                            exported.appendContent(chapter, to: &content)
                            content.withUnsafeBufferPointer { MarkupText.append($0, to: &out) }
                        }
                    }
                }
            }))
    }

    /// The `<tw-passagedata>` element of the archive's passage `index` (pid counts from 1 over
    /// all of them), its text appended by `content`.
    static func appendElement(_ index: Int, name: String, tags: [String], place: TwineData.Place, to out: inout [UInt8], content: (inout [UInt8]) -> Void) {
        // Piece by piece into the output: no string is made for a passage's element.
        out.append(contentsOf: "<tw-passagedata pid=\"".utf8)
        DecimalDigits.append(index + 1, to: &out)
        out.append(contentsOf: "\" name=\"".utf8)
        MarkupText.append(name, to: &out)
        out.append(contentsOf: "\" tags=\"".utf8)
        for (number, tag) in tags.enumerated() {
            if number > 0 { out.append(0x20) }
            MarkupText.append(tag, to: &out)
        }
        out.append(contentsOf: "\" position=\"".utf8)
        out.append(contentsOf: place.position.utf8)
        out.append(contentsOf: "\" size=\"".utf8)
        out.append(contentsOf: place.size.utf8)
        out.append(contentsOf: "\">".utf8)
        content(&out)
        out.append(contentsOf: "</tw-passagedata>".utf8)
    }

    /// The first story of an archive (or of a published story's HTML), read as `TweeStory` reads
    /// Twee; findings carry the line of the passage's element in the HTML. Read on the bytes (the
    /// markup is ASCII); a passage without character references is read where it is in the file.
    /// `placing` as `TweeStory.story(from:placing:)` says.
    public static func story(from bytes: [UInt8], placing: Bool = true) -> TweeStory.Imported {
        story(from: SourceBytes(bytes), placing: placing)
    }

    /// The same, of a file's bytes wherever they are (a mapped file is read where it lies, its
    /// pages given back as the passages are read).
    public static func story(from source: SourceBytes, placing: Bool = true) -> TweeStory.Imported {
        source.withUnsafeBufferPointer { file in
            if let wrong = TweeStory.utf16Finding(file) { return TweeStory.Imported(story: nil, ifid: nil, format: nil, findings: [wrong]) }
            if let bad = UTF8Validation.firstInvalidInHalves(file) { return TweeStory.Imported(story: nil, ifid: nil, format: nil, findings: [TweeStory.notUTF8Finding(file, at: bad)]) }
            return story(in: file, placing: placing, source: source)
        }
    }

    /// A `<tw-passagedata>` element found: its attributes, its content's bytes, its line.
    struct PassageElement {
        var attributes: Attributes
        var content: Range<Int>
        var line: Int
    }

    static func story(in p: UnsafeBufferPointer<UInt8>, placing: Bool = true, source: SourceBytes? = nil) -> TweeStory.Imported {
        let count = p.count
        var scanner = HTMLScanner(p, from: 0, to: count)
        // Places outside the story's elements (its start tag, another story), counted as
        // StoryScan counts them.
        var places = StoryScan(p, lines: (offset: 0, line: 1))
        // The first story element that is a tag (not in a script, a style, a comment or an
        // attribute's value).
        var found: (attributes: Attributes, at: Int)?
        while let token = scanner.next() {
            if case .start("tw-storydata", let attributes, let at, _, _) = token {
                found = (attributes, at)
                break
            }
        }
        guard let (attributes, storyStart) = found else {
            return TweeStory.Imported(story: nil, ifid: nil, format: nil, findings: [TweeFinding(kind: .noStory, line: 1, column: 1)])
        }
        let storyLine = places.line(at: storyStart)
        // The story's elements, to its end tag. A large archive is read in two halves, the
        // second on another core from a passage's element near the middle; when the first half's
        // reading does not arrive at that very element (it lay in a comment, a script or a
        // passage's text), the second half's reading is dropped and the first goes on alone.
        var scan = StoryScan(p, lines: places.counted)
        let afterStoryTag = scanner
        var another: Int?
        var stop = StoryScan.Stop.storyEnd
        var split: Int?
        if count - scanner.index >= 1 << 20 {
            split = Bytes.first("<tw-passagedata", in: p, from: scanner.index + (count - scanner.index) / 2, to: count)
        }
        if let split {
            let file = TweeStory.FileBytes(bytes: p)
            let second = BackgroundWork { () -> SecondHalf in
                let p = file.bytes!
                var scanner = HTMLScanner(p, from: split, to: p.count)
                var scan = StoryScan(p, lines: (split, Bytes.lineFeeds(in: p, from: 0, to: split) + 1))
                let stop = scan.run(&scanner, until: nil)
                return SecondHalf(scan: scan, stop: stop, another: stop == .storyEnd ? anotherStory(&scanner) : nil)
            }
            stop = scan.run(&scanner, until: split)
            let half = second.wait()
            if stop == .reached(split) {
                scan.elements += half.scan.elements
                scan.colors += half.scan.colors
                scan.findings += half.scan.findings
                stop = half.stop
                another = half.another
            } else if stop == .storyEnd {
                another = anotherStory(&scanner)
            } else if case .reached = stop {
                // Read again from the story's start tag, alone.
                scanner = afterStoryTag
                scan = StoryScan(p, lines: places.counted)
                stop = scan.run(&scanner, until: nil)
                if stop == .storyEnd { another = anotherStory(&scanner) }
            }
        } else {
            stop = scan.run(&scanner, until: nil)
            if stop == .storyEnd { another = anotherStory(&scanner) }
        }
        // A story without its end tag: the file was cut short (a download or a copy that
        // stopped), and what is missing cannot be known. Said at the file's end; not read.
        var cutShort: TweeFinding?
        if case .fileEnd(let passage) = stop {
            cutShort = TweeFinding(kind: .archiveCutShort(story: attributes["name"] ?? "", passage: passage), line: places.line(at: count), column: places.column(at: count))
        }
        var findings = scan.findings
        // The elements (each with its attributes) are let go once the passages are made from them.
        var elements = scan.elements
        scan.elements = []
        let colors = scan.colors
        guard !elements.isEmpty else {
            findings.append(cutShort ?? TweeFinding(kind: .noArchivePassages(story: attributes["name"] ?? ""), line: storyLine, column: places.column(at: storyStart)))
            return TweeStory.Imported(story: nil, ifid: attributes["ifid"], format: attributes["format"], findings: findings)
        }
        // A large archive's passages are made in two halves, the second on another core. The
        // start passage is the first whose pid is the story's startnode (only its name is
        // wanted: a table of every pid, made and merged for that, was a tenth of the import).
        var passages: [TweeDocument.Passage]
        var startName: String?
        let startPID = attributes["startnode"]
        if elements.count >= 2000 {
            let file = TweeStory.FileBytes(bytes: p)
            let split = elements.count / 2
            let second = BackgroundWork { [elements] in Self.passages(file.bytes!, elements[split...], startPID: startPID) }
            (passages, startName) = Self.passages(p, elements[..<split], room: elements.count, startPID: startPID)
            elements = []
            do {
                var (rest, restStart) = second.take()
                passages.appendMoving(&rest, leaving: TweeDocument.Passage(name: "", tags: [], metadata: nil, content: "", line: 0))
                startName = startName ?? restStart
            }
        } else {
            (passages, startName) = Self.passages(p, elements[...], startPID: startPID)
            elements = []
        }
        // The passages hold their text, or its place when it needs no decoding: the file's pages
        // go back (the reading below brings back those it reads, and gives them back behind it),
        // so the archive is not held whole beside the story being made.
        source?.releaseAll()
        var data = TwineData.archiveMembers(
            ifid: attributes["ifid"], format: attributes["format"], version: attributes["format-version"], zoom: attributes["zoom"], tags: attributes["tags"],
            options: attributes["options"], colors: colors)
        if let startName { data.append(("start", .string(startName))) }
        var header: [TweeDocument.Passage] = []
        header.reserveCapacity(passages.count + 2)
        header.append(TweeDocument.Passage(name: "StoryTitle", content: attributes["name"] ?? "", line: storyLine))
        header.append(TweeDocument.Passage(name: "StoryData", content: JSONValue.object(data).encoded, line: storyLine))
        // Moved, not copied: a copy of each passage retained and released four strings and an array.
        header.appendMoving(&passages, leaving: TweeDocument.Passage(name: "", tags: [], metadata: nil, content: "", line: 0))
        // Given up to the reading, which lets the passages go once they are chapters.
        var imported = TweeStory.read(TweeDocument(passages: consume header), ignoringOverrides: false, file: TweeStory.FileBytes(bytes: p, source: source), placing: placing)
        imported.findings.insert(contentsOf: findings, at: 0)
        if let another {
            imported.findings.append(TweeFinding(kind: .moreStories, line: places.line(at: another), column: places.column(at: another)))
        }
        if let cutShort {
            // Its passages are still read, so what reading them found is said too; no story is
            // given, for an import to write or a validation to check.
            imported.findings.append(cutShort)
            imported.story = nil
        }
        return imported
    }

    /// The second half's reading, handed back from another thread (its bytes are the file's,
    /// alive while the first half waits for it).
    struct SecondHalf: @unchecked Sendable {
        var scan: StoryScan
        var stop: StoryScan.Stop
        var another: Int?
    }

    /// Where the next story element starts, after a story's end tag: another story, said and left.
    static func anotherStory(_ scanner: inout HTMLScanner) -> Int? {
        while let token = scanner.next() {
            if case .start("tw-storydata", _, let at, _, _) = token { return at }
        }
        return nil
    }

    /// The reading of a story's elements from where a scanner is: its passages' elements, its
    /// tag colours, and its own stylesheet and script (code, said and left out).
    struct StoryScan {
        let p: UnsafeBufferPointer<UInt8>
        var elements: [PassageElement] = []
        var colors: [(String, String)] = []
        var findings: [TweeFinding] = []
        /// Lines counted up to an offset, never from the start again.
        var counted: (offset: Int, line: Int)

        init(_ p: UnsafeBufferPointer<UInt8>, lines: (offset: Int, line: Int)) {
            self.p = p
            self.counted = lines
        }

        enum Stop: Equatable {
            /// The story's end tag was read.
            case storyEnd
            /// The file ended inside the story (inside a passage's element, named, when that
            /// was not closed either).
            case fileEnd(inPassage: String?)
            /// A tag at or after the limit was reached, where it starts; the scanner is past it.
            case reached(Int)
        }

        mutating func line(at offset: Int) -> Int {
            counted = (offset, counted.line + Bytes.lineFeeds(in: p, from: counted.offset, to: offset))
            return counted.line
        }

        func column(at offset: Int) -> Int {
            var lineStart = offset
            while lineStart > 0, p[lineStart - 1] != 0x0A { lineStart -= 1 }
            return Bytes.scalars(p, from: lineStart, to: offset) + 1
        }

        /// Reads to the story's end tag, or to the first tag at or after `limit`.
        mutating func run(_ scanner: inout HTMLScanner, until limit: Int?) -> Stop {
            while let token = scanner.next() {
                if let limit {
                    switch token {
                    case .start(_, _, let at, _, _) where at >= limit: return .reached(at)
                    case .end(_, let at, _) where at >= limit: return .reached(at)
                    default: break
                    }
                }
                switch token {
                case .end("tw-storydata", _, _):
                    return .storyEnd
                case .start("tw-passagedata", let passage, let at, let contentStart, _):
                    // Its content runs to its end tag (or the story's, or the file's end).
                    var contentEnd = p.count
                    var storyEnds = false
                    var closed = false
                    while let inner = scanner.next() {
                        if case .end(let name, let closeAt, _) = inner, name == "tw-passagedata" || name == "tw-storydata" {
                            contentEnd = closeAt
                            storyEnds = name == "tw-storydata"
                            closed = true
                            break
                        }
                    }
                    elements.append(PassageElement(attributes: passage, content: contentStart..<contentEnd, line: line(at: at)))
                    if storyEnds { return .storyEnd }
                    if !closed { return .fileEnd(inPassage: passage["name"] ?? "") }
                case .start("tw-tag", let tag, _, _, _):
                    if let name = tag["name"], let color = tag["color"] { colors.append((name, color)) }
                case .start(let name, _, let at, let contentStart, let rawEnd?) where name == "script" || name == "style":
                    let content = TwineArchive.unescape(p, from: contentStart, to: rawEnd)
                    if content.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) {
                        findings.append(TweeFinding(kind: .storyCodeLeftOut(isScript: name == "script"), line: line(at: at), column: column(at: at)))
                    }
                default:
                    continue
                }
            }
            return .fileEnd(inPassage: nil)
        }
    }

    /// The passages of `elements`, and the name of the first whose pid is `startPID`.
    /// `room` is how many passages the array returned has room for (the other half's too).
    static func passages(
        _ p: UnsafeBufferPointer<UInt8>, _ elements: ArraySlice<PassageElement>, room: Int = 0, startPID: String?
    ) -> ([TweeDocument.Passage], start: String?) {
        var passages: [TweeDocument.Passage] = []
        passages.reserveCapacity(max(room, elements.count))
        var start: String?
        for element in elements {
            let passage = element.attributes
            let name = passage["name"] ?? ""
            if start == nil, let startPID, passage["pid"] == startPID { start = name }
            var metadata: String?
            if let position = passage["position"] {
                metadata = "{\"position\":" + JSONQuoting.quoted(position) + ",\"size\":" + JSONQuoting.quoted(passage["size"] ?? "100,100") + "}"
            }
            let tags = (passage["tags"] ?? "").split(separator: " ").map(String.init)
            // The passage's name and its content start on the element's own line. Made whole in
            // the append: one made and then changed was copied into the array (its strings
            // retained, then released), a passage at a time.
            let content = element.content
            let leftInFile = Bytes.first(0x26, in: p, from: content.lowerBound, to: content.upperBound) == content.upperBound && !TweeStory.storyPassages.contains(name)
            passages.append(
                TweeDocument.Passage(
                    name: name, tags: tags, metadata: metadata, content: leftInFile ? "" : unescape(p, from: content.lowerBound, to: content.upperBound),
                    line: element.line, body: leftInFile ? content : nil, start: content.lowerBound, contentOnHeaderLine: true))
        }
        return (passages, start)
    }

    /// An element's attributes (after its name, from `start`), in order, and where its content
    /// starts. A few attributes, looked up by name: a list, not a table.
    struct Attributes {
        var pairs: [(name: String, value: String)] = []
        subscript(name: String) -> String? { pairs.first { $0.name == name }?.value }
    }

    static func element(_ p: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> (Attributes, Int) {
        var attributes = Attributes()
        var index = start
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        func skipSpace() { while index < end, isSpace(p[index]) { index += 1 } }
        while index < end {
            skipSpace()
            guard index < end else { break }
            if p[index] == 0x3E { return (attributes, index + 1) }  // >
            let nameStart = index
            while index < end, !isSpace(p[index]), p[index] != 0x3D, p[index] != 0x3E { index += 1 }
            let name = Bytes.asciiLowercased(p, nameStart, index)
            skipSpace()
            var value = ""
            if index < end, p[index] == 0x3D {  // =
                index += 1
                skipSpace()
                if index < end, p[index] == 0x22 || p[index] == 0x27 {
                    let quote = p[index]
                    index += 1
                    let valueStart = index
                    while index < end, p[index] != quote { index += 1 }
                    value = unescape(p, from: valueStart, to: index)
                    if index < end { index += 1 }
                } else {
                    let valueStart = index
                    while index < end, !isSpace(p[index]), p[index] != 0x3E { index += 1 }
                    value = unescape(p, from: valueStart, to: index)
                }
            }
            if !name.isEmpty, attributes[name] == nil { attributes.pairs.append((name, value)) }
            if name.isEmpty { index += 1 }
        }
        return (attributes, end)
    }

    /// The text of `p[start..<end]` with HTML's character references read: the five named ones
    /// Twine writes, `&nbsp;` and numeric ones. Found on the bytes: a reference is ASCII, and a
    /// combining mark after its `;` is not part of it.
    static func unescape(_ p: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> String {
        var at = Bytes.first(0x26, in: p, from: start, to: end)
        if at == end { return Bytes.string(p, start, end) }
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        var copied = start
        func named(_ name: StaticString, at offset: Int, length: Int) -> Bool {
            guard length == name.utf8CodeUnitCount else { return false }
            for index in 0..<length where p[offset + index] != name.utf8Start[index] { return false }
            return true
        }
        while at < end {
            let limit = min(end, at + 13)
            let semicolon = Bytes.first(0x3B, in: p, from: at + 1, to: limit)
            var decoded: Unicode.Scalar?
            if semicolon < limit {
                let nameStart = at + 1
                let length = semicolon - nameStart
                if named("amp", at: nameStart, length: length) {
                    decoded = "&"
                } else if named("lt", at: nameStart, length: length) {
                    decoded = "<"
                } else if named("gt", at: nameStart, length: length) {
                    decoded = ">"
                } else if named("quot", at: nameStart, length: length) {
                    decoded = "\""
                } else if named("apos", at: nameStart, length: length) {
                    decoded = "'"
                } else if named("nbsp", at: nameStart, length: length) {
                    decoded = "\u{A0}"
                } else if length >= 2, p[nameStart] == 0x23 {  // #
                    let hex = p[nameStart + 1] | 0x20 == 0x78  // x or X
                    let digits = Bytes.string(p, nameStart + (hex ? 2 : 1), semicolon)
                    decoded = UInt32(digits, radix: hex ? 16 : 10).flatMap(Unicode.Scalar.init)
                }
            }
            if let decoded {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: p[copied..<at]))
                out.append(contentsOf: String(decoded).utf8)
                copied = semicolon + 1
                at = Bytes.first(0x26, in: p, from: copied, to: end)
            } else {
                at = Bytes.first(0x26, in: p, from: at + 1, to: end)
            }
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: p[copied..<end]))
        return String(decoding: out, as: UTF8.self)
    }
}
