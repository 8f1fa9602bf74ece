/// Writing JSON strings that are safe on a terminal too: quotes and backslashes escaped, and
/// every control character (C0, DEL, C1) and bidi control as `\uXXXX`, so a JSON line printed
/// raw cannot move the cursor or reorder text. The one escaper the JSON writers share.
public enum JSONQuoting {
    /// `text` as a JSON string literal, quotes included.
    public static func quoted(_ text: String) -> String {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        out.reserveCapacity(text.utf8.count + 2)
        let hex = Array("0123456789abcdef".utf8)
        for scalar in text.unicodeScalars {
            let value = scalar.value
            switch value {
            case 0x22: out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case 0x5C: out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case _ where value < 0x20 || value == 0x7F || VisibleText.isC1(value) || VisibleText.isBidiControl(value):
                out += [UInt8(ascii: "\\"), UInt8(ascii: "u")]
                for shift in [12, 8, 4, 0] { out.append(hex[Int((value >> UInt32(shift)) & 0xF)]) }
            default:
                out.append(contentsOf: String(scalar).utf8)
            }
        }
        out.append(UInt8(ascii: "\""))
        return String(decoding: out, as: UTF8.self)
    }
}
