import ArgumentParser
import CydWords
import InterfaceWords
import Foundation
import StoryFormat
import StoryReader
import StorySources
import StoryStore
import TerminalPictures
import Transport
import TerminalUI
import StoryTranslation

struct Read: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "read",
        abstract: "Read a story in the terminal; you resume where you left off.",
        discussion: Help.read)

    @Argument(help: "A library id, or a story folder or story.json.") var story: String?
    @Option(help: ArgumentHelp("Open the story at this chapter (its id, as `cyd search` shows it); where you were goes on your path, so b returns.", valueName: "id")) var chapter: String?
    @Flag(help: "Start again from the first chapter.") var restart = false
    @Option(help: "Whose progress to use; each profile has its own place, bookmarks and name.") var profile = "default"
    @Option(help: "The reader's first name, used for [[name]] (remembered for the profile). Without one (piped input and no --name), [[name]] reads \"Reader\".") var name: String?
    @Flag(help: "Plain text, no colour, even on a terminal.") var plain = false
    @Flag(help: "One JSON object per event (chapter shown, ending, error...).") var json = false
    @Option(help: "Colour on a terminal: auto (per NO_COLOR and CLICOLOR), always or never.") var color: Terminal.ColorChoice = .auto
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
            throw CLIError("\(error)")
        }
        let screen = ReaderScreen(mode: mode, colors: colors, pictures: drawing, words: Phrasebook(asked: lang, environment: ProcessInfo.processInfo.environment))
        let library = try library.open()
        do {
            guard var record = try pickStory(library, screen: screen, interactive: interactive) else { return }
            let language = try Self.language(lang, of: record, in: library)
            if let language { (record.title, record.summary) = (language.title, language.summary) }
            guard let firstName = try ReaderQuestions(screen: screen, interactive: interactive).firstName(given: name, library: library, profile: profile, fallback: ReaderName.fallback) else { return }
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
            let farewell = screen.words(.readerFarewell, ["story": screen.safeLine(record.title), "library": screen.safeLine(library.location.databasePath), "command": "cyd read \(record.id)"])
            try ReaderLoop(session: session, screen: screen, interactive: interactive, words: .init(farewell: farewell, library: Words.library)).run()
        } catch let error as ReadingError {
            throw CLIError(error.description)
        }
    }

    /// The language to read `record` in (nil: as written); one asked for that it lacks is said.
    static func language(_ asked: String?, of record: StoryRecord, in library: StoryLibrary) throws -> StoryLanguage? {
        switch try ReadingLanguage.choose(asked, environment: ProcessInfo.processInfo.environment, of: record, in: library) {
        case .original: return nil
        case .translation(let language): return language
        case .missing(let requested, let available):
            Terminal.standardError.write(ReadingWords.notTranslated(record.title, into: requested, available: available) + "\n")
            return nil
        }
    }

    /// The story named on the command line, or one picked from the library and the bundled
    /// stories not added yet (`ReaderQuestions`).
    func pickStory(_ library: StoryLibrary, screen: ReaderScreen, interactive: Bool) throws -> StoryRecord? {
        let importer = StoryImporter(library: library, certificateAuthorities: HTTPClient.caBundle)
        if let story { return try CatalogueLookup.findOrAdd(story, importer: importer) }
        let allBundled = BundledStories.folders()
        let bundled = try ReaderQuestions.bundled(allBundled, library: library, profile: profile)
        guard try !library.stories().isEmpty || !bundled.isEmpty else {
            throw CLIError("the library is empty and no bundled stories were found; `cyd add FOLDER` adds one")
        }
        switch try ReaderQuestions(screen: screen, interactive: interactive).pickStory(library: library, profile: profile, bundled: bundled, bundledCount: allBundled.count) {
        case .stored(let record): return record
        case .bundled(let number): return try CatalogueLookup.findOrAdd(allBundled[number - 1], importer: importer)
        case .quit: return nil
        }
    }
}

extension BundledStories {
    /// The bundled story folders for this cyd (found from its own path, or CYD_STORIES).
    static func folders() -> [String] { folders(executablePath: Terminal.executablePath, environment: ProcessInfo.processInfo.environment) }
}
