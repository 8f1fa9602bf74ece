/// Makes untrusted text safe to show in a terminal: control characters, escape sequences
/// (ESC- and C1-introduced) and bidirectional overrides are shown visibly, never passed on.
///
/// C0 controls are shown in caret notation (`^[` for ESC), DEL as `^?`, C1 controls and
/// bidi controls as `\u{202E}`. Line breaks and tabs are kept only when asked.
public enum VisibleText {
    public static func escape(_ text: String, keepLineBreaks: Bool = false, keepTabs: Bool = false) -> String {
        if !needsEscaping(text, keepLineBreaks: keepLineBreaks, keepTabs: keepTabs) { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v == 0x0A && keepLineBreaks || v == 0x09 && keepTabs {
                out.append(scalar)
            } else if v < 0x20 {
                out.append("^")
                out.append(Unicode.Scalar(UInt8(v + 0x40)))
            } else if v == 0x7F {
                out.append("^")
                out.append("?")
            } else if isC1(v) || isBidiControl(v) {
                // One scalar at a time: UnicodeScalarView.append(contentsOf:) copies the whole
                // view each call, which made escaping a text full of controls quadratic.
                for piece in "\\u{\(String(v, radix: 16, uppercase: true))}".unicodeScalars { out.append(piece) }
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Whether a scalar would be changed by `escape`.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || v == 0x7F || isC1(v) || isBidiControl(v)
    }

    /// Whether `escape` would change the text, decided on its UTF-8 bytes: every unsafe scalar
    /// starts with a byte below 0x20, 0x7F, 0xC2 (C1 controls, U+0080–U+009F) or 0xE2 (the
    /// bidirectional controls, U+202A–U+202E and U+2066–U+2069), so text without those bytes
    /// (most of any story) is passed over a machine word at a time.
    static func needsEscaping(_ text: String, keepLineBreaks: Bool, keepTabs: Bool) -> Bool {
        return text.withExistingUTF8 { bytes in
            let count = bytes.count
            guard let base = bytes.baseAddress else { return false }
            var index = 0
            while index < count {
                // Eight plain bytes at a time: no byte below 0x20 and none with its top bit set
                // (a 0x7F is caught below, since 0x7F + 1 sets the top bit).
                while index + 8 <= count {
                    let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                    let high = 0x8080_8080_8080_8080 as UInt64
                    let belowSpace = (word &- 0x2020_2020_2020_2020) & ~word & high
                    let deleteOrHigh = (word | (word &+ 0x0101_0101_0101_0101)) & high
                    if belowSpace | deleteOrHigh != 0 { break }
                    index += 8
                }
                guard index < count else { return false }
                let byte = base[index]
                switch byte {
                case 0x0A where keepLineBreaks, 0x09 where keepTabs: break
                case 0..<0x20, 0x7F: return true
                case 0xC2:
                    if index + 1 < count, (0x80...0x9F).contains(base[index + 1]) { return true }
                case 0xE2:
                    if index + 2 < count {
                        let second = base[index + 1], third = base[index + 2]
                        if second == 0x80, (0xAA...0xAE).contains(third) { return true }
                        if second == 0x81, (0xA6...0xA9).contains(third) { return true }
                    }
                default: break
                }
                index += 1
            }
            return false
        }
    }

    @inline(__always) public static func isC1(_ v: UInt32) -> Bool { v >= 0x80 && v <= 0x9F }

    /// Embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): they reorder the text
    /// that follows and can make a line read differently from what it is.
    @inline(__always) public static func isBidiControl(_ v: UInt32) -> Bool {
        (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
    }
}
