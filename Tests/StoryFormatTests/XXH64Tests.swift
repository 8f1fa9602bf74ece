import StoryFormat
import Testing

/// XXH64 gives the hashes xxHash's reference gives (these were computed with the `xxhash`
/// Python package, which wraps the reference C library), at every length where the algorithm
/// takes another path: the four lanes from 32 bytes, then eight, four and single bytes left over.
@Suite("XXH64")
struct XXH64Tests {
    /// Bytes (i * 7 + 3) mod 256, their first `count`, and the reference's hash of them.
    static let reference: [(count: Int, hash: UInt64)] = [
        (0, 0xef46_db37_51d8_e999), (1, 0x1f25_c8d0_bc1f_4bb6), (3, 0x31d2_363f_52e5_64c9), (4, 0x9bb6_4b7d_66ee_9fda),
        (7, 0x9a7b_1499_59ce_60d8), (8, 0xdab9_9d95_c6f9_0092), (11, 0x7a52_cc94_57cf_1a1f), (31, 0xa2aa_5f33_cc4a_6119),
        (32, 0x23c3_c17e_f790_fd97), (33, 0x50a7_cfc7_ba58_8784), (63, 0x5e3e_54b4_31c7_493c), (64, 0x0eb6_4b3e_f6ee_b01f),
        (100, 0xa61f_8d4c_170f_e531), (1000, 0x5f23_5fa0_33f1_a3fb),
    ]

    @Test("agrees with the reference at every length where the algorithm changes path")
    func agreesWithTheReference() {
        let bytes = (0..<1000).map { UInt8(($0 * 7 + 3) % 256) }
        for (count, hash) in Self.reference {
            #expect(XXH64.hash(Array(bytes[..<count])) == hash, "\(count) bytes")
        }
        #expect(XXH64.hash(Array("abc".utf8)) == 0x44bc_2cf5_ad77_0999)
    }

    @Test("reads its input where it lies: a slice of a larger buffer hashes as its own bytes")
    func unaligned() {
        let bytes = (0..<1000).map { UInt8(($0 * 7 + 3) % 256) }
        let padded = [0xAA] + bytes
        let hash = padded.withUnsafeBufferPointer { XXH64.hash(UnsafeBufferPointer(rebasing: $0[1...])) }
        #expect(hash == 0x5f23_5fa0_33f1_a3fb)
    }
}
