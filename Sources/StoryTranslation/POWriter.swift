import StoryFormat

extension POFile {
    /// The file as gettext writes it: lines of at most 79 columns where a space allows, a
    /// string with line breaks split after each, obsolete entries last.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The file's bytes (UTF-8), written straight into one buffer.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(entries.count * 160)
        if let header { Self.write(header, to: &out) }
        for entry in entries where !entry.isObsolete {
            if !out.isEmpty { out.append(0x0A) }
            Self.write(entry, to: &out)
        }
        for entry in entries where entry.isObsolete {
            if !out.isEmpty { out.append(0x0A) }
            Self.write(entry, to: &out)
        }
        return out
    }

    /// A comment's lines: split at each line feed, carriage return, or both together.
    static func commentLines(_ comment: String) -> [Substring] {
        guard comment.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return [Substring(comment)] }
        return comment.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
    }

    static func append(_ text: String, to out: inout [UInt8]) {
        text.withExistingUTF8 { out.append(contentsOf: $0) }
    }

    static func write(_ entry: POEntry, to out: inout [UInt8]) {
        // A comment runs to the end of its line: one holding line breaks (a story's name can) is
        // written as a comment a line, or the lines after the first would read as PO's own.
        for comment in entry.translatorComments {
            for line in commentLines(comment) {
                if line.isEmpty {
                    out.append(0x23, 0x0A)  // "#\n"
                } else {
                    out.append(0x23, 0x20)
                    append(String(line), to: &out)
                    out.append(0x0A)
                }
            }
        }
        for comment in entry.extractedComments {
            for line in commentLines(comment) {
                out.append(0x23, 0x2E, 0x20)  // "#. "
                append(String(line), to: &out)
                out.append(0x0A)
            }
        }
        if !entry.references.isEmpty {
            // gettext's layout: references on lines of at most 79 columns.
            var width = 2
            out.append(0x23, 0x3A)  // "#:"
            for reference in entry.references {
                let count = reference.utf8.count
                if width + 1 + count > 79, width > 2 {
                    out.append(0x0A, 0x23, 0x3A)
                    width = 2
                }
                out.append(0x20)
                append(reference, to: &out)
                width += 1 + count
            }
            out.append(0x0A)
        }
        if !entry.flags.isEmpty {
            out.append(0x23, 0x2C, 0x20)  // "#, "
            append(entry.flags.joined(separator: ", "), to: &out)
            out.append(0x0A)
        }
        let prefix: [UInt8] = entry.isObsolete ? Array("#~ ".utf8) : []
        let previousPrefix: [UInt8] = entry.isObsolete ? Array("#~| ".utf8) : Array("#| ".utf8)
        if let context = entry.previousContext { field("msgctxt", context, prefix: previousPrefix, to: &out) }
        if let source = entry.previousSource { field("msgid", source, prefix: previousPrefix, to: &out) }
        if let context = entry.context { field("msgctxt", context, prefix: prefix, to: &out) }
        field("msgid", entry.source, prefix: prefix, to: &out)
        if let plural = entry.sourcePlural {
            field("msgid_plural", plural, prefix: prefix, to: &out)
            for (index, translation) in entry.translations.enumerated() { field("msgstr[\(index)]", translation, prefix: prefix, to: &out) }
        } else {
            field("msgstr", entry.translation, prefix: prefix, to: &out)
        }
    }

    /// `keyword "value"`, or `keyword ""` followed by the value's pieces, one a line: each line
    /// break ends a piece, and a piece wider than the line is broken after a space. Columns are
    /// counted by character (a UTF-8 sequence is one), an escape by its length.
    ///
    /// Written straight into `out` after one pass that counts the columns and finds the breaks
    /// (where each piece ends in the escaped value): a value without escapes is then copied a
    /// piece at a time; one with escapes is first escaped whole into room on the stack (the count
    /// gave its length), then copied the same way. (Escaping it a byte at a time into `out`, and
    /// moving the bytes since the last space at each break, took a third of a template's time.)
    static func field(_ keyword: String, _ value: String, prefix: [UInt8], to out: inout [UInt8]) {
        let width = 79 - prefix.count
        let limit = max(width - 2, 20)
        keyword.withExistingUTF8 { keywordBytes in
            value.withExistingUTF8 { bytes in
                // First the pieces are counted, as they will be broken, without writing them.
                let layout = isPlain(bytes) ? plainLayout(bytes, limit: limit) : layout(bytes, limit: limit)
                out += prefix
                out.append(contentsOf: keywordBytes)
                /// The escaped value on the keyword's line when it is one piece that fits (its
                /// columns counted from its last line break), else each piece on a line of its
                /// own, split where the count found the breaks.
                func write(_ escaped: UnsafeBufferPointer<UInt8>) {
                    if layout.pieces == 1, keywordBytes.count + 3 + layout.lastColumns <= width {
                        out.append(0x20, 0x22)
                        out.append(contentsOf: escaped)
                        out.append(0x22, 0x0A)
                        return
                    }
                    out.append(0x20, 0x22, 0x22, 0x0A)
                    var start = 0
                    func piece(to end: Int) {
                        out += prefix
                        out.append(0x22)
                        out.append(contentsOf: UnsafeBufferPointer(rebasing: escaped[start..<end]))
                        out.append(0x22, 0x0A)
                        start = end
                    }
                    for end in layout.breaks { piece(to: end) }
                    if layout.length > start { piece(to: layout.length) }
                }
                // Without escapes the escaped value is the value; with them, it is escaped into
                // room of its own first (the count gave its length).
                guard layout.escapes > 0 else { return write(bytes) }
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: layout.length) { room in
                    var written = 0
                    for byte in bytes { written += escape(byte, into: room.baseAddress! + written) }
                    write(UnsafeBufferPointer(rebasing: room[..<written]))
                }
            }
        }
    }

    /// How a value is cut into a field's pieces: where each piece but the last ends in the escaped
    /// value, the escaped value's length, how many bytes are escaped, and the columns of the last
    /// piece.
    struct FieldLayout: Equatable {
        var breaks: [Int] = []
        var length = 0
        var escapes = 0
        var lastColumns = 0
        var pieces = 0
    }

    /// The layout of any value: a line break ends a piece; a piece wider than `limit` columns is
    /// broken after its last space (or, with none, after the first space that comes). Columns are
    /// counted by character (a UTF-8 sequence is one), an escape by its length.
    static func layout(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> FieldLayout {
        var layout = FieldLayout()
        var position = 0  // in the escaped value
        var pieceStart = 0
        var pieceColumns = 0
        var lastSpace = -1
        var lastSpaceIndex = 0  // the byte after that space, in the value
        for index in 0..<bytes.count {
            let byte = bytes[index]
            let length = escapedLength(byte)
            if length > 1 { layout.escapes += 1 }
            position += length
            if byte & 0xC0 != 0x80 { pieceColumns += length }
            if byte == 0x20 {
                lastSpace = position
                lastSpaceIndex = index + 1
            }
            if byte == 0x0A {
                layout.pieces += 1
                pieceStart = position
                layout.breaks.append(position)
                pieceColumns = 0
                lastSpace = -1
                continue
            }
            if pieceColumns > limit, lastSpace > pieceStart, lastSpace < position {
                layout.pieces += 1
                pieceStart = lastSpace
                layout.breaks.append(lastSpace)
                pieceColumns = 0
                for byte in bytes[lastSpaceIndex...index] where byte & 0xC0 != 0x80 { pieceColumns += escapedLength(byte) }
                lastSpace = -1
            }
        }
        if position > pieceStart || layout.pieces == 0 { layout.pieces += 1 }
        layout.length = position
        layout.lastColumns = pieceColumns
        return layout
    }

    /// Whether every byte of a value is printable ASCII that PO writes as it is (no quote, no
    /// backslash): most of a story's strings. Eight bytes at a time.
    static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var index = 0
        // A byte below 0x20 or from 0x7F up, or equal to 0x22 or 0x5C, sets its top bit in `bad`.
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func zeroBytes(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & highs }
        while index + 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            // Below 0x20: adding 0x60 leaves the top bit clear (0x7F and up have it set already).
            let low = ~(word &+ 0x6060_6060_6060_6060) & highs & ~word
            let bad = word & highs | low | zeroBytes(word ^ 0x2222_2222_2222_2222) | zeroBytes(word ^ 0x5C5C_5C5C_5C5C_5C5C)
                | zeroBytes(word ^ 0x7F7F_7F7F_7F7F_7F7F)
            if bad != 0 { return false }
            index += 8
        }
        while index < count {
            let byte = base[index]
            if byte < 0x20 || byte >= 0x7F || byte == 0x22 || byte == 0x5C { return false }
            index += 1
        }
        return true
    }

    /// `layout` of a plain value (`isPlain`): each byte a column, no escapes, no line breaks, so
    /// a piece's columns are its bytes and only where pieces break is worked out. The same
    /// layout as `layout` gives (tested against it).
    static func plainLayout(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> FieldLayout {
        var layout = FieldLayout(length: bytes.count, pieces: 1)
        let count = bytes.count
        var pieceStart = 0
        // `over` is the byte that takes the piece past the limit. The piece breaks after the last
        // space before it; when `over` is a space or no space comes before it, after the run of
        // spaces that `over` is in or that comes next (never after the value's last byte).
        while count - pieceStart > limit {
            let over = pieceStart + limit
            var space = over
            while space >= pieceStart, bytes[space] != 0x20 { space -= 1 }
            if space < pieceStart || space == over {
                if space < pieceStart {
                    space = over + 1
                    while space < count, bytes[space] != 0x20 { space += 1 }
                }
                while space < count, bytes[space] == 0x20 { space += 1 }
                guard space < count else { break }
                pieceStart = space
            } else {
                pieceStart = space + 1
            }
            layout.breaks.append(pieceStart)
            layout.pieces += 1
        }
        layout.lastColumns = count - pieceStart
        return layout
    }

    /// How many bytes `escape` writes for a byte.
    @inline(__always)
    static func escapedLength(_ byte: UInt8) -> Int {
        switch byte {
        case 0x0A, 0x09, 0x0D, 0x22, 0x5C, 0x07, 0x08, 0x0C, 0x0B: 2
        case 0..<0x20, 0x7F: 4
        default: 1
        }
    }

    /// Writes `byte` as PO escapes it at `place` (room for four bytes), and says how many bytes it
    /// wrote (`escapedLength`).
    @inline(__always)
    static func escape(_ byte: UInt8, into place: UnsafeMutablePointer<UInt8>) -> Int {
        func two(_ letter: UInt8) -> Int {
            place[0] = 0x5C
            place[1] = letter
            return 2
        }
        switch byte {
        case 0x0A: return two(UInt8(ascii: "n"))
        case 0x09: return two(UInt8(ascii: "t"))
        case 0x0D: return two(UInt8(ascii: "r"))
        case 0x22: return two(0x22)
        case 0x5C: return two(0x5C)
        case 0x07: return two(UInt8(ascii: "a"))
        case 0x08: return two(UInt8(ascii: "b"))
        case 0x0C: return two(UInt8(ascii: "f"))
        case 0x0B: return two(UInt8(ascii: "v"))
        case 0..<0x20, 0x7F:
            (place[0], place[1], place[2], place[3]) = (0x5C, 0x30 + (byte >> 6), 0x30 + ((byte >> 3) & 7), 0x30 + (byte & 7))
            return 4
        default:
            place[0] = byte
            return 1
        }
    }
}

extension POFile {
    /// The template of a story's strings, written straight from the units (no merge, no entry
    /// values): what `make` gives for a template, in a fraction of the time and memory. Strings
    /// with the same context and text are one entry listing every id.
    /// Returns the bytes and the number of entries.
    public static func template(_ units: [TranslationUnit], storyID: String, storyName: String, comments: [String] = []) -> (bytes: [UInt8], entries: Int) {
        let made = templatePieces(units, storyID: storyID, storyName: storyName, comments: comments)
        return (Array(made.pieces.joined()), made.entries)
    }

    /// The template in pieces of about a megabyte, to be written one after the other: made as
    /// they are taken, the next two on other cores while one is written, and never joined in
    /// memory.
    public static func templatePieces(_ units: [TranslationUnit], storyID: String, storyName: String, comments: [String] = []) -> (pieces: FilePieces, entries: Int) {
        var out: [UInt8] = []
        let header = make(TranslationMerge(units: [], existing: nil, grouped: true), storyID: storyID, storyName: storyName, language: nil, comments: comments)
        if let entry = header.header { write(entry, to: &out) }
        let (heads, next) = TextGroups.of(units)
        // An entry holds at least its context and its text (escapes only add), and its keywords.
        let pieces = PiecesMadeAhead(
            count: heads.count, leastSize: { units[Int(heads[$0])].source.utf8.count + units[Int(heads[$0])].context.utf8.count + 24 }, head: out,
            append: { index, out in templateEntry(units, head: Int(heads[index]), next: next, to: &out) })
        return (FilePieces(pieces), heads.count)
    }

    // Static strings, not arrays: a static array is a lazily made global, retained and released
    // each time it is appended (an entry's worth of atomic operations, from two threads at once).
    static let idComment: StaticString = "#. id: "  // "#. " and POFile.idPrefix
    private static let nameNote: StaticString = "#. [[name]] is the reader's first name: keep it as written.\n"
    private static let reference: StaticString = " story.json:"
    private static let emptyTranslation: StaticString = "msgstr \"\"\n"

    @inline(__always)
    static func append(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// The template's entry of the group whose first string is `head` (its strings linked by
    /// `next`), after a blank line.
    static func templateEntry(_ units: [TranslationUnit], head: Int, next: [Int32], to out: inout [UInt8]) {
        // The strings read where they are, through a buffer: an element of the array is copied out
        // (its strings retained and released) where a buffer's is read in place.
        units.withUnsafeBufferPointer { units in
            out.append(0x0A)
            var index = head
            var mentionsName = false
            var members = 0
            while index >= 0 {
                append(idComment, to: &out)
                units.appendID(at: index, to: &out)
                out.append(0x0A)
                mentionsName = mentionsName || TranslationUnit.containsName(units[index].source)
                members += 1
                index = Int(next[index])
            }
            if mentionsName { append(nameNote, to: &out) }
            // Each line once, in the order the strings come.
            withUnsafeTemporaryAllocation(of: Int.self, capacity: members) { lines in
                var count = 0
                var index = head
                while index >= 0 {
                    let line = units[index].line
                    if line > 0, !lines[..<count].contains(line) {
                        lines[count] = line
                        count += 1
                    }
                    index = Int(next[index])
                }
                guard count > 0 else { return }
                var width = 2
                out.append(0x23, 0x3A)
                for line in lines[..<count] {
                    let digits = DecimalDigits.count(line)
                    if width + reference.utf8CodeUnitCount + digits > 79, width > 2 {
                        out.append(0x0A, 0x23, 0x3A)
                        width = 2
                    }
                    append(reference, to: &out)
                    DecimalDigits.append(line, to: &out)
                    width += reference.utf8CodeUnitCount + digits
                }
                out.append(0x0A)
            }
            field("msgctxt", units[head].context, prefix: [], to: &out)
            field("msgid", units[head].source, prefix: [], to: &out)
            append(emptyTranslation, to: &out)
        }
    }
}

/// Strings of the same context and text, grouped as a PO file lists them (one entry each):
/// found by sorting the strings by the hash of their context and text, so equal ones stand
/// together, where a table of every string would be a cache miss a string. Equal as Swift
/// compares strings.
enum TextGroups {
    /// The first string of each group, in the strings' order, and for each string the next of
    /// its group (-1 for the last).
    static func of(_ units: [TranslationUnit]) -> (heads: [Int32], next: [Int32]) { of(units, hashes: hashes(of: units)) }

    /// `of(_:)` with each string's hash given (tests give colliding ones).
    static func of(_ units: [TranslationUnit], hashes: [Int]) -> (heads: [Int32], next: [Int32]) {
        let count = units.count
        // Sorted by hash, then by position: a hash's top 40 bits and the position in one number
        // while positions fit in 24 bits. Runs of one hash are found in that sorted array, read in
        // order (looking each hash up by its position was a cache miss a string).
        var order: [Int32]
        let runEnds: (Int) -> Int
        if count < 1 << 24 {
            var packed = [UInt64](unsafeUninitializedCapacity: count) { buffer, made in
                for index in 0..<count { buffer[index] = UInt64(bitPattern: Int64(hashes[index])) & ~0xFF_FFFF | UInt64(index) }
                made = count
            }
            sortAbove24Bits(&packed)
            order = packed.map { Int32(truncatingIfNeeded: $0 & 0xFF_FFFF) }
            runEnds = { [packed] start in
                var end = start + 1
                while end < count, (packed[start] ^ packed[end]) >> 24 == 0 { end += 1 }
                return end
            }
        } else {
            order = Array(0..<Int32(count))
            order.sort { hashes[Int($0)] != hashes[Int($1)] ? hashes[Int($0)] < hashes[Int($1)] : $0 < $1 }
            runEnds = { [order] start in
                var end = start + 1
                while end < count, hashes[Int(order[start])] == hashes[Int(order[end])] { end += 1 }
                return end
            }
        }
        var next = [Int32](repeating: -1, count: count)
        var isHead = [Bool](repeating: true, count: count)
        var start = 0
        var runHeads: [Int32] = []
        var runTails: [Int32] = []
        while start < count {
            let end = runEnds(start)
            if end - start > 1 {
                runHeads.removeAll(keepingCapacity: true)
                runTails.removeAll(keepingCapacity: true)
                // A run of many different strings (their hashes collide: the hash is not seeded,
                // so a story could be written to make them) finds its groups in a table of
                // Swift's seeded hashing, not by comparing each string with every group's.
                var byText: [TranslationLookup.TextKey: Int]?
                func key(_ index: Int32) -> TranslationLookup.TextKey { TranslationLookup.TextKey(context: units[Int(index)].context, source: units[Int(index)].source) }
                for position in start..<end {
                    let index = order[position]
                    let unit = units[Int(index)]
                    let found =
                        byText.map { $0[key(index)] }
                        ?? runHeads.firstIndex(where: { units[Int($0)].source == unit.source && units[Int($0)].context == unit.context })
                    if let group = found {
                        next[Int(runTails[group])] = index
                        runTails[group] = index
                        isHead[Int(index)] = false
                    } else {
                        runHeads.append(index)
                        runTails.append(index)
                        if byText != nil {
                            byText![key(index)] = runHeads.count - 1
                        } else if runHeads.count > manyInARun {
                            byText = Dictionary(uniqueKeysWithValues: runHeads.enumerated().map { (key($1), $0) })
                        }
                    }
                }
            }
            start = end
        }
        var heads: [Int32] = []
        heads.reserveCapacity(count)
        for index in 0..<count where isHead[index] { heads.append(Int32(index)) }
        return (heads, next)
    }

    /// Sorts `values`, whose bits below 24 already ascend (a position, in order): a radix
    /// sort of the 40 bits above, least significant digit first, three passes of 14, 13 and 13
    /// bits, each keeping the order of the values whose digit it shares, so equal high bits stay
    /// in the order of their low ones. The standard library's sort took 37 ms of 606,761 values,
    /// on one core while the other waited; this takes 5 ms (perf, l10n extract).
    static func sortAbove24Bits(_ values: inout [UInt64]) {
        let count = values.count
        guard count > 1 else { return }
        var from = values
        values = []
        var to = [UInt64](repeating: 0, count: count)
        var counts = [Int](repeating: 0, count: 1 << 14)
        for (shift, width) in [(24, 14), (38, 13), (51, 13)] {
            let mask = UInt64(1 << width - 1)
            from.withUnsafeBufferPointer { source in
                to.withUnsafeMutableBufferPointer { target in
                    counts.withUnsafeMutableBufferPointer { counts in
                        for index in 0..<(1 << width) { counts[index] = 0 }
                        for value in source { counts[Int(value >> UInt64(shift) & mask)] += 1 }
                        // Each digit's first place: the counts of the digits before it.
                        var start = 0
                        for digit in 0..<(1 << width) {
                            let here = counts[digit]
                            counts[digit] = start
                            start += here
                        }
                        for value in source {
                            let digit = Int(value >> UInt64(shift) & mask)
                            target[counts[digit]] = value
                            counts[digit] += 1
                        }
                    }
                }
            }
            swap(&from, &to)
        }
        values = from
    }

    /// How many different strings a run of one hash compares each string with before it makes
    /// a table of them.
    static let manyInARun = 16

    /// Each string's context and text hashed, in two halves at once when there are many
    /// (`textHash`). Swift's own hash (SipHash, seeded) took 80 ms of both cores for 606,761
    /// strings (perf, l10n extract of 100,000 chapters).
    static func hashes(of units: [TranslationUnit]) -> [Int] {
        // Each unit read where it is, through a buffer, and hashed as it is: the two halves
        // indexing the shared array and making a key of copies retained and released its
        // strings and the array itself, from both cores at once.
        @Sendable func hashes(_ range: Range<Int>) -> [Int] {
            units.withUnsafeBufferPointer { units in
                range.map { index in
                    let context = textHash(units[index].context)
                    let source = textHash(units[index].source)
                    // The two joined unevenly (a context and text swapped hash apart); the sort
                    // reads the top bits, which the multiplication mixes.
                    return Int(truncatingIfNeeded: (context ^ (source << 29 | source >> 35)) &* 0x9E37_79B9_7F4A_7C15)
                }
            }
        }
        guard units.count >= 20_000 else { return hashes(units.indices) }
        let middle = units.count / 2
        let second = BackgroundWork { hashes(middle..<units.count) }
        return hashes(0..<middle) + second.wait()
    }

    /// A text's hash, the same for texts Swift holds equal (canonically equivalent): XXH64 of
    /// an ASCII text's bytes; Swift's own hash of any other text, which composes it (NFC) as it
    /// hashes. The three characters whose composed form is ASCII (the Kelvin sign is K, the Greek
    /// question mark is ;, the Greek varia is `) are the only way a text that is not ASCII can
    /// equal one that is: a text of ASCII and those is hashed as the ASCII it composes to.
    /// (Composing every text that is not ASCII here first, byte by byte, made a French story's
    /// template 1.03x slower where an ASCII one's was 0.8x.)
    static func textHash(_ text: String) -> UInt64 {
        let plain: UInt64? = text.withExistingUTF8 { bytes in
            if allASCII(bytes) { return XXH64.hash(bytes) }
            return composedASCII(bytes).map { XXH64.hash($0) }
        }
        if let plain { return plain }
        var hasher = Hasher()
        hasher.combine(text)
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }

    /// The ASCII text `bytes` composes to, when they are ASCII and the three characters that
    /// compose to ASCII (U+212A, U+037E, U+1FEF); nil when any other byte is not ASCII.
    static func composedASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        /// The ASCII character the sequence at `index` composes to, and its length.
        func composing(_ index: Int) -> (UInt8, Int)? {
            let rest = bytes.count - index
            switch bytes[index] {
            case 0xE2 where rest >= 3 && bytes[index + 1] == 0x84 && bytes[index + 2] == 0xAA: return (0x4B, 3)  // U+212A KELVIN SIGN -> K
            case 0xCD where rest >= 2 && bytes[index + 1] == 0xBE: return (0x3B, 2)  // U+037E GREEK QUESTION MARK -> ;
            case 0xE1 where rest >= 3 && bytes[index + 1] == 0xBF && bytes[index + 2] == 0xAF: return (0x60, 3)  // U+1FEF GREEK VARIA -> `
            default: return nil
            }
        }
        // Looked over first, nothing made: most texts that are not ASCII have other characters.
        var index = 0
        while index < bytes.count {
            if bytes[index] < 0x80 {
                index += 1
            } else {
                guard let (_, length) = composing(index) else { return nil }
                index += length
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        index = 0
        while index < bytes.count {
            if bytes[index] < 0x80 {
                out.append(bytes[index])
                index += 1
            } else if let (byte, length) = composing(index) {
                out.append(byte)
                index += length
            }
        }
        return out
    }
}

extension Array where Element == UInt8 {
    /// Two, three or four bytes appended, without the array a literal `[a, b]` would make each time.
    @inline(__always) mutating func append(_ a: UInt8, _ b: UInt8) {
        append(a)
        append(b)
    }

    @inline(__always) mutating func append(_ a: UInt8, _ b: UInt8, _ c: UInt8) {
        append(a)
        append(b)
        append(c)
    }

    @inline(__always) mutating func append(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
        append(a)
        append(b)
        append(c)
        append(d)
    }
}
