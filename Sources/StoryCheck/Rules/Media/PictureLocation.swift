import StoryFormat

enum PictureLocation: CheckedRule {
    static let checks = DocumentKind.story
    static let description = RuleDescription(
        code: "CYD610", name: "picture-location", category: .media, severity: .warning,
        summary: "a picture in the story folder carries the GPS position where it was taken (EXIF)",
        rationale: """
            Phones write where a photo was taken into the file. Published in a story's \
            repository, the photo tells every reader where its author was: often their home. \
            Checked in JPEG, PNG (eXIf) and WebP (EXIF) pictures when a whole folder is validated.
            """,
        triggering: [
            .chapters(
                #"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true, "pic_path": ↓"resources/pub.jpg" }"#,
                folderFiles: ["README.md": RuleExample.taggedReadme, "resources/pub.jpg": examplePhoto(gps: true)])
        ],
        nonTriggering: [
            .chapters(
                #"        { "id": "a", "name": "A", "text": "Hi.", "is_first_chapter": true, "pic_path": "resources/pub.jpg" }"#,
                folderFiles: ["README.md": RuleExample.taggedReadme, "resources/pub.jpg": examplePhoto(gps: false)])
        ])

    static func check(_ context: CheckContext, _ findings: inout Findings) {
        for (use, path, header) in MediaChecks.pictureHeaders(context) {
            guard case .success(let header) = header, let position = header.position else { continue }
            findings.add(
                "picture '\(VisibleText.escape(path))' carries the GPS position where it was taken (\(position.words))",
                help: "remove it before publishing: exiftool -gps:all= FILE, or save a copy without metadata", at: use.path.node)
        }
    }

    /// A 16 x 16 JPEG header with an EXIF block (big-endian TIFF) whose GPS block holds
    /// 51°30′N 0°7′W, or none; in the examples' byte notation.
    static func examplePhoto(gps: Bool) -> String {
        func u16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        func u32(_ value: Int) -> [UInt8] { u16(value >> 16) + u16(value & 0xFFFF) }
        func rationals(_ values: [Int]) -> [UInt8] { values.flatMap { u32($0) + u32(1) } }
        var tiff: [UInt8] = Array("MM".utf8) + u16(42) + u32(8)
        if gps {
            tiff += u16(1) + u16(0x8825) + u16(4) + u32(1) + u32(26) + u32(0)
            tiff += u16(4)
            tiff += u16(1) + u16(2) + u32(2) + [UInt8(ascii: "N"), 0, 0, 0]
            tiff += u16(2) + u16(5) + u32(3) + u32(80)
            tiff += u16(3) + u16(2) + u32(2) + [UInt8(ascii: "W"), 0, 0, 0]
            tiff += u16(4) + u16(5) + u32(3) + u32(104)
            tiff += u32(0)
            tiff += rationals([51, 30, 0]) + rationals([0, 7, 0])
        } else {
            tiff += u16(1) + u16(0x010F) + u16(2) + u32(4) + Array("CYD\0".utf8) + u32(0)
        }
        let exif = Array("Exif\0\0".utf8) + tiff
        let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1] + u16(exif.count + 2) + exif
            + [0xFF, 0xC0] + u16(17) + [8] + u16(16) + u16(16) + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1] + [0xFF, 0xD9]
        let digits = Array("0123456789ABCDEF")
        return bytes.map { byte in
            (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "⟨\(digits[Int(byte >> 4)])\(digits[Int(byte & 15)])⟩"
        }.joined()
    }
}
