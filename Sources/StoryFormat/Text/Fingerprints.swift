/// Recognising files by their first bytes, and hashing bytes: shared by the checks, the library
/// and the reader.
public enum PictureFormat {
    /// "PNG", "JPEG", "GIF" or "WebP" from a file's first bytes (12 are enough), or nil.
    public static func detect(_ prefix: [UInt8]) -> String? {
        if prefix.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "PNG" }
        if prefix.starts(with: [0xFF, 0xD8, 0xFF]) { return "JPEG" }
        if prefix.starts(with: Array("GIF87a".utf8)) || prefix.starts(with: Array("GIF89a".utf8)) { return "GIF" }
        if prefix.count >= 12, prefix.starts(with: Array("RIFF".utf8)), Array(prefix[8..<12]) == Array("WEBP".utf8) { return "WebP" }
        return nil
    }

    /// The media type of a PNG, JPEG, GIF or WebP file from its first bytes, or nil for anything
    /// else (whatever a server called it).
    public static func mediaType(_ prefix: [UInt8]) -> String? {
        switch detect(prefix) {
        case "PNG": "image/png"
        case "JPEG": "image/jpeg"
        case "GIF": "image/gif"
        case "WebP": "image/webp"
        default: nil
        }
    }
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
