import StoryFormat

/// What a picture file's header says, read without decoding the picture: its format, its size in
/// pixels, and whether it carries an EXIF GPS position. Every read is bounds-checked and every
/// loop bounded by the bytes given, so a hostile file costs at most one pass over them.
public struct PictureHeader: Sendable, Equatable {
    public var format: PictureFormat
    public var width: Int
    public var height: Int
    /// The GPS position in its EXIF data, when it has one.
    public var position: GPSPosition?
    /// For a progressive JPEG, the scans counted in the bytes read (a reader decodes at most
    /// `maximumScans`); nil for other pictures.
    public var scans: Int?

    /// The most scans a reader decodes (libjpeg is stopped after them; djpeg's -maxscans).
    public static let maximumScans = 100

    public init(format: PictureFormat, width: Int, height: Int, position: GPSPosition? = nil, scans: Int? = nil) {
        self.format = format
        self.width = width
        self.height = height
        self.position = position
        self.scans = scans
    }

    /// Latitude and longitude in degrees (south and west negative), or nil parts when the EXIF
    /// data names a GPS block without readable coordinates.
    public struct GPSPosition: Sendable, Equatable {
        public var latitude: Double?
        public var longitude: Double?

        /// "51°30′N 0°7′W", or "a GPS position" when the numbers cannot be read.
        public var words: String {
            guard let latitude, let longitude else { return "a GPS position" }
            func part(_ value: Double, _ positive: String, _ negative: String) -> String {
                let degrees = Int(abs(value))
                let minutes = Int(((abs(value) - Double(degrees)) * 60).rounded(.down))
                return "\(degrees)°\(minutes)′\(value < 0 ? negative : positive)"
            }
            return part(latitude, "N", "S") + " " + part(longitude, "E", "W")
        }
    }

    /// Why a header cannot be read, in words.
    public struct Failure: Error, Sendable, Equatable {
        public var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// How much of a file is read for its header: enough for the EXIF block and colour profile a
    /// camera puts before a JPEG's frame header.
    public static let bytesNeeded = 1 << 20

    /// Reads the header from the first bytes of a file (up to `bytesNeeded`); nil when the bytes
    /// are not a PNG, JPEG, GIF or WebP at all (CYD605's finding).
    public static func read(_ bytes: [UInt8]) -> Result<PictureHeader, Failure>? {
        guard let format = PictureFormat.detect(Array(bytes.prefix(12))) else { return nil }
        var reader = ByteReader(bytes)
        let result: Result<PictureHeader, Failure>
        switch format {
        case .png: result = png(&reader)
        case .jpeg: result = jpeg(&reader)
        case .gif: result = gif(&reader)
        case .webp: result = webp(&reader)
        }
        if case .success(let header) = result, header.width <= 0 || header.height <= 0 {
            return .failure(Failure("its header gives a size of \(header.width) x \(header.height) pixels"))
        }
        return result
    }

    // MARK: Formats

    static func png(_ reader: inout ByteReader) -> Result<PictureHeader, Failure> {
        // Signature, then IHDR: length 13, "IHDR", width, height (big-endian).
        guard let length = reader.uint32(at: 8, bigEndian: true), reader.tag(at: 12) == "IHDR", length >= 8,
            let width = reader.uint32(at: 16, bigEndian: true), let height = reader.uint32(at: 20, bigEndian: true)
        else { return .failure(Failure("the PNG header (IHDR) is missing or cut short")) }
        var header = PictureHeader(format: .png, width: Int(width), height: Int(height))
        // Chunks up to the image data: an eXIf chunk holds EXIF.
        var offset = 8
        while let size = reader.uint32(at: offset, bigEndian: true), let tag = reader.tag(at: offset + 4) {
            if tag == "IDAT" || tag == "IEND" { break }
            if tag == "eXIf", let exif = reader.slice(offset + 8, Int(size)) { header.position = Exif.position(exif) }
            guard Int(size) <= reader.count else { break }
            offset += 12 + Int(size)
        }
        return .success(header)
    }

    static func gif(_ reader: inout ByteReader) -> Result<PictureHeader, Failure> {
        guard let width = reader.uint16(at: 6, bigEndian: false), let height = reader.uint16(at: 8, bigEndian: false) else {
            return .failure(Failure("the GIF header is cut short"))
        }
        return .success(PictureHeader(format: .gif, width: Int(width), height: Int(height)))
    }

    static func jpeg(_ reader: inout ByteReader) -> Result<PictureHeader, Failure> {
        var offset = 2
        var position: GPSPosition?
        // Each segment moves on by at least 2 bytes: at most count/2 steps.
        while offset < reader.count {
            guard reader.byte(at: offset) == 0xFF else { return .failure(Failure("the JPEG's segments are broken at byte \(offset)")) }
            // Fill bytes: any number of 0xFF before a marker.
            var markerOffset = offset + 1
            while reader.byte(at: markerOffset) == 0xFF { markerOffset += 1 }
            guard let marker = reader.byte(at: markerOffset) else { break }
            offset = markerOffset + 1
            // Markers without a length.
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }
            if marker == 0xD9 || marker == 0xDA { return .failure(Failure("the JPEG has no frame header before its image data")) }
            guard let length = reader.uint16(at: offset, bigEndian: true), length >= 2 else { break }
            let body = offset + 2
            let isFrame = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            if isFrame {
                guard let height = reader.uint16(at: body + 1, bigEndian: true), let width = reader.uint16(at: body + 3, bigEndian: true) else { break }
                // SOF2, SOF6, SOF10 and SOF14 are progressive: count the scans that follow.
                let progressive = marker == 0xC2 || marker == 0xC6 || marker == 0xCA || marker == 0xCE
                let scans = progressive ? countScans(reader, from: body + Int(length) - 2) : nil
                return .success(PictureHeader(format: .jpeg, width: Int(width), height: Int(height), position: position, scans: scans))
            }
            if marker == 0xE1, let segment = reader.slice(body, Int(length) - 2), segment.starts(with: Array("Exif\0\0".utf8)) {
                position = position ?? Exif.position(Array(segment.dropFirst(6)))
            }
            offset = body + Int(length) - 2
        }
        return .failure(Failure("the JPEG ends before its frame header (its size)"))
    }

    /// The start-of-scan markers from `offset` to the end of what was read (or a marker that is
    /// not a segment's), skipping each scan's entropy-coded data. One pass over the bytes.
    static func countScans(_ reader: ByteReader, from start: Int) -> Int {
        var scans = 0
        var offset = start
        while offset + 1 < reader.count {
            guard reader.byte(at: offset) == 0xFF, let marker = reader.byte(at: offset + 1) else { break }
            if marker == 0xFF {
                offset += 1  // fill byte
                continue
            }
            if marker == 0xD9 { break }
            offset += 2
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }
            guard let length = reader.uint16(at: offset, bigEndian: true), length >= 2 else { break }
            offset += Int(length)
            guard marker == 0xDA else { continue }
            scans += 1
            // Entropy-coded data runs to the next 0xFF that is not a stuffed 0x00 or a restart.
            while offset + 1 < reader.count {
                if reader.byte(at: offset) == 0xFF, let next = reader.byte(at: offset + 1), next != 0x00, !(0xD0...0xD7).contains(next) { break }
                offset += 1
            }
        }
        return scans
    }

    static func webp(_ reader: inout ByteReader) -> Result<PictureHeader, Failure> {
        var header: PictureHeader?
        var position: GPSPosition?
        var offset = 12
        while let tag = reader.tag(at: offset), let size = reader.uint32(at: offset + 4, bigEndian: false) {
            let body = offset + 8
            switch tag {
            case "VP8X":
                if let width = reader.uint24(at: body + 4), let height = reader.uint24(at: body + 7) {
                    header = header ?? PictureHeader(format: .webp, width: width + 1, height: height + 1)
                }
            case "VP8 ":
                // Frame tag (3 bytes), start code 9D 01 2A, then 14-bit width and height.
                if reader.byte(at: body + 3) == 0x9D, reader.byte(at: body + 4) == 0x01, reader.byte(at: body + 5) == 0x2A,
                    let width = reader.uint16(at: body + 6, bigEndian: false), let height = reader.uint16(at: body + 8, bigEndian: false)
                {
                    header = header ?? PictureHeader(format: .webp, width: Int(width & 0x3FFF), height: Int(height & 0x3FFF))
                }
            case "VP8L":
                // Signature 0x2F, then width-1 and height-1 in 14 bits each.
                if reader.byte(at: body) == 0x2F, let bits = reader.uint32(at: body + 1, bigEndian: false) {
                    header = header ?? PictureHeader(format: .webp, width: Int(bits & 0x3FFF) + 1, height: Int((bits >> 14) & 0x3FFF) + 1)
                }
            case "EXIF":
                if let exif = reader.slice(body, Int(size)) {
                    position = Exif.position(exif.starts(with: Array("Exif\0\0".utf8)) ? Array(exif.dropFirst(6)) : exif)
                }
            default: break
            }
            guard Int(size) <= reader.count else { break }
            offset = body + Int(size) + Int(size & 1)
        }
        guard var header else { return .failure(Failure("the WebP has no readable frame header")) }
        header.position = position
        return .success(header)
    }
}

/// EXIF's TIFF structure, only as far as the GPS block.
enum Exif {
    /// The GPS position of EXIF data (starting at its TIFF header), or nil when it has none.
    static func position(_ bytes: [UInt8]) -> PictureHeader.GPSPosition? {
        var reader = ByteReader(bytes)
        let bigEndian: Bool
        if bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { bigEndian = true } else if bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) {
            bigEndian = false
        } else {
            return nil
        }
        guard let first = reader.uint32(at: 4, bigEndian: bigEndian),
            let pointer = entry(0x8825, inDirectoryAt: Int(first), &reader, bigEndian: bigEndian)?.value
        else { return nil }
        // A GPS block with no entries says nothing.
        guard let count = reader.uint16(at: Int(pointer), bigEndian: bigEndian), count > 0 else { return nil }
        func coordinate(_ tag: UInt16, _ referenceTag: UInt16, negative: UInt8) -> Double? {
            guard let found = entry(tag, inDirectoryAt: Int(pointer), &reader, bigEndian: bigEndian), found.type == 5, found.count == 3 else { return nil }
            var parts: [Double] = []
            for index in 0..<3 {
                guard let numerator = reader.uint32(at: Int(found.value) + index * 8, bigEndian: bigEndian),
                    let denominator = reader.uint32(at: Int(found.value) + index * 8 + 4, bigEndian: bigEndian), denominator > 0
                else { return nil }
                parts.append(Double(numerator) / Double(denominator))
            }
            let value = parts[0] + parts[1] / 60 + parts[2] / 3600
            // The reference ("N"/"S", "E"/"W") is an ASCII value held in the entry itself.
            let reference = entry(referenceTag, inDirectoryAt: Int(pointer), &reader, bigEndian: bigEndian)?.inline
            return reference == negative ? -value : value
        }
        let latitude = coordinate(2, 1, negative: UInt8(ascii: "S"))
        let longitude = coordinate(4, 3, negative: UInt8(ascii: "W"))
        // A GPS block without coordinates (a camera with no fix writes one) gives nothing away.
        let hasCoordinates = entry(2, inDirectoryAt: Int(pointer), &reader, bigEndian: bigEndian) != nil
            || entry(4, inDirectoryAt: Int(pointer), &reader, bigEndian: bigEndian) != nil
        guard hasCoordinates else { return nil }
        return .init(latitude: latitude, longitude: longitude)
    }

    struct Entry {
        var type: UInt16
        var count: UInt32
        /// The value or the offset of the values (as a number).
        var value: UInt32
        /// The first byte of the value field (for a short ASCII value held inline).
        var inline: UInt8?
    }

    /// The entry for `tag` in the directory at `offset` (at most 1,000 entries are looked at).
    static func entry(_ tag: UInt16, inDirectoryAt offset: Int, _ reader: inout ByteReader, bigEndian: Bool) -> Entry? {
        guard let count = reader.uint16(at: offset, bigEndian: bigEndian) else { return nil }
        for index in 0..<min(Int(count), 1000) {
            let at = offset + 2 + index * 12
            guard let found = reader.uint16(at: at, bigEndian: bigEndian) else { return nil }
            guard found == tag else { continue }
            guard let type = reader.uint16(at: at + 2, bigEndian: bigEndian), let count = reader.uint32(at: at + 4, bigEndian: bigEndian),
                let value = reader.uint32(at: at + 8, bigEndian: bigEndian)
            else { return nil }
            return Entry(type: type, count: count, value: value, inline: reader.byte(at: at + 8))
        }
        return nil
    }
}

/// Bounds-checked reads from bytes: every read past the end is nil.
struct ByteReader {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    var count: Int { bytes.count }

    func byte(at offset: Int) -> UInt8? { offset >= 0 && offset < bytes.count ? bytes[offset] : nil }

    func uint16(at offset: Int, bigEndian: Bool) -> UInt16? {
        guard offset >= 0, offset <= bytes.count - 2 else { return nil }
        let (a, b) = (UInt16(bytes[offset]), UInt16(bytes[offset + 1]))
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func uint24(at offset: Int) -> Int? {
        guard offset >= 0, offset <= bytes.count - 3 else { return nil }
        return Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16
    }

    func uint32(at offset: Int, bigEndian: Bool) -> UInt32? {
        guard offset >= 0, offset <= bytes.count - 4 else { return nil }
        let values = (0..<4).map { UInt32(bytes[offset + $0]) }
        return bigEndian ? values[0] << 24 | values[1] << 16 | values[2] << 8 | values[3] : values[3] << 24 | values[2] << 16 | values[1] << 8 | values[0]
    }

    /// Four ASCII bytes (a chunk's name), or nil.
    func tag(at offset: Int) -> String? {
        guard offset >= 0, offset <= bytes.count - 4 else { return nil }
        return String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
    }

    /// `length` bytes from `offset`, or nil when they are not all there.
    func slice(_ offset: Int, _ length: Int) -> [UInt8]? {
        guard offset >= 0, length >= 0, length <= bytes.count - offset else { return nil }
        return Array(bytes[offset..<offset + length])
    }
}
