#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Array {
    /// Room for `capacity` elements. A large output (a 100,000-chapter story is tens of
    /// megabytes, its parsed tree as much) asks the kernel for huge pages, where it gives them on
    /// request: each page of memory first written costs a fault, and a 2 MiB page is one fault
    /// where 4 KiB pages are 512.
    package mutating func reserveLarge(_ capacity: Int) {
        reserveCapacity(capacity)
        #if canImport(Glibc)
        let bytes = capacity * MemoryLayout<Element>.stride
        guard bytes >= 8 << 20 else { return }
        let huge = 2 << 20
        withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let start = (Int(bitPattern: base) + huge - 1) & ~(huge - 1)
            let end = (Int(bitPattern: base) + bytes) & ~(huge - 1)
            if end > start, let address = UnsafeMutableRawPointer(bitPattern: start) { _ = madvise(address, end - start, MADV_HUGEPAGE) }
        }
        #endif
    }
}

/// How glibc's malloc gives memory to threads other than the main one. Each such thread's heap
/// is a 64 MiB reservation made writable a page at a time as it fills: a thread making hundreds
/// of thousands of strings (a PO file of a large story read in halves) calls `mprotect` once a
/// page, 83,000 times reading one translation, and each call holds the process's memory map
/// while the other core's page faults wait for it. Asked for a top pad of a whole heap, malloc
/// makes each new heap writable at once; only the pages written to are backed, so this costs no
/// memory by itself. But the main thread's heap then keeps as much free at its top, which is why
/// it is asked for only where it was measured to pay: translations read, and a large Twee file
/// read (import twee of 100,000 chapters 6-15% faster in two loops, its peak unchanged). Not
/// everywhere: validating a story.json alone would hold some 20 MB more at its peak, and reading
/// a Twine archive 8 MB more (past the import's bound of 3x the story) for 3%.
package enum ThreadHeaps {
    private static let asked: Void = {
        #if canImport(Glibc)
        // mallopt is in malloc.h, which Swift's Glibc module does not bring in.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let topPad: Int32 = -2  // M_TOP_PAD
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") { _ = unsafeBitCast(symbol, to: Mallopt.self)(topPad, 64 << 20) }
        #endif
    }()

    /// Makes each thread heap glibc creates from now on writable whole (once a process).
    package static func writableWhole() { asked }

    /// glibc keeps a small block freed past its thread's cache in a "fast bin", unmerged with the
    /// free blocks beside it; the heap's next request for a large block merges every one of them
    /// first (`malloc_consolidate`), on the thread that asks. So values made on the main thread
    /// and freed on another one (`LargeValues`) are freed twice over: by the other thread into
    /// the bins, then merged by the main thread at its next large request. Adding a story with
    /// its whole French translation spent 0.16 s of the main thread so, merging the translation's
    /// half-million strings while it stored the chapters. Without fast bins the freeing thread
    /// merges each block as it frees it. Asked for once, by `LargeValues`, before it first frees
    /// anything elsewhere (five alternated rounds on the large benchmarks: adding with a
    /// translation 0.93x, exports 0.95-0.97x, imports 0.98-0.99x, validate --lang unchanged).
    package static func mergedAsFreed() { merging }

    private static let merging: Void = {
        #if canImport(Glibc)
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        let fastBinLimit = Int32(1)  // M_MXFAST in malloc.h; 0 turns the fast bins off
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") { _ = unsafeBitCast(symbol, to: Mallopt.self)(fastBinLimit, 0) }
        #endif
    }()
}

/// Large buffers joined by moving their pages rather than copying them. Each page of fresh
/// memory costs a fault that clears it when first written; on this project's benchmark machine,
/// a virtual machine whose host backs memory only when it is first touched and takes back what
/// the guest frees, about 3 ms a megabyte (a loop writing a byte a page: 0.35 GB/s cold, 8 GB/s
/// for pages used a moment before; docs/benchmarks.md). Joining a tree's two halves copied 14 MB
/// into fresh pages on one core, the other idle: 20-60 ms of every large story read. Moved, the
/// pages the halves were written in are the joined tree's.
package enum PageMove {
    /// Puts the `count` bytes at `source` at `destination` (uninitialised memory of another
    /// buffer): whole pages are moved there (`mremap`), the bytes before and after them copied.
    /// The source's moved pages read as zeros afterwards: its bytes must not be needed again.
    /// Pages move only when the two addresses lie at the same place in their pages; otherwise
    /// the source's bytes are first shifted within its own buffer, which needs `slack` bytes of
    /// room after them (up to a page). Anything the kernel refuses is copied, as is a range of
    /// less than `least` bytes. Both buffers must be private memory of this process (what
    /// `malloc` gives).
    package static func move(
        from source: UnsafeMutableRawPointer, count: Int, slack: Int, to destination: UnsafeMutableRawPointer, least: Int = 64 << 10
    ) {
        #if os(Linux)
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard page > 0, count >= max(least, 2 * page) else { return copy(source, destination, count) }
        var source = source
        let delta = (Int(bitPattern: destination) - Int(bitPattern: source)) & (page - 1)
        if delta != 0 {
            guard slack >= delta else { return copy(source, destination, count) }
            memmove(source + delta, source, count)
            source += delta
        }
        // The bytes before the first whole page of the destination and after its last are copied.
        let head = (page - Int(bitPattern: destination) & (page - 1)) & (page - 1)
        let bodyEnd = (Int(bitPattern: destination) + count) & ~(page - 1)
        let body = bodyEnd - (Int(bitPattern: destination) + head)
        copy(source, destination, head)
        var moved = 0
        while moved < body {
            // A piece never crosses a 2 MiB boundary of the source: a buffer given huge pages is
            // split into mappings there, and one move cannot span two mappings.
            let from = source + head + moved
            let huge = 2 << 20
            let piece = min(body - moved, huge - Int(bitPattern: from) & (huge - 1))
            let to = destination + head + moved
            let flags = Int32(1 | 2 | 4)  // MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP
            if mremapFunction(from, piece, piece, flags, to) != to { copy(from, to, piece) }
            moved += piece
        }
        copy(source + head + body, destination + head + body, count - head - body)
        #else
        copy(source, destination, count)
        #endif
    }

    private static func copy(_ source: UnsafeMutableRawPointer, _ destination: UnsafeMutableRawPointer, _ count: Int) {
        if count > 0 { memcpy(destination, source, count) }
    }

    #if os(Linux)
    /// glibc's `mremap`, whose fifth argument (the new address) Swift's Glibc module does not
    /// declare (it is variadic in C).
    private typealias Mremap = @convention(c) (UnsafeMutableRawPointer, Int, Int, Int32, UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?
    private static let mremapFunction: Mremap = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mremap") else {
            return { _, _, _, _, _ in nil }
        }
        return unsafeBitCast(symbol, to: Mremap.self)
    }()
    #endif
}
