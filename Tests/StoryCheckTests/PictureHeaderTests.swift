import Foundation
import StoryCheck
import Testing

/// Picture headers read without decoding, on pictures written by Pillow
/// (`scripts/make-pictures.py small`), and on broken and hostile bytes.
@Suite("Picture headers: size and EXIF GPS, without decoding")
struct PictureHeaderTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/pictures")

    func header(_ name: String) throws -> PictureHeader {
        let bytes = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(name)))
        let result = try #require(PictureHeader.read(bytes), "\(name) is not recognised as a picture")
        return try result.get()
    }

    @Test("each format's size", arguments: [
        ("scene.png", "PNG", 64, 40), ("palette.png", "PNG", 64, 40), ("scene.jpg", "JPEG", 64, 40), ("cmyk.jpg", "JPEG", 64, 40),
        ("scene.gif", "GIF", 48, 32), ("scene.webp", "WebP", 64, 40), ("animated.webp", "WebP", 48, 32), ("wide.png", "PNG", 4104, 16),
        ("harbour.png", "PNG", 960, 600), ("truncated.jpg", "JPEG", 64, 40),
    ])
    func size(name: String, format: String, width: Int, height: Int) throws {
        let found = try header(name)
        #expect(found.format.name == format && found.width == width && found.height == height, "\(name): \(found)")
        #expect(found.position == nil, "\(name) has no GPS")
    }

    @Test("the GPS position a camera wrote into a JPEG's EXIF, in degrees and minutes")
    func gps() throws {
        let found = try header("gps.jpg")
        let position = try #require(found.position)
        #expect(abs((position.latitude ?? 0) - 51.5) < 0.001 && abs((position.longitude ?? 0) + 7.0 / 60) < 0.001, "\(position)")
        #expect(position.words == "51°30′N 0°7′W")
    }

    @Test("broken headers are reasons, not crashes; what is not a picture is nil")
    func broken() throws {
        let jpeg = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent("scene.jpg")))
        for cut in [3, 4, 6, 20, 100] {
            guard case .failure(let failure)? = PictureHeader.read(Array(jpeg.prefix(cut))) else {
                Issue.record("a JPEG cut at \(cut) bytes was read")
                continue
            }
            #expect(failure.reason.contains("JPEG"), "\(failure.reason)")
        }
        #expect(PictureHeader.read(Array("version https://git-lfs.github.com/spec/v1\n".utf8)) == nil)
        let png = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent("scene.png")))
        guard case .failure? = PictureHeader.read(Array(png.prefix(18))) else { Issue.record("a PNG cut inside IHDR was read"); return }
        // A zero size is no size.
        var zero = png
        zero.replaceSubrange(16..<20, with: [0, 0, 0, 0])
        guard case .failure(let failure)? = PictureHeader.read(zero) else { Issue.record("a PNG 0 pixels wide was read"); return }
        #expect(failure.reason.contains("0 x 40"))
    }

    @Test("hostile EXIF: offsets past the end, a directory claiming 65535 entries, loops of segments")
    func hostile() {
        // APP1 Exif whose IFD offset points far past the end, then no frame header.
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x16] + Array("Exif\0\0".utf8) + [0x4D, 0x4D, 0x00, 0x2A, 0x7F, 0xFF, 0xFF, 0xFF]
        bytes += [0xFF, 0xFF, 0x00, 0x00]
        guard case .failure? = PictureHeader.read(bytes) else { Issue.record("read"); return }
        // A directory of 65535 entries with 2 bytes behind it: at most the bytes there are read.
        let tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0x25, 0x88]
        var jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, 0x00, UInt8(2 + 6 + tiff.count)] + Array("Exif\0\0".utf8) + tiff
        jpeg += [0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x10, 0x00, 0x10, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        guard case .success(let header)? = PictureHeader.read(jpeg) else { Issue.record("a JPEG with a broken EXIF block is still a JPEG"); return }
        #expect(header.width == 16 && header.position == nil)
        // A megabyte of fill bytes and restart markers: one pass, no frame header.
        let fill = [0xFF, 0xD8] + [UInt8](repeating: 0xFF, count: 1 << 20)
        guard case .failure? = PictureHeader.read(fill) else { Issue.record("read"); return }
    }

    @Test("a frame header after 64 KiB of camera data is found; past the first MiB nothing is said (not 'broken')")
    func deepFrameHeader() throws {
        func jpeg(segments: Int) -> [UInt8] {
            var bytes: [UInt8] = [0xFF, 0xD8]
            for _ in 0..<segments { bytes += [0xFF, 0xE2, 0xFF, 0xFF] + [UInt8](repeating: 0x41, count: 65533) }
            return bytes + [0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x20, 0x00, 0x30, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1, 0xFF, 0xD9]
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cyd-headers-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(jpeg(segments: 3)).write(to: folder.appendingPathComponent("deep.jpg"))
        try Data(jpeg(segments: 20)).write(to: folder.appendingPathComponent("deeper.jpg"))
        let story = StoryFolder(root: folder)
        guard case .success(let header)? = story.pictureHeader("deep.jpg") else { Issue.record("the frame header after 196 KB was not found"); return }
        #expect(header.width == 48 && header.height == 32)
        #expect(story.pictureHeader("deeper.jpg") == nil)
    }
}
