/// The tags of an HTML file, found by HTML's own rules as far as a Twine archive or a published
/// story needs them (WHATWG HTML, "Tokenization"): a comment (`<!-- -->`), a doctype or other
/// `<!...>` and `<?...>` hold no tags; the text of `script`, `style` and the other raw-text
/// elements runs to their end tag, whatever it holds; a quoted attribute value may hold `<` and
/// `>`; a `<` that starts no tag is text. So a `<tw-storydata>` written inside a script's string,
/// a comment or an attribute is not taken for the story. Tag and attribute names are compared
/// with ASCII capitals in lower case, as HTML does (other letters as they are).
/// There is no HTML parser among the packages here; this is the tokenizer's part that matters.
struct HTMLScanner {
    enum Token {
        /// `<name ...>`: its attributes, where the `<` is and where its content starts (after
        /// `>`). A raw-text element's content ends at `rawEnd` (where its end tag starts).
        case start(name: String, attributes: TwineArchive.Attributes, at: Int, contentStart: Int, rawEnd: Int?)
        /// `</name ...>`: where the `<` is, and the byte after its `>`.
        case end(name: String, at: Int, after: Int)
    }

    /// Elements whose content is text to their end tag (HTML's raw text and escapable raw text
    /// elements, and `plaintext`, whose content runs to the end of the file).
    static let rawText: Set<String> = ["script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript", "plaintext"]

    let p: UnsafeBufferPointer<UInt8>
    let end: Int
    private(set) var index: Int

    init(_ p: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) {
        self.p = p
        self.index = start
        self.end = end
    }

    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D }

    /// The next tag, or nil at the end.
    mutating func next() -> Token? {
        while index < end {
            let at = Bytes.first(0x3C, in: p, from: index, to: end)  // <
            guard at + 1 < end else {
                index = end
                return nil
            }
            let byte = p[at + 1]
            if byte == 0x21 {  // <!
                if at + 3 < end, p[at + 2] == 0x2D, p[at + 3] == 0x2D {  // <!--
                    index = commentEnd(from: at + 4)
                } else {
                    index = min(end, Bytes.first(0x3E, in: p, from: at + 2, to: end) + 1)
                }
                continue
            }
            if byte == 0x3F {  // <? : a bogus comment, to the next >
                index = min(end, Bytes.first(0x3E, in: p, from: at + 2, to: end) + 1)
                continue
            }
            if byte == 0x2F, at + 2 < end, Self.isLetter(p[at + 2]) {  // </name
                let nameEnd = self.nameEnd(from: at + 2)
                let (_, after) = TwineArchive.element(p, from: nameEnd, to: end)
                index = after
                return .end(name: Bytes.asciiLowercased(p, at + 2, nameEnd), at: at, after: after)
            }
            if Self.isLetter(byte) {
                let nameEnd = self.nameEnd(from: at + 1)
                let name = Bytes.asciiLowercased(p, at + 1, nameEnd)
                let (attributes, contentStart) = TwineArchive.element(p, from: nameEnd, to: end)
                var rawEnd: Int?
                if Self.rawText.contains(name) {
                    let close = name == "plaintext" ? end : endTag(name, from: contentStart)
                    rawEnd = close
                    index = close
                } else {
                    index = contentStart
                }
                return .start(name: name, attributes: attributes, at: at, contentStart: contentStart, rawEnd: rawEnd)
            }
            index = at + 1  // a < that starts no tag is text
        }
        return nil
    }

    private func nameEnd(from start: Int) -> Int {
        var index = start
        while index < end, !Self.isSpace(p[index]), p[index] != 0x2F, p[index] != 0x3E { index += 1 }
        return index
    }

    /// After the comment that started before `start`: `-->`, or `<!-->` and `<!--->` at once,
    /// or the end of the file.
    private func commentEnd(from start: Int) -> Int {
        if start < end, p[start] == 0x3E { return start + 1 }
        if start + 1 < end, p[start] == 0x2D, p[start + 1] == 0x3E { return start + 2 }
        var from = start
        while let dashes = Bytes.first("--", in: p, from: from, to: end) {
            if dashes + 2 < end, p[dashes + 2] == 0x3E { return dashes + 3 }
            if dashes + 3 < end, p[dashes + 2] == 0x21, p[dashes + 3] == 0x3E { return dashes + 4 }  // --!>
            from = dashes + 1
        }
        return end
    }

    /// Where the end tag of the raw-text element `name` starts: `</name` in any case, followed by
    /// a space, `/` or `>`; the end of the file without one.
    private func endTag(_ name: String, from start: Int) -> Int {
        let name = Array(name.utf8)
        var from = start
        while let open = Bytes.first("</", in: p, from: from, to: end) {
            let after = open + 2 + name.count
            if after <= end, (0..<name.count).allSatisfy({ p[open + 2 + $0] | 0x20 == name[$0] }), after == end || Self.isSpace(p[after]) || p[after] == 0x2F || p[after] == 0x3E {
                return open
            }
            from = open + 2
        }
        return end
    }
}
