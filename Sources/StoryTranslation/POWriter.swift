extension POFile {
    /// The file as gettext writes it: lines of at most 79 columns where a space allows, a
    /// string with line breaks split after each, obsolete entries last.
    public var text: String {
        var out = ""
        if let header { Self.write(header, to: &out) }
        for entry in entries where !entry.isObsolete {
            if !out.isEmpty { out += "\n" }
            Self.write(entry, to: &out)
        }
        for entry in entries where entry.isObsolete {
            if !out.isEmpty { out += "\n" }
            Self.write(entry, to: &out)
        }
        return out
    }

    static func write(_ entry: POEntry, to out: inout String) {
        for comment in entry.translatorComments { out += comment.isEmpty ? "#\n" : "# \(comment)\n" }
        for comment in entry.extractedComments { out += "#. \(comment)\n" }
        if !entry.references.isEmpty {
            // gettext's layout: references on lines of at most 79 columns.
            var line = "#:"
            for reference in entry.references {
                if line.count + 1 + reference.count > 79, line != "#:" {
                    out += line + "\n"
                    line = "#:"
                }
                line += " " + reference
            }
            out += line + "\n"
        }
        if !entry.flags.isEmpty { out += "#, " + entry.flags.joined(separator: ", ") + "\n" }
        let prefix = entry.isObsolete ? "#~ " : ""
        let previousPrefix = entry.isObsolete ? "#~| " : "#| "
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

    /// `keyword "value"`, or `keyword ""` followed by the value's pieces, one a line.
    static func field(_ keyword: String, _ value: String, prefix: String, to out: inout String) {
        let width = 79 - prefix.count
        let pieces = lines(value, width: width)
        if pieces.count == 1, keyword.count + 3 + pieces[0].count <= width {
            out += "\(prefix)\(keyword) \"\(pieces[0])\"\n"
            return
        }
        out += "\(prefix)\(keyword) \"\"\n"
        for piece in pieces { out += "\(prefix)\"\(piece)\"\n" }
    }

    /// The escaped value in pieces: each line break ends one, and a piece longer than the width
    /// is broken after a space.
    static func lines(_ value: String, width: Int) -> [String] {
        var pieces: [String] = []
        var current = ""
        var currentCount = 0
        var lastSpace: String.Index?
        let limit = max(width - 2, 20)
        func flush() {
            pieces.append(current)
            current = ""
            currentCount = 0
            lastSpace = nil
        }
        for scalar in value.unicodeScalars {
            let escaped = escape(scalar)
            current += escaped
            currentCount += escaped.count
            if scalar == " " { lastSpace = current.endIndex }
            if scalar == "\n" {
                flush()
                continue
            }
            if currentCount > limit, let space = lastSpace, space < current.endIndex {
                let head = String(current[..<space])
                let tail = String(current[space...])
                pieces.append(head)
                current = tail
                currentCount = tail.count
                lastSpace = nil
            }
        }
        if !current.isEmpty || pieces.isEmpty { pieces.append(current) }
        return pieces
    }

    static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": return "\\n"
        case "\t": return "\\t"
        case "\r": return "\\r"
        case "\"": return "\\\""
        case "\\": return "\\\\"
        case "\u{07}": return "\\a"
        case "\u{08}": return "\\b"
        case "\u{0C}": return "\\f"
        case "\u{0B}": return "\\v"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F {
                let octal = String(scalar.value, radix: 8)
                return "\\" + String(repeating: "0", count: 3 - octal.count) + octal
            }
            return String(scalar)
        }
    }
}
