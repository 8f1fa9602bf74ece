/// Numbers written as decimal digits straight into bytes, where making a string of each would
/// cost more than the comparison or copy it is made for.
package enum DecimalDigits {
    /// How many bytes `value` takes as `String(value)` spells it (its minus sign included).
    @inline(__always)
    package static func count(_ value: Int) -> Int {
        var count = value < 0 ? 2 : 1
        var rest = value.magnitude / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        return count
    }

    /// Writes `value` as `String(value)` spells it (a minus sign before a negative, no leading
    /// zeros) into `out` from `start`, and returns the place after its last digit. `out` must
    /// have room from `start` for it: at most 20 bytes, for `Int.min`.
    @inline(__always)
    package static func write(_ value: Int, into out: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        let end = start + count(value)
        if value < 0 { out[start] = 0x2D }
        // The digits from the last, so none is written twice.
        var rest = value.magnitude
        var place = end
        repeat {
            place -= 1
            out[place] = 0x30 + UInt8(rest % 10)
            rest /= 10
        } while rest > 0
        return end
    }

    /// Appends `value` as `String(value)` spells it, written in place in `out`'s new room.
    @inline(__always)
    package static func append(_ value: Int, to out: inout [UInt8]) {
        let start = out.count
        out.append(contentsOf: repeatElement(0x30, count: count(value)))
        out.withUnsafeMutableBufferPointer { _ = write(value, into: $0, at: start) }
    }
}
