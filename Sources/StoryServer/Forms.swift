// The browser reader is built with the package trait BrowserReader only.
#if BrowserReader
import StoryWeb

/// A form as it came: fields the reader typed, and fields the page carried (hidden fields,
/// written by `Pages.hidden`, read back with `carried`).
struct Form: Sendable {
    var fields: [String: String] = [:]

    init(_ fields: [String: String] = [:]) { self.fields = fields }

    /// A field the reader typed (a name, a note), as sent.
    func typed(_ name: String) -> String? { fields[name] }

    /// A hidden field, as the page that carried it held it.
    func carried(_ name: String) -> String? { fields[name].map(Forms.uncarry) }
}

/// What a browser sends in a form or a URL, read without trusting it: percent-decoding that
/// refuses invalid UTF-8 (it becomes U+FFFD, never raw bytes), form bodies and cookies split into
/// pairs, a bounded number of them.
enum Forms {
    /// A value the server put in a page for the browser to send back unchanged (a hidden field):
    /// percent-encoded, so it is plain ASCII in the page and comes back exactly, whatever it
    /// holds (a tab, a line break, which a form would send as CR LF, a NUL, bidi controls).
    static func carry(_ value: String) -> String { HTML.pathSegment(value) }

    /// A carried value as it was before `carry`.
    static func uncarry(_ value: String) -> String { decode(Array(value.utf8), plusIsSpace: false) }

    /// At most this many fields in a form or cookies in a header; the rest are ignored.
    static let fieldLimit = 64

    /// `application/x-www-form-urlencoded` (also a URL's query): `a=1&b=two+words`.
    static func fields(_ encoded: some Collection<UInt8>) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in encoded.split(separator: UInt8(ascii: "&"), maxSplits: fieldLimit, omittingEmptySubsequences: true).prefix(fieldLimit) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            let name = decode(parts[0], plusIsSpace: true)
            guard fields[name] == nil else { continue }  // the first of a repeated name counts
            fields[name] = parts.count > 1 ? decode(parts[1], plusIsSpace: true) : ""
        }
        return fields
    }

    /// Percent-decoding; `+` is a space in forms and queries, not in paths.
    static func decode(_ encoded: some Collection<UInt8>, plusIsSpace: Bool) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encoded.count)
        var index = encoded.startIndex
        while index != encoded.endIndex {
            let byte = encoded[index]
            if byte == UInt8(ascii: "%") {
                let first = encoded.index(after: index)
                if first != encoded.endIndex, encoded.index(after: first) != encoded.endIndex,
                    let high = hexValue(encoded[first]), let low = hexValue(encoded[encoded.index(after: first)])
                {
                    bytes.append(high << 4 | low)
                    index = encoded.index(first, offsetBy: 2)
                    continue
                }
            }
            bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index = encoded.index(after: index)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// A `Cookie` header's pairs (`a=1; b=2`).
    static func cookies(_ header: String?) -> [String: String] {
        guard let header else { return [:] }
        var cookies: [String: String] = [:]
        for pair in header.split(separator: ";").prefix(fieldLimit) {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let name = parts[0].trimmingCharacters(of: " ")
            if cookies[name] == nil { cookies[name] = parts[1].trimmingCharacters(of: " \"") }
        }
        return cookies
    }

    /// A fresh secret: 32 bytes from the system's generator (getrandom), as 64 hex digits.
    static func secret() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".unicodeScalars)
        var out = ""
        for _ in 0..<32 {
            let byte = UInt8.random(in: 0...255, using: &generator)
            out.unicodeScalars.append(digits[Int(byte >> 4)])
            out.unicodeScalars.append(digits[Int(byte & 0x0F)])
        }
        return out
    }

    /// Compares two secrets in time that does not depend on where they first differ.
    static func sameSecret(_ a: String?, _ b: String) -> Bool {
        guard let a else { return false }
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count, !y.isEmpty else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}

extension Substring {
    func trimmingCharacters(of set: String) -> String {
        let drop = Set(set)
        return String(self.drop { drop.contains($0) }.reversed().drop { drop.contains($0) }.reversed())
    }
}
#endif
