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
import LocalFiles
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

    /// The file's bytes: mapped when it is large (its pages then cost memory only while a pass
    /// over the file is looking at them), read into memory otherwise.
    public func source(limit: Int = JSONParser.Options().maximumSize) throws(InputError) -> SourceBytes {
        do {
            return try SourceBytes.open(fileURL.path, limit: limit)
        } catch {
            throw InputError(description: "cannot read '\(VisibleText.escape(displayPath))': \(error.description)")
        }
    }

    public func check(options: CheckOptions) throws(InputError) -> [FileReport] {
        Checker.check(bytes: try source(), path: displayPath, folder: folder, options: options)
    }
}

/// Whole-file reads of regular files only, straight into a byte array (or mapped, `source`).
public enum FileBytes {
    /// The file's bytes, mapped when it is large (`SourceBytes.open`).
    public static func source(_ path: String, displayPath: String? = nil, limit: Int = JSONParser.Options().maximumSize) throws(ValidationTarget.InputError) -> SourceBytes {
        do {
            return try SourceBytes.open(path, limit: limit)
        } catch {
            throw .init(description: "cannot read '\(VisibleText.escape(displayPath ?? path))': \(error.description)")
        }
    }

    public static func read(_ path: String, displayPath: String? = nil, limit: Int = JSONParser.Options().maximumSize) throws(ValidationTarget.InputError) -> [UInt8] {
        do {
            return try LocalFile.read(path, limit: limit)
        } catch {
            throw .init(description: "cannot read '\(VisibleText.escape(displayPath ?? path))': \(error.description)")
        }
    }
}

extension SourceBytes {
    /// A regular file's bytes, refusing files over `limit` bytes: mapped when it is large (its
    /// pages then cost memory only while a pass over the file is looking at them), read into
    /// memory otherwise.
    public static func open(_ path: String, limit: Int) throws(LocalFile.Failure) -> SourceBytes {
        try LocalFile.withRegularFile(path, limit: limit) { (fd, size) throws(LocalFile.Failure) in
            if size >= SourceBytes.mappingThreshold, let mapped = SourceBytes(mapping: fd, size: size) { return mapped }
            return SourceBytes(try LocalFile.readAll(fd, size: size))
        }
    }
}
