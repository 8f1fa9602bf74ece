#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StoryFormat

/// A path given to `cyd validate`, resolved to the file to check and, for a folder, the folder.
public struct ValidationTarget: Sendable {
    /// The file as shown in findings.
    public var displayPath: String
    public var fileURL: URL
    public var folder: StoryFolder?

    /// A problem with the input itself (missing file, unreadable folder): exit code 2.
    public struct InputError: Error, CustomStringConvertible {
        public var description: String
    }

    /// `path` may be a story.json, an authors.json, or a story folder (holding story.json).
    public static func resolve(_ path: String) throws(InputError) -> ValidationTarget {
        guard let status = FileStatus(path) else {
            throw InputError(description: "'\(VisibleText.escape(path))' does not exist")
        }
        let url = URL(fileURLWithPath: path)
        guard status.isDirectory else { return ValidationTarget(displayPath: path, fileURL: url, folder: nil) }
        for name in ["story.json", "authors.json"] {
            let file = url.appendingPathComponent(name)
            if FileStatus(file.path) != nil {
                let shown = path == "." ? name : (path.hasSuffix("/") ? path + name : path + "/" + name)
                return ValidationTarget(displayPath: shown, fileURL: file, folder: name == "story.json" ? StoryFolder(root: url) : nil)
            }
        }
        throw InputError(
            description: "'\(VisibleText.escape(path))' has no story.json (nor authors.json); give the path of a story folder or a story file")
    }

    /// Reads the file into memory in one piece, refusing files over `limit` bytes.
    public func read(limit: Int = JSONParser.Options().maximumSize) throws(InputError) -> [UInt8] {
        try FileBytes.read(fileURL.path, displayPath: displayPath, limit: limit)
    }

    public func check(options: CheckOptions) throws(InputError) -> [FileReport] {
        let bytes = try read()
        return Checker.check(bytes: bytes, path: displayPath, folder: folder, options: options)
    }
}

/// Whole-file reads straight into a byte array (no intermediate Data copy, so a 75 MB story
/// costs 75 MB).
public enum FileBytes {
    public static func read(_ path: String, displayPath: String? = nil, limit: Int = JSONParser.Options().maximumSize) throws(ValidationTarget.InputError) -> [UInt8] {
        let shown = VisibleText.escape(displayPath ?? path)
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw .init(description: "cannot read '\(shown)': \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .init(description: "cannot read '\(shown)': \(String(cString: strerror(errno)))") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .init(description: "'\(shown)' is not a regular file") }
        let size = Int(info.st_size)
        guard size <= limit else {
            throw .init(description: "'\(shown)' is \(size) bytes, more than the limit of \(limit) bytes")
        }
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = 0
            while count < size {
                let got = POSIX.readBytes(fd, buffer.baseAddress! + count, size - count)
                if got < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if got == 0 { break }
                count += got
            }
        }
        if failure != 0 { throw .init(description: "cannot read '\(shown)': \(String(cString: strerror(failure)))") }
        return bytes
    }
}
