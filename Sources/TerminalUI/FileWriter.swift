#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LocalFiles
import StoryFormat

/// Files the user named (a report, a saved picture, a fixed story), written all or nothing by
/// LocalFiles' `AtomicFile`; this is where its failures become sentences that name the path
/// (the terminal's words: no flag of cyd's is named).
package enum FileWriter {
    /// Why a file could not be written, worded for the person who named it.
    package struct WriteError: Error, CustomStringConvertible {
        package var description: String
        package init(description: String) { self.description = description }
    }

    /// A folder and a name in it, with one slash between them however the folder was written
    /// (`walks/` and `walks` both give `walks/NAME`).
    package static func joined(_ folder: String, _ name: String) -> String {
        var folder = folder
        while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
        return folder == "/" ? "/" + name : folder + "/" + name
    }

    /// The path a file name given on the command line stands for: `-` is standard output.
    package static func target(_ path: String) -> String { path == "-" ? AtomicFile.standardOutput : path }

    /// Whether a path given on the command line leads to standard output (`-`, `/dev/stdout`, a
    /// link to it): what the command says about the file it wrote then goes to standard error,
    /// so it never mixes with the file's bytes.
    package static func isStandardOutput(_ path: String) -> Bool { AtomicFile.streamDescriptor(target(path)) == 1 }

    /// Says that `path` was written: on standard output, or on standard error when the file
    /// itself went to standard output.
    package static func said(_ message: String, about path: String) {
        (isStandardOutput(path) ? Terminal.standardError : Terminal.standardOutput).write(message)
    }

    /// Makes the folder `path` and the folders above it that are missing (nothing when it exists).
    package static func makeFolder(_ path: String) throws(WriteError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw WriteError(description: "cannot make the folder \(VisibleText.escape(path))")
        }
    }

    package static func write(_ text: String, to path: String) throws(WriteError) {
        try write(Array(text.utf8), to: path)
    }

    /// Writes a new file (never over one that is there), making its folder first.
    package static func writeNew(_ text: String, to path: String) throws(WriteError) {
        try requireNothing(at: path)
        if let slash = path.lastIndex(of: "/") { try makeFolder(String(path[..<slash])) }
        try write(text, to: path)
    }

    /// Nothing is at `path` yet.
    package static func requireNothing(at path: String) throws(WriteError) {
        if FileStatus(path) != nil { throw WriteError(description: "\(VisibleText.escape(path)) is there already; nothing was written") }
    }

    /// `folder` is a folder, or nothing yet.
    package static func requireFolder(_ folder: String) throws(WriteError) {
        if let status = FileStatus(folder), !status.isDirectory { throw WriteError(description: "\(VisibleText.escape(folder)) is not a folder") }
    }

    package static func write(_ bytes: [UInt8], to path: String) throws(WriteError) {
        do {
            try AtomicFile.write(bytes, to: target(path))
        } catch {
            throw WriteError(description: sentence(error, path: path))
        }
    }

    /// Writes what `produce` hands over, piece by piece, replacing `path` whole at the end.
    package static func write(to path: String, streaming produce: (_ write: ([UInt8]) -> Void) -> Void) throws(WriteError) {
        do {
            try AtomicFile.write(to: target(path), streaming: produce)
        } catch {
            throw WriteError(description: sentence(error, path: path))
        }
    }

    /// Replaces a file read with `AtomicFile.readForReplacing`, unless someone changed it since.
    package static func replace(_ original: AtomicFile.Original, with bytes: [UInt8], shownAs path: String) throws(WriteError) {
        do {
            try AtomicFile.replace(original, with: bytes)
        } catch {
            throw WriteError(description: sentence(error, path: path))
        }
    }

    package static func sentence(_ failure: AtomicFile.Failure, path: String) -> String {
        let shown = "'" + VisibleText.escape(path) + "'"
        switch failure {
        case .noName: return "no file name given"
        case .isFolder: return "cannot write \(shown): it is a folder; give a file name inside it"
        case .folderMissing(let folder): return "cannot write \(shown): no such folder: '\(VisibleText.escape(folder))'"
        case .notAFolder(let folder): return "cannot write \(shown): '\(VisibleText.escape(folder))' is not a folder"
        case .readOnly: return "cannot write \(shown): it is read-only; make it writable (chmod u+w) if it should change"
        case .hardLinked(let links):
            return "cannot write \(shown): it has \(links) hard links, and replacing it would leave the others with the old text; "
                + "give it a file of its own first (cp it to a new name, then mv that over it)"
        case .changedSinceRead:
            return "did not write \(shown): it was changed by another program while cyd was working on it; nothing was written, run the command again"
        case .unreadable(let reason): return "cannot read \(shown): \(reason.description)"
        case .notAFile(.blockDevice): return "cannot write \(shown): it is a block device (a disk), and cyd writes files, never disks; give a file name"
        case .notAFile(.socket): return "cannot write \(shown): it is a socket, not a file; give a file name"
        case .notAFile(.unknown): return "cannot write \(shown): it is not a regular file; give a file name"
        case .system(let code): return "cannot write \(shown): \(code == ENOENT ? "the folder does not exist" : LocalFile.reason(code))"
        }
    }
}
