#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What stat(2) says of a path.
public struct FileStatus: Sendable {
    public var isRegularFile: Bool
    public var isDirectory: Bool
    public var size: Int

    public init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        isRegularFile = info.st_mode & S_IFMT == S_IFREG
        isDirectory = info.st_mode & S_IFMT == S_IFDIR
        size = Int(info.st_size)
    }
}
