#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StoryFormat

/// A gettext PO (or POT) file: its entries as written, each with the line it starts on, so
/// findings can point into it. Reads what GNU gettext and the tools around it write (msgmerge's
/// reflowed lines, msgattrib's reordered flags, obsolete `#~` entries, previous `#|` strings);
/// writes what `msgfmt --check` accepts.
public struct POFile: Sendable, Equatable {
    public var header: POEntry?
    public var entries: [POEntry]

    public init(header: POEntry? = nil, entries: [POEntry] = []) {
        self.header = header
        self.entries = entries
    }

    /// A value of the header (`Language`, `Content-Type`...), or nil.
    public func headerField(_ name: String) -> String? {
        guard let header else { return nil }
        for line in header.translation.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":"), line[..<colon].trimmingSpaces == name else { continue }
            return String(line[line.index(after: colon)...].trimmingSpaces)
        }
        return nil
    }
}

public struct POEntry: Sendable, Equatable {
    /// `# ` lines: the translator's own.
    public var translatorComments: [String] = []
    /// `#.` lines: written by the tool that extracted the string (cyd's ids and hints).
    public var extractedComments: [String] = []
    /// `#:` references, each `file:line`.
    public var references: [String] = []
    /// `#,` flags (`fuzzy`, `no-c-format`...).
    public var flags: [String] = []
    /// `#| msgctxt` and `#| msgid`: the source as it was when the translation was made.
    public var previousContext: String?
    public var previousSource: String?
    public var context: String?
    public var source: String
    public var sourcePlural: String?
    /// `msgstr`, or `msgstr[0]`, `msgstr[1]`... for plural entries.
    public var translations: [String]
    public var isObsolete = false
    /// Where the entry starts (its first comment or keyword): line (1-based) and byte offset.
    public var line = 0
    public var offset = 0
    /// Where `msgstr` starts, for findings about the translation.
    public var translationOffset = 0

    public init(context: String? = nil, source: String, translation: String = "") {
        self.context = context
        self.source = source
        translations = [translation]
    }

    public var translation: String { translations.first ?? "" }
    public var isFuzzy: Bool { flags.contains("fuzzy") }

    /// cyd's ids of the entry (`#. id: start.text.1`); one entry can stand for several strings
    /// with the same context and text.
    public var ids: [String] {
        extractedComments.compactMap { comment in
            comment.hasPrefix(POFile.idPrefix) ? String(comment.dropFirst(POFile.idPrefix.count).trimmingSpaces) : nil
        }
    }
}

/// Why a PO file cannot be read: the place and what was expected there.
public struct POSyntaxError: Error, Sendable, Equatable {
    public var line: Int
    public var column: Int
    public var offset: Int
    public var problem: Problem

    public enum Problem: Sendable, Equatable {
        case unknownKeyword(String)
        case expectedString(after: String)
        case unterminatedString
        case badEscape(Character)
        case stringWithoutKeyword
        case missingSource
        case missingTranslation
        case invalidUTF8
        case tooLarge(limit: Int)
    }
}

extension POFile {
    static let idPrefix = "id: "
    /// Larger files are refused: a story's translation is a few megabytes at most.
    public static let maximumSize = 256 << 20

    /// Reads a PO file. Comments that are not PO's own are kept as translator comments.
    public static func parse(_ bytes: [UInt8]) throws(POSyntaxError) -> POFile {
        guard bytes.count <= maximumSize else { throw POSyntaxError(line: 1, column: 1, offset: 0, problem: .tooLarge(limit: maximumSize)) }
        return try bytes.withUnsafeBufferPointer { buffer throws(POSyntaxError) in
            var parser = POParser(bytes: buffer)
            return try parser.parse()
        }
    }

    /// Reads a PO file as a translation: what `TranslationFile(po:)` makes of `parse`, made
    /// without a `POEntry` for each entry.
    static func translationFile(_ bytes: [UInt8]) throws(POSyntaxError) -> TranslationFile {
        try bytes.withUnsafeBufferPointer { buffer throws(POSyntaxError) in try translationFile(buffer) }
    }

    /// The same, from a file's bytes (mapped when large): the pages behind each reader go back
    /// as it reads on.
    static func translationFile(_ source: SourceBytes) throws(POSyntaxError) -> TranslationFile {
        try source.withUnsafeBufferPointer { buffer in Result { () throws(POSyntaxError) in try translationFile(buffer, source: source) } }.get()
    }

    /// From bytes the caller holds while this reads them; `source` when they are its.
    static func translationFile(_ bytes: UnsafeBufferPointer<UInt8>, source: SourceBytes? = nil) throws(POSyntaxError) -> TranslationFile {
        guard bytes.count <= maximumSize else { throw POSyntaxError(line: 1, column: 1, offset: 0, problem: .tooLarge(limit: maximumSize)) }
        if bytes.count >= splitSize {
            let splits = pieceStarts(in: bytes, count: pieceCount)
            if !splits.isEmpty, let file = try inPieces(bytes, splits: splits, source: source) { return file }
        }
        var parser = POParser(bytes: bytes)
        parser.sweep = source?.sweep()
        parser.forTranslation = true
        let header = try parser.parse().header
        var file = TranslationFile(po: POFile(header: header))
        file.entries = parser.translated
        file.obsolete = parser.obsolete
        return file
    }

    /// Files at least this large are read in pieces, on two threads at once.
    static let splitSize = 8 << 20
    /// Into how many: more than the two threads, so that whichever finishes a piece first takes the
    /// next, and neither is left waiting for the other.
    static let pieceCount = 8

    /// Where each piece but the first starts: at the first blank line after each `count`th of the
    /// file (a blank line ends whatever entry comes before it), fewer when blank lines are rare.
    static func pieceStarts(in bytes: UnsafeBufferPointer<UInt8>, count: Int) -> [Int] {
        var starts: [Int] = []
        for piece in 1..<count {
            let after = max(bytes.count / count * piece, starts.last ?? 0)
            guard let start = POParser.blankLine(in: bytes, after: after) else { break }
            if start > (starts.last ?? 0) { starts.append(start) }
        }
        return starts
    }

    /// A large file read in pieces split at blank lines (so each reads as it would in one pass),
    /// claimed by two threads as each finishes one. Each piece counts its lines from its own
    /// start; an error (the first piece's with one first, as one pass says it) is moved to its
    /// line in the file. Nil when a piece but the first starts with what would read as a header
    /// there: that entry is an ordinary one in the whole file unless nothing comes before it,
    /// and one pass says which.
    static func inPieces(_ bytes: UnsafeBufferPointer<UInt8>, splits: [Int], source: SourceBytes? = nil) throws(POSyntaxError) -> TranslationFile? {
        let bounds = [0] + splits + [bytes.count]
        // The bytes stay the caller's until every piece is read (this waits for them).
        let shared = SharedBytes(bytes: bytes)
        let pieces = PiecesClaimed.results(count: bounds.count - 1) { index -> Result<(parser: POParser, header: POEntry?), POSyntaxError> in
            let bytes = shared.bytes
            var parser = POParser(bytes: bytes, from: bounds[index], to: bounds[index + 1], line: 1)
            parser.forTranslation = true
            parser.sweep = source?.sweep(from: bounds[index])
            // Room for every piece's entries in the first's, so the others are added without moving it.
            if index == 0 { parser.translated.reserveCapacity(bytes.count / 160 + 16) }
            return Result { () throws(POSyntaxError) in
                let header = try parser.parse().header
                return (parser, header)
            }
        }
        var parsed: [POParser] = []
        parsed.reserveCapacity(pieces.count)
        var header: POEntry?
        for (index, piece) in pieces.enumerated() {
            switch piece {
            case .success(let piece):
                if index == 0 { header = piece.header } else if piece.header != nil { return nil }
                parsed.append(piece.parser)
            case .failure(var error):
                if index > 0 { error.line += POParser.lineFeeds(in: bytes, before: bounds[index]) }
                throw error
            }
        }
        var file = TranslationFile(po: POFile(header: header))
        let empty = TranslationEntry(ids: [], context: nil, source: "", translation: "")
        var first = parsed[0]
        parsed[0] = POParser(bytes: bytes)
        for index in parsed.indices.dropFirst() {
            first.translated.appendMoving(&parsed[index].translated, leaving: empty)
            first.obsolete.appendMoving(&parsed[index].obsolete, leaving: empty)
        }
        file.entries = first.translated
        file.obsolete = first.obsolete
        return file
    }
}

extension StringProtocol {
    /// Without the spaces and tabs at either end.
    var trimmingSpaces: Substring {
        var sub = Substring(self)
        while let first = sub.first, first == " " || first == "\t" { sub = sub.dropFirst() }
        while let last = sub.last, last == " " || last == "\t" { sub = sub.dropLast() }
        return sub
    }
}


/// Reads PO bytes a line at a time. A string's quoted lines are kept as places in the file (or,
/// for a line with escapes, as its decoded bytes) and made into one Swift string (validated as
/// UTF-8) once the entry is whole: no buffer is made for a string without escapes.
///
/// It reads bytes its caller holds (an array's, or a mapped file's) and does not outlive them:
/// a parser handed from the thread that read a piece of a file keeps only what it made.
struct POParser: @unchecked Sendable {
    let bytes: UnsafeBufferPointer<UInt8>
    var line = 1
    var lineStart = 0
    /// Reading for a `TranslationFile`: entries are made as `TranslationEntry` values straight
    /// away (ids, fuzziness, no references), never as `POEntry` values first; the header is a
    /// `POEntry` as always.
    var forTranslation = false
    var translated: [TranslationEntry] = []
    var obsolete: [TranslationEntry] = []
    /// The part of `bytes` read: the whole file, or a piece of it starting at a line (`line`).
    var start = 0
    var end: Int
    /// Gives back a mapped file's pages behind the line being read (the file's `SourceBytes`).
    var sweep: SourceBytes.Sweep?
    /// The last context read and its bytes: the entries of a chapter share it, and share one string.
    var lastContext: (text: String, start: Int, end: Int)?

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        end = bytes.count
    }

    init(bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, line: Int) {
        self.bytes = bytes
        (self.start, self.end, self.line) = (start, end, line)
    }

    /// Where the first blank line after `offset` starts (a line holding nothing, or a carriage
    /// return), or nil.
    static func blankLine(in bytes: [UInt8], after offset: Int) -> Int? {
        bytes.withUnsafeBufferPointer { blankLine(in: $0, after: offset) }
    }

    static func blankLine(in bytes: UnsafeBufferPointer<UInt8>, after offset: Int) -> Int? {
        var index = offset
        while index < bytes.count {
            index = lineEnd(in: bytes, from: index) + 1
            guard index < bytes.count else { return nil }
            if bytes[index] == 0x0A || (bytes[index] == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A) { return index }
        }
        return nil
    }

    /// How many line feeds come before `offset`.
    static func lineFeeds(in bytes: UnsafeBufferPointer<UInt8>, before offset: Int) -> Int {
        var count = 0
        for byte in bytes[..<offset] where byte == 0x0A { count += 1 }
        return count
    }

    /// The keyword an entry's strings belong to while they are read.
    enum Field: Equatable { case previousContext, previousSource, previousPlural, context, source, sourcePlural, translation(Int) }

    /// One quoted line of a string: its content's bytes in the file, or (`decoded` >= 0) the
    /// index of its bytes with escapes decoded.
    struct Piece {
        var field: Field
        var start: Int
        var end: Int
        var decoded: Int
    }

    /// An entry while it is read: which strings it has, and their pieces.
    struct Pending {
        var translatorComments: [String] = []
        var extractedComments: [String] = []
        var references: [String] = []
        var flags: [String] = []
        /// cyd's ids (`#. id: ...`), read for a `TranslationFile`: the first, and any others.
        var firstID: String?
        var otherIDs: [String] = []
        var hasPreviousContext = false
        var hasPreviousSource = false
        var hasContext = false
        var hasSource = false
        var hasSourcePlural = false
        var translationCount = 0
        var isObsolete = false
        var line = 0
        var offset = 0
        var translationOffset = 0
        var started = false
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// The array's elements, the array left empty: handed on without a copy (retained, then
    /// released when the array is emptied).
    static func swapEmpty<Element>(_ array: inout [Element]) -> [Element] {
        var taken: [Element] = []
        swap(&taken, &array)
        return taken
    }

    /// An error at `offset` on the line being read, its column in characters, as editors and
    /// msgfmt count them (a byte that is not UTF-8 counts as one).
    func error(_ problem: POSyntaxError.Problem, at offset: Int) -> POSyntaxError {
        POLine(bytes: bytes, line: line, lineStart: lineStart).error(problem, at: offset)
    }

    /// Where the first byte that is not UTF-8 lies from `start` (on line `line`, which starts at
    /// `lineStart`, or at `start` when not given): an entry's strings are decoded once it is
    /// whole, and the error is said where the bad byte is, not where the entry starts.
    static func invalidUTF8(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, line: Int, lineStart: Int? = nil) -> POSyntaxError {
        var index = start
        var line = line
        var lineStart = lineStart ?? start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A {
                line += 1
                lineStart = index + 1
                index += 1
                continue
            }
            let length = byte < 0x80 ? 1 : byte >= 0xC2 && byte <= 0xDF ? 2 : byte >= 0xE0 && byte <= 0xEF ? 3 : byte >= 0xF0 && byte <= 0xF4 ? 4 : 0
            let sequenceEnd = index + length
            if length == 0 || sequenceEnd > bytes.count
                || String(validating: bytes[index..<sequenceEnd], as: UTF8.self) == nil
            {
                return POSyntaxError(line: line, column: LineIndex.column(of: index, lineStart: lineStart, in: bytes), offset: index, problem: .invalidUTF8)
            }
            index = sequenceEnd
        }
        return POSyntaxError(line: line, column: 1, offset: start, problem: .invalidUTF8)
    }

    /// A comment's text (`start..<end` of the line being read); not UTF-8, it is said at its
    /// first bad byte, as a string's is.
    func text(_ start: Int, _ end: Int) throws(POSyntaxError) -> String {
        guard let text = Self.utf8String(bytes, start, end) else { throw Self.invalidUTF8(in: bytes, from: start, line: line, lineStart: lineStart) }
        return text
    }

    /// The bytes `start..<end` as a string, or nil when they are not UTF-8.
    static func utf8String(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String? {
        utf8String(UnsafeBufferPointer(rebasing: bytes[start..<end]))
    }

    /// The bytes as a string, or nil when they are not UTF-8: decoded by the standard library's
    /// path for contiguous bytes (which mends what is not UTF-8), then compared with what was
    /// read, since only valid UTF-8 comes out unchanged. (`String(validating:)` on a slice is
    /// not specialised, and costs more than the parse around it.)
    static func utf8String(_ buffer: UnsafeBufferPointer<UInt8>) -> String? {
        var text = String(decoding: buffer, as: UTF8.self)
        let unchanged = text.withUTF8 { made in
            made.count == buffer.count && (made.isEmpty || memcmp(made.baseAddress!, buffer.baseAddress!, made.count) == 0)
        }
        return unchanged ? text : nil
    }

    mutating func parse() throws(POSyntaxError) -> POFile {
        var position = start == 0 && bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : start
        lineStart = position
        var file = POFile()
        // Entries are large values: an array grown by doubling would copy them over and over.
        if forTranslation { translated.reserveCapacity((end - start) / 160 + 16) } else { file.entries.reserveCapacity((end - start) / 128 + 16) }
        var entry = Pending()
        var field: Field?
        // The entry's quoted lines, and the decoded bytes of those with escapes: the arrays are
        // kept across entries (emptied, their room kept), so a string without escapes needs no
        // buffer of its own.
        var pieces: [Piece] = []
        var decoded: [[UInt8]] = []
        var scratch: [UInt8] = []
        let fileBytes = bytes
        func add(_ field: Field, _ start: Int, _ end: Int) throws(POSyntaxError) {
            // The line's few plain values, not the parser: a method of the parser called from here
            // would copy it whole (its arrays retained and released) for each quoted line.
            let here = POLine(bytes: fileBytes, line: line, lineStart: lineStart)
            if let content = try here.plain(start, end) {
                pieces.append(Piece(field: field, start: content.lowerBound, end: content.upperBound, decoded: -1))
            } else {
                decoded.append(try here.string(start, end))
                pieces.append(Piece(field: field, start: 0, end: 0, decoded: decoded.count - 1))
            }
        }
        func finish() throws(POSyntaxError) {
            defer {
                entry = Pending()
                field = nil
                pieces.removeAll(keepingCapacity: true)
                decoded.removeAll(keepingCapacity: true)
            }
            guard entry.started else { return }
            guard entry.hasSource else {
                // Comments alone (at the end of a file, or between entries) belong to nothing.
                if !entry.hasContext, entry.translationCount == 0, !entry.hasPreviousSource { return }
                throw POSyntaxError(line: entry.line, column: 1, offset: entry.offset, problem: .missingSource)
            }
            guard entry.translationCount > 0 else {
                throw POSyntaxError(line: entry.line, column: 1, offset: entry.offset, problem: .missingTranslation)
            }
            /// The field's piece when it has one and it holds no escape: its text is in the file as it is.
            func plainPiece(_ wanted: Field) -> Piece? {
                var only: Piece?
                var count = 0
                for piece in pieces where piece.field == wanted {
                    count += 1
                    only = piece
                }
                return count == 1 && only!.decoded < 0 ? only : nil
            }
            /// The field's pieces as one string: straight from the file when it is one piece
            /// without escapes, else joined in the scratch buffer first.
            func string(_ wanted: Field) throws(POSyntaxError) -> String {
                if let only = plainPiece(wanted) {
                    guard let text = Self.utf8String(fileBytes, only.start, only.end) else {
                        throw Self.invalidUTF8(in: fileBytes, from: entry.offset, line: entry.line)
                    }
                    return text
                }
                scratch.removeAll(keepingCapacity: true)
                for piece in pieces where piece.field == wanted {
                    if piece.decoded >= 0 { scratch += decoded[piece.decoded] } else { scratch += fileBytes[piece.start..<piece.end] }
                }
                guard let text = scratch.withUnsafeBufferPointer(Self.utf8String) else { throw Self.invalidUTF8(in: fileBytes, from: entry.offset, line: entry.line) }
                return text
            }
            /// The context, as the last entry's string when it is written the same way, in one piece.
            func sharedContext() throws(POSyntaxError) -> String {
                guard let only = plainPiece(.context) else { return try string(.context) }
                let (start, end) = (only.start, only.end)
                if let last = lastContext, last.end - last.start == end - start,
                    end == start || memcmp(fileBytes.baseAddress! + start, fileBytes.baseAddress! + last.start, end - start) == 0
                {
                    return last.text
                }
                let text = try string(.context)
                lastContext = (text, start, end)
                return text
            }
            let source = try string(.source)
            let context = entry.hasContext ? try sharedContext() : nil
            let isHeader = source.isEmpty && context == nil && !entry.isObsolete && file.header == nil && file.entries.isEmpty && translated.isEmpty && obsolete.isEmpty
            if forTranslation, !isHeader {
                let translation = try string(.translation(0))
                let previousSource = entry.hasPreviousSource ? try string(.previousSource) : nil
                // The pending entry's ids and comments are taken, not copied (it is emptied after
                // this), and the entry is moved into its array: no entry is copied (the disassembly
                // of this function shows no outlined copy of TranslationEntry).
                let made = TranslationEntry.read(
                    firstID: entry.firstID.take(), otherIDs: Self.swapEmpty(&entry.otherIDs), context: context, source: source, translation: translation,
                    isFuzzy: entry.flags.contains("fuzzy"), previousSource: previousSource, comments: Self.swapEmpty(&entry.translatorComments),
                    offset: entry.offset, translationOffset: entry.translationOffset)
                if entry.isObsolete { obsolete.append(made) } else { translated.append(made) }
                return
            }
            var made = POEntry(source: source)
            made.translations = []
            for index in 0..<entry.translationCount { made.translations.append(try string(.translation(index))) }
            made.context = context
            if entry.hasSourcePlural { made.sourcePlural = try string(.sourcePlural) }
            if entry.hasPreviousContext { made.previousContext = try string(.previousContext) }
            if entry.hasPreviousSource { made.previousSource = try string(.previousSource) }
            made.translatorComments = entry.translatorComments
            made.extractedComments = entry.extractedComments
            made.references = entry.references
            made.flags = entry.flags
            made.isObsolete = entry.isObsolete
            made.line = entry.line
            made.offset = entry.offset
            made.translationOffset = entry.translationOffset
            if made.source.isEmpty, made.context == nil, !made.isObsolete, file.header == nil, file.entries.isEmpty {
                file.header = made
            } else {
                file.entries.append(made)
            }
        }
        let count = end
        while position < count {
            let start = position
            var end = Self.lineEnd(in: bytes, from: start)
            position = end + 1
            sweep?.release(upTo: start)
            defer {
                line += 1
                lineStart = position
            }
            if end > start, bytes[end - 1] == 0x0D { end -= 1 }
            var p = start
            while p < end, Self.isSpace(bytes[p]) { p += 1 }
            var obsolete = false
            var previous = false
            if p + 1 < end, bytes[p] == UInt8(ascii: "#"), bytes[p + 1] == UInt8(ascii: "~") {
                obsolete = true
                p += 2
                if p < end, bytes[p] == UInt8(ascii: "|") {
                    previous = true
                    p += 1
                }
                while p < end, Self.isSpace(bytes[p]) { p += 1 }
            }
            if p == end {
                if !obsolete { try finish() }
                continue
            }
            let first = bytes[p]
            let isComment = first == UInt8(ascii: "#") && !previous
            // A comment or a new entry's keyword after the entry's msgstr starts the next entry.
            if case .translation = field, isComment || previous || startsEntry(p, end) { try finish() }
            if !entry.started {
                entry.started = true
                entry.line = line
                entry.offset = start
            }
            if obsolete { entry.isObsolete = true }
            if isComment {
                let kind: UInt8 = p + 1 < end ? bytes[p + 1] : 0
                if kind == UInt8(ascii: "|") {
                    previous = true
                    p += 2
                    while p < end, Self.isSpace(bytes[p]) { p += 1 }
                } else {
                    var bodyStart = p + (kind == 0 ? 1 : 2)
                    if kind != UInt8(ascii: "."), kind != UInt8(ascii: ":"), kind != UInt8(ascii: ","), kind != UInt8(ascii: "~") { bodyStart = p + 1 }
                    while bodyStart < end, Self.isSpace(bytes[bodyStart]) { bodyStart += 1 }
                    var bodyEnd = end
                    while bodyEnd > bodyStart, Self.isSpace(bytes[bodyEnd - 1]) { bodyEnd -= 1 }
                    switch kind {
                    case UInt8(ascii: "."):
                        if forTranslation, hasPrefix(POFile.idPrefix, at: bodyStart, before: bodyEnd) {
                            var idStart = bodyStart + POFile.idPrefix.utf8.count
                            while idStart < bodyEnd, Self.isSpace(bytes[idStart]) { idStart += 1 }
                            let id = try text(idStart, bodyEnd)
                            if entry.firstID == nil { entry.firstID = id } else { entry.otherIDs.append(id) }
                        } else {
                            entry.extractedComments.append(try text(bodyStart, bodyEnd))
                        }
                    case UInt8(ascii: ":"):
                        // References are not a translation's: checked (for their UTF-8) and left,
                        // without a string when they are ASCII, as a tool writes them.
                        if forTranslation, allASCII(UnsafeBufferPointer(rebasing: bytes[bodyStart..<bodyEnd])) { continue }
                        let references = try text(bodyStart, bodyEnd)
                        if !forTranslation { entry.references += references.split(separator: " ").map(String.init) }
                    case UInt8(ascii: ","):
                        entry.flags += try text(bodyStart, bodyEnd).split(separator: ",").map { String($0.trimmingSpaces) }.filter { !$0.isEmpty }
                    case UInt8(ascii: "~"): break
                    default: entry.translatorComments.append(try text(bodyStart, bodyEnd))
                    }
                    continue
                }
            }
            if p < end, bytes[p] == UInt8(ascii: "\"") {
                if previous {
                    switch field {
                    case .previousContext, .previousSource, .previousPlural: try add(field!, p, end)
                    default: throw error(.stringWithoutKeyword, at: p)
                    }
                    continue
                }
                switch field {
                case nil, .previousContext, .previousSource, .previousPlural: throw error(.stringWithoutKeyword, at: p)
                case .context, .source, .sourcePlural, .translation: try add(field!, p, end)
                }
                continue
            }
            // A keyword, then a string.
            let keywordStart = p
            while p < end, !Self.isSpace(bytes[p]), bytes[p] != UInt8(ascii: "\"") { p += 1 }
            var q = p
            while q < end, Self.isSpace(bytes[q]) { q += 1 }
            let keywordEnd = p
            func keywordText() -> String { String(decoding: bytes[keywordStart..<keywordEnd], as: UTF8.self) }
            guard let keyword = keyword(keywordStart, keywordEnd) else { throw error(.unknownKeyword(String(keywordText().prefix(40))), at: keywordStart) }
            guard q < end, bytes[q] == UInt8(ascii: "\"") else { throw error(.expectedString(after: keywordText()), at: q) }
            if previous {
                switch keyword {
                case .msgctxt:
                    // A keyword given twice starts its string again, as the last one wins.
                    if entry.hasPreviousContext { pieces.removeAll { $0.field == .previousContext } }
                    entry.hasPreviousContext = true
                    field = .previousContext
                    try add(.previousContext, q, end)
                case .msgid:
                    if entry.hasPreviousSource { pieces.removeAll { $0.field == .previousSource } }
                    entry.hasPreviousSource = true
                    field = .previousSource
                    try add(.previousSource, q, end)
                case .msgidPlural:
                    // The previous plural is not kept: its lines are read (and checked) and left.
                    field = .previousPlural
                    try add(.previousPlural, q, end)
                case .msgstr: throw error(.unknownKeyword(keywordText()), at: keywordStart)
                }
                continue
            }
            switch keyword {
            case .msgctxt:
                if entry.hasContext { pieces.removeAll { $0.field == .context } }
                entry.hasContext = true
                field = .context
                try add(.context, q, end)
            case .msgid:
                if entry.hasSource { pieces.removeAll { $0.field == .source } }
                entry.hasSource = true
                field = .source
                try add(.source, q, end)
            case .msgidPlural:
                if entry.hasSourcePlural { pieces.removeAll { $0.field == .sourcePlural } }
                entry.hasSourcePlural = true
                field = .sourcePlural
                try add(.sourcePlural, q, end)
            case .msgstr:  // msgstr, msgstr[N]
                if entry.translationCount == 0 { entry.translationOffset = keywordStart }
                let index = entry.translationCount
                entry.translationCount += 1
                field = .translation(index)
                try add(.translation(index), q, end)
            }
        }
        try finish()
        return file
    }

    /// Whether the line from `p` starts a new entry's keyword (msgctxt, or msgid but not msgid_plural).
    func startsEntry(_ p: Int, _ end: Int) -> Bool {
        func has(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard p + count <= end else { return false }
            return word.withUTF8Buffer { buffer in
                for index in 0..<count where bytes[p + index] != buffer[index] { return false }
                return true
            }
        }
        if has("msgctxt") { return true }
        guard has("msgid") else { return false }
        let after = p + 5
        return after >= end || Self.isSpace(bytes[after]) || bytes[after] == UInt8(ascii: "\"")
    }

    /// The keywords of an entry's strings.
    enum Keyword { case msgctxt, msgid, msgidPlural, msgstr }

    /// The keyword written at `start..<end`, or nil when it is none of PO's: the four words
    /// compared as bytes, `msgstr[N]` read as a number.
    func keyword(_ start: Int, _ end: Int) -> Keyword? {
        func matches(_ word: StaticString) -> Bool {
            guard end - start == word.utf8CodeUnitCount else { return false }
            return word.withUTF8Buffer { buffer in
                for index in 0..<buffer.count where bytes[start + index] != buffer[index] { return false }
                return true
            }
        }
        if matches("msgid") { return .msgid }
        if matches("msgstr") { return .msgstr }
        if matches("msgctxt") { return .msgctxt }
        if matches("msgid_plural") { return .msgidPlural }
        return Self.pluralIndex(String(decoding: bytes[start..<end], as: UTF8.self)) != nil ? .msgstr : nil
    }

    /// N of `msgstr[N]`.
    static func pluralIndex(_ keyword: String) -> Int? {
        guard keyword.hasPrefix("msgstr["), keyword.hasSuffix("]") else { return nil }
        return Int(keyword.dropFirst(7).dropLast())
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Whether `prefix` stands at `start`, ending before `end`.
    func hasPrefix(_ prefix: String, at start: Int, before end: Int) -> Bool {
        var index = start
        for byte in prefix.utf8 {
            guard index < end, bytes[index] == byte else { return false }
            index += 1
        }
        return true
    }

    /// The end of the line from `start`: the next line feed, or the end of the file.
    static func lineEnd(in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard start < buffer.count, let base = buffer.baseAddress,
            let found = memchr(base + start, 0x0A, buffer.count - start)
        else { return buffer.count }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// The first `"` or `\` in `start..<end`, or `end`: eight bytes at a time until a word
    /// holds one, then byte by byte.
    static func quoteOrBackslash(in buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        guard let base = buffer.baseAddress else { return end }
        var index = start
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while index + 8 <= end {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let quotes = word ^ (ones &* 0x22)
            let backslashes = word ^ (ones &* 0x5C)
            if ((quotes &- ones) & ~quotes | (backslashes &- ones) & ~backslashes) & highs != 0 { break }
            index += 8
        }
        while index < end, base[index] != 0x22, base[index] != 0x5C { index += 1 }
        return index
    }
}

/// The line being read, as the reading of a quoted string needs it: plain values only, so it is
/// passed around without retaining anything.
struct POLine {
    let bytes: UnsafeBufferPointer<UInt8>
    let line: Int
    let lineStart: Int

    /// An error at `offset` on the line, its column in characters, as editors and msgfmt count
    /// them (a byte that is not UTF-8 counts as one).
    func error(_ problem: POSyntaxError.Problem, at offset: Int) -> POSyntaxError {
        POSyntaxError(line: line, column: LineIndex.column(of: offset, lineStart: lineStart, in: bytes), offset: offset, problem: problem)
    }

    /// A quoted string from `start` (its opening quote) to its closing quote, when it holds no
    /// escape: the range of its content. Nil when it has an escape (`string` decodes it).
    func plain(_ start: Int, _ end: Int) throws(POSyntaxError) -> Range<Int>? {
        let index = POParser.quoteOrBackslash(in: bytes, from: start + 1, to: end)
        guard index < end else { throw error(.unterminatedString, at: end) }
        if bytes[index] == UInt8(ascii: "\\") { return nil }
        var after = index + 1
        while after < end, POParser.isSpace(bytes[after]) { after += 1 }
        guard after == end else { throw error(.unterminatedString, at: index + 1) }
        return (start + 1)..<index
    }

    /// A quoted string from `start` (its opening quote) with the escapes gettext reads: \n \t
    /// \r \a \b \f \v \" \\, up to three octal digits, and \x with hex digits.
    func string(_ start: Int, _ end: Int) throws(POSyntaxError) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(end - start)
        var index = start + 1
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                var after = index + 1
                while after < end, POParser.isSpace(bytes[after]) { after += 1 }
                guard after == end else { throw error(.unterminatedString, at: index + 1) }
                return result
            }
            guard byte == UInt8(ascii: "\\") else {
                result.append(byte)
                index += 1
                continue
            }
            guard index + 1 < end else { throw error(.unterminatedString, at: end) }
            let escape = bytes[index + 1]
            switch escape {
            case UInt8(ascii: "n"): result.append(0x0A)
            case UInt8(ascii: "t"): result.append(0x09)
            case UInt8(ascii: "r"): result.append(0x0D)
            case UInt8(ascii: "\""): result.append(0x22)
            case UInt8(ascii: "\\"): result.append(0x5C)
            case UInt8(ascii: "a"): result.append(0x07)
            case UInt8(ascii: "b"): result.append(0x08)
            case UInt8(ascii: "f"): result.append(0x0C)
            case UInt8(ascii: "v"): result.append(0x0B)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                // Up to three octal digits.
                var value = 0
                var cursor = index + 1
                while cursor < end, cursor < index + 4, bytes[cursor] >= UInt8(ascii: "0"), bytes[cursor] <= UInt8(ascii: "7") {
                    value = value * 8 + Int(bytes[cursor] - UInt8(ascii: "0"))
                    cursor += 1
                }
                result.append(UInt8(truncatingIfNeeded: value))
                index = cursor
                continue
            case UInt8(ascii: "x"):
                // As gettext reads it: every hex digit that follows (at least one), the value
                // kept to a byte.
                var value: UInt8 = 0
                var cursor = index + 2
                while cursor < end, let digit = POParser.hexValue(bytes[cursor]) {
                    value = value &* 16 &+ digit
                    cursor += 1
                }
                guard cursor > index + 2 else { throw error(.badEscape("x"), at: index) }
                result.append(value)
                index = cursor
                continue
            default:
                let character = Character(Unicode.Scalar(escape < 0x80 ? escape : UInt8(ascii: "?")))
                throw error(.badEscape(character), at: index)
            }
            index += 2
        }
        throw error(.unterminatedString, at: end)
    }
}
