import StoryCheck
import StoryFormat
import StoryInterchange
import InterfaceWords
import StorySources
import StoryWeb
import TerminalUI

/// What the import and export commands say: findings at file:line:column, and why a story
/// cannot be written in another format.
public enum InterchangeWords {
    /// `cyd build web --site-lang`'s help.
    public static let siteLanguageHelp =
        "cyd's own words on the site (the list of stories, each story as written, the offline page) in this language, where they are translated (a tag such as fr). Default: the first --lang, else English. A translation's pages use its own language."

    /// `--site-lang` given what is not a language tag.
    public static func badSiteLanguage(_ given: String) -> String {
        "--site-lang takes a language tag such as fr or pt-BR, not '\(VisibleText.escape(given))'"
    }

    /// `--site-lang` names a language cyd's words are not translated into.
    public static func siteLanguageMissing(_ language: String) -> String {
        "warning: cyd's words are not translated into \(VisibleText.escape(language)) (they are in \(Phrasebook.languages.joined(separator: ", "))); the site's own pages are in English"
    }

    /// `cyd export epub --lang`'s help.
    public static let bookLanguagesHelp =
        "Write the book of this translation, in its language (repeat for more; original for the story as written; all for every language translations/LINGUAS lists). More than one book: each after -o's name, as book.fr.epub."

    /// No book to write: every language asked for was missing.
    public static func noBook(_ story: String) -> String {
        "no book written: \(VisibleText.escape(story)) has none of the translations asked for (`cyd l10n status` lists its languages)"
    }

    /// Why the site was not written.
    public static func siteNotWritten(_ failure: StaticSite.Failure) -> String {
        switch failure {
        case .folder(let path, let reason): "cannot make the folder \(VisibleText.escape(path)): \(reason)"
        case .file(let path, let failure): FileWriter.sentence(failure, path: path)
        }
    }

    /// Each finding of an import, a line each, worded as `cyd validate FILE` words it; past
    /// `maximumPerRule` findings of one code, the rest are counted in one line (as validate's
    /// text does: a macro in each of 50,000 passages would bury everything else).
    public static func findings(_ findings: [TweeFinding], in bytes: [UInt8], file: String, maximumPerRule: Int = 50) -> [String] {
        guard !findings.isEmpty else { return [] }
        let report = FileReport(path: file, bytes: bytes, kind: .story, diagnostics: TweeValidation.diagnostics(findings, in: bytes))
        // Only the findings shown are placed in the file; the rest are counted per rule.
        let resolved = ResolvedReport(report, atMostPerRule: maximumPerRule)
        var lines: [String] = []
        for finding in resolved.diagnostics {
            let diagnostic = finding.diagnostic
            lines.append("\(VisibleText.escape(file)):\(finding.start.line):\(finding.start.column): \(diagnostic.severity.rawValue)[\(diagnostic.code)]: \(VisibleText.escape(diagnostic.message))")
            // An error's fix is said under it (every fix is in `cyd validate`'s report).
            if diagnostic.severity == .error, let help = diagnostic.help { lines.append("  help: " + VisibleText.escape(help)) }
        }
        for (code, more) in resolved.leftOut {
            let name = RuleCatalogue.description(of: code).map { " (\($0.name))" } ?? ""
            lines.append("… and \(plural(more, "more finding")) of \(code)\(name), not shown: `cyd validate \(VisibleText.escape(file)) --max-per-rule 0` shows every one")
        }
        return lines
    }

    public static let noMetadata = "note: Twee has no rating or summary: the story's rating is G and its summary empty; set them in story.json"

    /// Why a story cannot be written as Twee or a Twine archive.
    public static func exportProblem(_ problem: TweeStory.ExportProblem) -> String {
        switch problem {
        case .duplicateChapter(let id): "two chapters have the id '\(VisibleText.escape(id))'; Twee passages need names of their own (`cyd validate` shows where)"
        case .unusableChapterID(let id): "the chapter id '\(VisibleText.escape(id))' cannot name a passage (it is empty or holds a line break)"
        case .reservedName(let id): "the chapter id '\(VisibleText.escape(id))' is a passage name Twine's story formats keep for themselves; rename the chapter first"
        }
    }

    /// Said of a picture a site or a book leaves out (`shown`: the story file as the user named it).
    public static func leftOut(_ path: String, _ why: PictureGathering.LeftOut, in shown: String) -> String {
        let reason = switch why {
            case .notHTTPS: "it is not an https:// link"
            case .notAPicture: "it is not a PNG, JPEG, GIF or WebP picture"
            case .noSuchFile: "there is no such file in the story's folder"
            case .unavailable(let error): error.description
            }
        return "warning: \(VisibleText.escape(shown)): picture \(VisibleText.escape(path)) left out: \(VisibleText.escape(reason))"
    }

    /// Said of an https picture a book leaves where it is.
    public static func linkLeftOut(_ url: String) -> String {
        "warning: picture \(VisibleText.escape(url)) left out: a book holds its pictures (drop --no-fetch to fetch it)"
    }

    /// What `cyd build web` says it did.
    public static func builtSite(pages: Int, stories: Int, folder: String, removed: [String]) -> [String] {
        var lines = ["wrote \(pages) pages of \(plural(stories, "story", "stories")) to \(VisibleText.escape(folder))/"]
        if !removed.isEmpty {
            let shown = removed.prefix(3).map { VisibleText.escape($0) }.joined(separator: ", ") + (removed.count > 3 ? ", ..." : "")
            lines.append("removed \(plural(removed.count, "file")) of the last build that this one does not make (\(shown))")
        }
        lines.append("open \(VisibleText.escape(folder))/index.html, or serve the folder (for offline reading: python3 -m http.server -d \(VisibleText.escape(folder)))")
        return lines
    }

    /// Why a story cannot be made a book (`story` as the command line named it).
    public static func bookProblem(_ problem: Gamebook.Problem, story: String) -> String {
        switch problem {
        case .noFirstChapter: "the story has no first chapter (is_first_chapter); `cyd validate \(VisibleText.escape(story))` shows it"
        case .tooLarge: "the book would pass 4 GiB, more than a ZIP file without ZIP64 holds"
        case .tooManyFiles(let count): "the book would need \(count) files (a section a chapter), more than the 65,535 a ZIP file without ZIP64 holds"
        }
    }
}
