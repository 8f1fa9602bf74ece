// libFuzzer entry point for the language server's framing (Content-Length headers and bodies)
// and its JSON reading: the input is cut into chunks of sizes taken from its own bytes, as reads
// from a pipe would cut it, and every message must come out bounded, whatever the cuts.
// Built by `FUZZ_TARGET=lsp-framing scripts/fuzz.sh`.
import StoryFormat
import StoryLanguageServer

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLSPFraming(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var framing = MessageFraming()
    var offset = 0
    var cut = 0
    var received = 0
    while offset < bytes.count {
        // Chunk sizes from 1 to 64, chosen by the bytes themselves.
        let length = min(bytes.count - offset, Int(bytes[cut % bytes.count] & 63) + 1)
        cut += 1
        framing.append(bytes[offset..<(offset + length)])
        offset += length
        while let incoming = framing.next() {
            switch incoming {
            case .body(let body):
                received += body.count
                precondition(received <= bytes.count, "more body bytes out than came in")
                _ = JSONValue.parse(body)?.bytes
            case .malformed, .oversized: break
            case .headerTooLong:
                precondition(bytes.count > MessageFraming.maximumHeaderBytes, "a short input called a header too long")
            }
        }
    }
    return 0
}
