import StoryFormat
import StoryCheck

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
        /// Where the content is in the file read, when it was left there (`content` is then
        /// empty): the importer reads chapters straight from the file's bytes.
        var body: Range<Int>?
        /// Where the passage's text starts in the file, read from there (`body`) or not (a Twine
        /// archive's text with character references is unescaped): a reading that gives the
        /// file's pages back behind it goes by this.
        var start: Int?
        var textStart: Int? { start ?? body?.lowerBound }
        /// Whether the content starts on the header's own line (a Twine archive's passage is one
        /// element: its name and its text begin on one line).
        var contentOnHeaderLine = false
        /// The content's first line in the file.
        var contentLine: Int { contentOnHeaderLine ? line : line + 1 }
    }

    public var passages: [Passage]
    /// Lines before the first header that hold something (the notation has no place for them).
    public var strayLines: [Int]

    public init(passages: [Passage], strayLines: [Int] = []) {
        self.passages = passages
        self.strayLines = strayLines
    }

    /// Reads Twee 3 text: UTF-8 (a byte order mark is skipped, invalid bytes become U+FFFD), LF or
    /// CR LF line ends. Works on the bytes: a line is looked at only for its first two bytes
    /// (`::`), and a passage's content is copied once, whole.
    public static func parse(_ bytes: [UInt8]) -> TweeDocument {
        bytes.withUnsafeBufferPointer { all in parse(all, from: byteOrderMark(all), to: all.count, leavingBodies: false) }
    }

    /// The byte order mark's length at the start of `all`: 3 or 0.
    static func byteOrderMark(_ all: UnsafeBufferPointer<UInt8>) -> Int {
        all.count >= 3 && all[0] == 0xEF && all[1] == 0xBB && all[2] == 0xBF ? 3 : 0
    }

    /// A file being imported, checked as UTF-8 and read leaving the content of passages other
    /// than the story's own (StoryTitle, StoryData, cyd's metadata) in the file, as `body`, when
    /// it can be read there as it is (no carriage returns to drop). `firstInvalid`: the place of
    /// the first byte that is not UTF-8, if one is (the document is then empty).
    static func parseImported(_ all: UnsafeBufferPointer<UInt8>) -> (document: TweeDocument, firstInvalid: Int?) {
        let bom = byteOrderMark(all)
        // A large file is checked and read in two halves, the second on another core, divided
        // where a passage starts: a passage's lines are all in one half, and the halves meet
        // after a line feed, between two characters.
        guard all.count >= 1 << 20, let divide = Bytes.first("\n::", in: all, from: all.count / 2, to: all.count) else {
            if let bad = UTF8Validation.firstInvalid(all) { return (TweeDocument(passages: []), bad) }
            return (parse(all, from: bom, to: all.count, leavingBodies: true), nil)
        }
        let file = TweeStory.FileBytes(bytes: all)
        let second = BackgroundWork { () -> (TweeDocument, Int?) in
            let bytes = file.bytes!
            if let bad = UTF8Validation.firstInvalid(UnsafeBufferPointer(rebasing: bytes[(divide + 1)...])) { return (TweeDocument(passages: []), divide + 1 + bad) }
            // The second half's lines are numbered after the line feeds up to and with the one it follows.
            return (parse(bytes, from: divide + 1, to: bytes.count, leavingBodies: true, firstLine: Bytes.lineFeeds(in: bytes, from: 0, to: divide + 1) + 1), nil)
        }
        if let bad = UTF8Validation.firstInvalid(UnsafeBufferPointer(rebasing: all[...divide])) {
            _ = second.take()  // it reads the file, which must outlive it
            return (TweeDocument(passages: []), bad)
        }
        var document = parse(all, from: bom, to: divide + 1, leavingBodies: true)
        var (rest, bad) = second.take()
        if let bad { return (TweeDocument(passages: []), bad) }
        // Moved, not copied: 50,000 passages' strings retained here and released again held up
        // the import's one thread.
        document.passages.appendMoving(&rest.passages, leaving: Passage(name: "", content: ""))
        document.strayLines += rest.strayLines
        return (document, nil)
    }

    /// The passages of the lines of `all[start..<end]` (`end` at the end of the file or just
    /// after a line feed), the first line numbered `firstLine`.
    static func parse(_ all: UnsafeBufferPointer<UInt8>, from start: Int, to count: Int, leavingBodies: Bool, firstLine: Int = 1) -> TweeDocument {
        var position = start
        var passages: [Passage] = []
        var stray: [Int] = []
        var current: Passage?
        // The content: from `bodyStart` to the end of its last line that is not blank.
        var bodyStart = 0
        var bodyEnd = 0
        var bodyHasReturns = false
        func close() {
            // Taken, not copied: the next header replaces it, or the file ends.
            guard var passage = current.take() else { return }
            if bodyHasReturns {
                passage.content = withoutReturns(all, from: bodyStart, to: bodyEnd)
            } else if leavingBodies && !TweeStory.storyPassages.contains(passage.name) {
                passage.body = bodyStart..<max(bodyStart, bodyEnd)
            } else {
                passage.content = Bytes.string(all, bodyStart, bodyEnd)
            }
            passages.append(passage)
        }
        var number = firstLine - 1
        while true {
            let newline = Bytes.first(0x0A, in: all, from: position, to: count)
            var end = newline
            let hasReturn = end > position && all[end - 1] == 0x0D
            if hasReturn { end -= 1 }
            number += 1
            if end - position >= 2, all[position] == 0x3A, all[position + 1] == 0x3A {
                close()
                current = header(all, from: position + 2, to: end, line: number)
                bodyStart = min(newline + 1, count)
                bodyEnd = bodyStart
                bodyHasReturns = false
            } else if case .some = current {
                // Not `current != nil`: with an Equatable passage that compared two optionals,
                // the passage copied into a pair with nil and let go, every line of the file.
                if !Bytes.isBlank(all, from: position, to: end) { bodyEnd = end }
                bodyHasReturns = bodyHasReturns || hasReturn
            } else if !Bytes.isBlank(all, from: position, to: end) {
                stray.append(number)
            }
            if newline >= count { break }
            position = newline + 1
        }
        close()
        return TweeDocument(passages: passages, strayLines: stray)
    }

    /// The lines of `all[start..<end]` without the carriage return before each line feed.
    static func withoutReturns(_ all: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        var position = start
        while position < end {
            let newline = Bytes.first(0x0A, in: all, from: position, to: end)
            var lineEnd = newline
            if lineEnd > position, all[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: all[position..<lineEnd]))
            if newline < end { out.append(0x0A) }
            position = newline + 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `Name [tags] {metadata}` after the `::` (the bytes `all[start..<end]`); `\` escapes the
    /// next character in the name and the tags.
    static func header(_ all: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, line: Int) -> Passage {
        var index = start
        func skipSpaces() { while index < end, Bytes.isBlank(all[index]) { index += 1 } }
        /// Reads up to (not including) an unescaped `stop` or `other`, unescaping; spaces at the
        /// end are left out unless escaped.
        func read(until stop: UInt8, or other: UInt8) -> String {
            var out: [UInt8] = []
            var kept = 0
            while index < end, all[index] != stop, all[index] != other {
                var escaped = false
                if all[index] == 0x5C {
                    index += 1
                    guard index < end else { break }
                    escaped = true
                }
                out.append(all[index])
                if escaped { kept = out.count }
                index += 1
            }
            while out.count > kept, let last = out.last, Bytes.isBlank(last) { out.removeLast() }
            return String(decoding: out, as: UTF8.self)
        }
        skipSpaces()
        let name = read(until: 0x5B, or: 0x7B)  // [ {
        skipSpaces()
        var tags: [String] = []
        if index < end, all[index] == 0x5B {
            index += 1
            tags = read(until: 0x5D, or: 0x5D).split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            if index < end { index += 1 }
            skipSpaces()
        }
        var metadata: String?
        if index < end, all[index] == 0x7B {
            var last = end
            while last > index, Bytes.isBlank(all[last - 1]) { last -= 1 }
            metadata = Bytes.string(all, index, last)
        }
        return Passage(name: name, tags: tags, metadata: metadata, content: "", line: line)
    }

    /// The file, passages in order, separated by a blank line.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The file as UTF-8 bytes.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveLarge(passages.reduce(0) { $0 + $1.content.utf8.count + $1.name.utf8.count + 64 })
        for index in passages.indices { appendPassage(index, to: &out) }
        out.append(0x0A)
        return out
    }

    /// The bytes `bytes` makes, in pieces of about a megabyte made as a writer takes them (the
    /// next two on the other core while one is written): a writer never holds the whole file.
    public var chunks: FilePieces {
        let document = self
        return FilePieces(PiecesMadeAhead(
            count: passages.count,
            leastSize: { index in passages[index].name.utf8.count + passages[index].content.utf8.count + (index > 0 ? 6 : 4) },
            tail: [0x0A],
            append: { index, out in document.appendPassage(index, to: &out) }))
    }

    /// Passage `index` as the file holds it, after the blank line that separates it from the last.
    func appendPassage(_ index: Int, to out: inout [UInt8]) {
        let passage = passages[index]
        Self.appendHeader(passage.name, tags: passage.tags, first: index == 0, to: &out)
        if let metadata = passage.metadata {
            out.append(0x20)
            out.append(contentsOf: metadata.utf8)
        }
        out.append(0x0A)
        out.append(contentsOf: passage.content.utf8)
    }

    /// A passage's header up to its metadata: the blank line before it (but for the file's
    /// first), `::`, the name and the tags, escaped.
    static func appendHeader(_ name: String, tags: [String], first: Bool, to out: inout [UInt8]) {
        if !first { out.append(0x0A); out.append(0x0A) }
        out.append(0x3A); out.append(0x3A); out.append(0x20)
        appendEscaped(name, to: &out)
        if !tags.isEmpty {
            out.append(0x20); out.append(0x5B)
            for (number, tag) in tags.enumerated() {
                if number > 0 { out.append(0x20) }
                appendEscaped(tag, to: &out)
            }
            out.append(0x5D)
        }
    }

    /// A name or tag with `\`, `[`, `]`, `{` and `}` escaped, and spaces at either end (which a
    /// reader would otherwise drop).
    static func escape(_ value: String) -> String {
        var out: [UInt8] = []
        appendEscaped(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func appendEscaped(_ value: String, to out: inout [UInt8]) {
        value.withExistingUTF8 { p in
            var firstKept = 0
            while firstKept < p.count, Bytes.isBlank(p[firstKept]) { firstKept += 1 }
            var lastKept = p.count - 1
            while lastKept >= 0, Bytes.isBlank(p[lastKept]) { lastKept -= 1 }
            for position in 0..<p.count {
                let byte = p[position]
                if position < firstKept || position > lastKept || byte == 0x5C || byte == 0x5B || byte == 0x5D || byte == 0x7B || byte == 0x7D {
                    out.append(0x5C)
                }
                out.append(byte)
            }
        }
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
        self = String(inner).withExistingUTF8 { Self.read($0, from: 0, to: $0.count) }
    }

    /// The link whose inside is `p[start..<end]`.
    static func read(_ p: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> TweeLink {
        var end = end
        var setter: String?
        if let split = Bytes.first("][", in: p, from: start, to: end) {
            setter = Bytes.string(p, split + 2, end)
            end = split
        }
        if let arrow = Bytes.last("->", in: p, from: start, to: end) {
            return TweeLink(text: Bytes.string(p, start, arrow), target: Bytes.string(p, arrow + 2, end), setter: setter)
        } else if let arrow = Bytes.first("<-", in: p, from: start, to: end) {
            return TweeLink(text: Bytes.string(p, arrow + 2, end), target: Bytes.string(p, start, arrow), setter: setter)
        } else if let bar = Bytes.last("|", in: p, from: start, to: end) {
            return TweeLink(text: Bytes.string(p, start, bar), target: Bytes.string(p, bar + 1, end), setter: setter)
        }
        let whole = Bytes.string(p, start, end)
        return TweeLink(text: whole, target: whole, setter: setter)
    }

    /// As cyd writes a choice: `[[text->target]]`.
    public var written: String { "[[" + text + "->" + target + "]]" }
}

extension String {
    /// Every `needle` (ASCII) replaced, found byte by byte; the string itself when there is none.
    func replacingBytes(_ needle: StaticString, with replacement: String) -> String {
        withExistingUTF8 { p in
            guard var found = Bytes.first(needle, in: p, from: 0, to: p.count) else { return self }
            var out: [UInt8] = []
            out.reserveCapacity(p.count + replacement.utf8.count)
            var rest = 0
            while true {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: p[rest..<found]))
                out.append(contentsOf: replacement.utf8)
                rest = found + needle.utf8CodeUnitCount
                guard let next = Bytes.first(needle, in: p, from: rest, to: p.count) else { break }
                found = next
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: p[rest..<p.count]))
            return String(decoding: out, as: UTF8.self)
        }
    }
}

// The initializer is in an extension, so the passage keeps its memberwise initializer: one that
// set the fields one by one made the passage and then copied it (Swift 6.3: its strings retained
// and released, a passage at a time, the outlined copy in the disassembly).
extension TweeDocument.Passage {
    public init(name: String, tags: [String] = [], metadata: String? = nil, content: String, line: Int = 0) {
        self = TweeDocument.Passage(name: name, tags: tags, metadata: metadata, content: content, line: line, body: nil, start: nil, contentOnHeaderLine: false)
    }
}
