#if canImport(Glibc)
import Glibc
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
}
