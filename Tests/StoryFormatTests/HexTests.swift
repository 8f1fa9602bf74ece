import Testing

@testable import StoryFormat

/// Hexadecimal and percent-encoding, written once for the modules above the format.
@Suite("Hex digits and percent-encoding")
struct HexTests {
    @Test("a byte is two digits, a value as many as asked, most significant first")
    func digits() {
        #expect(Hex.byte(0x0A) == "0A" && Hex.byte(0xFF, upper: false) == "ff" && Hex.byte(0) == "00")
        #expect(Hex.digits(0x2A, width: 4) == "002A")
        #expect(Hex.digits(0xDEAD_BEEF_0123_4567, width: 16, upper: false) == "deadbeef01234567")
        var out: [UInt8] = []
        Hex.append(0x1B, width: 4, to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "001b")
    }

    @Test("percent-encoding keeps the unreserved characters and what it is asked to, and encodes every other UTF-8 byte")
    func percent() {
        #expect(PercentEncoding.encode("first light.png") == "first%20light.png")
        #expect(PercentEncoding.encode("a/b?c#d") == "a%2Fb%3Fc%23d", "a segment cannot change a URL's structure")
        #expect(PercentEncoding.encode("a/b c", keeping: "/") == "a/b%20c")
        #expect(PercentEncoding.encode("Café-_.~") == "Caf%C3%A9-_.~")
        #expect(PercentEncoding.encode("") == "")
    }
}
