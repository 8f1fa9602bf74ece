import Foundation
import StoryFormat
import Testing

@testable import StoryCheck

/// Whatever a file holds, what cyd prints holds no control character but the line break: no
/// escape sequence, no C1 control, no bidi override, in any format.
@Suite("Every printed byte is safe for a terminal")
struct TerminalSafetyTests {
    /// Each C0 control (raw and escaped), DEL, each C1 control, the bidi controls, and inputs in
    /// the spirit of JSONTestSuite's n_string_backslash_00 and n_string_escaped_ctrl_char_tab.
    static var inputs: [[UInt8]] {
        var cases: [[UInt8]] = []
        let controls: [UInt32] = Array(0x00...0x1F) + [0x7F] + Array(0x80...0x9F) + [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2069]
        for value in controls {
            let scalar = String(Unicode.Scalar(value)!)
            let escaped = String(format: "\\u%04x", value)
            for (key, text) in [("id", scalar), ("text", scalar), ("id", escaped), ("name", escaped)] {
                cases.append(Array(#"{"story": {"id": "s", "name": "N", "rating": "G", "summary": "x", "chapters": [{"id": "a", "name": "A", "text": "t", "is_first_chapter": true, "\#(key)x": 1, "\#(key)": "\#(text)"}]}}"#.utf8))
            }
            // A backslash before the control character: an invalid escape whose excerpt is shown.
            cases.append(Array("[\"\\".utf8) + Array(scalar.utf8) + Array("\"]".utf8))
            // In a key, in a file name, and as the only byte of the file.
            cases.append(Array("{\"k\(scalar)\": 1}".utf8))
            cases.append(Array(scalar.utf8))
        }
        cases.append([0x5B, 0x22, 0x5C, 0x00, 0x22, 0x5D])  // ["\<NUL>"]
        cases.append([0x5B, 0x22, 0x5C, 0x09, 0x22, 0x5D])  // ["\<TAB>"]
        cases.append([0xFF, 0x1B, 0x5B, 0x32, 0x4A])  // invalid UTF-8, then ESC [ 2 J
        return cases
    }

    static func unsafe(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { $0 != "\n" && VisibleText.isUnsafe($0) }
    }

    @Test("no raw control character but newline in any format, for any control character anywhere")
    func everyFormat() {
        for (number, bytes) in Self.inputs.enumerated() {
            for lenient in [false, true] {
                let reports = Checker.check(bytes: bytes, path: "hostile\u{1B}[31m.json", options: CheckOptions(lenient: lenient))
                for format in ReportFormat.allCases {
                    let output = format.render(reports, style: .plain)
                    let found = Self.unsafe(output)
                    #expect(found.isEmpty, "case \(number), \(format), lenient \(lenient): \(found.map { String($0.value, radix: 16) })")
                }
            }
        }
    }

    @Test("json output escapes DEL, C1 and bidi controls and still parses to the same text")
    func jsonKeepsTheText() throws {
        let story = Array(#"{"story": {"id": "s", "name": "N", "rating": "G", "summary": "x", "colour": 1, "chapters": [{"id": "a", "name": "A", "text": "t", "is_first_chapter": true}]}}"#.utf8)
        let path = "story\u{7F}\u{9B}\u{202E}.json"
        let output = ReportFormat.json.render(Checker.check(bytes: story, path: path))
        #expect(Self.unsafe(output).isEmpty)
        #expect(output.contains(#"\u007f\u009b\u202e"#))
        let parsed = try JSONSerialization.jsonObject(with: Data(output.utf8)) as! [String: Any]
        #expect((parsed["files"] as! [[String: Any]])[0]["path"] as? String == path)
    }
}
