import CByteScan

/// Where plain text ends: the first byte at or after `start` (before `end`) that is a control
/// byte (below 0x20), DEL or above (0x7F...), or one of `a` and `b`; `end` when there is none.
/// Almost every byte of a story is plain printable ASCII, so the parser and the text rules skip
/// it eight bytes at a time (a word's bytes tested together; a word that may hold a stop is
/// looked at byte by byte).
@inlinable
public func plainTextEnd(_ p: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, except a: UInt8, _ b: UInt8) -> Int {
    guard let base = p.baseAddress, start < end else { return start }
    let raw = UnsafeRawPointer(base)
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let spaces = ones &* 0x20
    let repeatedA = ones &* UInt64(a)
    let repeatedB = ones &* UInt64(b)
    var i = start
    while true {
        while i + 8 <= end {
            let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            // A byte below 0x20; a byte of 0x7F or more; a byte equal to a or b (a zero byte
            // after the xor). Each test may say yes for nothing (then the bytes are looked at
            // one by one), never no for a stop.
            let control = (word &- spaces) & ~word & highs
            let high = ((word &+ ones) | word) & highs
            let xorA = word ^ repeatedA
            let xorB = word ^ repeatedB
            let isA = (xorA &- ones) & ~xorA & highs
            let isB = (xorB &- ones) & ~xorB & highs
            if control | high | isA | isB != 0 { break }
            i += 8
        }
        let limit = min(end, i + 8)
        while i < limit {
            let byte = p[i]
            if byte < 0x20 || byte >= 0x7F || byte == a || byte == b { return i }
            i += 1
        }
        if i >= end { return end }
    }
}

/// Whether every byte is ASCII (below 0x80), so the bytes are UTF-8 as they stand.
@inlinable
public func allASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var any: UInt8 = 0
    for byte in bytes { any |= byte }
    return any < 0x80
}

extension String {
    /// Calls `body` with the string's UTF-8 where it already is (a native string's storage),
    /// copying only a string that does not hold it contiguously: `var copy = text;
    /// copy.withUTF8` retains and releases the string to read it, every time. Inlinable, so
    /// that each caller has it specialised: called across modules as a generic, it looked up the
    /// metadata of its result type at every call (a third of writing a template).
    @inlinable @inline(__always)
    package func withExistingUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return copy.withUTF8(body)
    }
}

/// Inside a JSON string (from `start`, before `end`): the first '"', control byte (below 0x20),
/// byte that does not begin valid UTF-8, or '\\' that does not begin one of the two-character
/// escapes (\" \\ \/ \b \f \n \r \t, which are passed); `end` when there is none. `escapes` is
/// set when an escape was passed. Printable ASCII is passed sixteen bytes at a time, and each
/// valid multi-byte character whole, so a string of accented or curly-quoted text with line
/// breaks is not left and re-entered at every character.
@inline(__always)
public func jsonStringStop(_ p: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, escapes: inout Bool) -> Int {
    guard let base = p.baseAddress, start < end else { return start }
    var passed: UInt32 = 0
    let stop = cbs_json_string_stop(base, start, end, &passed)
    if passed != 0 { escapes = true }
    return stop
}

/// For the text rules, inside a string's content (from `start`, before `end`): the first '\\'
/// that begins `\u` or is the content's last byte (any other is passed with the byte after it),
/// '[', control byte (below 0x20, DEL), C1 control (U+0080-U+009F), bidi control, or 0xC2/0xE2
/// lead byte too near `end` to be read whole; `end` when there is none. Every other character of
/// more than one byte is passed as its lead byte and the continuation bytes after it.
@inline(__always)
public func textScanStop(_ p: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
    guard let base = p.baseAddress, start < end else { return start }
    // The buffer's bytes after `end` may be read (sixteen at a time), never counted.
    return cbs_text_scan_stop(base, start, end, p.count)
}
