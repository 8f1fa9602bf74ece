#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LocalFiles
import StoryCheck
import StoryFormat

/// Writing a file the user named (a report, a saved picture): all or nothing, through a
/// temporary file beside it and a rename, with failures told as sentences that name the path.
enum AtomicFile {
    /// Why a file could not be written, worded for the person who named it.
    struct WriteError: Error, CustomStringConvertible {
        var description: String
    }

    static func write(_ text: String, to path: String) throws(WriteError) {
        try write(Array(text.utf8), to: path)
    }

    static func write(_ bytes: [UInt8], to path: String) throws(WriteError) {
        let shown = "'" + VisibleText.escape(path) + "'"
        guard !path.isEmpty else { throw WriteError(description: "no file name given") }
        if let status = FileStatus(path), status.isDirectory {
            throw WriteError(description: "cannot write \(shown): it is a folder; give a file name inside it")
        }
        let folder = parentFolder(of: path)
        guard let folderStatus = FileStatus(folder) else {
            throw WriteError(description: "cannot write \(shown): no such folder: '\(VisibleText.escape(folder))'")
        }
        guard folderStatus.isDirectory else {
            throw WriteError(description: "cannot write \(shown): '\(VisibleText.escape(folder))' is not a folder")
        }
        let name = path.split(separator: "/").last.map(String.init) ?? "file"
        let temporary = (folder == "." && !path.hasPrefix("./") ? "" : folder + "/") + ".\(name).partial-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw WriteError(description: "cannot write \(shown): \(reason(errno))") }
        var failure: Int32 = 0
        failure = bytes.withUnsafeBytes { POSIX.writeAll(fd, $0) }
        if failure == 0, fsync(fd) != 0 { failure = errno }
        if close(fd) != 0, failure == 0 { failure = errno }
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw WriteError(description: "cannot write \(shown): \(reason(failure))")
        }
    }

    static func parentFolder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    static func reason(_ code: Int32) -> String {
        code == ENOENT ? "the folder does not exist" : LocalFile.reason(code)
    }
}
