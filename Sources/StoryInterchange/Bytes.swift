#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Searches over UTF-8 bytes, for the notations read here: every byte they look for is ASCII, and
/// an ASCII byte is never part of another character in UTF-8, so no search needs to know about
/// characters. A story of 100,000 chapters is tens of megabytes: these run at memory speed.
enum Bytes {
    /// The first `byte` in `p[start..<end]`, or `end`.
    @inline(__always)
    static func first(_ byte: UInt8, in p: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        guard start < end, let base = p.baseAddress else { return end }
        guard let found = memchr(base + start, Int32(byte), end - start) else { return end }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// Where `needle` first starts in `p[start..<end]`.
    static func first(_ needle: StaticString, in p: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int? {
        let length = needle.utf8CodeUnitCount
        let lead = needle.utf8Start[0]
        var at = start
        while at + length <= end {
            at = first(lead, in: p, from: at, to: end - length + 1)
            if at > end - length { return nil }
            var matched = 1
            while matched < length, p[at + matched] == needle.utf8Start[matched] { matched += 1 }
            if matched == length { return at }
            at += 1
        }
        return nil
    }

    /// Where `needle` last starts in `p[start..<end]`.
    static func last(_ needle: StaticString, in p: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int? {
        let length = needle.utf8CodeUnitCount
        var at = end - length
        while at >= start {
            var matched = 0
            while matched < length, p[at + matched] == needle.utf8Start[matched] { matched += 1 }
            if matched == length { return at }
            at -= 1
        }
        return nil
    }

    /// The line feeds in `p[start..<end]`.
    static func lineFeeds(in p: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        var at = start
        var feeds = 0
        while true {
            at = first(0x0A, in: p, from: at, to: end)
            guard at < end else { return feeds }
            feeds += 1
            at += 1
        }
    }

    @inline(__always)
    static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// Whether `p[start..<end]` holds only spaces and tabs.
    static func isBlank(_ p: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Bool {
        var at = start
        while at < end {
            if !isBlank(p[at]) { return false }
            at += 1
        }
        return true
    }

    /// Whether any byte of `p[start..<end]` is one of `a`, `b`, `c`.
    static func contains(_ a: UInt8, _ b: UInt8, _ c: UInt8, in p: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Bool {
        var at = start
        while at < end {
            let byte = p[at]
            if byte == a || byte == b || byte == c { return true }
            at += 1
        }
        return false
    }

    /// The text of `p[start..<end]` (invalid UTF-8 as U+FFFD).
    @inline(__always)
    static func string(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: p[start..<max(start, end)]), as: UTF8.self)
    }

    /// The text of `p[start..<end]` with ASCII capitals in lower case and every other character
    /// as it is: how HTML's tokenizer reads a tag's or an attribute's name (`String.lowercased()`
    /// folds every script's letters). Made from the bytes; a name without capitals as it is.
    static func asciiLowercased(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        let range = start..<max(start, end)
        guard p[range].contains(where: { $0 &- 0x41 < 26 }) else { return string(p, start, end) }
        var bytes = Array(p[range])
        for index in bytes.indices where bytes[index] &- 0x41 < 26 { bytes[index] |= 0x20 }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Unicode scalars in `p[start..<end]`: what a column counts.
    static func scalars(_ p: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        var count = 0
        var at = start
        while at < end {
            if p[at] & 0xC0 != 0x80 { count += 1 }
            at += 1
        }
        return count
    }

    /// Whether the character starting at `at` is a letter, a digit or `_` (what may continue a
    /// variable's name); decoded only when it is not ASCII.
    static func continuesName(_ p: UnsafeBufferPointer<UInt8>, at: Int, end: Int) -> Bool {
        guard at < end else { return false }
        let byte = p[at]
        if byte < 0x80 {
            return (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x5F
        }
        guard let character = string(p, at, min(end, at + 4)).first else { return false }
        return character.isLetter || character.isNumber
    }

    /// Whether `byte` may be part of a macro's name: an ASCII letter, or any byte of a character
    /// beyond ASCII (names in other scripts count as letters).
    @inline(__always)
    static func isNameByte(_ byte: UInt8) -> Bool { byte >= 0x80 || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) }
}
