import Foundation
import TestSupport
import Testing

@testable import TerminalUI

/// The QR code `cyd serve` draws for a phone, read back by a real decoder (zbar's zbarimg, through
/// Tests/Support/qr_decode.py) for every version it makes and every mask.
@Suite("QR codes")
struct QRCodeTests {
    static func texts() -> [String] {
        var texts = ["http://192.168.1.5:8080/", "http://10.0.0.2:8080/?token=" + String(repeating: "0123456789abcdef", count: 4)]
        // Lengths that land on each version from 1 to 10, at the edges of their capacity.
        for length in [1, 17, 18, 32, 33, 53, 54, 78, 79, 106, 107, 134, 135, 154, 155, 192, 193, 230, 231, 271] {
            texts.append(String((0..<length).map { Character(Unicode.Scalar(UInt8(33 + ($0 * 7) % 90))) }))
        }
        return texts
    }

    @Test("every version from 1 to 10, with every mask, reads back as its text in zbar")
    func matchesAnotherEncoder() throws {
        var lines: [String] = []
        var versions = Set<Int>()
        for text in Self.texts() {
            let chosen = try #require(QRCode(text), "\(text.count) bytes")
            versions.insert(chosen.version)
            for mask in 0..<8 {
                let code = try #require(QRCode(text, mask: mask))
                let rows = code.modules.map { row in "\"" + String(row.map { $0 ? "1" : "0" }) + "\"" }.joined(separator: ",")
                let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                lines.append("{\"text\": \"\(escaped)\", \"label\": \"version \(code.version), mask \(mask)\", \"rows\": [\(rows)]}")
            }
        }
        #expect(versions == Set(1...10), "\(versions.sorted())")
        let compare = try ChildProcess.run(
            ["python3", TestHTTPServer.packageRoot.path + "/Tests/Support/qr_decode.py"], input: lines.joined(separator: "\n") + "\n")
        #expect(compare.status == 0, "\(compare.standardOutput)\(compare.standardError)")
        #expect(compare.standardOutput.contains("read \(lines.count)"))
    }

    @Test("too long for version 10: no code rather than a wrong one")
    func tooLong() {
        #expect(QRCode(String(repeating: "a", count: 272)) == nil)
        #expect(QRCode(String(repeating: "a", count: 271))?.version == 10)
    }

    @Test("drawn two rows a line, black on white whatever the terminal's colours, with a four-module quiet zone")
    func drawing() throws {
        let code = try #require(QRCode("http://192.168.1.5:8080/"))
        let lines = code.terminalDrawing().split(separator: "\n")
        #expect(lines.count == (code.size + 8 + 1) / 2)
        for line in lines {
            #expect(line.components(separatedBy: "▀").count - 1 == code.size + 8)
            #expect(line.hasSuffix("\u{1B}[0m"))
        }
        // The first line is quiet zone: light above and below in every cell.
        #expect(!lines[0].contains("[30;") && !lines[0].contains(";40m"))
    }
}
