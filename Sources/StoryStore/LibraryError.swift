#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GRDB

/// Why the library could not be opened or written, as cases a caller can act on; `description`
/// words them for people (the CLI escapes them for the terminal).
public enum LibraryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No absolute home folder to put the library in (HOME unset, empty or relative).
    case noHome(home: String?)
    /// The database was written by a cyd that knows migrations this one does not.
    case newerLibrary(path: String, unknownMigrations: [String])
    /// The library's folder could not be made or used.
    case folder(path: String, reason: String)
    /// SQLite refused: read-only, full, damaged, busy, ...
    case storage(path: String, failure: StorageFailure)
    /// The story was removed from the library (by another cyd) while it was being read.
    case storyRemoved(title: String)
    /// The source already holds another story (another author's id): replacing it takes
    /// `replace: true`.
    case differentStory(existingTitle: String, existingID: String, newTitle: String, newID: String)
    /// A story with no chapter marked as the first cannot be read, so it is not stored.
    case noFirstChapter(title: String)

    public var description: String {
        switch self {
        case .noHome(let home):
            return "\(Self.homeProblem(home)), so there is no place for the library; set CYD_HOME or choose a library folder"
        case .newerLibrary(let path, let unknown):
            return "the library \(path) was written by a newer cyd (\(unknown.joined(separator: ", "))); upgrade cyd or use another library folder; nothing was changed"
        case .folder(let path, let reason):
            return "the library folder \(path) cannot be used: \(reason)"
        case .storage(let path, let failure):
            return "the library \(path): \(failure)"
        case .storyRemoved(let title):
            return "'\(title)' was removed from the library while you read it; nothing more is saved for it (add it again to read on)"
        case .differentStory(let existingTitle, let existingID, let newTitle, let newID):
            return "this source already holds '\(existingTitle)' (story id '\(existingID)'), and now holds '\(newTitle)' (story id '\(newID)'); "
                + "nothing was changed. To put the new story in its place, add it again as a replacement"
        case .noFirstChapter(let title):
            return "'\(title)' has no chapter marked \"is_first_chapter\": true, so it cannot be read; nothing was stored"
        }
    }
}

/// What SQLite said, in words a reader can act on.
public enum StorageFailure: Sendable, Equatable, CustomStringConvertible {
    case readOnly, cannotOpen, full, damaged, busy, io, permission
    case other(code: Int32, message: String)

    public var description: String {
        switch self {
        case .readOnly: "it is read-only (the file or its folder cannot be written); check the permissions, or use another library folder"
        case .cannotOpen: "it cannot be opened (its folder is missing, read-only, or not a folder); check the folder, or use another library folder"
        case .full: "the disk is full; free some space and try again (nothing was lost)"
        case .damaged: "the database file is damaged; move it aside and add your stories again (cyd keeps no other copy)"
        case .busy: "another cyd kept it busy for too long; try again"
        case .io: "the disk reported an input/output error (it may be full or failing)"
        case .permission: "permission denied"
        case .other(let code, let message): "SQLite error \(code) (\(message))"
        }
    }

    init(_ error: DatabaseError) {
        switch error.resultCode.primaryResultCode {
        case .SQLITE_READONLY: self = .readOnly
        case .SQLITE_CANTOPEN: self = .cannotOpen
        case .SQLITE_FULL: self = .full
        case .SQLITE_CORRUPT, .SQLITE_NOTADB: self = .damaged
        case .SQLITE_BUSY, .SQLITE_LOCKED: self = .busy
        case .SQLITE_IOERR: self = .io
        case .SQLITE_PERM, .SQLITE_AUTH: self = .permission
        case .SQLITE_ERROR where (error.message ?? "").hasPrefix("no such column") || (error.message ?? "").hasPrefix("no such table"):
            // Our own statements name only what our migrations made: the schema was changed by hand.
            self = .damaged
        default: self = .other(code: error.resultCode.primaryResultCode.rawValue, message: error.message ?? "no message")
        }
    }
}

extension LibraryError {
    /// What is wrong with HOME, for `noHome`: "HOME is not set", "HOME is empty", ...
    public static func homeProblem(_ home: String?) -> String {
        home.map { $0.isEmpty ? "HOME is empty" : "HOME is not an absolute path ('\($0)')" } ?? "HOME is not set"
    }

    /// A storage error met anywhere, in words ("the library: the disk is full; ..."); nil for
    /// errors that are not storage errors.
    public static func words(for error: Error) -> String? {
        if let error = error as? LibraryError { return error.description }
        if let error = error as? DatabaseError { return "the library: \(StorageFailure(error))" }
        return nil
    }

    /// Any error from the library's storage, worded; nil for errors that are not storage errors.
    public static func worded(_ error: Error, path: String) -> LibraryError? {
        if let error = error as? LibraryError { return error }
        if let error = error as? DatabaseError { return .storage(path: path, failure: StorageFailure(error)) }
        return nil
    }
}
