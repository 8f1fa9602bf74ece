import StoryFormat
import Testing

/// Decimal digits written into bytes, for comparisons and copies that make no string: the same
/// bytes as `String(value)`, from any place in the buffer, never past what they need.
@Suite("decimal digits")
struct DecimalDigitsTests {
    @Test("any Int is counted, written or appended as String(value) spells it, at any place, touching no byte after it")
    func asStringSpellsIt() {
        var generator = SplitMix64(state: 2026_11_30)
        var values = [0, 1, -1, 9, 10, -10, 99, 100, 1_000_000, Int.max, Int.min, Int.max - 1, Int.min + 1, Int(Int32.max), Int(Int32.min)]
        for _ in 0..<500 { values.append(Int(bitPattern: UInt(generator.next())) >> Int.random(in: 0..<64, using: &generator)) }
        for value in values {
            for start in [0, 3] {
                var bytes = [UInt8](repeating: 0xEE, count: start + 24)
                let end = bytes.withUnsafeMutableBufferPointer { DecimalDigits.write(value, into: $0, at: start) }
                #expect(Array(bytes[start..<end]) == Array(String(value).utf8), "\(value)")
                #expect(bytes[..<start].allSatisfy { $0 == 0xEE } && bytes[end...].allSatisfy { $0 == 0xEE }, "\(value) from \(start)")
            }
            #expect(DecimalDigits.count(value) == String(value).utf8.count, "\(value)")
            // Appended after what is there, the same spelling.
            var out: [UInt8] = [0x41, 0x42]
            DecimalDigits.append(value, to: &out)
            #expect(out == [0x41, 0x42] + Array(String(value).utf8), "\(value)")
        }
    }
}
