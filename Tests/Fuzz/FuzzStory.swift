// libFuzzer entry point: bytes -> JSON reader -> story or authors decoder -> every rule ->
// every output format, strict and lenient; and the same bytes as a picture file whose header
// CYD608-610 read (PNG, JPEG, GIF, WebP and EXIF parsing). Built by scripts/fuzz.sh with
// -sanitize=fuzzer,address; not part of the package build.
import StoryCheck
import StoryFormat

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStory(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // One configuration per input, picked by a hash of its bytes (not by consuming any, so seed
    // stories stay valid JSON): strict story or lenient authors file, pointers worked out or not,
    // and one output format.
    // Every configuration is reached as the fuzzer mutates; each execution pays for one check,
    // one render and one load instead of all of them, which more than doubles executions a second.
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    let lenient = hash & 1 == 1
    let options = CheckOptions(lenient: lenient, pointers: hash & 2 == 2)
    // SARIF carries every rule's metadata on every run (most of its cost, the same each time), so
    // it gets one input in 64; json a quarter, github an eighth, text the rest.
    let format: ReportFormat = switch (hash >> 2) & 63 {
    case 0: .sarif
    case 1..<17: .json
    case 17..<25: .github
    default: .text
    }
    let reports = Checker.check(bytes: bytes, path: lenient ? "authors.json" : "story.json", options: options)
    assertTerminalSafe(format.render(reports, style: .plain, maximumPerRule: 3), format)
    if let story = LoadedFile.load(bytes, options: JSONParser.Options(lenient: lenient)).story {
        _ = story.model()
    }
    // Seeds are JSON; the fuzzer finds the picture signatures by itself (and the seed corpus
    // holds the picture fixtures too).
    if case .success(let header)? = PictureHeader.read(bytes), let position = header.position { _ = position.words }
    return 0
}

/// Every printed character is safe for a terminal: no control character but newline, no C1
/// control (UTF-8 C2 80..9F), no bidi control (E2 80 AA..AE, E2 81 A6..A9).
func assertTerminalSafe(_ text: String, _ format: ReportFormat) {
    var text = text
    text.withUTF8 { utf8 in
        var i = 0
        while i < utf8.count {
            let byte = utf8[i]
            let unsafe =
                (byte < 0x20 && byte != 0x0A) || byte == 0x7F
                || (byte == 0xC2 && i + 1 < utf8.count && utf8[i + 1] >= 0x80 && utf8[i + 1] <= 0x9F)
                || (byte == 0xE2 && i + 2 < utf8.count
                    && ((utf8[i + 1] == 0x80 && utf8[i + 2] >= 0xAA && utf8[i + 2] <= 0xAE)
                        || (utf8[i + 1] == 0x81 && utf8[i + 2] >= 0xA6 && utf8[i + 2] <= 0xA9)))
            if unsafe { fatalError("raw control character at byte \(i) of \(format) output") }
            i += 1
        }
    }
}
