// libFuzzer entry point: bytes -> JSON reader -> story or authors decoder -> every rule ->
// every output format, strict and lenient. Built by scripts/fuzz.sh with
// -sanitize=fuzzer,address; not part of the package build.
import StoryCheck
import StoryFormat

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStory(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // Strict as a story, lenient as whatever the content says; two formats each, so every
    // format is exercised on every input without paying for eight renders.
    // The text report on every input; the machine formats on fewer, as they cost most of a run
    // (Foundation's JSONEncoder; SARIF's rule metadata, the same every time).
    let machineFormats: [ReportFormat] = (size % 16 == 0 ? [.json, .github] : []) + (size % 256 == 0 ? [.sarif] : [])
    for (lenient, formats) in [(false, [ReportFormat.text]), (true, [.text] + machineFormats)] {
        // Pointers are worked out only for the json format; both ways are exercised.
        let options = CheckOptions(lenient: lenient, pointers: lenient || size % 2 == 0)
        let reports = Checker.check(bytes: bytes, path: lenient ? "authors.json" : "story.json", options: options)
        for format in formats {
            assertTerminalSafe(format.render(reports, style: .plain, maximumPerRule: 3), format)
        }
        if let story = LoadedFile.load(bytes, options: JSONParser.Options(lenient: lenient)).story {
            _ = story.model()
        }
    }
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
