#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// read(2) and write(2) under names that do not clash with methods called `read`.
public enum POSIX {
    public static func readBytes(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(fd, buffer, count)
        #elseif canImport(Darwin)
        Darwin.read(fd, buffer, count)
        #endif
    }

    public static func writeBytes(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(fd, buffer, count)
        #elseif canImport(Darwin)
        Darwin.write(fd, buffer, count)
        #endif
    }

    /// Writes all of `buffer`, retrying short and interrupted writes; 0, or the errno that
    /// stopped it.
    public static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Int32 {
        var offset = 0
        while offset < buffer.count {
            let written = writeBytes(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return 0
    }
}
