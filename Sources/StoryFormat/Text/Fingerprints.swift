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

/// 64-bit FNV-1a: not cryptographic, a byte at a time. For hash tables and short keys.
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

/// XXH64, xxHash's 64-bit hash (seed 0), as its specification defines it: four lanes of eight
/// bytes a round, so a large file is hashed at about the speed memory is read, where FNV-1a goes
/// a byte at a time with each byte waiting on the last.
public enum XXH64 {
    static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    @inline(__always) static func rotate(_ value: UInt64, _ by: UInt64) -> UInt64 { (value << by) | (value >> (64 - by)) }

    @inline(__always) static func round(_ lane: UInt64, _ input: UInt64) -> UInt64 {
        rotate(lane &+ input &* prime2, 31) &* prime1
    }

    @inline(__always) static func merge(_ hash: UInt64, _ lane: UInt64) -> UInt64 {
        (hash ^ round(0, lane)) &* prime1 &+ prime4
    }

    public static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let count = bytes.count
        var hash: UInt64
        var at = 0
        let raw = UnsafeRawPointer(bytes.baseAddress)
        @inline(__always) func word(_ offset: Int) -> UInt64 { raw!.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian }
        if count >= 32 {
            var lanes = (prime1 &+ prime2, prime2, UInt64(0), 0 &- prime1)
            while at + 32 <= count {
                lanes.0 = round(lanes.0, word(at))
                lanes.1 = round(lanes.1, word(at + 8))
                lanes.2 = round(lanes.2, word(at + 16))
                lanes.3 = round(lanes.3, word(at + 24))
                at += 32
            }
            hash = rotate(lanes.0, 1) &+ rotate(lanes.1, 7) &+ rotate(lanes.2, 12) &+ rotate(lanes.3, 18)
            hash = merge(merge(merge(merge(hash, lanes.0), lanes.1), lanes.2), lanes.3)
        } else {
            hash = prime5
        }
        hash &+= UInt64(count)
        while at + 8 <= count {
            hash = rotate(hash ^ round(0, word(at)), 27) &* prime1 &+ prime4
            at += 8
        }
        if at + 4 <= count {
            let half = UInt64(raw!.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian)
            hash = rotate(hash ^ (half &* prime1), 23) &* prime2 &+ prime3
            at += 4
        }
        while at < count {
            hash = rotate(hash ^ (UInt64(bytes[at]) &* prime5), 11) &* prime1
            at += 1
        }
        hash ^= hash >> 33
        hash &*= prime2
        hash ^= hash >> 29
        hash &*= prime3
        hash ^= hash >> 32
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
