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

    static func needsEscaping(_ text: String, keepLineBreaks: Bool, keepTabs: Bool) -> Bool {
        for scalar in text.unicodeScalars where isUnsafe(scalar) {
            if scalar == "\n" && keepLineBreaks || scalar == "\t" && keepTabs { continue }
            return true
        }
        return false
    }

    @inline(__always) public static func isC1(_ v: UInt32) -> Bool { v >= 0x80 && v <= 0x9F }

    /// Embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): they reorder the text
    /// that follows and can make a line read differently from what it is.
    @inline(__always) public static func isBidiControl(_ v: UInt32) -> Bool {
        (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
    }
}
