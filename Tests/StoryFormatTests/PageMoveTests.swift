#if canImport(Glibc)
import Glibc
#endif
import Testing

@testable import StoryFormat

/// Joining large buffers by moving pages (`PageMove`) must put exactly the source's bytes at the
/// destination, whatever the two addresses' places in their pages, and leave the bytes around
/// the destination as they were.
@Suite("Page moves")
struct PageMoveTests {
    @Test("the bytes arrive whole: aligned, shifted within a page, too short to move, without room to shift, pieces across 2 MiB boundaries")
    func bytesArrive() throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let size = 12 << 20
        // (offset of the source in its buffer, offset of the destination, bytes, slack)
        let cases: [(Int, Int, Int, Int)] = [
            (48, 48, 5 << 20, page),  // same place in the page: moved as it is
            (48, 48 + 12 * 1_234_567 % page, 5 << 20, page),  // a shift within the source's room first
            (0, 0, 4 << 20, 0),  // both page-aligned
            (100, 4000, 3 << 20 + 77, 0),  // no room to shift: copied
            (7, 9, 300, page),  // too short to move: copied
            (48, 2 << 20 - 4096 + 48, 6 << 20 + 13, page),  // pieces cut at the source's 2 MiB boundaries
        ]
        for (sourceOffset, destinationOffset, count, slack) in cases {
            let source = try #require(mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
            let destination = try #require(mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
            defer {
                munmap(source, size)
                munmap(destination, size)
            }
            let bytes = source.assumingMemoryBound(to: UInt8.self)
            for index in 0..<(sourceOffset + count) { bytes[index] = UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 7) }
            let expected = Array(UnsafeBufferPointer(start: bytes + sourceOffset, count: count))
            let target = destination.assumingMemoryBound(to: UInt8.self)
            memset(target, 0xAB, destinationOffset)
            memset(target + destinationOffset + count, 0xCD, size - destinationOffset - count)
            PageMove.move(from: source + sourceOffset, count: count, slack: slack, to: destination + destinationOffset)
            // Compared first, then expected: a failing comparison of megabytes is not worth describing.
            let arrived = memcmp(target + destinationOffset, expected, count) == 0
            let before = UnsafeBufferPointer(start: target, count: destinationOffset).allSatisfy { $0 == 0xAB }
            let after = UnsafeBufferPointer(start: target + destinationOffset + count, count: size - destinationOffset - count).allSatisfy { $0 == 0xCD }
            #expect(arrived, "\(sourceOffset) -> \(destinationOffset), \(count) bytes")
            #expect(before, "the bytes before are kept")
            #expect(after, "the bytes after are kept")
        }
    }

    @Test("a tree read in two parts and joined by its pages is the tree read in one pass, node for node, large enough for pages to move")
    func joinedTree() {
        // 20,000 chapters: about 4 MB and 400,000 nodes, each part's well over the least moved.
        let bytes = TwoPartParseTests.story(20_000)
        var one = JSONParser.Options()
        one.twoPartsFrom = .max
        var two = JSONParser.Options()
        two.twoPartsFrom = 0
        let a = JSONParser(options: one).parse(SourceBytes(bytes)), b = JSONParser(options: two).parse(SourceBytes(bytes))
        #expect(b.secondPartFrom != nil, "the second part was taken")
        #expect(a.document?.nodes.count == b.document?.nodes.count)
        let same = a.document?.nodes.map { [$0.kindAndNext, $0.startAndFlags, $0.end] } == b.document?.nodes.map { [$0.kindAndNext, $0.startAndFlags, $0.end] }
        #expect(same, "every node the same")
    }
}
