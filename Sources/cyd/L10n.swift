import ArgumentParser
import CydWords
import Foundation
import InterfaceWords
import LocalFiles
import StoryFormat
import StoryTranslation
import TerminalUI

/// `cyd l10n`: the translator's and the author's tools for translations/ (gettext PO, XLIFF 2.1).
struct L10n: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "l10n",
        abstract: "Translate a story: extract its strings, start or update a language, see how far each has come.",
        discussion: Help.l10n,
        subcommands: [Extract.self, Start.self, Refresh.self, Status.self])

    /// The story folder argument every subcommand takes.
    struct StoryArgument: ParsableArguments {
        @Option(name: .customLong("story"), help: ArgumentHelp("The story folder (default: the current folder).", valueName: "folder")) var path = "."
        @Option(help: ArgumentHelp(TranslationWords.interfaceHelp, valueName: "folder")) var interface: String?

        /// The story folder (or cyd's own words), its problems said as cyd says them; its language
        /// files read beside it when `translations`.
        func loadReading(translations: Bool = true, lines: Bool = true) throws -> (project: TranslationProject, files: [TranslationProject.ReadFile]) {
            if let interface { return Phrasebook.project(folder: interface).reading(translations) }
            do { return try TranslationProject.loadReading(path, translations: translations, lines: lines) } catch { throw CLIError(TranslationWords.loadProblem(error)) }
        }
    }

    static func read(_ file: TranslationFolder.LanguageFile) throws -> (TranslationFile, POEntry?) {
        do { return try TranslationFolder.read(file) } catch { throw CLIError(TranslationWords.readProblem(error)) }
    }

    /// Writes a made file into translations/ (made when missing), or to `path` outside it.
    static func write(_ made: MadeFile, to path: String, in story: TranslationProject?) throws {
        if let story { try FileWriter.makeFolder(story.translations.path) }
        try FileWriter.write(to: path) { write in made.pieces.forEach(write) }
    }

    struct Extract: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "extract",
            abstract: "Write the template of every string (translations/story.pot), in reading order.",
            discussion: Help.extract)
        @OptionGroup var story: StoryArgument
        @Option(help: "po (gettext template) or xliff (XLIFF 2.1).") var format: TranslationFile.Format = .po
        @Option(help: ArgumentHelp("The language the story is written in (XLIFF's srcLang).", valueName: "tag")) var sourceLang = "en"
        @Option(name: .shortAndLong, help: ArgumentHelp("Write here instead of translations/.", valueName: "file")) var output: String?
        @Flag(help: "Write nothing; exit 1 when the template is not up to date with the story (for CI).") var check = false
        @Option(name: .customLong("lang"), help: ArgumentHelp("Write this language's translation (with --output) instead of the template: a PO file as XLIFF for a CAT tool, or back.", valueName: "tag")) var language: String?

        func validate() throws {
            if language != nil, output == nil { throw ValidationError("--lang needs --output FILE (translations/ keeps one file a language)") }
            if language != nil, check { throw ValidationError("--check compares the template; it does not go with --lang") }
        }

        func run() throws {
            let loaded = try story.loadReading(translations: false).project
            var file: TranslationFolder.LanguageFile?
            if let language {
                file = loaded.languageFile(language)
                guard file != nil else {
                    throw CLIError("no translation into \(VisibleText.escape(LanguageTag.normalise(language))) in \(VisibleText.escape(loaded.translations.path))")
                }
            }
            let existing = try file.map(L10n.read)?.0
            let made = loaded.file(format, language: file?.language, existing: existing, sourceLanguage: sourceLang, comments: TranslationWords.madeBy)
            let path = output ?? loaded.translations.file(loaded.templateFileName(format))
            if check {
                let current = try? LocalFile.read(path, limit: POFile.maximumSize)
                guard !made.isSame(as: current) else { return print("\(VisibleText.escape(path)) is up to date (\(loaded.units.count) strings)") }
                Terminal.standardError.write("cyd: \(VisibleText.escape(path)) is \(current == nil ? "missing" : "out of date"); run `cyd l10n extract` and commit it\n")
                throw Exit.problemsFound
            }
            try L10n.write(made, to: path, in: output == nil ? loaded : nil)
            FileWriter.said("\(loaded.units.count) strings in \(made.entries) entries -> \(VisibleText.escape(path))\n", about: path)
            KeptToExit.keep((loaded, made))
        }
    }

    struct Start: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "init",
            abstract: "Start a translation: translations/LANG.po with every string, untranslated, and LANG in LINGUAS.")
        @Argument(help: ArgumentHelp("The language: a BCP 47 tag (fr, es, pt-BR).", valueName: "lang")) var language: String
        @OptionGroup var story: StoryArgument
        @Option(help: "po (gettext) or xliff (XLIFF 2.1).") var format: TranslationFile.Format = .po
        @Option(help: ArgumentHelp("The language the story is written in (XLIFF's srcLang).", valueName: "tag")) var sourceLang = "en"

        func validate() throws {
            guard LanguageTag.isWellFormed(LanguageTag.normalise(language)) else {
                throw ValidationError("'\(VisibleText.escape(language))' is not a language tag; use a BCP 47 tag such as fr, es, pt-BR or sr-Latn")
            }
        }

        func run() throws {
            let loaded = try story.loadReading(translations: false).project
            let tag = LanguageTag.normalise(language)
            if let existing = loaded.languageFile(tag) {
                throw CLIError("\(VisibleText.escape(existing.path)) already exists; `cyd l10n update` brings it up to date")
            }
            let path = loaded.translations.file(tag + "." + format.fileExtension)
            try L10n.write(loaded.file(format, language: tag, sourceLanguage: sourceLang, comments: TranslationWords.madeBy), to: path, in: loaded)
            if let linguas = loaded.translations.linguas(adding: tag, header: TranslationWords.linguasHeader) {
                try FileWriter.write(linguas, to: loaded.translations.file(Linguas.fileName))
            }
            print("\(loaded.units.count) strings to translate -> \(VisibleText.escape(path)); \(tag) added to translations/LINGUAS")
        }
    }

    struct Refresh: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "update",
            abstract: "Bring translations up to date with the story (and rewrite the template).",
            discussion: Help.refresh)
        @OptionGroup var story: StoryArgument
        @Option(name: .customLong("lang"), help: ArgumentHelp("Only this language (repeatable); default: every one.", valueName: "tag")) var languages: [String] = []
        @Option(help: ArgumentHelp("The language the story is written in (XLIFF's srcLang).", valueName: "tag")) var sourceLang = "en"
        @Flag(help: "Print what changed as JSON.") var json = false

        func run() throws {
            let loaded = try story.loadReading(translations: false).project
            let files = loaded.languageFiles(languages)
            if files.isEmpty, !languages.isEmpty {
                throw CLIError("no translation of \(VisibleText.escape(languages.joined(separator: ", "))) in \(VisibleText.escape(loaded.translations.path)); `cyd l10n init LANG` starts one")
            }
            // The template first, in the format most files use.
            try L10n.write(loaded.file(.po, sourceLanguage: sourceLang, comments: TranslationWords.madeBy), to: loaded.translations.file(loaded.templateFileName(.po)), in: loaded)
            var report: [JSONValue] = []
            for file in files {
                let (old, header) = try read(file)
                let made = loaded.file(file.format, language: file.language, existing: old, header: header, sourceLanguage: sourceLang, comments: TranslationWords.madeBy)
                try FileWriter.write(made.bytes, to: file.path)
                if json { report.append(TranslationWords.updatedJSON(file, made.counts!)) } else { print(TranslationWords.updated(file, made.counts!)) }
            }
            if json { print(JSONValue.object(["languages": .array(report)]).encoded) } else if files.isEmpty { print("no translations yet; `cyd l10n init LANG` starts one") }
            for language in languages.isEmpty ? loaded.translations.listedWithoutFile : [] { Terminal.standardError.write("warning: " + TranslationWords.listedWithoutFile(language) + "\n") }
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status",
            abstract: "How far each translation has come: translated, fuzzy, missing, percent.",
            discussion: "Fuzzy counts translations marked for review and those made from a text that has changed since; readers see the original for both.")
        @OptionGroup var story: StoryArgument
        @Flag(help: "JSON: the story's string count and, per language, its file and counts.") var json = false

        func run() throws {
            let (loaded, files) = try story.loadReading(lines: false)  // counted, not placed
            var rows: [(TranslationFolder.LanguageFile, TranslationStatus)] = []
            var unreadable = false
            for (file, read) in files {
                do { rows.append((file, Translations.status(try read.get().file, language: file.language, units: loaded.units))) } catch {
                    Terminal.standardError.write("cyd: \(TranslationWords.readProblem(error))\n")
                    unreadable = true
                }
            }
            let (listed, withoutFile) = (loaded.translations.listed ?? [], loaded.translations.listedWithoutFile)
            if json {
                print(TranslationWords.statusJSON(rows, storyID: loaded.storyID, strings: loaded.units.count, listed: listed, withoutFile: withoutFile).encoded)
            } else {
                for line in TranslationWords.status(rows, strings: loaded.units.count, listed: listed, withoutFile: withoutFile) { print(line) }
            }
            KeptToExit.keep((loaded, files))
            if unreadable { throw Exit.failure }
        }
    }
}
