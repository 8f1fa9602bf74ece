import CydWords
import ArgumentParser
import StoryFormat
import StorySources
import StoryStore
import Transport

/// Options shared by the commands that use the library.
struct LibraryOptions: ParsableArguments {
    @Option(name: .customLong("library"), help: ArgumentHelp(
        "The library folder (default: $CYD_HOME, else $XDG_DATA_HOME/chooseyourdestiny with caches in $XDG_CACHE_HOME).",
        valueName: "dir"))
    var directory: String?

    func importer() throws -> StoryImporter { StoryImporter(library: try open(), certificateAuthorities: HTTPClient.caBundle) }

    func open() throws -> StoryLibrary {
        do {
            return try StoryLibrary(location: LibraryLocation.resolve(override: directory))
        } catch {
            throw CLIError(VisibleText.escape(Words.of(error)))
        }
    }
}

