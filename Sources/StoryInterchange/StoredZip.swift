import StoryFormat

/// A ZIP archive of stored (uncompressed) entries, in the order added: what an EPUB needs (its
/// `mimetype` must come first, stored, with no extra field). PKWARE's APPNOTE: a local header and
/// the bytes for each entry, then the central directory and its end record. No ZIP64: an entry
/// or the archive past 4 GiB is refused. The byte helpers are static: a method of the value
/// itself, called with one of its arrays in-out, would copy the array on every append.
struct StoredZip {
    private(set) var bytes: [UInt8] = []
    private var directory: [UInt8] = []
    private var count = 0

    enum Failure: Error, Equatable {
        /// Past 4 GiB.
        case tooLarge
        /// Past 65,535 entries.
        case tooManyEntries
    }

    mutating func add(_ name: String, _ data: [UInt8]) throws(Failure) {
        let nameBytes = Array(name.utf8)
        guard count < 0xFFFF else { throw .tooManyEntries }
        guard data.count < 0xFFFF_FFFF, bytes.count + data.count + nameBytes.count + 30 < 0xFFFF_FFFF else { throw .tooLarge }
        let crc = CRC32.checksum(data)
        let offset = UInt32(bytes.count)
        // Local file header.
        Self.append32(&bytes, 0x0403_4B50)
        Self.append16(&bytes, 20)  // version needed: 2.0
        Self.append16(&bytes, 0x0800)  // flags: names are UTF-8
        Self.append16(&bytes, 0)  // stored
        Self.append16(&bytes, 0)  // time
        Self.append16(&bytes, 0x21)  // date: 1980-01-01
        Self.append32(&bytes, crc)
        Self.append32(&bytes, UInt32(data.count))
        Self.append32(&bytes, UInt32(data.count))
        Self.append16(&bytes, UInt16(nameBytes.count))
        Self.append16(&bytes, 0)  // no extra field
        bytes += nameBytes
        bytes += data
        // Its central directory entry.
        Self.append32(&directory, 0x0201_4B50)
        Self.append16(&directory, 20)  // made by
        Self.append16(&directory, 20)
        Self.append16(&directory, 0x0800)
        Self.append16(&directory, 0)
        Self.append16(&directory, 0)
        Self.append16(&directory, 0x21)
        Self.append32(&directory, crc)
        Self.append32(&directory, UInt32(data.count))
        Self.append32(&directory, UInt32(data.count))
        Self.append16(&directory, UInt16(nameBytes.count))
        Self.append16(&directory, 0)  // extra
        Self.append16(&directory, 0)  // comment
        Self.append16(&directory, 0)  // disk
        Self.append16(&directory, 0)  // internal attributes
        Self.append32(&directory, 0)  // external attributes
        Self.append32(&directory, offset)
        directory += nameBytes
        count += 1
    }

    /// The whole archive.
    func finished() -> [UInt8] {
        var out = bytes
        let start = UInt32(out.count)
        out += directory
        Self.append32(&out, 0x0605_4B50)
        Self.append16(&out, 0)
        Self.append16(&out, 0)
        Self.append16(&out, UInt16(count))
        Self.append16(&out, UInt16(count))
        Self.append32(&out, UInt32(directory.count))
        Self.append32(&out, start)
        Self.append16(&out, 0)
        return out
    }

    private static func append16(_ out: inout [UInt8], _ value: UInt16) {
        out.append(UInt8(value & 0xFF))
        out.append(UInt8(value >> 8))
    }

    private static func append32(_ out: inout [UInt8], _ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8((value >> UInt32(shift)) & 0xFF)) }
    }
}
