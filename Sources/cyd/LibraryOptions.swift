import ArgumentParser
import StoryCheck
import StoryFormat
import StoryStore
import StorySync

/// Options shared by the commands that use the library.
struct LibraryOptions: ParsableArguments {
    @Option(name: .customLong("library"), help: ArgumentHelp(
        "The library folder (default: $CYD_HOME, else $XDG_DATA_HOME/chooseyourdestiny with caches in $XDG_CACHE_HOME).",
        valueName: "dir"))
    var directory: String?

    func open() throws -> StoryLibrary {
        do {
            return try StoryLibrary(location: LibraryLocation.resolve(override: directory))
        } catch {
            throw CLIError(VisibleText.escape(error.description))
        }
    }
}

/// An error the user can act on: printed as "cyd: message", exit 2.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension StoryLibrary {
    /// Adds a source that is a URL: an https story.json is downloaded, any other URL cloned.
    static func add(_ url: String, to library: StoryLibrary, replace: Bool = false) throws -> ImportResult {
        try WebSources.isStoryURL(url) ? WebSources.add(url, to: library, replace: replace) : GitSources.add(url, to: library, replace: replace)
    }

    /// Plain http to another machine: refused by name, rather than mistaken for a missing folder.
    static func refusePlainHTTP(_ source: String) throws {
        guard source.lowercased().hasPrefix("http://"), !WebSources.isAllowed(source) else { return }
        throw CLIError("\(VisibleText.escape(source)): plain http:// is refused (anyone on the way can read and change what is fetched); use https://")
    }

    /// A library id, or a path to a story folder or story.json (added, or refreshed, on the way).
    func resolve(_ reference: String) throws -> StoryRecord {
        if let id = Int64(reference), let story = try story(id: id) { return story }
        try Self.refusePlainHTTP(reference)
        if WebSources.isStoryURL(reference) || GitSources.isGitURL(reference) {
            do {
                return try Self.add(reference, to: self).story
            } catch let error as ImportError {
                throw CLIError("\(VisibleText.escape(reference)): \(error)")
            } catch {
                throw CLIError("\(VisibleText.escape(reference)): \(VisibleText.escape(String(describing: error)))")
            }
        }
        if FileStatus(reference) != nil {
            do {
                return try importFolder(reference).story
            } catch let error as ImportError {
                throw CLIError("\(VisibleText.escape(reference)): \(error)")
            }
        }
        throw CLIError("no story '\(VisibleText.escape(reference))' in the library, and no such folder; `cyd list` shows the library")
    }
}
