import Foundation
import StoryFormat
import TestSupport
import Testing

/// A large output made in pieces while it is written (the Twee and Twine exports): the pieces
/// are the output, in order, whatever their cuts; each but the last is at least the piece size;
/// and the maker never runs more than two pieces ahead of the writer.
@Suite("pieces made ahead")
struct PiecesMadeAheadTests {
    /// Unit `n` written: its number and `n % 7` filler bytes, so units differ in size.
    static func unit(_ n: Int, _ out: inout [UInt8]) {
        out.append(contentsOf: "<\(n)>".utf8)
        out.append(contentsOf: repeatElement(UInt8(0x61 + n % 26), count: n % 7))
    }

    static func whole(_ count: Int, head: [UInt8], tail: [UInt8]) -> [UInt8] {
        var out = head
        for n in 0..<count { unit(n, &out) }
        return out + tail
    }

    @Test("joined, the pieces are the output made in one go, head first and tail last, for any count and piece size")
    func piecesAreTheWhole() {
        let head = Array("HEAD".utf8), tail = Array("TAIL".utf8)
        for count in [0, 1, 2, 50, 999, 5_000] {
            for pieceSize in [1, 10, 100, 4096, 1 << 20] {
                let pieces = PiecesMadeAhead(count: count, pieceSize: pieceSize, leastSize: { "<\($0)>".utf8.count }, head: head, tail: tail) { n, out in Self.unit(n, &out) }
                let made = Array(pieces)
                #expect(Array(made.joined()) == Self.whole(count, head: head, tail: tail), "count \(count), piece size \(pieceSize)")
                // Cut where the least sizes first reach the piece size (the head counted in the
                // first); units after the last cut are the last piece, and no units one piece.
                var cuts = 0, size = head.count, since = 0
                for n in 0..<count {
                    size += "<\(n)>".utf8.count
                    since += 1
                    if size >= pieceSize { cuts += 1; size = 0; since = 0 }
                }
                #expect(made.count == cuts + (since > 0 || cuts == 0 ? 1 : 0), "count \(count), piece size \(pieceSize)")
                #expect(made.dropLast().allSatisfy { $0.count >= pieceSize }, "count \(count), piece size \(pieceSize)")
                // A second pass over the same pieces makes them again, the same.
                #expect(Array(pieces) == made)
            }
        }
    }

    @Test("an output under two pieces is one piece; a large one is cut")
    func cuts() {
        let small = PiecesMadeAhead(count: 100, pieceSize: 1 << 20, leastSize: { _ in 3 }) { n, out in Self.unit(n, &out) }
        #expect(Array(small).count == 1)
        let large = PiecesMadeAhead(count: 100_000, pieceSize: 64 << 10, leastSize: { "<\($0)>".utf8.count }) { n, out in Self.unit(n, &out) }
        #expect(Array(large).count > 5)
    }

    /// Planning every cut before the first piece kept the other core idle while a large story's
    /// sizes were summed; a piece's cut is planned when it is started.
    @Test("a piece's cut is planned when the piece is started: nothing is sized before the pieces are taken, and no unit past the two pieces made ahead")
    func cutsPlannedAsTaken() {
        let sized = HighestUnit()
        let count = 2_000
        let pieces = PiecesMadeAhead(count: count, pieceSize: 100, leastSize: { n in
            sized.reached(n)
            return 10
        }, append: { (_: Int, out: inout [UInt8]) in out.append(contentsOf: repeatElement(0x7A, count: 10)) })
        #expect(sized.value == -1, "sized before any piece was asked for")
        var taken = 0
        for _ in pieces {
            let reached = sized.value
            #expect(reached < (taken + 2) * 10, "piece \(taken) taken when unit \(reached) was sized")
            taken += 1
        }
        #expect(taken == count / 10 && sized.value == count - 1)
    }

    /// What is made ahead is bounded: when the writer takes piece k, no unit of piece k + 3 or
    /// later has been made, so at most three pieces are held at once.
    @Test("the maker runs at most two pieces ahead of the writer")
    func boundedAhead() {
        let highest = HighestUnit()
        let count = 2_000
        let pieces = PiecesMadeAhead(count: count, pieceSize: 100, leastSize: { _ in 10 }) { n, out in
            highest.reached(n)
            out.append(contentsOf: repeatElement(0x7A, count: 10))
        }
        var taken = 0
        for piece in pieces {
            #expect(piece.count == 100)
            // Pieces taken so far: taken + 1; units made cannot reach past two more pieces.
            let limit = (taken + 3) * 10
            let reached = highest.value
            #expect(reached < limit, "piece \(taken) taken when unit \(reached) was made")
            // The writer is slow: the maker has time to run ahead if it would.
            if taken % 50 == 0 { usleep(2_000) }
            taken += 1
        }
        #expect(taken == count / 10)
    }
}
