/// The scalars of a JSON string's contents, decoded from escapes, each with the byte range of
/// its source text (for `\u001b` the six bytes of the escape).
public struct StringContent: Sequence, Sendable {
    let bytes: SourceBytes
    let range: Range<Int>

    /// The contents (without quotes) of a JSON string at `range` of `bytes`.
    public init(bytes: SourceBytes, range: Range<Int>) {
        self.bytes = bytes
        self.range = range
    }

    public struct Piece: Sendable, Hashable {
        public var scalar: Unicode.Scalar
        public var source: Range<Int>
    }

    public func makeIterator() -> Iterator { Iterator(bytes: bytes, index: range.lowerBound, end: range.upperBound) }

    public struct Iterator: IteratorProtocol {
        let bytes: SourceBytes
        var index: Int
        let end: Int

        public mutating func next() -> Piece? {
            guard index < end else { return nil }
            let start = index
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\"), index + 1 < end {
                let escape = bytes[index + 1]
                index += 2
                let simple: Unicode.Scalar? =
                    switch escape {
                    case UInt8(ascii: "\""): "\""
                    case UInt8(ascii: "\\"): "\\"
                    case UInt8(ascii: "/"): "/"
                    case UInt8(ascii: "b"): "\u{08}"
                    case UInt8(ascii: "f"): "\u{0C}"
                    case UInt8(ascii: "n"): "\n"
                    case UInt8(ascii: "r"): "\r"
                    case UInt8(ascii: "t"): "\t"
                    default: nil
                    }
                if let simple { return Piece(scalar: simple, source: start..<index) }
                guard escape == UInt8(ascii: "u"), let unit = hex4(at: index) else {
                    return Piece(scalar: "\u{FFFD}", source: start..<index)
                }
                index += 4
                if (0xD800...0xDBFF).contains(unit), index + 6 <= end, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "u"), let low = hex4(at: index + 2), (0xDC00...0xDFFF).contains(low)
                {
                    index += 6
                    let value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    return Piece(scalar: Unicode.Scalar(value) ?? "\u{FFFD}", source: start..<index)
                }
                return Piece(scalar: Unicode.Scalar(unit) ?? "\u{FFFD}", source: start..<index)
            }
            let (scalar, length) = UTF8Validation.decode(bytes, at: index, end: end)
            index += length
            return Piece(scalar: scalar ?? "\u{FFFD}", source: start..<index)
        }

        private func hex4(at offset: Int) -> UInt32? {
            guard offset + 4 <= end else { return nil }
            return hexQuad(at: offset) { bytes[$0] }
        }
    }
}

/// The value of the four hex digits of a `\uXXXX` escape, read from `byte(offset)` to
/// `byte(offset + 3)`; nil when one is not a hex digit. The one reading of them: the parser,
/// string decoding and the text rules all call it.
@inlinable
public func hexQuad(at offset: Int, _ byte: (Int) -> UInt8) -> UInt32? {
    var value: UInt32 = 0
    for index in offset..<(offset + 4) {
        guard let digit = hexValue(byte(index)) else { return nil }
        value = value << 4 | digit
    }
    return value
}

@inlinable
public func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
}

package enum UTF8Validation {
    /// The first byte of `p` that does not begin or continue valid UTF-8, or nil. Eight ASCII
    /// bytes are passed at a time.
    package static func firstInvalid(_ p: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = p.baseAddress else { return nil }
        let end = p.count
        var at = 0
        while at < end {
            if at + 8 <= end, UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                at += 8
                continue
            }
            let length = sequenceLength(p, at: at, end: end)
            if length == 0 { return at }
            at += length
        }
        return nil
    }

    /// The same as `firstInvalid`, a large buffer checked in two halves at once, the second on
    /// another core. The halves meet before a byte that is not a continuation byte: a sequence
    /// that a half cuts short is as invalid at its first byte as it is in the whole.
    package static func firstInvalidInHalves(_ p: UnsafeBufferPointer<UInt8>) -> Int? {
        guard p.count >= 1 << 20 else { return firstInvalid(p) }
        var meeting = p.count / 2
        while meeting < p.count, p[meeting] & 0xC0 == 0x80 { meeting += 1 }
        let middle = meeting
        let shared = SharedBytes(bytes: p)
        let second = BackgroundWork { () -> Int? in
            firstInvalid(UnsafeBufferPointer(rebasing: shared.bytes[middle...])).map { middle + $0 }
        }
        let first = firstInvalid(UnsafeBufferPointer(rebasing: p[..<middle]))
        let rest = second.take()  // taken either way: it reads `p`, which must outlive it
        return first ?? rest
    }

    /// Length of the valid UTF-8 sequence starting at `index` (1 to 4), or 0 when the bytes there
    /// are not valid UTF-8 (overlong forms, surrogates and values past U+10FFFF are invalid).
    @inline(__always)
    static func sequenceLength(_ p: UnsafeBufferPointer<UInt8>, at index: Int, end: Int) -> Int {
        let b0 = p[index]
        if b0 < 0x80 { return 1 }
        @inline(__always) func cont(_ i: Int) -> Bool { i < end && p[i] & 0xC0 == 0x80 }
        switch b0 {
        case 0xC2...0xDF:
            return cont(index + 1) ? 2 : 0
        case 0xE0...0xEF:
            guard cont(index + 1), cont(index + 2) else { return 0 }
            let b1 = p[index + 1]
            if b0 == 0xE0 && b1 < 0xA0 { return 0 }  // overlong
            if b0 == 0xED && b1 >= 0xA0 { return 0 }  // surrogate
            return 3
        case 0xF0...0xF4:
            guard cont(index + 1), cont(index + 2), cont(index + 3) else { return 0 }
            let b1 = p[index + 1]
            if b0 == 0xF0 && b1 < 0x90 { return 0 }  // overlong
            if b0 == 0xF4 && b1 >= 0x90 { return 0 }  // past U+10FFFF
            return 4
        default:
            return 0
        }
    }

    /// Decodes one scalar; an invalid byte yields nil and a length of 1.
    static func decode(_ bytes: SourceBytes, at index: Int, end: Int) -> (Unicode.Scalar?, Int) {
        bytes.withUnsafeBufferPointer { p in
            let length = sequenceLength(p, at: index, end: end)
            switch length {
            case 1: return (Unicode.Scalar(p[index]), 1)
            case 2: return (Unicode.Scalar(UInt32(p[index] & 0x1F) << 6 | UInt32(p[index + 1] & 0x3F)), 2)
            case 3:
                let v = UInt32(p[index] & 0x0F) << 12 | UInt32(p[index + 1] & 0x3F) << 6 | UInt32(p[index + 2] & 0x3F)
                return (Unicode.Scalar(v), 3)
            case 4:
                let v =
                    UInt32(p[index] & 0x07) << 18 | UInt32(p[index + 1] & 0x3F) << 12 | UInt32(p[index + 2] & 0x3F) << 6
                    | UInt32(p[index + 3] & 0x3F)
                return (Unicode.Scalar(v), 4)
            default: return (nil, 1)
            }
        }
    }
}

/// Bytes read by two threads at once, which the caller holds until both are done.
package struct SharedBytes: @unchecked Sendable {
    package let bytes: UnsafeBufferPointer<UInt8>

    package init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }
}
