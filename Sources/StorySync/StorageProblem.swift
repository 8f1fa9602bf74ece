import LocalFiles
import StoryStore

/// The library or a published file could not be read or written during a sync or a publish:
/// what was being done, and the typed cause (decisions read the cases, never the words).
public struct StorageProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Step: Sendable, Equatable {
        case readingCatalogue
        case updatingLibrary
        case recordingRepositories
        case recordingCheck
        /// Fetching or storing a story's repository in the cache.
        case storingRepository
        case publishing(into: String)
    }

    public enum Cause: Sendable, Equatable {
        /// The library's database (SQLite) refused.
        case library(LibraryError)
        /// A file could not be written whole.
        case file(path: String, AtomicFile.Failure)
        /// The folder to publish into is a file.
        case notAFolder(path: String)
        /// An error of a kind this module does not know, as it describes itself.
        case unexpected(String)
    }

    public var step: Step
    public var cause: Cause

    public init(_ step: Step, _ cause: Cause) {
        self.step = step
        self.cause = cause
    }

    /// `error`, met while the library at `databasePath` was in use, as a cause.
    init(_ step: Step, error: any Error, databasePath: String) {
        self.step = step
        if let worded = LibraryError.worded(error, path: databasePath) {
            cause = .library(worded)
        } else {
            cause = .unexpected(String(describing: error))
        }
    }

    public var description: String {
        let doing: String
        switch step {
        case .readingCatalogue: doing = "cannot read the catalogue"
        case .updatingLibrary: doing = "cannot update the library"
        case .recordingRepositories: doing = "cannot record the author's repositories"
        case .recordingCheck: doing = "cannot record the check"
        case .storingRepository: doing = "cannot store the repository"
        case .publishing(let folder): doing = "cannot publish into \(folder)"
        }
        switch cause {
        case .library(let error): return "\(doing): \(error)"
        case .notAFolder(let path): return "\(doing): \(path) is not a folder"
        case .unexpected(let text): return "\(doing): \(text)"
        case .file(let path, let failure):
            let reason: String
            switch failure {
            case .system(let code): reason = LocalFile.reason(code)
            case .readOnly: reason = "it is read-only"
            case .hardLinked(let links): reason = "it has \(links) hard links"
            case .isFolder: reason = "it is a folder"
            case .noName, .changedSinceRead: reason = "it cannot be replaced"
            case .folderMissing(let folder), .notAFolder(let folder): reason = "'\(folder)' is not a folder"
            case .unreadable(let failure): reason = failure.description
            case .notAFile(let kind): reason = kind == .blockDevice ? "it is a block device (a disk), not a file" : "it is a socket, not a file"
            }
            return "\(doing): cannot write \(path): \(reason)"
        }
    }
}
