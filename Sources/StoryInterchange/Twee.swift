/// Twee 3 notation (twine-specs, `twee-3-specification.md`): a text file of passages, each a
/// header line `:: Name [tags] {metadata}` and the content up to the next header. This reads and
/// writes the notation only; `TweeStory` maps it to and from stories.
public struct TweeDocument: Sendable, Equatable {
    public struct Passage: Sendable, Equatable {
        public var name: String
        public var tags: [String]
        /// The metadata block as written (inline JSON), if any.
        public var metadata: String?
        /// Everything after the header line up to the next header, trailing blank lines left out.
        public var content: String
        /// The header's line in the file (1-based); the content starts on the next.
        public var line: Int

        public init(name: String, tags: [String] = [], metadata: String? = nil, content: String, line: Int = 0) {
            self.name = name
            self.tags = tags
            self.metadata = metadata
            self.content = content
            self.line = line
        }
    }

    public var passages: [Passage]
    /// Lines before the first header that hold something (the notation has no place for them).
    public var strayLines: [Int]

    public init(passages: [Passage], strayLines: [Int] = []) {
        self.passages = passages
        self.strayLines = strayLines
    }

    /// Reads Twee 3 text: UTF-8 (a byte order mark is skipped, invalid bytes become U+FFFD), LF or
    /// CR LF line ends.
    public static func parse(_ bytes: [UInt8]) -> TweeDocument {
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        var passages: [Passage] = []
        var stray: [Int] = []
        var current: Passage?
        var body: [Substring] = []
        func close() {
            guard var passage = current else { return }
            while let last = body.last, last.utf8.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { body.removeLast() }
            passage.content = body.joined(separator: "\n")
            passages.append(passage)
            body = []
        }
        var number = 0
        for rawLine in Substring(text).lines {
            number += 1
            // Bytes, not characters: a line is looked at only for its first two and its last.
            let line = rawLine.utf8.last == 0x0D ? Substring(rawLine.utf8.dropLast()) : rawLine
            if line.utf8.starts(with: [0x3A, 0x3A]) {
                close()
                current = header(line.dropFirst(2), line: number)
            } else if current != nil {
                body.append(line)
            } else if !line.utf8.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                stray.append(number)
            }
        }
        close()
        return TweeDocument(passages: passages, strayLines: stray)
    }

    /// `Name [tags] {metadata}` after the `::`; `\` escapes the next character in the name and
    /// the tags.
    static func header(_ rest: Substring, line: Int) -> Passage {
        var index = rest.startIndex
        func skipSpaces() { while index < rest.endIndex, rest[index] == " " || rest[index] == "\t" { index = rest.index(after: index) } }
        /// Reads up to (not including) an unescaped character of `stops`, unescaping; spaces at
        /// the end are left out unless escaped.
        func read(until stops: Set<Character>) -> String {
            var out = ""
            var kept = 0
            while index < rest.endIndex, !stops.contains(rest[index]) {
                var escaped = false
                if rest[index] == "\\" {
                    index = rest.index(after: index)
                    guard index < rest.endIndex else { break }
                    escaped = true
                }
                out.append(rest[index])
                if escaped { kept = out.count }
                index = rest.index(after: index)
            }
            while out.count > kept, out.last == " " || out.last == "\t" { out.removeLast() }
            return out
        }
        skipSpaces()
        let name = read(until: ["[", "{"])
        skipSpaces()
        var tags: [String] = []
        if index < rest.endIndex, rest[index] == "[" {
            index = rest.index(after: index)
            tags = read(until: ["]"]).split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            if index < rest.endIndex { index = rest.index(after: index) }
            skipSpaces()
        }
        var metadata: String?
        if index < rest.endIndex, rest[index] == "{" {
            var block = rest[index...]
            while block.last == " " || block.last == "\t" { block = block.dropLast() }
            metadata = String(block)
        }
        return Passage(name: name, tags: tags, metadata: metadata, content: "", line: line)
    }

    /// The file, passages in order, separated by a blank line.
    public var text: String {
        var out = ""
        for (index, passage) in passages.enumerated() {
            if index > 0 { out += "\n\n" }
            out += ":: " + Self.escape(passage.name)
            if !passage.tags.isEmpty { out += " [" + passage.tags.map(Self.escape).joined(separator: " ") + "]" }
            if let metadata = passage.metadata { out += " " + metadata }
            out += "\n" + passage.content
        }
        return out + "\n"
    }

    /// A name or tag with `\`, `[`, `]`, `{` and `}` escaped, and spaces at either end (which a
    /// reader would otherwise drop).
    static func escape(_ value: String) -> String {
        var out = ""
        let characters = Array(value)
        let firstKept = characters.firstIndex { $0 != " " && $0 != "\t" } ?? characters.count
        let lastKept = characters.lastIndex { $0 != " " && $0 != "\t" } ?? -1
        for (position, character) in characters.enumerated() {
            let edgeSpace = position < firstKept || position > lastKept
            if edgeSpace || character == "\\" || character == "[" || character == "]" || character == "{" || character == "}" { out.append("\\") }
            out.append(character)
        }
        return out
    }
}

/// A link in passage text, in any of Twine's four forms: `[[text]]`, `[[text|target]]`,
/// `[[text->target]]`, `[[target<-text]]` (the rightmost `->`, the leftmost `<-`). A link with a
/// setter (`[[text|target][$x to 1]]`) is read as its text and target; the setter is code.
public struct TweeLink: Sendable, Equatable {
    public var text: String
    public var target: String
    /// A SugarCube setter part that was left out.
    public var setter: String?

    public init(text: String, target: String, setter: String? = nil) {
        self.text = text
        self.target = target
        self.setter = setter
    }

    /// The link inside `[[` and `]]`.
    public init(inner: Substring) {
        var inner = inner
        var setter: String?
        if let split = inner.firstBytes("][") {
            setter = String(inner[split.upperBound...])
            inner = inner[..<split.lowerBound]
        }
        if let arrow = inner.lastBytes("->") {
            self.init(text: String(inner[..<arrow.lowerBound]), target: String(inner[arrow.upperBound...]), setter: setter)
        } else if let arrow = inner.firstBytes("<-") {
            self.init(text: String(inner[arrow.upperBound...]), target: String(inner[..<arrow.lowerBound]), setter: setter)
        } else if let bar = inner.lastBytes("|") {
            self.init(text: String(inner[..<bar.lowerBound]), target: String(inner[bar.upperBound...]), setter: setter)
        } else {
            self.init(text: String(inner), target: String(inner), setter: setter)
        }
    }

    /// As cyd writes a choice: `[[text->target]]`.
    public var written: String { "[[" + text + "->" + target + "]]" }
}

extension Substring {
    /// The lines, split at each line feed on the UTF-8 bytes (a line feed is never part of
    /// another character there); a carriage return before it stays in the line.
    var lines: [Substring] {
        var result: [Substring] = []
        let bytes = utf8
        var start = bytes.startIndex
        var index = start
        while index != bytes.endIndex {
            if bytes[index] == 0x0A {
                result.append(Substring(bytes[start..<index]))
                start = bytes.index(after: index)
            }
            index = bytes.index(after: index)
        }
        result.append(Substring(bytes[start..<bytes.endIndex]))
        return result
    }

    /// Where `needle` (ASCII) first occurs, compared byte by byte.
    func firstBytes(_ needle: StaticString) -> Range<Index>? {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        let bytes = utf8
        var index = bytes.startIndex
        while index != bytes.endIndex {
            if bytes[index] == pattern[0] {
                var probe = index
                var matched = 0
                while matched < pattern.count, probe != bytes.endIndex, bytes[probe] == pattern[matched] {
                    matched += 1
                    probe = bytes.index(after: probe)
                }
                if matched == pattern.count { return index..<probe }
            }
            index = bytes.index(after: index)
        }
        return nil
    }

    /// Where `needle` (ASCII) last occurs.
    func lastBytes(_ needle: StaticString) -> Range<Index>? {
        var found: Range<Index>?
        var rest = self[...]
        while let range = rest.firstBytes(needle) {
            found = range
            rest = rest[range.upperBound...]
        }
        return found
    }
}

extension String {
    /// Every `needle` (ASCII) replaced, found byte by byte; the string itself when there is none.
    func replacingBytes(_ needle: StaticString, with replacement: String) -> String {
        var rest = Substring(self)
        guard var found = rest.firstBytes(needle) else { return self }
        var out = ""
        out.reserveCapacity(utf8.count)
        while true {
            out += rest[..<found.lowerBound]
            out += replacement
            rest = rest[found.upperBound...]
            guard let next = rest.firstBytes(needle) else { break }
            found = next
        }
        return out + rest
    }
}
