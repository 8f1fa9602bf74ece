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

    static func append(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { out.append(contentsOf: $0) }
    }

    static func write(_ entry: POEntry, to out: inout [UInt8]) {
        for comment in entry.translatorComments {
            if comment.isEmpty {
                out += [0x23, 0x0A]  // "#\n"
            } else {
                out += [0x23, 0x20]
                append(comment, to: &out)
                out.append(0x0A)
            }
        }
        for comment in entry.extractedComments {
            out += [0x23, 0x2E, 0x20]  // "#. "
            append(comment, to: &out)
            out.append(0x0A)
        }
        if !entry.references.isEmpty {
            // gettext's layout: references on lines of at most 79 columns.
            var width = 2
            out += [0x23, 0x3A]  // "#:"
            for reference in entry.references {
                let count = reference.utf8.count
                if width + 1 + count > 79, width > 2 {
                    out += [0x0A, 0x23, 0x3A]
                    width = 2
                }
                out.append(0x20)
                append(reference, to: &out)
                width += 1 + count
            }
            out.append(0x0A)
        }
        if !entry.flags.isEmpty {
            out += [0x23, 0x2C, 0x20]  // "#, "
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
    static func field(_ keyword: String, _ value: String, prefix: [UInt8], to out: inout [UInt8]) {
        let width = 79 - prefix.count
        let limit = max(width - 2, 20)
        let keywordBytes = Array(keyword.utf8)
        let keywordCount = keywordBytes.count
        var value = value
        value.withUTF8 { bytes in
            // Most strings need no escape and fit: one line, copied as they are.
            var plain = true
            var columns = 0
            for byte in bytes {
                if byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F {
                    plain = false
                    break
                }
                if byte & 0xC0 != 0x80 { columns += 1 }
            }
            if plain, keywordCount + 3 + columns <= width {
                out += prefix
                out += keywordBytes
                out += [0x20, 0x22]
                out.append(contentsOf: bytes)
                out += [0x22, 0x0A]
                return
            }
            var escaped: [UInt8] = []
            escaped.reserveCapacity(bytes.count + bytes.count / 8 + 8)
            var ends: [Int] = []  // where each piece ends in `escaped`
            var pieceStart = 0
            var pieceColumns = 0
            var lastSpace = -1
            for byte in bytes {
                let before = escaped.count
                escape(byte, to: &escaped)
                pieceColumns += byte & 0xC0 == 0x80 ? 0 : escaped.count - before
                if byte == 0x20 { lastSpace = escaped.count }
                if byte == 0x0A {
                    ends.append(escaped.count)
                    pieceStart = escaped.count
                    pieceColumns = 0
                    lastSpace = -1
                    continue
                }
                if pieceColumns > limit, lastSpace > pieceStart, lastSpace < escaped.count {
                    ends.append(lastSpace)
                    pieceStart = lastSpace
                    pieceColumns = 0
                    for tail in escaped[lastSpace...] where tail & 0xC0 != 0x80 { pieceColumns += 1 }
                    lastSpace = -1
                }
            }
            if escaped.count > pieceStart || ends.isEmpty { ends.append(escaped.count) }
            if ends.count == 1, keywordCount + 3 + pieceColumns <= width {
                out += prefix
                out += keywordBytes
                out += [0x20, 0x22]
                out += escaped
                out += [0x22, 0x0A]
                return
            }
            out += prefix
            out += keywordBytes
            out += [0x20, 0x22, 0x22, 0x0A]
            var start = 0
            for end in ends {
                out += prefix
                out.append(0x22)
                out += escaped[start..<end]
                out += [0x22, 0x0A]
                start = end
            }
        }
    }

    @inline(__always)
    static func escape(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case 0x0A: out += [0x5C, UInt8(ascii: "n")]
        case 0x09: out += [0x5C, UInt8(ascii: "t")]
        case 0x0D: out += [0x5C, UInt8(ascii: "r")]
        case 0x22: out += [0x5C, 0x22]
        case 0x5C: out += [0x5C, 0x5C]
        case 0x07: out += [0x5C, UInt8(ascii: "a")]
        case 0x08: out += [0x5C, UInt8(ascii: "b")]
        case 0x0C: out += [0x5C, UInt8(ascii: "f")]
        case 0x0B: out += [0x5C, UInt8(ascii: "v")]
        case 0..<0x20, 0x7F:
            out += [0x5C, 0x30 + (byte >> 6), 0x30 + ((byte >> 3) & 7), 0x30 + (byte & 7)]
        default: out.append(byte)
        }
    }
}

extension POFile {
    /// The template of a story's strings, written straight from the units (no merge, no entry
    /// values): what `make` gives for a template, in a fraction of the time and memory. Strings
    /// with the same context and text are one entry listing every id.
    /// Returns the bytes and the number of entries.
    public static func template(_ units: [TranslationUnit], storyID: String, storyName: String, comments: [String] = []) -> (bytes: [UInt8], entries: Int) {
        var out: [UInt8] = []
        out.reserveCapacity(units.reduce(0) { $0 + $1.source.utf8.count } * 5 / 4 + units.count * 80)
        let header = make(TranslationMerge(units: [], existing: nil, grouped: true), storyID: storyID, storyName: storyName, language: nil, comments: comments)
        if let entry = header.header { write(entry, to: &out) }
        // Groups by context and text, in the order of their first string; `next` links a group's strings.
        var groups: [TranslationLookup.TextKey: Int32] = [:]
        groups.reserveCapacity(units.count)
        var heads: [Int32] = []
        heads.reserveCapacity(units.count)
        var tails: [Int32] = []
        tails.reserveCapacity(units.count)
        var next = [Int32](repeating: -1, count: units.count)
        for index in units.indices {
            let key = TranslationLookup.TextKey(context: units[index].context, source: units[index].source)
            if let group = groups[key] {
                next[Int(tails[Int(group)])] = Int32(index)
                tails[Int(group)] = Int32(index)
            } else {
                groups[key] = Int32(heads.count)
                heads.append(Int32(index))
                tails.append(Int32(index))
            }
        }
        groups = [:]
        let idPrefix: [UInt8] = Array("#. \(POFile.idPrefix)".utf8)
        let nameNote: [UInt8] = Array("#. [[name]] is the reader's first name: keep it as written.\n".utf8)
        let reference: [UInt8] = Array(" story.json:".utf8)
        for head in heads {
            out.append(0x0A)
            var index = Int(head)
            var mentionsName = false
            var lines: [Int] = []
            while index >= 0 {
                out += idPrefix
                append(units[index].id, to: &out)
                out.append(0x0A)
                mentionsName = mentionsName || units[index].mentionsName
                let line = units[index].line
                if line > 0, !lines.contains(line) { lines.append(line) }
                index = Int(next[index])
            }
            if mentionsName { out += nameNote }
            if !lines.isEmpty {
                var width = 2
                out += [0x23, 0x3A]
                for line in lines {
                    let text = Array(String(line).utf8)
                    if width + reference.count + text.count > 79, width > 2 {
                        out += [0x0A, 0x23, 0x3A]
                        width = 2
                    }
                    out += reference
                    out += text
                    width += reference.count + text.count
                }
                out.append(0x0A)
            }
            field("msgctxt", units[Int(head)].context, prefix: [], to: &out)
            field("msgid", units[Int(head)].source, prefix: [], to: &out)
            out += Array("msgstr \"\"\n".utf8)
        }
        return (out, heads.count)
    }
}
