import Foundation
import Testing
import TerminalPictures

/// The pictures written by `scripts/make-pictures.py small`.
private func fixture(_ name: String) throws -> [UInt8] {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/pictures")
    return [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
}

@Suite("Decoding pictures with their own libraries")
struct PictureDecodingTests {
    @Test("every format decodes to RGBA at its own size", arguments: [
        ("scene.png", 64, 40), ("grey.png", 64, 40), ("palette.png", 64, 40), ("scene.jpg", 64, 40), ("cmyk.jpg", 64, 40),
        ("scene.webp", 64, 40), ("scene.gif", 48, 32), ("animated.webp", 48, 32),
    ])
    func decodes(name: String, width: Int, height: Int) throws {
        let picture = try DecodedPicture.decode(try fixture(name))
        #expect(picture.width == width && picture.height == height, "\(name): \(picture.width)x\(picture.height)")
        #expect(picture.originalWidth == width && picture.originalHeight == height)
        #expect(picture.pixels.count == width * height * 4)
        // Not all black: the sun is in there.
        #expect(picture.pixels.contains { $0 > 200 }, "\(name) decoded to nothing visible")
    }

    @Test("a picture is reduced while decoding, never below what its box needs")
    func reduces() throws {
        let png = try DecodedPicture.decode(try fixture("wide.png"), box: (400, 100))
        // 4104 x 16 into 400 x 100: a tenth is 410 wide, still covering the box's width.
        #expect(png.originalWidth == 4104)
        #expect(png.width >= 400 && png.width < 4104 / 4, "\(png.width)")
        let jpeg = try DecodedPicture.decode(try fixture("scene.jpg"), box: (16, 10))
        #expect(jpeg.width >= 16 && jpeg.width <= 32, "libjpeg's DCT scaling: \(jpeg.width)")
        #expect(jpeg.originalWidth == 64)
    }

    @Test("a picture thinner than its reduction keeps its columns (found by fuzzing: rows were read past their end)")
    func thin() throws {
        // 3 x 600 into 80 x 40: reduced 15 times down, but at most 3 across.
        let picture = try DecodedPicture.decode(try fixture("thin.png"), box: (80, 40))
        #expect(picture.width == 1 && picture.height == 40, "\(picture.width)x\(picture.height)")
        let regression = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/picture-regressions/reduced-wider-than-picture.bin")
        _ = try? DecodedPicture.decode([UInt8](try Data(contentsOf: regression)), box: (80, 40))
    }

    @Test("what is not a picture, or is cut short, is refused in words", arguments: [
        ("not-a-picture.jpg", "not a PNG, JPEG, GIF or WebP"),
    ])
    func refuses(name: String, words: String) throws {
        #expect {
            _ = try DecodedPicture.decode(try fixture(name))
        } throws: { error in
            "\(error)".contains(words)
        }
    }

    @Test("a JPEG cut in half still shows what arrived")
    func truncated() throws {
        let picture = try DecodedPicture.decode(try fixture("truncated.jpg"))
        #expect(picture.width == 64)
    }

    @Test("hostile headers: a PNG claiming 65535 x 65535 pixels and a broken GIF are refused, not allocated")
    func hostile() throws {
        var png = try fixture("scene.png")
        // IHDR width and height (bytes 16-23), CRC no longer matching: libpng says so.
        png.replaceSubrange(16..<24, with: [0, 0, 0xFF, 0xFF, 0, 0, 0xFF, 0xFF])
        #expect(throws: PictureDrawingError.self) { _ = try DecodedPicture.decode(png) }
        let gif = Array(try fixture("scene.gif").prefix(20))
        #expect(throws: PictureDrawingError.self) { _ = try DecodedPicture.decode(gif) }
        #expect(throws: PictureDrawingError.self) { _ = try DecodedPicture.decode([]) }
    }

    @Test("a valid header claiming 30000 x 30000 pixels is refused before any pixel is decoded")
    func huge() throws {
        var png = try fixture("scene.png")
        // IHDR's width and height, and its CRC made right again, so libpng itself accepts it.
        png.replaceSubrange(16..<24, with: [0, 0, 0x75, 0x30, 0, 0, 0x75, 0x30])
        let crc = crc32(Array(png[12..<29]))
        png.replaceSubrange(29..<33, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        #expect {
            _ = try DecodedPicture.decode(png, box: (800, 400))
        } throws: { error in
            "\(error)".contains("30000 x 30000 pixels, too large to draw")
        }
    }

    /// CRC-32 as PNG chunks use it.
    func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

@Suite("Fitting a picture to the window")
struct PictureLayoutTests {
    @Test("a wide picture takes the full width; a tall one the full height; the aspect is kept")
    func fits() {
        // 3560 x 2373 in 100 x 25 cells of 10 x 20 px: 25 rows is the limit.
        let wide = PictureLayout.fit(width: 3560, height: 2373, columns: 100, rows: 25, cell: .usual)
        #expect(wide.rows == 25 && wide.columns == 75, "\(wide)")
        let short = PictureLayout.fit(width: 3560, height: 1000, columns: 100, rows: 25, cell: .usual)
        #expect(short.columns == 100 && short.rows == 14, "\(short)")
        let tall = PictureLayout.fit(width: 100, height: 1000, columns: 100, rows: 25, cell: .usual)
        #expect(tall.rows == 25 && tall.columns == 5, "\(tall)")
    }

    @Test("a small picture is not blown up past its pixels")
    func small() {
        let icon = PictureLayout.fit(width: 40, height: 40, columns: 100, rows: 25, cell: .usual, widest: 4)
        #expect(icon.columns == 4 && icon.rows == 2, "\(icon)")
    }

    @Test("the terminal's own cell size changes the rows")
    func cellSize() {
        let square = PictureLayout.fit(width: 200, height: 100, columns: 40, rows: 40, cell: CellSize(width: 10, height: 10))
        #expect(square.columns == 40 && square.rows == 20, "\(square)")
    }
}

@Suite("Drawing a picture for a terminal")
struct PictureDrawingTests {
    @Test("symbols: coloured block characters, as many rows as fitted")
    func symbols() throws {
        let drawn = try PictureDrawer.draw(try fixture("scene.png"), mode: .symbols(.trueColor), columns: 32, rows: 10)
        let lines = drawn.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == drawn.rows, "\(lines.count) lines for \(drawn.rows) rows")
        #expect(drawn.columns == 32 && drawn.rows == 10, "\(drawn.columns)x\(drawn.rows)")
        #expect(drawn.text.contains("\u{1B}[38;2;"), "24-bit colour")
        #expect(drawn.text.unicodeScalars.contains { (0x2580...0x259F).contains($0.value) }, "block elements")
        let indexed = try PictureDrawer.draw(try fixture("scene.png"), mode: .symbols(.indexed256), columns: 32, rows: 10)
        #expect(indexed.text.contains("\u{1B}[38;5;") && !indexed.text.contains("38;2;"))
    }

    @Test("kitty: APC _G with the cells and pixels it declares")
    func kitty() throws {
        let drawn = try PictureDrawer.draw(try fixture("scene.png"), mode: .kitty, columns: 6, rows: 10, cell: CellSize(width: 10, height: 20))
        #expect(drawn.text.hasPrefix("\u{1B}_G"))
        #expect(drawn.text.contains("c=\(drawn.columns),r=\(drawn.rows)"), "\(drawn.text.prefix(60))")
        #expect(drawn.text.hasSuffix("\u{1B}\\"))
    }

    @Test("iTerm2: OSC 1337 with its width and height in cells")
    func iterm() throws {
        let drawn = try PictureDrawer.draw(try fixture("scene.jpg"), mode: .iterm, columns: 6, rows: 10)
        #expect(drawn.text.hasPrefix("\u{1B}]1337;File=inline=1;width=\(drawn.columns);height=\(drawn.rows)"), "\(drawn.text.prefix(60))")
    }

    @Test("sixel: DCS q with raster attributes no larger than the cells")
    func sixel() throws {
        let drawn = try PictureDrawer.draw(try fixture("scene.gif"), mode: .sixel, columns: 6, rows: 10)
        #expect(drawn.text.hasPrefix("\u{1B}P"))
        #expect(drawn.text.hasSuffix("\u{1B}\\"))
        let raster = drawn.text.split(separator: "\"", maxSplits: 1)[1].prefix { $0 != "#" }.split(separator: ";").compactMap { Int($0) }
        #expect(raster.count == 4 && raster[2] <= drawn.columns * 10 && raster[3] <= drawn.rows * 20, "\(raster)")
    }

    @Test("off draws nothing")
    func off() throws {
        #expect(throws: PictureDrawingError.self) { _ = try PictureDrawer.draw(try fixture("scene.png"), mode: .off, columns: 6, rows: 10) }
    }
}
