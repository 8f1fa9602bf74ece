/// Recognising files by their first bytes, and hashing bytes: shared by the checks, the library
/// and the reader.
/// The picture formats readers show, each with its name, media type and file extension: a
/// closed set, so a new format is a new case every switch must handle.
public enum PictureFormat: Sendable, CaseIterable {
    case png, jpeg, gif, webp

    /// The format of a file from its first bytes (12 are enough), or nil for anything else.
    public static func detect(_ prefix: [UInt8]) -> PictureFormat? {
        if prefix.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if prefix.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if prefix.starts(with: Array("GIF87a".utf8)) || prefix.starts(with: Array("GIF89a".utf8)) { return .gif }
        if prefix.count >= 12, prefix.starts(with: Array("RIFF".utf8)), Array(prefix[8..<12]) == Array("WEBP".utf8) { return .webp }
        return nil
    }

    /// Its name for people: "PNG", "JPEG", "GIF", "WebP".
    public var name: String {
        switch self {
        case .png: "PNG"
        case .jpeg: "JPEG"
        case .gif: "GIF"
        case .webp: "WebP"
        }
    }

    public var mediaType: String {
        switch self {
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        case .gif: "image/gif"
        case .webp: "image/webp"
        }
    }

    public var fileExtension: String {
        switch self {
        case .png: "png"
        case .jpeg: "jpg"
        case .gif: "gif"
        case .webp: "webp"
        }
    }

    /// The media type of a PNG, JPEG, GIF or WebP file from its first bytes, or nil for anything
    /// else (whatever a server called it).
    public static func mediaType(_ prefix: [UInt8]) -> String? { detect(prefix)?.mediaType }
}

/// 64-bit FNV-1a: fast, not cryptographic. For hash tables and content versions.
public enum FNV1a {
    @inlinable
    public static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }

    public static func hash(_ bytes: [UInt8]) -> UInt64 { bytes.withUnsafeBufferPointer { hash($0) } }
}

/// CRC-32 (IEEE 802.3, reflected, as ZIP and PNG use), a table of 256 made once.
public enum CRC32 {
    static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    public static func checksum(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        data.withUnsafeBufferPointer { buffer in
            for byte in buffer { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
