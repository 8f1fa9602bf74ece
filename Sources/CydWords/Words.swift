import StoryFormat
import StoryCheck
import StorySources
import StoryStore
import StorySync

/// The libraries' typed errors in cyd's words. A library says what happened and what can be done
/// in general ("use another library folder"); where the remedy is one of cyd's flags or commands
/// (`--library`, `--replace`, `cyd validate`), it is named here and nowhere else. None of these
/// escape for the terminal: callers escape the whole sentence once.
public enum Words {
    /// A library (storage) error, with cyd's flags as the remedy where there is one.
    public static func library(_ error: LibraryError) -> String {
        switch error {
        case .noHome(let home):
            return "\(LibraryError.homeProblem(home)), so there is no place for the library; set CYD_HOME or pass --library with a folder"
        case .newerLibrary(let path, let unknown):
            return "the library \(path) was written by a newer cyd (\(unknown.joined(separator: ", "))); upgrade cyd or use another --library; nothing was changed"
        case .differentStory(let existingTitle, let existingID, let newTitle, let newID):
            return "this source already holds '\(existingTitle)' (story id '\(existingID)'), and now holds '\(newTitle)' (story id '\(newID)'); "
                + "nothing was changed. To put the new story in its place, add it again with --replace"
        case .storage(let path, .readOnly):
            return "the library \(path): it is read-only (the file or its folder cannot be written); check the permissions, or use another --library"
        case .storage(let path, .cannotOpen):
            return "the library \(path): it cannot be opened (its folder is missing, read-only, or not a folder); check the folder, or use another --library"
        default:
            return error.description
        }
    }

    /// A story source's error, with cyd's commands as the remedy where there is one.
    public static func source(_ error: SourceError) -> String {
        switch error {
        case .library(let error): library(error)
        case .unreadable(let reports): unreadable(reports)
        case .noLongerPinned: error.description + "; `--unpinned` takes the repository's newest commit, unchecked"
        case .catalogueExpired(let source, let at):
            "the catalogue \(source) expired on \(SyncWords.date(at)): what it pins may be an old copy replayed by a mirror, or its keeper stopped publishing; `cyd sync` fetches a fresh one, or `--allow-expired` goes on with this one"
        default: error.description
        }
    }

    /// A story that cannot be read: how many findings, and the first error at its place, so the
    /// fix can start without another command (escaped with the rest of the sentence by callers).
    static func unreadable(_ reports: [FileReport]) -> String {
        let first = reports.lazy.compactMap { report in
            ResolvedReport(report).diagnostics.first { $0.diagnostic.severity == .error }.map {
                ": \(report.path):\($0.start.line):\($0.start.column): \($0.diagnostic.message)"
            }
        }.first ?? ""
        return "the story cannot be read (\(ReportTotals(reports).phrase))\(first); run `cyd validate` on it for details"
    }

    /// Any error a command meets, in words: the typed ones above, storage errors met anywhere,
    /// and otherwise the error's own description.
    public static func of(_ error: any Error) -> String {
        if let error = error as? SourceError { return source(error) }
        if let error = error as? LibraryError { return library(error) }
        if let words = LibraryError.words(for: error) { return words }
        return String(describing: error)
    }

    /// A length of time as the command line takes it: seconds, or a number with s, m, h or d
    /// (`90`, `10m`, `2h`, `7d`); nil when it is not one.
    public static func seconds(_ text: String) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        if let last = text.last, let unit = units[last], let value = Double(text.dropLast()), value >= 0 { return value * unit }
        return Double(text).flatMap { $0 >= 0 ? $0 : nil }
    }

    /// Why a story of a catalogue failed, is not a story, or what it warns of, with the
    /// command that shows more where there is one.
    public static func detail(_ item: SyncReport.Item) -> String? {
        if case .failed(.invalidStory) = item.outcome, let detail = item.detail { return detail + "; `cyd validate` shows every finding" }
        return item.detail
    }
}

extension ReportHints {
    /// cyd's flags and commands, as the reports name them.
    public static let cyd = ReportHints(
        seeingEveryFinding: "--max-per-rule 0 shows every one, and --format json lists them all",
        readingLeniently: "--lenient reads it as a warning",
        explainingRule: { "cyd explain \($0)" })
}
