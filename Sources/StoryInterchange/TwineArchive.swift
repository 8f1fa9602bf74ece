import StoryFormat

/// Twine 2's archive HTML (twine-specs, `twine-2-archive-spec.md` and `twine-2-htmloutput-spec.md`):
/// what Twine's Library > Archive writes and Library > Import reads: a `<tw-storydata>` element
/// a story, its metadata in attributes, a `<tw-passagedata>` element a passage. The same
/// passages as `TweeStory` writes (cyd's metadata passage included), so a round trip is as
/// exact; reading goes through the same mapping, with the same findings.
public enum TwineArchive {
    /// The archive of one story (two line feeds after the element, as the specification says).
    public static func html(_ story: Story, format: TweeStory.Format = .harlowe) throws(TweeStory.ExportProblem) -> String {
        let document = TweeDocument.parse(Array(try TweeStory.twee(story, format: format).utf8))
        var passages: [TweeDocument.Passage] = []
        var name = story.name
        var data: JSONValue?
        for passage in document.passages {
            switch passage.name {
            case "StoryTitle": name = passage.content
            case "StoryData": data = JSONValue.parse(Array(passage.content.utf8))
            default: passages.append(passage)
            }
        }
        let start = data?["start"]?.string
        let startPID = passages.firstIndex { $0.name == start }.map { $0 + 1 } ?? 1
        var out = "<tw-storydata name=\"\(escape(name))\" startnode=\"\(startPID)\" creator=\"cyd\" creator-version=\"1\""
        out += " format=\"\(escape(data?["format"]?.string ?? format.rawValue))\" format-version=\"\(escape(data?["format-version"]?.string ?? format.version))\""
        out += " ifid=\"\(escape(data?["ifid"]?.string ?? TweeStory.ifid(for: story)))\" options=\"\" tags=\"\" zoom=\"1\" hidden>"
        out += "<style role=\"stylesheet\" id=\"twine-user-stylesheet\" type=\"text/twine-css\"></style>"
        out += "<script role=\"script\" id=\"twine-user-script\" type=\"text/twine-javascript\"></script>"
        for (index, passage) in passages.enumerated() {
            let place = passage.metadata.flatMap { JSONValue.parse(Array($0.utf8)) }
            out += "<tw-passagedata pid=\"\(index + 1)\" name=\"\(escape(passage.name))\" tags=\"\(escape(passage.tags.joined(separator: " ")))\""
            out += " position=\"\(escape(place?["position"]?.string ?? "100,100"))\" size=\"\(escape(place?["size"]?.string ?? "100,100"))\">"
            out += escape(passage.content) + "</tw-passagedata>"
        }
        return out + "</tw-storydata>\n\n"
    }

    /// The first story of an archive (or of a published story's HTML), read as `TweeStory` reads
    /// Twee; findings carry the line of the passage's element in the HTML.
    public static func story(from bytes: [UInt8]) -> TweeStory.Imported {
        let text = Substring(String(decoding: bytes, as: UTF8.self))
        guard let storyStart = text.firstBytes("<tw-storydata") else {
            return TweeStory.Imported(story: nil, ifid: nil, format: nil, findings: [TweeFinding(kind: .noPassages, line: 1, column: 1)])
        }
        let (attributes, afterTag) = element(text[storyStart.upperBound...])
        let end = text[afterTag...].firstBytes("</tw-storydata>")?.lowerBound ?? text.endIndex
        var passages: [TweeDocument.Passage] = []
        var names: [String: String] = [:]  // pid -> name
        var rest = text[afterTag..<end]
        // Lines are counted as the reading goes, never from the start again.
        var counted = (index: text.startIndex, line: 1)
        func line(at index: Substring.Index) -> Int {
            counted = (index, counted.line + text.utf8[counted.index..<index].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) })
            return counted.line
        }
        let storyLine = line(at: storyStart.lowerBound)
        while let open = rest.firstBytes("<tw-passagedata") {
            let (passage, contentStart) = element(rest[open.upperBound...])
            let close = rest[contentStart...].firstBytes("</tw-passagedata>")
            let content = rest[contentStart..<(close?.lowerBound ?? rest.endIndex)]
            let line = line(at: open.lowerBound)
            let name = passage["name"] ?? ""
            if let pid = passage["pid"] { names[pid] = name }
            var metadata: String?
            if let position = passage["position"] {
                metadata = JSONValue.object([("position", .string(position)), ("size", .string(passage["size"] ?? "100,100"))]).encoded
            }
            let tags = (passage["tags"] ?? "").split(separator: " ").map(String.init)
            // The content starts on the element's own line: the header is counted a line above.
            passages.append(TweeDocument.Passage(name: name, tags: tags, metadata: metadata, content: unescape(content), line: line - 1))
            rest = rest[(close?.upperBound ?? rest.endIndex)...]
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
        var imported = TweeStory.read(TweeDocument(passages: header), ignoringOverrides: false)
        if let next = text[end...].firstBytes("<tw-storydata") {
            let line = line(at: next.lowerBound)
            let lineStart = text.utf8[..<next.lowerBound].lastIndex(of: 0x0A).map { text.utf8.index(after: $0) } ?? text.startIndex
            imported.findings.append(TweeFinding(kind: .moreStories, line: line, column: text.unicodeScalars[lineStart..<next.lowerBound].count + 1))
        }
        return imported
    }

    /// An element's attributes (after its name) and where its content starts.
    static func element(_ text: Substring) -> ([String: String], Substring.Index) {
        var attributes: [String: String] = [:]
        var index = text.startIndex
        let bytes = text.utf8
        func skipSpace() { while index < text.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index = bytes.index(after: index) } }
        while index < text.endIndex {
            skipSpace()
            guard index < text.endIndex else { break }
            if bytes[index] == UInt8(ascii: ">") { return (attributes, bytes.index(after: index)) }
            let nameStart = index
            while index < text.endIndex, ![0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "="), UInt8(ascii: ">")].contains(bytes[index]) { index = bytes.index(after: index) }
            let name = String(text[nameStart..<index]).lowercased()
            skipSpace()
            var value = ""
            if index < text.endIndex, bytes[index] == UInt8(ascii: "=") {
                index = bytes.index(after: index)
                skipSpace()
                if index < text.endIndex, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                    let quote = bytes[index]
                    index = bytes.index(after: index)
                    let valueStart = index
                    while index < text.endIndex, bytes[index] != quote { index = bytes.index(after: index) }
                    value = unescape(text[valueStart..<index])
                    if index < text.endIndex { index = bytes.index(after: index) }
                } else {
                    let valueStart = index
                    while index < text.endIndex, ![0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ">")].contains(bytes[index]) { index = bytes.index(after: index) }
                    value = unescape(text[valueStart..<index])
                }
            }
            if !name.isEmpty, attributes[name] == nil { attributes[name] = value }
            if name.isEmpty { index = bytes.index(after: index) }
        }
        return (attributes, text.endIndex)
    }

    /// Text for element content or a double-quoted attribute, exactly.
    static func escape(_ value: String) -> String { MarkupText.escaped(value) }

    /// HTML's character references: the five named ones Twine writes and numeric ones. Found
    /// on the bytes: a reference is ASCII, and a combining mark after its `;` is not part of it.
    static func unescape(_ value: Substring) -> String {
        guard value.utf8.contains(0x26) else { return String(value) }
        return String(value).withBytes { p in
            var out: [UInt8] = []
            out.reserveCapacity(p.count)
            var copied = 0
            var at = Bytes.first(0x26, in: p, from: 0, to: p.count)
            while at < p.count {
                let limit = min(p.count, at + 13)
                let semicolon = Bytes.first(0x3B, in: p, from: at + 1, to: limit)
                var decoded: String?
                if semicolon < limit {
                    let entity = Bytes.string(p, at + 1, semicolon)
                    switch entity {
                    case "amp": decoded = "&"
                    case "lt": decoded = "<"
                    case "gt": decoded = ">"
                    case "quot": decoded = "\""
                    case "apos": decoded = "'"
                    case "nbsp": decoded = "\u{A0}"
                    default:
                        if entity.hasPrefix("#x") || entity.hasPrefix("#X"), let code = UInt32(entity.dropFirst(2), radix: 16), let scalar = Unicode.Scalar(code) {
                            decoded = String(scalar)
                        } else if entity.hasPrefix("#"), let code = UInt32(entity.dropFirst()), let scalar = Unicode.Scalar(code) {
                            decoded = String(scalar)
                        }
                    }
                }
                if let decoded {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: p[copied..<at]))
                    out.append(contentsOf: decoded.utf8)
                    copied = semicolon + 1
                    at = Bytes.first(0x26, in: p, from: copied, to: p.count)
                } else {
                    at = Bytes.first(0x26, in: p, from: at + 1, to: p.count)
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: p[copied..<p.count]))
            return String(decoding: out, as: UTF8.self)
        }
    }
}
