/// Writing JSON strings that are safe on a terminal too: quotes and backslashes escaped, and
/// every control character (C0, DEL, C1) and bidi control as `\uXXXX`, so a JSON line printed
/// raw cannot move the cursor or reorder text. The one escaper the JSON writers share.
public enum JSONQuoting {
    /// `text` as a JSON string literal, quotes included.
    public static func quoted(_ text: String) -> String {
        var out: [UInt8] = []
        append(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text` as a JSON string literal to `out`. Works on the UTF-8 bytes: runs of
    /// ordinary bytes are copied whole; C1 controls are C2 80..9F, bidi controls E2 80 AA..AE
    /// and E2 81 A6..A9.
    public static func append(_ text: String, to out: inout [UInt8]) {
        // Room for the plain case, grown by doubling: `reserveCapacity` asks for exactly what it
        // is given, so asking on every append would copy the whole output each time it is full.
        let needed = out.count + text.utf8.count + 2
        if out.capacity < needed { out.reserveCapacity(max(needed, out.capacity * 2)) }
        out.append(UInt8(ascii: "\""))
        // The string's own bytes where it has them (a string made here always does), not a copy.
        text.withExistingUTF8 { utf8 in
            var runStart = 0
            var index = 0
            func flush(_ end: Int) {
                if end > runStart { out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<end])) }
            }
            while index < utf8.count {
                // Runs of printable ASCII are skipped eight bytes at a time; what stops the scan
                // is looked at here (most bytes beyond ASCII are copied as they are).
                index = plainTextEnd(utf8, from: index, to: utf8.count, except: 0x22, 0x5C)
                guard index < utf8.count else { break }
                let byte = utf8[index]
                var escaped: UInt32?
                var length = 1
                switch byte {
                case 0x22, 0x5C: escaped = UInt32(byte)
                case 0..<0x20, 0x7F: escaped = UInt32(byte)
                case 0xC2 where index + 1 < utf8.count && (0x80...0x9F).contains(utf8[index + 1]):
                    escaped = UInt32(utf8[index + 1])
                    length = 2
                case 0xE2 where index + 2 < utf8.count:
                    let (b1, b2) = (utf8[index + 1], utf8[index + 2])
                    if (b1 == 0x80 && (0xAA...0xAE).contains(b2)) || (b1 == 0x81 && (0xA6...0xA9).contains(b2)) {
                        escaped = 0x2000 | UInt32(b1 & 0x3F) << 6 | UInt32(b2 & 0x3F)
                        length = 3
                    }
                default: break
                }
                guard let value = escaped else {
                    index += 1
                    continue
                }
                flush(index)
                out.append(UInt8(ascii: "\\"))
                switch value {
                case 0x22: out.append(UInt8(ascii: "\""))
                case 0x5C: out.append(UInt8(ascii: "\\"))
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                default:
                    out.append(UInt8(ascii: "u"))
                    Hex.append(UInt32(value), width: 4, to: &out)
                }
                index += length
                runStart = index
            }
            flush(utf8.count)
        }
        out.append(UInt8(ascii: "\""))
    }
}
