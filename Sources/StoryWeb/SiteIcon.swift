import StoryFormat

/// The site's icon, drawn here at any size as a PNG: a path that forks in two, light on the
/// reader's dark colour, inside the middle 80% so a phone may crop it to any shape (a
/// "maskable" icon). Used as the favicon and as the installed app's icon.
public enum SiteIcon {
    /// The sizes the web app manifest names (a phone's home screen and its splash screen).
    public static let sizes = [192, 512]

    public static func fileName(_ size: Int) -> String { "icon-\(size).png" }

    /// The palette: the dark page, the accent of focus rings.
    static let palette: [UInt8] = [0x1B, 0x1A, 0x18, 0xFF, 0xB3, 0x6B]
    static let background = "#1b1a18"

    /// The icon as a PNG of `size`×`size`, two colours (2 bits a pixel), stored without
    /// compression (a few kilobytes at 192).
    public static func png(size: Int) -> [UInt8] {
        let s = Double(size)
        // The fork, in units of the side: a trunk from the bottom to the middle, two branches up.
        let segments: [(Double, Double, Double, Double)] = [(0.5, 0.8, 0.5, 0.52), (0.5, 0.52, 0.3, 0.24), (0.5, 0.52, 0.7, 0.24)]
        let ends: [(Double, Double)] = [(0.3, 0.24), (0.7, 0.24), (0.5, 0.8)]
        let half = 0.045, dot = 0.085
        // Plain loops over the indices: a debug build (the test command's, whose instructions
        // scripts/instruction-counts.sh counts) spent 1.5 billion instructions on iterators and
        // closures here for one site.
        func inked(_ x: Double, _ y: Double) -> Bool {
            var index = 0
            while index < segments.count {
                let (ax, ay, bx, by) = segments[index]
                let dx = bx - ax, dy = by - ay
                let t = max(0, min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)))
                let px = ax + t * dx - x, py = ay + t * dy - y
                if px * px + py * py <= half * half { return true }
                index += 1
            }
            index = 0
            while index < ends.count {
                let (ex, ey) = ends[index]
                if (ex - x) * (ex - x) + (ey - y) * (ey - y) <= dot * dot { return true }
                index += 1
            }
            return false
        }
        let rowBytes = (size + 3) / 4
        var raw: [UInt8] = []
        raw.reserveCapacity((rowBytes + 1) * size)
        for row in 0..<size {
            raw.append(0)  // filter: none
            var byte: UInt8 = 0
            for column in 0..<size {
                let ink: UInt8 = inked((Double(column) + 0.5) / s, (Double(row) + 0.5) / s) ? 1 : 0
                byte |= ink << UInt8(6 - 2 * (column % 4))
                if column % 4 == 3 || column == size - 1 {
                    raw.append(byte)
                    byte = 0
                }
            }
        }
        var header: [UInt8] = []
        append32(&header, UInt32(size))
        append32(&header, UInt32(size))
        header += [2, 3, 0, 0, 0]  // bit depth 2, palette colour, deflate, no filter method, no interlace
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        chunk(&png, "IHDR", header)
        chunk(&png, "PLTE", palette)
        chunk(&png, "IDAT", zlibStored(raw))
        chunk(&png, "IEND", [])
        return png
    }

    /// The web app manifest: the site installs to a phone's home screen as "Stories", opening at
    /// the library, standing alone (no browser bars).
    public static func manifest() -> String {
        let icons = sizes.map { size in
            JSONValue.object([
                "src": .string(fileName(size)), "sizes": .string("\(size)x\(size)"), "type": .string("image/png"), "purpose": .string("any maskable"),
            ])
        }
        return JSONValue.object([
            "name": .string("Stories · ChooseYourDestiny"), "short_name": .string("Stories"), "start_url": .string("./index.html"), "scope": .string("./"),
            "display": .string("standalone"), "background_color": .string(background), "theme_color": .string(background),
            "icons": .array(icons),
        ]).encoded
    }

    private static func append32(_ out: inout [UInt8], _ value: UInt32) {
        out += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func chunk(_ png: inout [UInt8], _ type: String, _ data: [UInt8]) {
        append32(&png, UInt32(data.count))
        let typed = Array(type.utf8) + data
        png += typed
        append32(&png, CRC32.checksum(typed))
    }

    /// A zlib stream of stored (uncompressed) deflate blocks, with its Adler-32.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let count = min(65535, data.count - start)
            let final: UInt8 = start + count == data.count ? 1 : 0
            out += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[start..<start + count]
            start += count
        } while start < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        append32(&out, b << 16 | a)
        return out
    }
}
