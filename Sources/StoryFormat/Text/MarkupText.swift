/// Text for HTML or XML, exactly as written: the five characters markup gives meaning to
/// (`&`, `<`, `>`, `"`, `'`) become character references, nothing else changes. The one table of
/// them, for the browser reader's pages (which also make control characters visible first) and
/// for files other tools read back (a Twine archive), where the text must survive unchanged.
public enum MarkupText {
    public static func escaped(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else { return value }
        var out: [UInt8] = []
        append(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `value`, escaped, to UTF-8 bytes. The five are ASCII, so the work is on bytes:
    /// runs without them are copied whole.
    public static func append(_ value: String, to out: inout [UInt8]) {
        value.withExistingUTF8 { append($0, to: &out) }
    }

    /// Appends UTF-8 `bytes`, escaped, as `append(_:to:)` does a string's.
    public static func append(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        let needed = out.count + bytes.count + 16
        if out.capacity < needed { out.reserveCapacity(max(needed, out.capacity * 2)) }
        var copied = 0
        var index = 0
        while index < bytes.count {
            // Eight bytes at a time while none of them is one of the five.
            index = firstMarkup(bytes, from: index)
            guard index < bytes.count else { break }
            defer { index += 1 }
            let reference: StaticString
            switch bytes[index] {
            case 0x26: reference = "&amp;"
            case 0x3C: reference = "&lt;"
            case 0x3E: reference = "&gt;"
            case 0x22: reference = "&quot;"
            case 0x27: reference = "&#39;"
            default: continue
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<index]))
            out.append(contentsOf: UnsafeBufferPointer(start: reference.utf8Start, count: reference.utf8CodeUnitCount))
            copied = index + 1
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<bytes.count]))
    }

    /// The first byte at or after `start` that may be one of the five (every one that is; a word
    /// holding none is passed over whole).
    static func firstMarkup(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return bytes.count }
        let raw = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func holds(_ word: UInt64, _ byte: UInt8) -> UInt64 {
            let x = word ^ (ones &* UInt64(byte))
            return (x &- ones) & ~x & highs
        }
        var index = start
        while index + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if holds(word, 0x26) | holds(word, 0x3C) | holds(word, 0x3E) | holds(word, 0x22) | holds(word, 0x27) != 0 { return index }
            index += 8
        }
        return index
    }
}

/// Text for Markdown (a pull-request comment, a job summary, an editor's hover): made visible as
/// a terminal shows it (`VisibleText`), then every ASCII punctuation character Markdown gives a
/// meaning to escaped with a backslash, so no text of a story becomes a link, a heading or HTML.
public enum MarkdownText {
    public static func escaped(_ text: String) -> String {
        var out = ""
        for character in VisibleText.escape(text) {
            if "\\`*_{}[]()<>#+-.!|~&".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
