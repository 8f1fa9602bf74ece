/// Percent-encoding of one URL path segment (RFC 3986): unreserved characters stay, every other
/// byte of the UTF-8 becomes %XX, so "first light.png" is "first%20light.png" and a "/" or "?"
/// inside a name cannot change the URL's structure.
public func percentEncodedPathSegment<S: StringProtocol>(_ segment: S) -> String {
    let hex = Array("0123456789ABCDEF")
    var result = ""
    for byte in segment.utf8 {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            result.append(Character(Unicode.Scalar(byte)))
        default:
            result += "%\(hex[Int(byte >> 4)])\(hex[Int(byte & 15)])"
        }
    }
    return result
}

/// Whether `url` is plain http to this machine (127.0.0.1, localhost, [::1]): the one place
/// plain http is accepted, since nothing on the way can read or change it.
public func isLoopbackHTTP(_ url: String) -> Bool {
    url.lowercased().wholeMatch(of: /http:\/\/(?:127\.0\.0\.1|localhost|\[::1\])(?::[0-9]+)?\/\S*/) != nil
}
