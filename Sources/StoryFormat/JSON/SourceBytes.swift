#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of a file being read: in memory, or mapped from the file (large files), shared by
/// the document, the findings and the reports without copies.
///
/// A mapped file costs memory only for the pages being looked at: each pass over the file (the
/// parser, the decoder, the text scan, the line count) tells `release(upTo:)` how far it has
/// come, and the pages behind are given back to the page cache, where the next pass finds them
/// again without reading the disk. So a 150 MB story is read in a few megabytes of the
/// process's own memory, plus its tree.
public final class SourceBytes: @unchecked Sendable, RandomAccessCollection {
    public let count: Int
    private let base: UnsafeMutableRawPointer?
    /// The bytes when they are an array kept as it is (`init(keeping:)`), not copied.
    private let kept: [UInt8]?
    private let mappedLength: Int
    /// Offset below which pages were last given back; only moves forward.
    private var releasedUpTo = 0
    private var nextRelease: Int
    /// Pages are given back in steps of this many bytes, a window this far behind the reader.
    public static let step = 4 << 20
    /// Files at least this large are worth mapping; smaller ones are read into memory.
    public static let mappingThreshold = 16 << 20

    /// Where the lines are, as a parse of these bytes counted them: set by `JSONParser` when it
    /// saw every line feed of the file (all in white space), read by `LineIndex.locate`, which
    /// then counts lines from the checkpoint before each finding instead of from the last one.
    /// Set before the bytes are shared with another thread (a parse comes first).
    public internal(set) var lineCheckpoints: LineCheckpoints?

    /// `bytes` themselves, kept without a copy: for bytes read already, whose report only
    /// needs them for its lines (a large translation read to be checked).
    public init(keeping bytes: [UInt8]) {
        count = bytes.count
        mappedLength = 0
        nextRelease = Int.max
        base = nil
        kept = bytes
    }

    /// A copy of `bytes` in memory.
    public init(_ bytes: [UInt8]) {
        kept = nil
        count = bytes.count
        mappedLength = 0
        nextRelease = Int.max
        if bytes.isEmpty {
            base = nil
        } else {
            let memory = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: 16)
            bytes.withUnsafeBytes { memory.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
            base = memory
        }
    }

    /// `size` bytes of the open file `fd` (a regular file), mapped read-only; nil when mapping fails.
    public init?(mapping fd: Int32, size: Int) {
        guard size > 0 else { return nil }
        let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0)
        guard let address, address != MAP_FAILED else { return nil }
        kept = nil
        _ = madvise(address, size, MADV_RANDOM)
        base = address
        count = size
        mappedLength = size
        nextRelease = Int.max
    }

    deinit {
        if mappedLength > 0 {
            munmap(base, mappedLength)
        } else {
            base?.deallocate()
        }
    }

    public var isMapped: Bool { mappedLength > 0 }

    /// Where a mapped file is in this process's memory, and its length (for a test to read what
    /// of it is resident in /proc/self/smaps); nil when the bytes are not mapped.
    package var mapping: (address: UInt, length: Int)? {
        guard isMapped, let base else { return nil }
        return (UInt(bitPattern: base), mappedLength)
    }
    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> UInt8 {
        precondition(position >= 0 && position < count, "offset out of range")
        if let kept { return kept[position] }
        return base!.load(fromByteOffset: position, as: UInt8.self)
    }

    public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if let kept { return try kept.withUnsafeBufferPointer(body) }
        return try body(UnsafeBufferPointer(start: base?.assumingMemoryBound(to: UInt8.self), count: count))
    }

    /// A pass over the file has come to `offset`: the pages more than a window behind it go back
    /// to the page cache (a later look re-reads them from there). Cheap to call often; does
    /// nothing for bytes in memory.
    @inline(__always) public func release(upTo offset: Int) {
        guard offset >= nextRelease else { return }
        releasePages(upTo: offset)
    }

    private func releasePages(upTo offset: Int) {
        releasedUpTo = giveBack(from: releasedUpTo, windowBehind: offset)
        nextRelease = offset + Self.step
    }

    /// Gives back the whole pages from `start` to a window behind `offset`; returns where the
    /// given-back range now ends. Touches no state, so passes on two threads may both call it
    /// (a page one of them still reads is read again from the page cache).
    private func giveBack(from start: Int, windowBehind offset: Int) -> Int {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        // At the end of the file, everything goes (the last page may be partly the file's).
        return giveBack(from: start, to: offset >= count ? count : (offset - Self.step) / page * page)
    }

    /// Gives back the pages from `start` to `end` (a page boundary, or the file's end).
    private func giveBack(from start: Int, to end: Int) -> Int {
        guard end > start, let base, isMapped else { return start }
        _ = madvise(base + start, end - start, MADV_DONTNEED)
        return end
    }

    /// A pass run beside the others, on another thread: it gives its pages back through its
    /// own record of how far it has come, sharing no state with `beginPass` and `release`.
    public struct Sweep: Sendable {
        let bytes: SourceBytes
        private var releasedUpTo = 0
        private var nextRelease = SourceBytes.step * 2

        init(_ bytes: SourceBytes, from start: Int) {
            self.bytes = bytes
            let page = Int(sysconf(Int32(_SC_PAGESIZE)))
            releasedUpTo = start / page * page
            nextRelease = start + SourceBytes.step * 2
        }

        /// The pass has come to `offset` (as `release(upTo:)`).
        @inline(__always) public mutating func release(upTo offset: Int) {
            guard offset >= nextRelease else { return }
            releasedUpTo = bytes.giveBack(from: releasedUpTo, windowBehind: offset)
            nextRelease = offset + SourceBytes.step
        }

        /// The pass is over at `offset` (its stretch of the file ends there): the whole pages
        /// before it go back, none after (another pass may be reading them).
        public mutating func end(at offset: Int) {
            let page = Int(sysconf(Int32(_SC_PAGESIZE)))
            releasedUpTo = bytes.giveBack(from: releasedUpTo, to: offset >= bytes.count ? bytes.count : offset / page * page)
            nextRelease = Int.max
        }

        /// The pass is over: its pages go back.
        public mutating func end() {
            releasedUpTo = bytes.giveBack(from: releasedUpTo, windowBehind: bytes.count)
            nextRelease = Int.max
        }
    }

    /// A sweep for a pass on another thread, starting at `start` (it gives back pages from there
    /// on only); nothing to give back for bytes in memory.
    public func sweep(from start: Int = 0) -> Sweep { Sweep(self, from: start) }

    /// Starts a new pass from the beginning: releases are measured from there again, and the
    /// kernel reads ahead.
    public func beginPass() {
        guard isMapped else { return }
        _ = madvise(base, mappedLength, MADV_SEQUENTIAL)
        releasedUpTo = 0
        nextRelease = Self.step * 2
    }

    /// A pass is over: every page goes back, and until the next pass the kernel maps only the
    /// page looked at (findings and messages look at a few bytes here and there; mapping the
    /// pages around each would bring the whole file back a little at a time).
    public func endPass() {
        guard isMapped else { return }
        releaseAll()
        _ = madvise(base, mappedLength, MADV_RANDOM)
        releasedUpTo = 0
        nextRelease = Int.max
    }

    /// Every page goes back now, in the middle of a pass (a later look re-reads it from the page
    /// cache): for a pass that has made what it read into values of its own, and reads only a
    /// part of the file again. The kernel's advice for the pass is left as it is.
    public func releaseAll() {
        guard isMapped else { return }
        _ = madvise(base, mappedLength, MADV_DONTNEED)
    }

    /// A copy of the bytes as an array.
    public var array: [UInt8] { withUnsafeBufferPointer { Array($0) } }
}
