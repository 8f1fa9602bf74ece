/// Hexadecimal digits and percent-encoding, written once for every module above this one
/// (Transport, below everything, keeps its own for digests and commit ids).
public enum Hex {
    static let upperDigits = Array("0123456789ABCDEF".utf8)
    static let lowerDigits = Array("0123456789abcdef".utf8)

    /// Two digits for a byte: "0A" (or "0a").
    public static func byte(_ byte: UInt8, upper: Bool = true) -> String {
        let digits = upper ? upperDigits : lowerDigits
        return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
    }

    /// `value` as `width` digits, most significant first: `digits(0x2A, width: 4)` is "002A".
    public static func digits(_ value: UInt64, width: Int, upper: Bool = true) -> String {
        let table = upper ? upperDigits : lowerDigits
        var out: [UInt8] = []
        out.reserveCapacity(width)
        for position in stride(from: width - 1, through: 0, by: -1) {
            out.append(position < 16 ? table[Int((value >> UInt64(4 * position)) & 0xF)] : UInt8(ascii: "0"))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `value`'s low `width` digits (lower case) to `out`: JSON's `\u00XX`.
    @inline(__always)
    public static func append(_ value: UInt32, width: Int, to out: inout [UInt8]) {
        for position in stride(from: width - 1, through: 0, by: -1) { out.append(lowerDigits[Int((value >> UInt32(4 * position)) & 0xF)]) }
    }
}

/// Percent-encoding (RFC 3986): the unreserved characters (letters, digits, `-._~`) and any in
/// `keeping` stay, every other byte of the UTF-8 becomes %XX. A path segment keeps nothing more,
/// so a "/" or "?" inside a name cannot change a URL's structure; a path keeps "/".
public enum PercentEncoding {
    public static func encode(_ text: some StringProtocol, keeping: String = "") -> String {
        let kept = Array(keeping.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            case _ where kept.contains(byte):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), Hex.upperDigits[Int(byte >> 4)], Hex.upperDigits[Int(byte & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
