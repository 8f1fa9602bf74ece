import ArgumentParser
import CydWords
import Foundation
import LocalFiles
import StoryFormat
import StoryInterchange
import StoryTranslation
import StoryWeb
import TerminalUI

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "import",
        abstract: "Make a story.json from another tool's format.",
        subcommands: [ImportTwee.self, ImportTwine.self])
}

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "export",
        abstract: "Write a story in another tool's format.",
        subcommands: [ExportTwee.self, ExportTwine.self, ExportEPUB.self])
}

extension TweeStory.Format: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: Self.allCases.first { $0.rawValue.lowercased() == argument.lowercased() }?.rawValue ?? "") }
    public static var allValueStrings: [String] { allCases.map { $0.rawValue.lowercased() } }
    public var defaultValueDescription: String { rawValue.lowercased() }
}

/// What the import commands take: the file, and where story.json goes.
struct ImportOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The file to read (.twee or .tw; .html for a Twine archive).", valueName: "file")) var file: String
    @Option(name: .shortAndLong, help: ArgumentHelp("Write story.json here (default: standard output).", valueName: "path")) var output: String?
}

/// What the Twee and Twine exports take: the story, where the file goes, the story format.
struct TwineExportOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("A story folder or story file (default: the current folder).", valueName: "story")) var story = "."
    @Option(name: .shortAndLong, help: ArgumentHelp("Write the file here (default: standard output).", valueName: "path")) var output: String?
    @Option(help: "The Twine story format to write for: it decides how the reader's name is written ($name, or {name} for Chapbook). Default: the format the story was imported with, else harlowe.") var format: TweeStory.Format?
}

struct ImportTwee: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "twee",
        abstract: "Read a Twee 3 file (Twine, tweego) into a story.json.",
        discussion: Help.importTwee)

    @OptionGroup var options: ImportOptions

    // The import says its findings at their lines and writes the story: it needs no map of
    // where each part of the story was.
    func run() throws { try Self.importing(options.file, to: options.output, read: { TweeStory.story(from: $0, placing: false) }) }

    /// Reads `file` with `read`, says each finding at file:line:column, writes story.json.
    static func importing(_ file: String, to output: String?, read: (SourceBytes) -> TweeStory.Imported) throws {
        // A large file is mapped and read where it lies, front to back, its pages given back.
        var bytes: SourceBytes?
        do { bytes = try SourceBytes.open(file, limit: TweeStory.largestFile) } catch { throw CLIError("cannot read \(VisibleText.escape(file)): \(error)") }
        bytes!.beginPass()
        let imported = read(bytes!)
        for line in imported.findings.isEmpty ? [] : InterchangeWords.findings(imported.findings, in: bytes!.array, file: file) { Terminal.standardError.write(line + "\n") }
        bytes = nil  // gone before the story.json is made: the story holds its own text
        guard let story = imported.story else { throw Exit.failure }
        if !imported.carriedMetadata { Terminal.standardError.write(InterchangeWords.noMetadata + "\n") }
        try ExportTwee.write(pieces: StoryJSON.chunks(story), to: output, saying: "\(story.chapters.count) chapters; `cyd validate \(VisibleText.escape(output ?? ""))` checks it")
        KeptToExit.keep(imported)
    }
}

struct ExportTwee: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "twee",
        abstract: "Write a story as Twee 3, for Twine or tweego; `cyd import twee` reads it back exactly.",
        discussion: Help.exportTwee)

    @OptionGroup var options: TwineExportOptions

    func run() throws {
        let format = options.format
        try Self.exporting(options.story, to: options.output, as: { "passages for \(VisibleText.escape(TweeStory.formatName(of: $0, format: format)))" }) { model throws(TweeStory.ExportProblem) in try TweeStory.tweeChunks(model, format: format) }
    }

    /// Reads the story, writes what `write` makes of it, and words why it cannot be written.
    static func exporting(_ story: String, to output: String?, as what: (Story) -> String, write: (Story) throws(TweeStory.ExportProblem) -> any Sequence<[UInt8]>) throws {
        let made: (said: String, pieces: any Sequence<[UInt8]>)  // made from the story as the file is written
        do {
            let model = try StoryInput.model(story).0
            made = ("\(model.chapters.count) \(what(model))", try write(model))
        } catch let error as TweeStory.ExportProblem { throw CLIError(InterchangeWords.exportProblem(error)) }
        try Self.write(pieces: made.pieces, to: output, saying: made.said)
        KeptToExit.keep(made.pieces)
    }

    /// The bytes, in pieces written one after the other, to `output` (then "wrote OUTPUT: `what`"), or to standard output.
    static func write(pieces: some Sequence<[UInt8]>, to output: String?, saying what: String) throws {
        guard let output else { return pieces.forEach(Terminal.standardOutput.write) }
        try FileWriter.write(to: output) { write in pieces.forEach(write) }
        FileWriter.said("wrote \(VisibleText.escape(output)): \(what)\n", about: output)
    }
}

struct ImportTwine: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "twine",
        abstract: "Read a Twine 2 archive (Library > Archive) or a published story's HTML into a story.json.",
        discussion: "The story's passages are read as `cyd import twee` reads them, with the same findings; an archive of several stories gives its first.")

    @OptionGroup var options: ImportOptions

    func run() throws { try ImportTwee.importing(options.file, to: options.output, read: { TwineArchive.story(from: $0, placing: false) }) }
}

struct ExportTwine: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "twine",
        abstract: "Write a story as a Twine 2 archive, for Twine's Library > Import; `cyd import twine` reads it back exactly.")

    @OptionGroup var options: TwineExportOptions

    func run() throws {
        let format = options.format
        try ExportTwee.exporting(options.story, to: options.output, as: { "passages in a Twine archive for \(VisibleText.escape(TweeStory.formatName(of: $0, format: format)))" }) { model throws(TweeStory.ExportProblem) in
            try TwineArchive.htmlChunks(model, format: format)
        }
    }
}

struct ExportEPUB: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "epub",
        abstract: "Write a story as an EPUB 3 gamebook: numbered sections, each choice a link \"turn to 37\".",
        discussion: Help.exportEPUB)

    @Argument(help: ArgumentHelp("A story folder or story file (default: the current folder).", valueName: "story")) var story = "."
    @Option(name: .shortAndLong, help: ArgumentHelp("The .epub file to write.", valueName: "path")) var output: String
    @Option(name: .customLong("reader-name"), help: "What [[name]] reads in the book (default: you).") var readerName: String?
    @Option(help: "The seed of the sections' order.") var seed: UInt64 = 1
    @Option(help: "The language the story is written in, as a BCP 47 tag: the book's language when it is the story as written (--lang names translations).") var language = "en"
    @Option(name: .customLong("lang"), help: ArgumentHelp(InterchangeWords.bookLanguagesHelp, valueName: "tag")) var languages: [String] = []
    @Flag(name: .customLong("no-fetch"), help: "Leave https pictures out instead of fetching them.") var noFetch = false

    func run() throws {
        let (model, target) = try StoryInput.model(story)
        var pictures: [String: [UInt8]] = [:]
        for (path, source) in StoryInput.pictures(of: model, at: target, fetch: !noFetch) {
            switch source {
            case .bytes(let data): pictures[path] = data
            case .link(let url): Terminal.standardError.write(InterchangeWords.linkLeftOut(url) + "\n")
            case .leftOut: break
            }
        }
        let found = languages.allSatisfy { $0 == "original" } ? nil : Translations.found(in: target.folder?.root.path ?? "", of: model, languages: languages.contains("all") ? nil : languages)
        for line in found.map({ TranslationWords.siteProblems($0, story: story) }) ?? [] { Terminal.standardError.write(line + "\n") }
        let books = Gamebook.books(model, language: language, translations: found?.stories.map { ($0.status.language, $0.story) } ?? [], original: languages.isEmpty || languages.contains("original") || languages.contains("all"), output: output)
        if books.isEmpty { throw CLIError(InterchangeWords.noBook(story)) }
        for book in books {
            let options = Gamebook.Options(readerName: readerName, seed: seed, pictures: pictures, modified: UTCTime.buildTime(ProcessInfo.processInfo.environment).iso8601, language: book.language)
            do { try FileWriter.write(try Gamebook.epub(book.story, options: options), to: book.path) } catch let error as Gamebook.Problem { throw CLIError(InterchangeWords.bookProblem(error, story: story)) }
            FileWriter.said("wrote \(VisibleText.escape(book.path)): \(Set(model.chapters.map(\.id)).count) sections, \(plural(pictures.count, "picture"))\n", about: book.path)
        }
    }
}
