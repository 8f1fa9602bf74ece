import ArgumentParser
import CydWords
#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LocalFiles
import StoryCheck
import StoryFormat
import StorySources
import StoryTranslation
import TerminalUI

/// `cyd l10n`: the translator's and the author's tools for translations/ (gettext PO, XLIFF 2.1).
struct L10n: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "l10n",
        abstract: "Translate a story: extract its strings, start or update a language, see how far each has come.",
        discussion: Help.l10n,
        subcommands: [Extract.self, Start.self, Refresh.self, Status.self])

    /// Runs a subcommand, its failures said as cyd says them: `cyd: ` and a sentence, exit 2.
    static func worded(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as ValidationTarget.InputError {
            Terminal.standardError.write("cyd: \(error.description)\n")
            throw Exit.failure
        } catch let error as FileWriter.WriteError {
            Terminal.standardError.write("cyd: \(error.description)\n")
            throw Exit.failure
        }
    }

    /// The story being translated: its folder, file and strings.
    typealias Story = TranslationProject

    /// The story folder at `path`, its problems said as cyd says them.
    static func load(_ path: String) throws -> Story {
        do {
            return try TranslationProject.load(path)
        } catch {
            switch error {
            case .input(let input): throw input
            case .notAStoryFolder(let path): throw FileWriter.WriteError(description: "'\(VisibleText.escape(path))' is not a story folder (with story.json)")
            case .notAStory(let shown):
                Terminal.standardError.write("cyd: '\(VisibleText.escape(shown))' cannot be read as a story; `cyd validate` says why\n")
                throw Exit.failure
            }
        }
    }

    /// The story folder argument every subcommand takes.
    struct StoryArgument: ParsableArguments {
        @Option(name: .customLong("story"), help: ArgumentHelp("The story folder (default: the current folder).", valueName: "folder"))
        var path = "."
    }

    typealias LanguageFile = TranslationFolder.LanguageFile

    static func languageFiles(_ story: Story) -> [LanguageFile] { story.translations.languageFiles }

    /// Adds a language to translations/LINGUAS (made when missing), keeping what it holds.
    static func list(_ language: String, in story: Story) throws {
        let header = "# The languages readers get, one a line (gettext's LINGUAS); `cyd l10n init` adds them.\n"
        guard let text = story.translations.linguas(adding: language, header: header) else { return }
        try FileWriter.write(text, to: story.translations.file(Linguas.fileName))
    }

    static func makeFolder(_ folder: TranslationFolder) throws {
        do {
            try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        } catch {
            throw FileWriter.WriteError(description: "cannot make the folder '\(VisibleText.escape(folder.path))'")
        }
    }

    /// The header comment's second line: what made the file.
    static let madeBy = ["Made by `cyd l10n`; write each translation in msgstr and keep each [[name]]."]

    /// The file's bytes for a merge.
    static func render(_ merge: TranslationMerge, story: Story, language: String?, format: TranslationFile.Format, sourceLanguage: String, header: POEntry?) -> [UInt8] {
        TranslationFolder.render(
            merge, storyID: story.storyID, storyName: story.name, language: language, format: format, sourceLanguage: sourceLanguage, header: header,
            comments: madeBy)
    }

    static func read(_ file: LanguageFile) throws -> (TranslationFile, POEntry?) {
        do {
            return try TranslationFolder.read(file)
        } catch {
            switch error {
            case .unreadable(let path, let failure):
                throw FileWriter.WriteError(description: "cannot read '\(VisibleText.escape(path))': \(failure.description)")
            case .syntax(let path, let syntax):
                throw FileWriter.WriteError(
                    description: "'\(VisibleText.escape(path))' line \(syntax.line), column \(syntax.column): \(syntax.problem); fix it before updating (`cyd validate` shows the place)")
            }
        }
    }

    struct Extract: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the template of every string (translations/story.pot), in reading order.",
            discussion: Help.extract)
        @OptionGroup var story: StoryArgument
        @Option(help: "po (gettext template) or xliff (XLIFF 2.1).") var format: FileFormat = .po
        @Option(help: ArgumentHelp("The language the story is written in (XLIFF's srcLang).", valueName: "tag")) var sourceLang = "en"
        @Option(name: .shortAndLong, help: ArgumentHelp("Write here instead of translations/.", valueName: "file")) var output: String?
        @Flag(help: "Write nothing; exit 1 when the template is not up to date with the story (for CI).") var check = false
        @Option(name: .customLong("lang"), help: ArgumentHelp("Write this language's translation (with --output) instead of the template: a PO file as XLIFF for a CAT tool, or back.", valueName: "tag"))
        var language: String?

        func validate() throws {
            if language != nil, output == nil { throw ValidationError("--lang needs --output FILE (translations/ keeps one file a language)") }
            if language != nil, check { throw ValidationError("--check compares the template; it does not go with --lang") }
        }

        func run() throws { try L10n.worded { try body() } }

        func body() throws {
            let loaded = try L10n.load(story.path)
            var existing: TranslationFile?
            var tag: String?
            if let language {
                let wanted = LanguageTag.normalise(language)
                guard let file = languageFiles(loaded).first(where: { $0.language.lowercased() == wanted.lowercased() }) else {
                    Terminal.standardError.write("cyd: no translation into \(VisibleText.escape(wanted)) in \(VisibleText.escape(loaded.translations.path))\n")
                    throw Exit.failure
                }
                existing = try read(file).0
                tag = file.language
            }
            let text: [UInt8]
            let entries: Int
            if existing == nil, format.value.writesTemplateDirectly {
                // The template, written straight from the strings.
                (text, entries) = POFile.template(loaded.units, storyID: loaded.storyID, storyName: loaded.name, comments: L10n.madeBy)
            } else {
                let merge = TranslationMerge(units: loaded.units, existing: existing, grouped: format.value.groupsSameText)
                text = render(merge, story: loaded, language: tag, format: format.value, sourceLanguage: sourceLang, header: nil)
                entries = merge.entries.count
            }
            let path = output ?? loaded.translations.file(format.value.templateFileName)
            if check {
                let current = try? LocalFile.read(path, limit: POFile.maximumSize)
                if current == text {
                    print("\(VisibleText.escape(path)) is up to date (\(loaded.units.count) strings)")
                    return
                }
                Terminal.standardError.write("cyd: \(VisibleText.escape(path)) is \(current == nil ? "missing" : "out of date"); run `cyd l10n extract` and commit it\n")
                throw Exit.problemsFound
            }
            if output == nil { try makeFolder(loaded.translations) }
            try FileWriter.write(text, to: path)
            FileWriter.said("\(loaded.units.count) strings in \(entries) entries -> \(VisibleText.escape(path))\n", about: path)
        }
    }

    struct Start: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "init",
            abstract: "Start a translation: translations/LANG.po with every string, untranslated, and LANG in LINGUAS.")
        @Argument(help: ArgumentHelp("The language: a BCP 47 tag (fr, es, pt-BR).", valueName: "lang")) var language: String
        @OptionGroup var story: StoryArgument
        @Option(help: "po (gettext) or xliff (XLIFF 2.1).") var format: FileFormat = .po
        @Option(help: ArgumentHelp("The language the story is written in (XLIFF's srcLang).", valueName: "tag")) var sourceLang = "en"

        func validate() throws {
            guard LanguageTag.isWellFormed(LanguageTag.normalise(language)) else {
                throw ValidationError("'\(VisibleText.escape(language))' is not a language tag; use a BCP 47 tag such as fr, es, pt-BR or sr-Latn")
            }
        }

        func run() throws { try L10n.worded { try body() } }

        func body() throws {
            let loaded = try L10n.load(story.path)
            let tag = LanguageTag.normalise(language)
            if let existing = languageFiles(loaded).first(where: { $0.language.lowercased() == tag.lowercased() }) {
                Terminal.standardError.write("cyd: \(VisibleText.escape(existing.path)) already exists; `cyd l10n update` brings it up to date\n")
                throw Exit.failure
            }
            try makeFolder(loaded.translations)
            let merge = TranslationMerge(units: loaded.units, existing: nil, grouped: format.value.groupsSameText)
            let path = loaded.translations.file(tag + "." + format.value.fileExtension)
            try FileWriter.write(render(merge, story: loaded, language: tag, format: format.value, sourceLanguage: sourceLang, header: nil), to: path)
            try list(tag, in: loaded)
            print("\(loaded.units.count) strings to translate -> \(VisibleText.escape(path)); \(tag) added to translations/LINGUAS")
        }
    }

    struct Refresh: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "update",
            abstract: "Bring translations up to date with the story (and rewrite the template).",
            discussion: Help.refresh)
        @OptionGroup var story: StoryArgument
        @Option(name: .customLong("lang"), help: ArgumentHelp("Only this language (repeatable); default: every one.", valueName: "tag")) var languages: [String] = []
        @Option(help: ArgumentHelp("The language the story is written in (XLIFF's srcLang).", valueName: "tag")) var sourceLang = "en"
        @Flag(help: "Print what changed as JSON.") var json = false

        func run() throws { try L10n.worded { try body() } }

        func body() throws {
            let loaded = try L10n.load(story.path)
            var files = languageFiles(loaded)
            if !languages.isEmpty {
                let wanted = Set(languages.map { LanguageTag.normalise($0).lowercased() })
                files = files.filter { wanted.contains($0.language.lowercased()) }
                if files.isEmpty {
                    Terminal.standardError.write("cyd: no translation of \(languages.joined(separator: ", ")) in \(VisibleText.escape(loaded.translations.path)); `cyd l10n init LANG` starts one\n")
                    throw Exit.failure
                }
            }
            // The template first, in the format most files use.
            let template = TranslationMerge(units: loaded.units, existing: nil, grouped: true)
            try makeFolder(loaded.translations)
            try FileWriter.write(render(template, story: loaded, language: nil, format: .po, sourceLanguage: sourceLang, header: nil), to: loaded.translations.file("story.pot"))
            var report: [JSONValue] = []
            for file in files {
                let (old, header) = try read(file)
                let merge = TranslationMerge(units: loaded.units, existing: old, grouped: file.format.groupsSameText)
                try FileWriter.write(render(merge, story: loaded, language: file.language, format: file.format, sourceLanguage: sourceLang, header: header), to: file.path)
                if json { report.append(TranslationWords.updatedJSON(file, merge.counts)) } else { print(TranslationWords.updated(file, merge.counts)) }
            }
            if json { print(JSONValue.object(["languages": .array(report)]).encoded) } else if files.isEmpty { print("no translations yet; `cyd l10n init LANG` starts one") }
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "How far each translation has come: translated, fuzzy, missing, percent.",
            discussion: "Fuzzy counts translations marked for review and those made from a text that has changed since; readers see the original for both.")
        @OptionGroup var story: StoryArgument
        @Flag(help: "JSON: the story's string count and, per language, its file and counts.") var json = false

        func run() throws { try L10n.worded { try body() } }

        func body() throws {
            let loaded = try L10n.load(story.path)
            var rows: [(LanguageFile, TranslationStatus)] = []
            var unreadable = false
            for file in languageFiles(loaded) {
                do {
                    let (translation, _) = try read(file)
                    rows.append((file, Translations.status(translation, language: file.language, units: loaded.units)))
                } catch {
                    Terminal.standardError.write("cyd: \(error)\n")
                    unreadable = true
                }
            }
            let listed = loaded.translations.listed ?? []
            if json {
                print(TranslationWords.statusJSON(rows, storyID: loaded.storyID, strings: loaded.units.count, listed: listed).encoded)
            } else {
                for line in TranslationWords.status(rows, strings: loaded.units.count, listed: listed) { print(line) }
            }
            if unreadable { throw Exit.failure }
        }
    }

    enum FileFormat: String, ExpressibleByArgument, CaseIterable {
        case po, xliff
        var value: TranslationFile.Format {
            switch self {
            case .po: .po
            case .xliff: .xliff
            }
        }
    }
}
