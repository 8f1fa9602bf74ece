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
    private let mappedLength: Int
    /// Offset below which pages were last given back; only moves forward.
    private var releasedUpTo = 0
    private var nextRelease: Int
    /// Pages are given back in steps of this many bytes, a window this far behind the reader.
    public static let step = 4 << 20
    /// Files at least this large are worth mapping; smaller ones are read into memory.
    public static let mappingThreshold = 16 << 20

    /// A copy of `bytes` in memory.
    public init(_ bytes: [UInt8]) {
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
    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> UInt8 {
        precondition(position >= 0 && position < count, "offset out of range")
        return base!.load(fromByteOffset: position, as: UInt8.self)
    }

    public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base?.assumingMemoryBound(to: UInt8.self), count: count))
    }

    /// A pass over the file has come to `offset`: the pages more than a window behind it go back
    /// to the page cache (a later look re-reads them from there). Cheap to call often; does
    /// nothing for bytes in memory.
    @inline(__always) public func release(upTo offset: Int) {
        guard offset >= nextRelease else { return }
        releasePages(upTo: offset)
    }

    private func releasePages(upTo offset: Int) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let end = (offset - Self.step) / page * page
        if end > releasedUpTo, let base {
            _ = madvise(base + releasedUpTo, end - releasedUpTo, MADV_DONTNEED)
            releasedUpTo = end
        }
        nextRelease = offset + Self.step
    }

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
        _ = madvise(base, mappedLength, MADV_DONTNEED)
        _ = madvise(base, mappedLength, MADV_RANDOM)
        releasedUpTo = 0
        nextRelease = Int.max
    }

    /// A copy of the bytes as an array.
    public var array: [UInt8] { withUnsafeBufferPointer { Array($0) } }
}
