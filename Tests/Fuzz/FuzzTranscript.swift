// libFuzzer entry point for the transcript format (`cyd test --replay`, scripted `cyd read`):
// any bytes either read as steps that write back to the same steps, or are refused with a line
// number inside the file. Built by `FUZZ_TARGET=transcript scripts/fuzz.sh`.
import StoryAnalysis

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTranscript(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let lineCount = bytes.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
    do {
        let transcript = try Transcript.parse(bytes)
        precondition(!transcript.lines.isEmpty, "a transcript read with no step")
        precondition(transcript.lines.allSatisfy { (1...lineCount).contains($0.number) }, "a step on a line the file does not have")
        let again = try Transcript.parse(Array(transcript.written().utf8))
        precondition(again.lines.map(\.step) == transcript.lines.map(\.step), "written steps read back differently")
    } catch {
        if case .notAStep(let line, _) = error { precondition((1...lineCount).contains(line), "an error on a line the file does not have") }
    }
    return 0
}
