#if canImport(Glibc)
import Glibc
#endif

extension Array where Element == UInt8 {
    /// Room for `capacity` bytes. A large output (a 100,000-chapter story is tens of megabytes)
    /// asks the kernel for huge pages, where it gives them on request: each page of memory first
    /// written costs a fault, and a 2 MiB page is one fault where 4 KiB pages are 512.
    package mutating func reserveLarge(_ capacity: Int) {
        reserveCapacity(capacity)
        #if canImport(Glibc)
        guard capacity >= 8 << 20 else { return }
        let huge = 2 << 20
        withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let start = (Int(bitPattern: base) + huge - 1) & ~(huge - 1)
            let end = (Int(bitPattern: base) + capacity) & ~(huge - 1)
            if end > start, let address = UnsafeMutableRawPointer(bitPattern: start) { _ = madvise(address, end - start, MADV_HUGEPAGE) }
        }
        #endif
    }
}

