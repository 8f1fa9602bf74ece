/// Numbers written as decimal digits straight into bytes, where making a string of each would
/// cost more than the comparison or copy it is made for.
package enum DecimalDigits {
    /// Writes `value` as `String(value)` spells it (a minus sign before a negative, no leading
    /// zeros) into `out` from `start`, and returns the place after its last digit. `out` must
    /// have room from `start` for it: at most 20 bytes, for `Int.min`.
    @inline(__always)
    package static func write(_ value: Int, into out: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        var count = start
        if value < 0 {
            out[count] = 0x2D
            count += 1
        }
        var rest = value.magnitude
        let first = count
        repeat {
            out[count] = 0x30 + UInt8(rest % 10)
            rest /= 10
            count += 1
        } while rest > 0
        var (low, high) = (first, count - 1)
        while low < high {
            out.swapAt(low, high)
            low += 1
            high -= 1
        }
        return count
    }
}
