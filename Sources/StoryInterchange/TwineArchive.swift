import StoryCheck
import StoryFormat

/// Twine 2's archive HTML (twine-specs, `twine-2-archive-spec.md` and `twine-2-htmloutput-spec.md`):
/// what Twine's Library > Archive writes and Library > Import reads: a `<tw-storydata>` element
/// a story, its metadata in attributes, a `<tw-passagedata>` element a passage. The same
/// passages as `TweeStory` writes (cyd's metadata passage included), so a round trip is as
/// exact; reading goes through the same mapping, with the same findings.
public enum TwineArchive {
    /// The archive of one story (two line feeds after the element, as the specification says).
    public static func html(_ story: Story, format: TweeStory.Format = .harlowe) throws(TweeStory.ExportProblem) -> String {
        String(decoding: try htmlBytes(story, format: format), as: UTF8.self)
    }

    /// The archive as UTF-8 bytes: the passages of the Twee file `TweeStory` writes, each holding
    /// what that file reads back as, so the archive reads back as exactly.
    public static func htmlBytes(_ story: Story, format: TweeStory.Format = .harlowe) throws(TweeStory.ExportProblem) -> [UInt8] {
        let (document, positions) = try TweeStory.exportDocument(story, format: format)
        var passages: [TweeDocument.Passage] = []
        var name = story.name
        var data: JSONValue?
        for passage in document.passages {
            switch passage.name {
            case "StoryTitle": name = TweeStory.readBack(passage.content)
            case "StoryData": data = JSONValue.parse(Array(passage.content.utf8))
            default: passages.append(passage)
            }
        }
        let start = data?["start"]?.string
        let startPID = passages.firstIndex { $0.name == start }.map { $0 + 1 } ?? 1
        var out: [UInt8] = []
        out.reserveLarge(passages.reduce(1024) { $0 + $1.content.utf8.count + $1.name.utf8.count + 128 } * 21 / 20)
        func text(_ value: String) { out.append(contentsOf: value.utf8) }
        func escaped(_ value: String) { MarkupText.append(value, to: &out) }
        text("<tw-storydata name=\"")
        escaped(name)
        text("\" startnode=\"\(startPID)\" creator=\"cyd\" creator-version=\"1\" format=\"")
        escaped(data?["format"]?.string ?? format.rawValue)
        text("\" format-version=\"")
        escaped(data?["format-version"]?.string ?? format.version)
        text("\" ifid=\"")
        escaped(data?["ifid"]?.string ?? TweeStory.ifid(for: story))
        text("\" options=\"\" tags=\"\" zoom=\"1\" hidden>")
        text("<style role=\"stylesheet\" id=\"twine-user-stylesheet\" type=\"text/twine-css\"></style>")
        text("<script role=\"script\" id=\"twine-user-script\" type=\"text/twine-javascript\"></script>")
        // cyd's metadata passage first, then the chapters' passages, in the story's order; a
        // large story's second half written on another core.
        let firstChapter = passages.count - positions.count
        let split = passages.count >= 1000 ? passages.count / 2 : passages.count
        let all = passages
        let second = split < passages.count ? BackgroundWork { () -> [UInt8] in
            var part: [UInt8] = []
            write(all, split..<all.count, positions: positions, firstChapter: firstChapter, to: &part)
            return part
        } : nil
        write(passages, 0..<split, positions: positions, firstChapter: firstChapter, to: &out)
        if let second { out += second.wait() }
        text("</tw-storydata>\n\n")
        return out
    }

    /// The `<tw-passagedata>` elements of `passages[range]` (pid counts from 1 over all of them).
    static func write(_ passages: [TweeDocument.Passage], _ range: Range<Int>, positions: [(x: Int, y: Int)], firstChapter: Int, to out: inout [UInt8]) {
        out.reserveLarge(out.count + passages[range].reduce(0) { $0 + $1.content.utf8.count + $1.name.utf8.count + 128 } * 21 / 20)
        for index in range {
            let passage = passages[index]
            // The passages before the chapters (cyd's metadata) sit in the first row beside the
            // first chapter, which has that row to itself (TweeLayout): no two boxes on one place.
            let position =
                index >= firstChapter ? positions[index - firstChapter] : (x: TweeLayout.margin + (index + 1) * TweeLayout.spacing, y: TweeLayout.margin)
            // Piece by piece into the output: no string is made for a passage's element.
            out.append(contentsOf: "<tw-passagedata pid=\"".utf8)
            Bytes.appendDecimal(index + 1, to: &out)
            out.append(contentsOf: "\" name=\"".utf8)
            MarkupText.append(passage.name, to: &out)
            out.append(contentsOf: "\" tags=\"".utf8)
            for (number, tag) in passage.tags.enumerated() {
                if number > 0 { out.append(0x20) }
                MarkupText.append(tag, to: &out)
            }
            out.append(contentsOf: "\" position=\"".utf8)
            Bytes.appendDecimal(position.x, to: &out)
            out.append(0x2C)
            Bytes.appendDecimal(position.y, to: &out)
            out.append(contentsOf: "\" size=\"100,100\">".utf8)
            // Chapters' passages hold what the Twee file reads back already; the others may not.
            MarkupText.append(index >= firstChapter ? passage.content : TweeStory.readBack(passage.content), to: &out)
            out.append(contentsOf: "</tw-passagedata>".utf8)
        }
    }

    /// The first story of an archive (or of a published story's HTML), read as `TweeStory` reads
    /// Twee; findings carry the line of the passage's element in the HTML. Read on the bytes (the
    /// markup is ASCII); a passage without character references is read where it is in the file.
    public static func story(from bytes: [UInt8]) -> TweeStory.Imported {
        bytes.withUnsafeBufferPointer { story(in: $0) }
    }

    static func story(in p: UnsafeBufferPointer<UInt8>) -> TweeStory.Imported {
        let count = p.count
        guard let storyStart = Bytes.first("<tw-storydata", in: p, from: 0, to: count) else {
            return TweeStory.Imported(story: nil, ifid: nil, format: nil, findings: [TweeFinding(kind: .noPassages, line: 1, column: 1)])
        }
        let (attributes, afterTag) = element(p, from: storyStart + 13, to: count)
        let end = Bytes.first("</tw-storydata>", in: p, from: afterTag, to: count) ?? count
        let storyLine = Bytes.lineFeeds(in: p, from: 0, to: storyStart) + 1
        // A large archive's passages are read in two halves, the second on another core,
        // divided where an element starts.
        var passages: [TweeDocument.Passage]
        var names: [String: String]  // pid -> name
        if end - afterTag >= 1 << 20, let divide = Bytes.first("<tw-passagedata", in: p, from: afterTag + (end - afterTag) / 2, to: end) {
            let file = TweeStory.FileBytes(bytes: p)
            let second = BackgroundWork { () -> ([TweeDocument.Passage], [String: String]) in
                let p = file.bytes!
                return elements(p, from: divide, to: end, line: Bytes.lineFeeds(in: p, from: 0, to: divide) + 1)
            }
            (passages, names) = elements(p, from: afterTag, to: divide, line: storyLine + Bytes.lineFeeds(in: p, from: storyStart, to: afterTag))
            let (rest, restNames) = second.wait()
            passages += rest
            names.merge(restNames) { first, _ in first }
        } else {
            (passages, names) = elements(p, from: afterTag, to: end, line: storyLine + Bytes.lineFeeds(in: p, from: storyStart, to: afterTag))
        }
        var data: [(String, JSONValue)] = []
        if let ifid = attributes["ifid"] { data.append(("ifid", .string(ifid))) }
        if let format = attributes["format"] { data.append(("format", .string(format))) }
        if let version = attributes["format-version"] { data.append(("format-version", .string(version))) }
        if let start = attributes["startnode"].flatMap({ names[$0] }) { data.append(("start", .string(start))) }
        var header = [
            TweeDocument.Passage(name: "StoryTitle", content: attributes["name"] ?? "", line: storyLine),
            TweeDocument.Passage(name: "StoryData", content: JSONValue.object(data).encoded, line: storyLine),
        ]
        header += passages
        var imported = TweeStory.read(TweeDocument(passages: header), ignoringOverrides: false, file: TweeStory.FileBytes(bytes: p))
        if let next = Bytes.first("<tw-storydata", in: p, from: end, to: count) {
            let line = Bytes.lineFeeds(in: p, from: 0, to: next) + 1
            var lineStart = next
            while lineStart > 0, p[lineStart - 1] != 0x0A { lineStart -= 1 }
            imported.findings.append(TweeFinding(kind: .moreStories, line: line, column: Bytes.scalars(p, from: lineStart, to: next) + 1))
        }
        return imported
    }

    /// The `<tw-passagedata>` elements in `p[start..<end]` as passages, and each one's name by its
    /// pid; `line` is the line `start` is on.
    static func elements(_ p: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, line startLine: Int) -> ([TweeDocument.Passage], [String: String]) {
        var passages: [TweeDocument.Passage] = []
        var names: [String: String] = [:]
        // Lines are counted as the reading goes, never from the start again.
        var counted = (offset: start, line: startLine)
        func line(at offset: Int) -> Int {
            counted = (offset, counted.line + Bytes.lineFeeds(in: p, from: counted.offset, to: offset))
            return counted.line
        }
        var rest = start
        while let open = Bytes.first("<tw-passagedata", in: p, from: rest, to: end) {
            let (passage, contentStart) = element(p, from: open + 15, to: end)
            let close = Bytes.first("</tw-passagedata>", in: p, from: contentStart, to: end)
            let contentEnd = close ?? end
            let line = line(at: open)
            let name = passage["name"] ?? ""
            if let pid = passage["pid"], names[pid] == nil { names[pid] = name }
            var metadata: String?
            if let position = passage["position"] {
                metadata = "{\"position\":" + JSONQuoting.quoted(position) + ",\"size\":" + JSONQuoting.quoted(passage["size"] ?? "100,100") + "}"
            }
            let tags = (passage["tags"] ?? "").split(separator: " ").map(String.init)
            // The passage's name and its content start on the element's own line.
            var read = TweeDocument.Passage(name: name, tags: tags, metadata: metadata, content: "", line: line)
            read.contentOnHeaderLine = true
            if Bytes.first(0x26, in: p, from: contentStart, to: contentEnd) == contentEnd, !TweeStory.storyPassages.contains(name) {
                read.body = contentStart..<contentEnd
            } else {
                read.content = unescape(p, from: contentStart, to: contentEnd)
            }
            passages.append(read)
            rest = close.map { $0 + 17 } ?? end
        }
        return (passages, names)
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
            let name = Bytes.string(p, nameStart, index).lowercased()
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
