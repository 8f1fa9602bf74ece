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
