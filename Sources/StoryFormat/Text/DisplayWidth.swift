/// How many terminal cells a scalar takes: 0 for combining marks, 2 for wide East Asian
/// characters and emoji, 1 otherwise. An approximation of wcwidth, enough to place carets.
public enum DisplayWidth {
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        // Almost all text: no table to consult.
        if v >= 0x20 && v < 0x300 { return 1 }
        if v == 0x200B || v == 0x200C || v == 0x200D || v == 0xFEFF { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: return 0
        default: break
        }
        if (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
            || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1FAFF).contains(v) || (0x20000...0x3FFFD).contains(v)
        {
            return 2
        }
        return 1
    }

    /// What to print for a scalar of a source line: tabs as spaces, unsafe characters visibly.
    public static func shown(_ scalar: Unicode.Scalar) -> (text: String, width: Int) {
        if scalar == "\t" { return ("    ", 4) }
        if VisibleText.isUnsafe(scalar) {
            let text = VisibleText.escape(String(scalar))
            return (text, text.unicodeScalars.count)
        }
        return (String(scalar), of(scalar))
    }

    /// Cells taken by a piece of text.
    public static func of(_ text: some StringProtocol) -> Int {
        var cells = 0
        for scalar in text.unicodeScalars { cells += of(scalar) }
        return cells
    }
}
