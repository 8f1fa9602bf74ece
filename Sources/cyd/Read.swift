import LocalFiles
import ArgumentParser
import CydWords
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import StoryFormat
import StoryCheck
import StoryAnalysis
import StoryReader
import StorySources
import StoryStore
import TerminalPictures
import Transport
import TerminalUI
import StoryTranslation

struct Read: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read a story in the terminal; you resume where you left off.",
        discussion: Help.read)

    @Argument(help: "A library id, or a story folder or story.json.")
    var story: String?

    @Option(help: ArgumentHelp("Open the story at this chapter (its id, as `cyd search` shows it); where you were goes on your path, so b returns.", valueName: "id"))
    var chapter: String?

    @Flag(help: "Start again from the first chapter.")
    var restart = false

    @Option(help: "Whose progress to use; each profile has its own place, bookmarks and name.")
    var profile = "default"

    @Option(help: "The reader's first name, used for [[name]] (remembered for the profile). Without one (piped input and no --name), [[name]] reads \"Reader\".")
    var name: String?

    @Flag(help: "Plain text, no colour, even on a terminal.")
    var plain = false

    @Flag(help: "One JSON object per event (chapter shown, ending, error...).")
    var json = false

    @Option(help: "Colour on a terminal: auto (per NO_COLOR and CLICOLOR), always or never.")
    var color: Terminal.ColorChoice = .auto

    @Option(help: ArgumentHelp(
        "How pictures are drawn on a terminal: auto (what the terminal supports, asked when the environment does not say), kitty, iterm, sixel, symbols or off. Default: CYD_PICTURES, else auto.",
        valueName: "how"))
    var pictures: PictureChoice?

    @Option(help: ArgumentHelp(
        "Read in this language when the story has it (a BCP 47 tag: fr, pt-BR; `original` for the story as written). Default: LC_ALL, LC_MESSAGES or LANG. Strings not translated are shown as written.",
        valueName: "tag"))
    var lang: String?

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if let lang, lang != "original", !LanguageTag.isWellFormed(LanguageTag.normalise(lang)) {
            throw ValidationError("--lang takes a language tag such as fr or pt-BR (or original), not '\(VisibleText.escape(lang))'")
        }
        if plain && json { throw ValidationError("--plain and --json do not go together") }
        if profile.isEmpty { throw ValidationError("--profile needs a name") }
    }

    func run() throws {
        let input = Terminal.Stream(descriptor: STDIN_FILENO)
        let interactive = input.isTerminal && Terminal.standardOutput.isTerminal
        let mode: ReaderScreen.Mode = json ? .json : (plain || !Terminal.standardOutput.isTerminal ? .plain : .terminal)
        let colors = mode == .terminal && Terminal.useColor(color, for: Terminal.standardOutput)
        Terminal.quitOnInterrupt()
        let drawing: PictureMode
        do {
            // Asked of the terminal only when output is one; piped output and --json never draw.
            drawing = try PictureSupport.mode(pictures, onTerminal: mode == .terminal && interactive)
        } catch {
            Terminal.standardError.write("cyd: \(error)\n")
            throw Exit.failure
        }
        let screen = ReaderScreen(mode: mode, colors: colors, pictures: drawing)
        do {
            let library = try library.open()
            guard var record = try pickStory(library, screen: screen, interactive: interactive) else { return }
            let language = try Self.language(lang, of: record, in: library)
            if let language {
                record.title = language.title
                record.summary = language.summary
            }
            guard let firstName = try resolveFirstName(library, interactive: interactive) else { return }
            let pictures = PictureFetcher(library: library, source: LibraryPictures(context: SourceContext(location: library.location, certificateAuthorities: HTTPClient.caBundle)))
            if drawing != .off { pictures.whenSettled { path, state in screen.pictureSettled(path, state) } }
            let session = try ReadingSession(
                library: library, story: record, profile: profile, firstName: firstName, pictures: pictures, language: language?.language)
            var resumption = try session.begin(restart: restart)
            if let chapter {
                try session.jump(toChapter: chapter)
                resumption = .jumped
            }
            screen.storyOpened(record, resumption, currentTitle: session.current.record.name, language: language)
            let farewell = "your place in '\(screen.safeLine(record.title))' is kept in \(screen.safeLine(library.location.databasePath)); "
                + "cyd read \(record.id) takes you back"
            try ReaderLoop(session: session, screen: screen, interactive: interactive, words: .init(farewell: farewell, library: Words.library)).run()
        } catch let error as ReadingError {
            Terminal.standardError.write("cyd: \(error.description)\n")
            throw Exit.failure
        }
    }

    /// The language to read `record` in: `--lang`, else the environment's (LC_ALL, LC_MESSAGES,
    /// LANG), when the story has it (`fr-CA` reads `fr`); nil for the story as written. A
    /// language asked for by --lang that the story lacks is said, with those it has.
    static func language(_ asked: String?, of record: StoryRecord, in library: StoryLibrary) throws -> StoryLanguage? {
        if asked == "original" { return nil }
        let requested = asked.map(LanguageTag.normalise) ?? LanguageTag.fromEnvironment(ProcessInfo.processInfo.environment)
        guard let requested else { return nil }
        let languages = try library.languages(of: record)
        if let match = LanguageTag.best(for: requested, among: languages.map(\.language)) {
            return languages.first { $0.language == match }
        }
        if asked != nil {
            let has = languages.isEmpty ? "it has no translations" : "it can be read in " + languages.map(\.language).joined(separator: ", ")
            Terminal.standardError.write("cyd: “\(VisibleText.escape(record.title))” is not translated into \(VisibleText.escape(requested)); reading it as written (\(has))\n")
        }
        return nil
    }

    /// What [[name]] reads when the reader has given no name (piped input without --name): a
    /// neutral word, so the placeholder itself never reaches the page.
    static let fallbackName = "Reader"

    /// The name for [[name]]: --name, the profile's, or asked for on a terminal (asked again
    /// when the answer is empty). Nil when the reader quits at the question.
    func resolveFirstName(_ library: StoryLibrary, interactive: Bool) throws -> String? {
        if let name, !name.isEmpty {
            // Kept for next time when the library can be written; used now regardless.
            do { try library.setFirstName(name, profile: profile) } catch where LibraryError.words(for: error) != nil {}
            return name
        }
        if let stored = try library.firstName(profile: profile) { return stored }
        guard interactive else { return Self.fallbackName }
        Terminal.standardOutput.write("What is your first name? (the stories use it; q quits) ")
        while true {
            guard let raw = readLine() else {
                Terminal.standardOutput.write("\n")
                return nil
            }
            let answer = raw.trimmingBlanks
            if answer.lowercased() == "q" { return nil }
            if answer.isEmpty || answer.unicodeScalars.contains(where: { VisibleText.isUnsafe($0) }) {
                Terminal.standardOutput.write("A name, please (letters the page can show), or q to quit: ")
                continue
            }
            do { try library.setFirstName(answer, profile: profile) } catch where LibraryError.words(for: error) != nil {}
            return answer
        }
    }

    /// The story named on the command line, or one picked from the library (numbered by library
    /// id, with source and progress) and the bundled stories not added yet. A bundled story's
    /// number is its place among all the bundled stories (b2 is always the second), so adding
    /// one never renumbers the others.
    func pickStory(_ library: StoryLibrary, screen: ReaderScreen, interactive: Bool) throws -> StoryRecord? {
        let importer = StoryImporter(library: library, certificateAuthorities: HTTPClient.caBundle)
        if let story { return try StoryReferences.findOrAdd(story, importer: importer) }
        let stored = try library.stories()
        let storedLocations = Set(stored.map(\.source.location))
        let allBundled = BundledStories.folders()
        let bundled = allBundled.enumerated().map { (number: $0.offset + 1, folder: $0.element) }
            .filter { !storedLocations.contains(LocalFile.realPath($0.folder) ?? $0.folder) }
        guard !stored.isEmpty || !bundled.isEmpty else {
            throw CLIError("the library is empty and no bundled stories were found; `cyd add FOLDER` adds one")
        }
        screen.line("Stories:")
        for record in stored {
            let place = (try? library.progress(profile: profile, story: record))?.flatMap { try? library.chapter($0.chapterKey, of: record)?.name }
            let progress = place.map { "at '\($0)'" } ?? "not started"
            screen.pickerEntry("  \(String(record.id).leftPadded(3))) \(VisibleText.escape(record.title)) · \(VisibleText.escape(progress))", source: VisibleText.escape(record.source.location))
        }
        for (number, folder) in bundled {
            // A story removed with its reader's place kept resumes there when it is added again.
            let source = StorySource(kind: .folder, location: LocalFile.realPath(folder) ?? folder)
            let kept = (try? library.progress(profile: profile, source: source))??.chapterKey
            let story = BundledStories.story(in: folder)  // read once for its title and the kept chapter's
            let progress = kept.map { "bundled, your place kept at '\(BundledStories.chapterTitle($0, of: story))'" } ?? "bundled, not started"
            screen.pickerEntry(
                "  b\(number)) \(VisibleText.escape(BundledStories.title(of: story, in: folder))) · \(VisibleText.escape(progress))", source: VisibleText.escape(folder))
        }
        let ids = Set(stored.map { String($0.id) })
        while true {
            if interactive { Terminal.standardOutput.write("Which one? (number, q to quit) ") }
            guard let answer = readLine()?.trimmingBlanks.lowercased(), answer != "q" else { return nil }
            if ids.contains(answer), let id = Int64(answer), let record = try library.story(id: id) { return record }
            // Any bundled number works, also one already added (it is found, not added again).
            if answer.hasPrefix("b"), let number = Int(answer.dropFirst()), allBundled.indices.contains(number - 1) {
                return try StoryReferences.findOrAdd(allBundled[number - 1], importer: importer)
            }
            let choices = (stored.map { String($0.id) } + bundled.map { "b\($0.number)" }).joined(separator: ", ")
            screen.error("type one of \(choices)")
            if !interactive { return nil }
        }
    }
}

extension BundledStories {
    /// The bundled story folders for this cyd (found from its own path, or CYD_STORIES).
    static func folders() -> [String] { folders(executablePath: Terminal.executablePath, environment: ProcessInfo.processInfo.environment) }
}
