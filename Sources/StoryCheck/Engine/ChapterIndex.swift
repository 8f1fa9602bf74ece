#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StoryFormat

/// Chapter positions by id: an open-addressing table with FNV-1a over the id's bytes. Built once
/// per check and probed for every choice, so it is kept cheaper than a `[String: Int]`
/// (no per-process seeding, no per-lookup hasher set-up). With duplicate ids, the first wins.
///
/// Ids are the same when Swift compares them as the same, as every part of cyd and the readers
/// do: canonically equivalent text is one id, so "Café" written with a composed é (NFC) and with
/// an e and a combining accent (NFD) name one chapter. An ASCII id is its own composed form; any
/// other is hashed in its composed form (NFC), so that equivalent ids meet in the table.
public struct ChapterIndex: Sendable {
    private var slots: [Int32]
    private let ids: [String]
    private let mask: Int
    /// Each chapter whose id an earlier chapter holds, with the first chapter holding it, in
    /// chapter order (found while the table is built: no second look-up of every id).
    public private(set) var repeats: [(chapter: Int, first: Int)] = []

    public init(ids: [String?]) {
        var capacity = 16
        while capacity < ids.count * 2 { capacity <<= 1 }
        mask = capacity - 1
        slots = [Int32](repeating: -1, count: capacity)
        self.ids = ids.map { $0 ?? "" }
        for (position, id) in ids.enumerated() {
            guard let id else { continue }
            var slot = Self.hash(id) & mask
            while true {
                let occupant = slots[slot]
                if occupant < 0 {
                    slots[slot] = Int32(position)
                    break
                }
                if self.ids[Int(occupant)] == id {  // a duplicate: keep the first
                    repeats.append((position, Int(occupant)))
                    break
                }
                slot = (slot + 1) & mask
            }
        }
    }

    /// The position of the first chapter with this id.
    public subscript(id: String) -> Int? {
        var slot = Self.hash(id) & mask
        while true {
            let occupant = slots[slot]
            if occupant < 0 { return nil }
            if ids[Int(occupant)] == id { return Int(occupant) }
            slot = (slot + 1) & mask
        }
    }

    /// The position of the first chapter whose id is the text of a string node, comparing bytes
    /// in place (no string is made for the hundreds of thousands of choice targets).
    public func position(ofIDAt node: Int, in document: JSONDocument) -> Int? {
        document.withContentBytes(node) { bytes in
            // Escapes and non-ASCII text are compared as text (see above), the rest as bytes.
            guard let bytes, allASCII(bytes) else { return self[document.string(node)] }
            var slot = Self.hash(bytes) & mask
            while true {
                let occupant = slots[slot]
                if occupant < 0 { return nil }
                // Read where the id is: a copy to call `withUTF8` on was retained and released.
                let equal = ids[Int(occupant)].withExistingUTF8 { $0.count == bytes.count && memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
                if equal { return Int(occupant) }
                slot = (slot + 1) & mask
            }
        }
    }

    package static func hash(_ id: String) -> Int {
        if let plain = id.withExistingUTF8({ allASCII($0) ? hash($0) : nil }) { return plain }
        // The composed form (the standard library's, as its own `==` and hashing use).
        let composed = Array(id._nfcCodeUnits)
        return composed.withUnsafeBufferPointer { hash($0) }
    }

    package static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let hash = FNV1a.hash(bytes)
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }
}
