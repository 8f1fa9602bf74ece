import Foundation
import Testing
import TerminalPictures

#if canImport(Glibc)
import Glibc
#endif

/// The pictures written by `scripts/make-pictures.py hostile`: small files that claim what would
/// hold a reader. Each is refused in words, quickly, within a bounded amount of memory.
private func hostile(_ name: String) throws -> [UInt8] {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/hostile-pictures")
    return [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
}

/// The process's peak resident memory so far, in MB (getrusage's ru_maxrss is in KB on Linux).
private func peakMegabytes() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss / 1024
}

@Suite("Pictures that claim more than they are")
struct HostilePictureTests {
    @Test("a 702-byte progressive JPEG claiming 11585 x 11585 CMYK is refused before libjpeg allocates its coefficients")
    func progressiveCoefficientBomb() throws {
        let bytes = try hostile("progressive-huge.jpg")
        #expect(bytes.count < 1_000)
        let before = peakMegabytes()
        #expect {
            _ = try DecodedPicture.decode(bytes, box: (100, 50))
        } throws: { error in
            "\(error)".contains("progressive JPEG of 11585 x 11585 pixels") && "\(error)".contains("too large to draw")
        }
        #expect(peakMegabytes() - before < 100, "peak grew by \(peakMegabytes() - before) MB")
    }

    @Test("a JPEG of 500 scans stops after 100, at once")
    func tooManyScans() throws {
        let started = Date()
        #expect {
            _ = try DecodedPicture.decode(try hostile("many-scans.jpg"), box: (100, 50))
        } throws: { error in
            "\(error)".contains("more than 100 scans")
        }
        #expect(Date().timeIntervalSince(started) < 3.5, "\(Date().timeIntervalSince(started)) s")
    }

    @Test("a PNG of 1 x 100000 pixels is refused in our words, not libpng's")
    func tallPNG() throws {
        let png = try hostile("tall.png")
        #expect {
            _ = try DecodedPicture.decode(png, box: (100, 50))
        } throws: { error in
            "\(error)" == "it is 1 x 100000 pixels, more than 65535 on a side, too large to draw"
        }
    }

    @Test("a GIF of 100,000 comment extensions before its picture is drawn, quickly")
    func gifComments() throws {
        // scene.gif (48 x 32) with 100,000 comments between its palette and its picture.
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/pictures")
        let scene = [UInt8](try Data(contentsOf: folder.appendingPathComponent("scene.gif")))
        let palette = scene[10] & 0x80 != 0 ? 3 << (Int(scene[10] & 7) + 1) : 0
        var gif = Array(scene[..<(13 + palette)])
        for _ in 0..<100_000 { gif += [0x21, 0xFE, 5] + Array("hello".utf8) + [0] }
        gif += scene[(13 + palette)...]
        let started = Date()
        let picture = try DecodedPicture.decode(gif, box: (100, 50))
        #expect(picture.originalWidth == 48 && picture.originalHeight == 32)
        #expect(Date().timeIntervalSince(started) < 3.5, "\(Date().timeIntervalSince(started)) s")
    }
}
