import StoryFormat
import Testing

/// A large file is checked as UTF-8 in two halves at once: the first bad byte found is the one
/// a check of the whole finds, wherever the halves meet (in a character, in a run of stray
/// continuation bytes, after a sequence cut short).
@Suite("UTF-8 checked in halves")
struct UTF8HalvesTests {
    static func firstInHalves(_ bytes: [UInt8]) -> Int? { bytes.withUnsafeBufferPointer { UTF8Validation.firstInvalidInHalves($0) } }
    static func firstWhole(_ bytes: [UInt8]) -> Int? { bytes.withUnsafeBufferPointer { UTF8Validation.firstInvalid($0) } }

    @Test("the first bad byte is the whole check's, for bad bytes before, at, about and after the middle, and none in a valid file")
    func sameAsWhole() {
        // Text of one to four byte characters, a little over 1 MB.
        var valid: [UInt8] = []
        var generator = SplitMix64(state: 2026_11_30)
        let characters = ["a", "é", "€", "🦊", " ", "\n"].map { Array($0.utf8) }
        while valid.count < (1 << 20) + 4096 { valid += characters[Int(generator.next() % UInt64(characters.count))] }
        #expect(Self.firstInHalves(valid) == nil)
        let middle = valid.count / 2
        // Places about the middle and far from it; each broken several ways.
        let places = [10, middle - 5, middle - 3, middle - 2, middle - 1, middle, middle + 1, middle + 2, middle + 3, valid.count - 3]
        let breaks: [(inout [UInt8], Int) -> Void] = [
            { bytes, at in bytes[at] = 0xE9 },  // Latin-1 é
            { bytes, at in bytes[at] = 0x80 },  // a stray continuation byte
            { bytes, at in bytes.replaceSubrange(at..<at, with: [0xE2, 0x82]) },  // a sequence cut short
            { bytes, at in bytes.replaceSubrange(at..<at, with: [0x80, 0x80, 0x80, 0x80, 0x80, 0x80]) },  // a run of them
            { bytes, at in bytes.replaceSubrange(at..<at, with: [0xF4, 0x90, 0x80, 0x80]) },  // past U+10FFFF
        ]
        var checked = 0
        for at in places {
            for (number, breaking) in breaks.enumerated() {
                var bytes = valid
                breaking(&bytes, at)
                // (A continuation byte made 0x80 may still be UTF-8: then neither finds one.)
                let whole = Self.firstWhole(bytes)
                #expect(Self.firstInHalves(bytes) == whole, "break \(number) at \(at), middle \(middle)")
                if whole != nil { checked += 1 }
            }
        }
        // Two bad bytes, one in each half: the first half's.
        var two = valid
        two[100] = 0xFF
        two[valid.count - 100] = 0xFF
        #expect(Self.firstInHalves(two) == Self.firstWhole(two))
        #expect(checked >= places.count * (breaks.count - 1), "most breaks are bad bytes")
    }
}
