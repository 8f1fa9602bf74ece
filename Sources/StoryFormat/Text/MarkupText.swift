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
        var value = value
        let needed = out.count + value.utf8.count + 16
        if out.capacity < needed { out.reserveCapacity(max(needed, out.capacity * 2)) }
        value.withUTF8 { bytes in
            var copied = 0
            for index in 0..<bytes.count {
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
    }
}
