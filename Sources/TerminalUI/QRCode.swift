/// A QR code (ISO/IEC 18004) of a short text, such as a link, for a phone's camera: byte mode,
/// error correction level L, versions 1 to 10 (up to 271 bytes), the mask with the lowest penalty.
/// Drawn in a terminal two modules a character cell, black on white whatever the terminal's
/// colours, with the quiet zone the standard asks for.
package struct QRCode: Sendable {
    package let version: Int
    package let mask: Int
    /// Rows of modules, true for dark, without the quiet zone.
    package let modules: [[Bool]]
    package var size: Int { modules.count }

    /// Error-correction codewords a block, and the blocks' data codewords, for level L.
    private static let blocks: [(ecPerBlock: Int, groups: [(count: Int, data: Int)])] = [
        (7, [(1, 19)]), (10, [(1, 34)]), (15, [(1, 55)]), (20, [(1, 80)]), (26, [(1, 108)]),
        (18, [(2, 68)]), (20, [(2, 78)]), (24, [(2, 97)]), (30, [(2, 116)]), (18, [(2, 68), (2, 69)]),
    ]

    /// nil when the text is too long for version 10.
    package init?(_ text: String, mask forced: Int? = nil) {
        let bytes = Array(text.utf8)
        var chosen: Int?
        for version in 1...10 {
            let capacity = Self.dataCodewords(version) * 8
            let countBits = version < 10 ? 8 : 16
            if 4 + countBits + bytes.count * 8 <= capacity, bytes.count < (1 << countBits) { chosen = version; break }
        }
        guard let version = chosen else { return nil }
        self.version = version
        let codewords = Self.codewords(Self.dataBits(bytes, version: version), version: version)

        var grid = Grid(size: version * 4 + 17)
        grid.drawFunctionPatterns(version: version)
        grid.drawCodewords(codewords)
        // Each mask scored once; the lowest penalty wins (the lower number on a tie).
        let mask = forced ?? (0..<8).map { mask -> (penalty: Int, mask: Int) in
            var masked = grid
            masked.applyMask(mask)
            masked.drawFormat(mask: mask)
            return (masked.penalty(), mask)
        }.min { $0 < $1 }!.mask
        grid.applyMask(mask)
        grid.drawFormat(mask: mask)
        self.mask = mask
        modules = grid.dark
    }

    private static func dataCodewords(_ version: Int) -> Int {
        blocks[version - 1].groups.reduce(0) { $0 + $1.count * $1.data }
    }

    /// Mode, count, the bytes, a terminator and padding to the version's data capacity.
    private static func dataBits(_ bytes: [UInt8], version: Int) -> [UInt8] {
        var bits: [Bool] = []
        func append(_ value: Int, _ count: Int) { for i in (0..<count).reversed() { bits.append((value >> i) & 1 == 1) } }
        append(0b0100, 4)
        append(bytes.count, version < 10 ? 8 : 16)
        for byte in bytes { append(Int(byte), 8) }
        let capacity = dataCodewords(version) * 8
        append(0, min(4, capacity - bits.count))
        append(0, (8 - bits.count % 8) % 8)
        var out: [UInt8] = stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(0) { $0 << 1 | ($1 ? 1 : 0) }
        }
        var pad: UInt8 = 0xEC
        while out.count < capacity / 8 {
            out.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        return out
    }

    /// The data split into blocks, each with its Reed-Solomon codewords, interleaved.
    private static func codewords(_ data: [UInt8], version: Int) -> [UInt8] {
        let layout = blocks[version - 1]
        var dataBlocks: [[UInt8]] = []
        var offset = 0
        for group in layout.groups {
            for _ in 0..<group.count {
                dataBlocks.append(Array(data[offset..<offset + group.data]))
                offset += group.data
            }
        }
        let divisor = ReedSolomon.divisor(degree: layout.ecPerBlock)
        let ecBlocks = dataBlocks.map { ReedSolomon.remainder($0, divisor) }
        var out: [UInt8] = []
        for index in 0..<(dataBlocks.map(\.count).max() ?? 0) {
            for block in dataBlocks where index < block.count { out.append(block[index]) }
        }
        for index in 0..<layout.ecPerBlock {
            for block in ecBlocks { out.append(block[index]) }
        }
        return out
    }

    /// The code for a terminal: two rows of modules a line (upper half block, foreground the
    /// upper module, background the lower), four light modules of quiet zone around it.
    package func terminalDrawing() -> String {
        let quiet = 4
        let span = size + 2 * quiet
        func dark(_ row: Int, _ column: Int) -> Bool {
            let r = row - quiet, c = column - quiet
            return r >= 0 && r < size && c >= 0 && c < size && modules[r][c]
        }
        var out = ""
        for row in stride(from: 0, to: span, by: 2) {
            for column in 0..<span {
                let top = dark(row, column), bottom = row + 1 < span && dark(row + 1, column)
                out += "\u{1B}[\(top ? 30 : 97);\(bottom ? 40 : 107)m▀"
            }
            out += "\u{1B}[0m\n"
        }
        return out
    }
}

/// Arithmetic in GF(256) with the QR polynomial x^8 + x^4 + x^3 + x^2 + 1.
enum ReedSolomon {
    static func multiply(_ x: UInt8, _ y: UInt8) -> UInt8 {
        var z = 0
        for i in (0..<8).reversed() {
            z = (z << 1) ^ ((z >> 7) * 0x11D)
            z ^= ((Int(y) >> i) & 1) * Int(x)
        }
        return UInt8(z)
    }

    /// The generator polynomial's coefficients (highest first, leading 1 left out).
    static func divisor(degree: Int) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: degree)
        result[degree - 1] = 1
        var root: UInt8 = 1
        for _ in 0..<degree {
            for j in 0..<degree {
                result[j] = multiply(result[j], root)
                if j + 1 < degree { result[j] ^= result[j + 1] }
            }
            root = multiply(root, 0x02)
        }
        return result
    }

    static func remainder(_ data: [UInt8], _ divisor: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: divisor.count)
        for byte in data {
            let factor = byte ^ result.removeFirst()
            result.append(0)
            for i in result.indices { result[i] ^= multiply(divisor[i], factor) }
        }
        return result
    }
}

/// The module grid while it is being built: which modules are dark, which belong to patterns.
private struct Grid {
    var dark: [[Bool]]
    var function: [[Bool]]
    let size: Int

    init(size: Int) {
        self.size = size
        dark = Array(repeating: Array(repeating: false, count: size), count: size)
        function = dark
    }

    mutating func set(_ x: Int, _ y: Int, _ value: Bool) {
        dark[y][x] = value
        function[y][x] = true
    }

    mutating func drawFunctionPatterns(version: Int) {
        for i in 0..<size {
            set(6, i, i % 2 == 0)
            set(i, 6, i % 2 == 0)
        }
        for (cx, cy) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            for dy in -4...4 {
                for dx in -4...4 {
                    let x = cx + dx, y = cy + dy
                    guard x >= 0, x < size, y >= 0, y < size else { continue }
                    let distance = max(abs(dx), abs(dy))
                    set(x, y, distance != 2 && distance != 4)
                }
            }
        }
        let positions = Self.alignmentPositions(version: version, size: size)
        for (i, x) in positions.enumerated() {
            for (j, y) in positions.enumerated() {
                let last = positions.count - 1
                if (i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0) { continue }
                for dy in -2...2 {
                    for dx in -2...2 { set(x + dx, y + dy, max(abs(dx), abs(dy)) != 1) }
                }
            }
        }
        drawFormat(mask: 0)  // reserves the format areas; drawn again with the chosen mask
        if version >= 7 {
            var remainder = version
            for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
            let bits = version << 12 | remainder
            for i in 0..<18 {
                let bit = (bits >> i) & 1 == 1
                let a = size - 11 + i % 3, b = i / 3
                set(a, b, bit)
                set(b, a, bit)
            }
        }
    }

    static func alignmentPositions(version: Int, size: Int) -> [Int] {
        guard version > 1 else { return [] }
        let count = version / 7 + 2
        let step = (version * 8 + count * 3 + 5) / (count * 4 - 4) * 2
        var result = [6]
        var position = size - 7
        for _ in 0..<(count - 1) {
            result.insert(position, at: 1)
            position -= step
        }
        return result
    }

    /// Level L (format bits 01) and the mask, with their BCH code, in both copies; and the dark module.
    mutating func drawFormat(mask: Int) {
        let data = 1 << 3 | mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = (data << 10 | remainder) ^ 0x5412
        func bit(_ i: Int) -> Bool { (bits >> i) & 1 == 1 }
        for i in 0..<6 { set(8, i, bit(i)) }
        set(8, 7, bit(6))
        set(8, 8, bit(7))
        set(7, 8, bit(8))
        for i in 9..<15 { set(14 - i, 8, bit(i)) }
        for i in 0..<8 { set(size - 1 - i, 8, bit(i)) }
        for i in 8..<15 { set(8, size - 15 + i, bit(i)) }
        set(8, size - 8, true)
    }

    /// The codewords in the zigzag order, two columns at a time from the right, skipping the
    /// vertical timing pattern.
    mutating func drawCodewords(_ data: [UInt8]) {
        var index = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            for vertical in 0..<size {
                for j in 0..<2 {
                    let x = right - j
                    let upward = (right + 1) & 2 == 0
                    let y = upward ? size - 1 - vertical : vertical
                    if !function[y][x], index < data.count * 8 {
                        dark[y][x] = (data[index >> 3] >> (7 - (index & 7))) & 1 == 1
                        index += 1
                    }
                }
            }
            right -= 2
        }
    }

    mutating func applyMask(_ mask: Int) {
        for y in 0..<size {
            for x in 0..<size where !function[y][x] {
                let flip: Bool
                switch mask {
                case 0: flip = (x + y) % 2 == 0
                case 1: flip = y % 2 == 0
                case 2: flip = x % 3 == 0
                case 3: flip = (x + y) % 3 == 0
                case 4: flip = (x / 3 + y / 2) % 2 == 0
                case 5: flip = x * y % 2 + x * y % 3 == 0
                case 6: flip = (x * y % 2 + x * y % 3) % 2 == 0
                default: flip = ((x + y) % 2 + x * y % 3) % 2 == 0
                }
                if flip { dark[y][x].toggle() }
            }
        }
    }

    /// The standard's penalty: runs of five or more, 2x2 blocks, finder-like patterns, balance.
    func penalty() -> Int {
        var score = 0
        func lines(_ horizontal: Bool) -> [[Bool]] {
            horizontal ? dark : (0..<size).map { x in (0..<size).map { y in dark[y][x] } }
        }
        for horizontal in [true, false] {
            for line in lines(horizontal) {
                var run = 1
                for i in 1..<line.count {
                    if line[i] == line[i - 1] {
                        run += 1
                    } else {
                        if run >= 5 { score += run - 2 }
                        run = 1
                    }
                }
                if run >= 5 { score += run - 2 }
                // 1:1:3:1:1 with four light modules on either side.
                let pattern: [Bool] = [true, false, true, true, true, false, true]
                for start in 0..<line.count - 6 where Array(line[start..<start + 7]) == pattern {
                    let before = (max(0, start - 4)..<start).allSatisfy { !line[$0] }
                    let after = (start + 7..<min(line.count, start + 11)).allSatisfy { !line[$0] }
                    if before || after { score += 40 }
                }
            }
        }
        for y in 0..<size - 1 {
            for x in 0..<size - 1 {
                let c = dark[y][x]
                if c == dark[y][x + 1] && c == dark[y + 1][x] && c == dark[y + 1][x + 1] { score += 3 }
            }
        }
        let darkCount = dark.reduce(0) { $0 + $1.count(where: { $0 }) }
        let total = size * size
        let k = (abs(darkCount * 20 - total * 10) + total - 1) / total - 1
        score += max(0, k) * 10
        return score
    }
}
