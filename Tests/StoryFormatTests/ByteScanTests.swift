import CByteScan
import StoryFormat
import Testing

/// The eight-bytes-at-a-time skip over plain text agrees with the obvious byte loop, wherever
/// the stop byte falls in a word and whatever surrounds it.
@Suite("Skipping plain text")
struct ByteScanTests {
    static func naive(_ bytes: [UInt8], from start: Int, to end: Int, except a: UInt8, _ b: UInt8) -> Int {
        var i = start
        while i < end, !(bytes[i] < 0x20 || bytes[i] >= 0x7F || bytes[i] == a || bytes[i] == b) { i += 1 }
        return i
    }

    @Test("agrees with a byte loop on 20,000 random texts, stops at every position of a word")
    func agreesWithTheByteLoop() {
        var generator = SplitMix64(state: 7)
        // Mostly plain text, with every kind of stop byte now and then (and bytes next to the
        // limits: 0x1F, 0x20, 0x7E, 0x7F, 0x80, 0xFF).
        let specials: [UInt8] = [0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xFF, UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "[")]
        for _ in 0..<20_000 {
            let count = Int(generator.next() % 40)
            var bytes = (0..<count).map { _ in UInt8(0x20 + generator.next() % 0x5F) }  // 0x20...0x7E
            if count > 0, generator.next() % 3 != 0 {
                bytes[Int(generator.next() % UInt64(count))] = specials[Int(generator.next() % UInt64(specials.count))]
            }
            let start = count == 0 ? 0 : Int(generator.next() % UInt64(count))
            let pairs: [(UInt8, UInt8)] = [(UInt8(ascii: "\""), UInt8(ascii: "\\")), (UInt8(ascii: "\\"), UInt8(ascii: "[")), (UInt8(ascii: "\\"), 0)]
            for (a, b) in pairs {
                let fast = bytes.withUnsafeBufferPointer { plainTextEnd($0, from: start, to: count, except: a, b) }
                #expect(fast == Self.naive(bytes, from: start, to: count, except: a, b), "\(bytes) from \(start)")
            }
        }
    }
}

/// The sixteen-bytes-at-a-time scans of a string's bytes (the parser's and the text rules')
/// stop where a byte-at-a-time loop stops, and pass what it passes: characters of more than one
/// byte whole, the two-character escapes with the byte after the backslash, nothing past `to`
/// even when the bytes after it (still readable) are all stops.
@Suite("Scanning a string's bytes")
struct StringScanTests {
    /// Pieces a story's strings are made of, and the ones that must stop a scan.
    static let pieces: [[UInt8]] = [
        Array("plain words ".utf8), Array("x".utf8), Array("\"".utf8), Array("\\\"".utf8), Array("\\n".utf8), Array("\\\\".utf8),
        Array("\\u00e9".utf8), Array("\\u001b".utf8), Array("\\q".utf8), Array("\\".utf8), Array("[".utf8), Array("[[name]]".utf8),
        [0x01], [0x09], [0x0A], [0x1F], [0x7F], Array("é".utf8), Array("—".utf8), Array("’".utf8), Array("😀".utf8),
        [0xE2, 0x80, 0xAE], [0xE2, 0x81, 0xA6], [0xE2, 0x81, 0xAA], [0xC2, 0x85], [0xC2, 0xA0], [0xC2, 0x9F],
        // Not UTF-8: a lone continuation byte, overlong forms, a surrogate, past U+10FFFF, cut
        // short, bytes never used.
        [0x80], [0xC0, 0xAF], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x80], [0xC2], [0xF0, 0x9F],
        [0xFF], [0xF8, 0x88, 0x80, 0x80, 0x80],
    ]

    /// What the parser's loop did a byte at a time: it stops at '"', a control byte, a
    /// backslash not followed by a two-character escape, or a byte that does not begin valid
    /// UTF-8.
    static func jsonStop(_ p: [UInt8], from start: Int, to end: Int) -> (Int, Bool) {
        var i = start, escapes = false
        let simple = Array("\"\\/bfnrt".utf8)
        while i < end {
            let b = p[i]
            if b == UInt8(ascii: "\"") || b < 0x20 { return (i, escapes) }
            if b == UInt8(ascii: "\\") {
                guard i + 1 < end, simple.contains(p[i + 1]) else { return (i, escapes) }
                escapes = true
                i += 2
                continue
            }
            if b < 0x80 {
                i += 1
                continue
            }
            // The length the lead byte gives, then Swift's own UTF-8 check of those bytes.
            let length = (0xC2...0xDF).contains(b) ? 2 : (0xE0...0xEF).contains(b) ? 3 : (0xF0...0xF4).contains(b) ? 4 : 0
            guard length > 0, i + length <= end, String(validating: p[i..<(i + length)], as: UTF8.self) != nil else { return (i, escapes) }
            i += length
        }
        return (end, escapes)
    }

    /// What the text rules' loop did a byte at a time (TextScan): it stops where it records
    /// something or looks further (a placeholder, a \u escape, a control, a C1 or bidi control).
    static func textStop(_ p: [UInt8], from start: Int, to end: Int) -> Int {
        var i = start
        while i < end {
            let b = p[i]
            if b == UInt8(ascii: "\\") {
                guard i + 1 < end, p[i + 1] != UInt8(ascii: "u") else { return i }
                i += 2
            } else if b == UInt8(ascii: "[") || b < 0x20 || b == 0x7F {
                return i
            } else if b < 0x80 {
                i += 1
            } else if b == 0xC2 {
                guard i + 1 < end, !(0x80...0x9F).contains(p[i + 1]) else { return i }
                i += 2
            } else if b == 0xE2 {
                guard i + 2 < end else { return i }
                let value = UInt32(b & 0x0F) << 12 | UInt32(p[i + 1] & 0x3F) << 6 | UInt32(p[i + 2] & 0x3F)
                if VisibleText.isBidiControl(value) { return i }
                i += 3
            } else {
                i += 1
                while i < end, p[i] & 0xC0 == 0x80 { i += 1 }
            }
        }
        return end
    }

    /// Random strings of the pieces, long runs of plain text among them, with stops after
    /// `to` (read by the sixteen-byte blocks, never to be counted).
    static func samples(_ count: Int, seed: UInt64, _ body: ([UInt8], Int, Int) -> Void) {
        var generator = SplitMix64(state: seed)
        for _ in 0..<count {
            var bytes: [UInt8] = []
            for _ in 0..<Int(generator.next() % 12) {
                if generator.next() % 3 == 0 {
                    bytes += (0..<Int(generator.next() % 40)).map { _ in UInt8(0x20 + generator.next() % 0x5F) }.filter { $0 != 0x22 && $0 != 0x5C && $0 != 0x5B }
                } else {
                    bytes += pieces[Int(generator.next() % UInt64(pieces.count))]
                }
            }
            let to = bytes.count
            bytes += Array(#""[\"#.utf8) + [0x01, 0x80, 0xC2, 0x85] + Array(repeating: UInt8(ascii: "\""), count: Int(generator.next() % 20))
            let start = to == 0 ? 0 : Int(generator.next() % UInt64(to))
            body(bytes, start, to)
        }
    }

    @Test("the parser's scan agrees with its byte loop on 30,000 random strings, with vectors and without")
    func parserScan() {
        Self.samples(30_000, seed: 11) { bytes, start, to in
            var escapes = false
            let fast = bytes.withUnsafeBufferPointer { jsonStringStop(UnsafeBufferPointer(rebasing: $0[..<to]), from: start, to: to, escapes: &escapes) }
            let slow = Self.jsonStop(bytes, from: start, to: to)
            #expect(fast == slow.0 && escapes == slow.1, "\(bytes[..<to]) from \(start)")
            // What a processor without SSE2 runs.
            var passed: UInt32 = 0
            let bytewise = bytes.withUnsafeBufferPointer { cbs_json_string_stop_bytewise($0.baseAddress!, start, to, &passed) }
            #expect(bytewise == slow.0 && (passed != 0) == slow.1, "a byte at a time: \(bytes[..<to]) from \(start)")
        }
    }

    @Test("the text rules' scan agrees with their byte loop on 30,000 random strings, never looking past the end, with vectors and without")
    func textScan() {
        Self.samples(30_000, seed: 12) { bytes, start, to in
            let fast = bytes.withUnsafeBufferPointer { textScanStop($0, from: start, to: to) }
            #expect(fast == Self.textStop(bytes, from: start, to: to), "\(bytes[..<to]) from \(start)")
            let bytewise = bytes.withUnsafeBufferPointer { cbs_text_scan_stop_bytewise($0.baseAddress!, start, to) }
            #expect(bytewise == Self.textStop(bytes, from: start, to: to), "a byte at a time: \(bytes[..<to]) from \(start)")
        }
    }

    @Test("a long string of accented text with line breaks is passed whole, up to its closing quote")
    func longText() {
        let text = Array(String(repeating: "Café — naïve, \\\"quoted\\\" and ’curly’.\\n", count: 40).utf8) + Array("\" tail".utf8)
        var escapes = false
        let stop = text.withUnsafeBufferPointer { jsonStringStop($0, from: 0, to: $0.count, escapes: &escapes) }
        #expect(stop == text.count - 6)
        #expect(escapes)
        let content = text.count - 6
        #expect(text.withUnsafeBufferPointer { textScanStop($0, from: 0, to: content) } == content)
    }
}
