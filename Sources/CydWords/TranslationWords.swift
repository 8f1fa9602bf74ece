import StoryCheck
import StoryFormat
import StoryTranslation

/// What `cyd l10n` says of translations: how far each has come, and what an update did.
public enum TranslationWords {
    /// `--interface`'s help: the project of cyd's own words for readers.
    public static let interfaceHelp =
        "Translate cyd's own words for readers (the terminal reader, cyd serve, cyd build web, EPUB) instead of a story: the folder whose translations/ holds them (Sources/InterfaceWords in cyd's source)."

    /// The header comment's second line of every file `cyd l10n` writes: what made it.
    public static let madeBy = ["Made by `cyd l10n`; write each translation in msgstr and keep each [[name]]."]

    /// The first line of a LINGUAS that `cyd l10n init` makes.
    public static let linguasHeader = "# The languages readers get, one a line (gettext's LINGUAS); `cyd l10n init` adds them.\n"

    /// Why `path` is not a story to translate.
    public static func loadProblem(_ error: TranslationProject.LoadError) -> String {
        switch error {
        case .input(let input): input.description
        case .notAStoryFolder(let path): "'\(VisibleText.escape(path))' is not a story folder (with story.json)"
        case .notAStory(let shown): "'\(VisibleText.escape(shown))' cannot be read as a story; `cyd validate` says why"
        }
    }

    /// Why a language file cannot be brought up to date.
    public static func readProblem(_ error: TranslationFolder.ReadFailure) -> String {
        switch error {
        // The problem can quote the file (an unknown keyword): made safe like the path.
        case .unreadable(let path, let failure): "cannot read '\(VisibleText.escape(path))': \(VisibleText.escape(failure.description))"
        case .syntax(let path, let syntax):
            "'\(VisibleText.escape(path))' line \(syntax.line), column \(syntax.column): \(VisibleText.escape(syntax.problem)); fix it before updating (`cyd validate` shows the place)"
        }
    }

    /// What a site or a book leaves out of a story's translations, a line each: a file that
    /// cannot be read (the story is built without that language) or a language asked for that
    /// the story has no file for.
    public static func siteProblems(_ found: Translations.Found, story: String) -> [String] {
        let unreadable = found.problems.map { problem -> String in
            switch problem {
            case .unreadable(let path, let failure): "cyd: cannot read '\(VisibleText.escape(path))': \(VisibleText.escape(failure.description)); built without that language"
            case .syntax(let path, let syntax):
                "cyd: '\(VisibleText.escape(path))' line \(syntax.line), column \(syntax.column): \(VisibleText.escape(syntax.problem)); built without that language (`cyd validate --lang` shows the place)"
            }
        }
        let unlisted = found.unlisted.map { file in
            "cyd: '\(VisibleText.escape(file.path))' is left out: translations/LINGUAS does not list '\(VisibleText.escape(file.language))' (add it there to give it to readers, or name it with --lang)"
        }
        return unreadable + unlisted + found.missing.map { "cyd: \(VisibleText.escape(story)) has no translation into '\(VisibleText.escape($0))' (`cyd l10n init \(VisibleText.escape($0))` starts one)" }
    }

    /// `cyd l10n status` as text: the story's string count, then a line a language.
    public static func status(_ rows: [(TranslationFolder.LanguageFile, TranslationStatus)], strings: Int, listed: Set<String>, withoutFile: [String] = []) -> [String] {
        guard !rows.isEmpty else { return ["\(strings) strings; no translations yet (`cyd l10n init LANG` starts one)"] + withoutFile.map(listedWithoutFile) }
        var lines = ["\(strings) strings"]
        let width = rows.map(\.1.language.count).max() ?? 2
        for (file, status) in rows {
            // The language is a file's name: made safe (it may hold anything).
            let padded = VisibleText.escape(status.language) + String(repeating: " ", count: max(0, width - status.language.count))
            let note = listed.contains(status.language.lowercased()) ? "" : "  (not in LINGUAS: readers of git and web copies do not get it)"
            lines.append(
                "\(padded)  \(String(repeating: " ", count: 3 - String(status.percent).count))\(status.percent)%  \(status.translated) translated, \(status.fuzzy) fuzzy, \(status.missing) missing  \(VisibleText.escape(file.path))\(note)"
            )
        }
        return lines + withoutFile.map(listedWithoutFile)
    }

    /// Said of a language LINGUAS lists that has no file (`cyd l10n status` and `update`).
    public static func listedWithoutFile(_ language: String) -> String {
        "\(VisibleText.escape(language)): listed in translations/LINGUAS, but there is no \(VisibleText.escape(language)).po or .xlf; `cyd l10n init \(VisibleText.escape(language))` starts one, or take it out of LINGUAS"
    }

    /// `cyd l10n status --json`.
    public static func statusJSON(
        _ rows: [(TranslationFolder.LanguageFile, TranslationStatus)], storyID: String, strings: Int, listed: Set<String>, withoutFile: [String] = []
    ) -> JSONValue {
        let languages = rows.map { file, status -> JSONValue in
            .object([
                "language": .string(status.language), "file": .string(file.path), "format": .string(file.format.rawValue),
                "listed": .bool(listed.contains(status.language.lowercased())), "total": .number(Double(status.total)),
                "translated": .number(Double(status.translated)), "fuzzy": .number(Double(status.fuzzy)),
                "missing": .number(Double(status.missing)), "percent": .number(Double(status.percent)),
            ])
        }
        return .object([
            "story": .string(storyID), "strings": .number(Double(strings)), "languages": .array(languages),
            "listedWithoutFile": .array(withoutFile.map(JSONValue.string)),
        ])
    }

    /// What `cyd l10n update` did to one language's file.
    public static func updated(_ file: TranslationFolder.LanguageFile, _ counts: TranslationMerge.Counts) -> String {
        "\(VisibleText.escape(file.language)): \(counts.kept) kept, \(counts.madeFuzzy) made fuzzy (text changed), \(counts.followed) followed a renamed chapter, \(counts.added) new, \(counts.untranslated) not yet translated, \(counts.obsoleted) obsolete -> \(VisibleText.escape(file.path))"
    }

    public static func updatedJSON(_ file: TranslationFolder.LanguageFile, _ counts: TranslationMerge.Counts) -> JSONValue {
        .object([
            "language": .string(file.language), "file": .string(file.path), "kept": .number(Double(counts.kept)),
            "fuzzy": .number(Double(counts.madeFuzzy)), "followed": .number(Double(counts.followed)),
            "added": .number(Double(counts.added)), "obsolete": .number(Double(counts.obsoleted)), "untranslated": .number(Double(counts.untranslated)),
        ])
    }
}
