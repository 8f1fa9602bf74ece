import StoryLanguageServer
import Testing

@Suite("Content-Length framing")
struct MessageFramingTests {
    func framed(_ body: String) -> [UInt8] { Array("Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8) }

    func drain(_ framing: inout MessageFraming) -> [MessageFraming.Incoming] {
        var out: [MessageFraming.Incoming] = []
        while let incoming = framing.next() { out.append(incoming) }
        return out
    }

    @Test("a message that arrives one byte at a time comes out whole, once")
    func byteAtATime() {
        var framing = MessageFraming()
        var out: [MessageFraming.Incoming] = []
        for byte in framed(#"{"id":1}"#) + framed(#"{"id":2}"#) {
            framing.append([byte])
            out += drain(&framing)
        }
        #expect(out == [.body(Array(#"{"id":1}"#.utf8)), .body(Array(#"{"id":2}"#.utf8))])
    }

    @Test("a header with no length is malformed, and the next message is still found")
    func malformed() {
        var framing = MessageFraming()
        framing.append(Array("Content-Type: x\r\n\r\n".utf8) + framed("{}"))
        #expect(drain(&framing) == [.malformed, .body(Array("{}".utf8))])
    }

    @Test("a length with more digits than any message has is malformed, not a crash")
    func hugeLength() {
        var framing = MessageFraming()
        framing.append(Array("Content-Length: 99999999999999999999999\r\n\r\n".utf8))
        #expect(drain(&framing) == [.malformed])
    }

    @Test("an oversized body is skipped as it arrives, and the message after it is read")
    func oversized() {
        var framing = MessageFraming()
        let length = MessageFraming.maximumMessageBytes + 10
        framing.append(Array("Content-Length: \(length)\r\n\r\n".utf8))
        #expect(drain(&framing) == [.oversized(length: length)])
        for _ in 0..<(length / (1 << 20)) { framing.append([UInt8](repeating: 0x78, count: 1 << 20)) }
        framing.append([UInt8](repeating: 0x78, count: length % (1 << 20)))
        framing.append(framed("{}"))
        #expect(drain(&framing) == [.body(Array("{}".utf8))])
    }

    @Test("a header that never ends is refused once it passes the limit, and nothing after it is read")
    func endlessHeader() {
        var framing = MessageFraming()
        framing.append(Array("Content-Length: 2\r\nX-Padding: ".utf8))
        var out: [MessageFraming.Incoming] = []
        // Far more than the limit, in pipe-sized reads: the search never starts over.
        for _ in 0..<400 {
            framing.append([UInt8](repeating: 0x61, count: 1 << 16))
            out += drain(&framing)
        }
        framing.append(Array("\r\n\r\n{}".utf8) + framed("{}"))
        out += drain(&framing)
        #expect(out == [.headerTooLong])
    }

    @Test("a header end split across two reads is found")
    func splitHeaderEnd() {
        var framing = MessageFraming()
        framing.append(Array("Content-Length: 2\r\n\r".utf8))
        #expect(drain(&framing) == [])
        framing.append(Array("\n{}".utf8))
        #expect(drain(&framing) == [.body(Array("{}".utf8))])
    }
}
