import StoryAnalysis
import StoryDiff
import StoryFormat

/// What `cyd diff` says: a story change as text (coloured on a terminal), as Markdown for a pull
/// request or a job summary, or as JSON. Every text of a story is made safe here.
public enum DiffWords {
    /// Words of kept text shown on each side of a change.
    static let context = 6

    public enum Format: String, CaseIterable, Sendable {
        case text, markdown, json
        /// One version alone, as text a line-based diff can compare (git's textconv).
        case outline
    }

    /// The report in `format` (`outline` is not a report of changes: `outline(_:)` makes it).
    public static func report(_ changes: StoryChanges, format: Format, colour: Bool) -> String {
        switch format {
        case .text, .outline: text(changes, colour: colour)
        case .markdown: markdown(changes)
        case .json: json(changes)
        }
    }

    /// A story as an outline: its title, then each chapter a paragraph (its id and title, its
    /// text, its choices and where they lead), so `git diff` with this as textconv shows a
    /// change chapter by chapter. Made safe for a terminal.
    public static func outline(_ version: Result<StoryVersion, StoryVersion.Problem>) throws(CLIError) -> String {
        let loaded: StoryVersion
        switch version {
        case .success(let found): loaded = found
        case .failure(let problem): throw CLIError(describe(problem))
        }
        guard let story = loaded.story else { throw CLIError("\(VisibleText.escape(loaded.label)) cannot be read as a story; `cyd validate` says why") }
        let e: (String) -> String = { VisibleText.escape($0) }
        var out = "# \(e(story.name)) (\(e(story.id)))\nrated \(e(story.rating)); \(e(story.summary))\n"
        for chapter in story.chapters {
            out += "\n## \(e(chapter.id)): \(e(chapter.name))\(chapter.isFirstChapter ? " (first)" : "")\n"
            if let picture = chapter.picPath { out += "picture \(e(picture))\(chapter.picAlt.map { ": " + e($0) } ?? "")\n" }
            out += chapter.paragraphs.map { e($0) + "\n" }.joined()
            out += chapter.choices.map { "-> \(e($0.chapterID)): \(e($0.text))\n" }.joined()
            if chapter.choices.isEmpty { out += "(an ending)\n" }
        }
        return out
    }

    // MARK: Text

    public static func text(_ changes: StoryChanges, colour: Bool) -> String {
        let style = TextStyle(colour: colour)
        var out = style.bold("Story change: \(VisibleText.escape(changes.old.label)) → \(VisibleText.escape(changes.new.label))") + "\n"
        out += sides(changes).map { "  " + $0 + "\n" }.joined()
        for (heading, lines) in sections(changes, style: style) where !lines.isEmpty {
            out += "\n" + style.bold(heading) + "\n" + lines.map { "  " + $0 + "\n" }.joined()
        }
        if changes.isEmpty, changes.old.problem == nil, changes.new.problem == nil { out += "\nNo change a reader, an author or a translator would notice.\n" }
        return out
    }

    struct TextStyle {
        var colour: Bool
        func bold(_ text: String) -> String { colour ? "\u{1B}[1m" + text + "\u{1B}[0m" : text }
        func removed(_ text: String) -> String { colour ? "\u{1B}[31m" + text + "\u{1B}[0m" : "[-" + text + "-]" }
        func added(_ text: String) -> String { colour ? "\u{1B}[32m" + text + "\u{1B}[0m" : "{+" + text + "+}" }
    }

    /// Each side in a line, or why it could not be read.
    static func sides(_ changes: StoryChanges) -> [String] {
        var lines: [String] = []
        for (name, side) in [("old", changes.old), ("new", changes.new)] {
            if let problem = side.problem { lines.append("\(name): \(VisibleText.escape(side.label)): \(describe(problem))") }
        }
        let a = changes.old, b = changes.new
        if a.problem == nil, b.problem == nil {
            var line = "\(a.chapters) → \(b.chapters) chapters, endings \(a.endings) → \(b.endings), playthroughs \(count(a.playthroughs)) → \(count(b.playthroughs))"
            line += ", shortest way \(number(a.shortest)) → \(number(b.shortest)), longest \(number(a.longest)) → \(number(b.longest)) chapters"
            lines.append(line)
            lines.append("findings \(a.findings.count) → \(b.findings.count)")
        } else {
            // One side unreadable: the other is still described.
            for (name, side) in [("old", a), ("new", b)] where side.problem == nil {
                lines.append("\(name) (\(VisibleText.escape(side.label))): “\(VisibleText.escape(side.title ?? ""))”, \(side.chapters) chapters, \(side.endings) endings, playthroughs \(count(side.playthroughs)), \(side.findings.count) findings")
            }
        }
        return lines
    }

    static func count(_ count: PathAnalysis.Count?) -> String {
        switch count {
        case nil: "none"
        case .finite(let number)?: number.abbreviated
        case .unbounded?: "unbounded (a loop)"
        }
    }

    static func number(_ value: Int?) -> String { value.map(String.init) ?? "–" }

    static func describe(_ problem: StoryChanges.Problem) -> String {
        switch problem {
        case .version(let problem): describe(problem)
        case .notAStory(let finding?):
            "not a story: \(finding.position) \(finding.code) \(VisibleText.escape(finding.message))"
        case .notAStory(nil): "not a story (`cyd validate` says why)"
        }
    }

    public static func describe(_ problem: StoryVersion.Problem) -> String {
        switch problem {
        case .notFound(let name, nil):
            "'\(VisibleText.escape(name))' is neither a file, a folder nor a revision (the story's folder is in no git repository)"
        case .notFound(let name, let repository?):
            "'\(VisibleText.escape(name))' is neither a file, a folder nor a revision of \(VisibleText.escape(repository))"
        case .noStory(let name, let path): "\(VisibleText.escape(name)) has no \(VisibleText.escape(path))"
        case .unreadable(let name, let reason): "cannot read \(VisibleText.escape(name)): \(VisibleText.escape(reason))"
        case .tooLarge(let name, let limit): "\(VisibleText.escape(name)) is larger than \(limit / (1024 * 1024)) MiB, the largest story cyd reads"
        case .repository(let folder, let reason): "cannot open the git repository of \(VisibleText.escape(folder)): \(VisibleText.escape(reason))"
        }
    }

    static func chapter(_ chapter: StoryChanges.Chapter) -> String {
        chapter.title.isEmpty ? VisibleText.escape(chapter.id) : "“\(VisibleText.escape(chapter.title))” (\(VisibleText.escape(chapter.id)))"
    }

    /// A word change with a few words of context around each change; long kept runs elided.
    static func words(_ diff: WordDiff, style: TextStyle, escape: (String) -> String = { VisibleText.escape($0) }) -> String {
        var out = ""
        for (index, run) in diff.runs.enumerated() {
            let flat = oneLine(run.text)
            switch run.kind {
            case .removed: out += style.removed(escape(flat))
            case .added: out += style.added(escape(flat))
            case .kept:
                let words = flat.split(separator: " ", omittingEmptySubsequences: false)
                let first = index == 0, last = index == diff.runs.count - 1
                if words.count <= context * 2 + 1 || (first && last) {
                    out += escape(first && last ? String(flat.prefix(80)) : flat)
                } else if first {
                    out += "… " + escape(words.suffix(context).joined(separator: " "))
                } else if last {
                    out += escape(words.prefix(context).joined(separator: " ")) + " …"
                } else {
                    out += escape(words.prefix(context).joined(separator: " ")) + " … " + escape(words.suffix(context).joined(separator: " "))
                }
            }
        }
        return out
    }

    /// `text` with each line feed a space, on its bytes: Foundation's `replacingOccurrences`
    /// bridged every run of a diff to an NSString (14 ms of the main thread in a diff of two
    /// 100,000-chapter versions with 1,000 chapters changed, after both were read).
    static func oneLine(_ text: String) -> String {
        guard text.utf8.contains(0x0A) else { return text }
        return String(decoding: text.utf8.map { $0 == 0x0A ? 0x20 : $0 }, as: UTF8.self)
    }

    static func sections(_ changes: StoryChanges, style: TextStyle) -> [(String, [String])] {
        let e: (String) -> String = { VisibleText.escape($0) }
        let story: [String] = changes.story.map { "\($0.field): \(words($0.change, style: style))" }
        let chapters = changes.added.map { "+ added \(chapter($0))" } + changes.removed.map { "- removed \(chapter($0))" }
            + changes.renamed.map { "~ renamed \(e($0.from.id)) → \(e($0.to.id)) \(chapter($0.to)) (\($0.similarity)% alike)" }
        let choices = changes.choices.map { change -> String in
            switch change {
            case .added(let chapter, let text, let to): "in \(self.chapter(chapter)): + “\(e(text))” → \(e(to))"
            case .removed(let chapter, let text, let to): "in \(self.chapter(chapter)): - “\(e(text))” → \(e(to))"
            case .retargeted(let chapter, let text, let from, let to): "in \(self.chapter(chapter)): “\(e(text))” now leads to \(e(to)) (was \(e(from)))"
            case .reworded(let chapter, let to, let diff): "in \(self.chapter(chapter)): the choice to \(e(to)) reads “\(words(diff, style: style))”"
            }
        }
        var texts: [String] = []
        for change in changes.texts {
            if let title = change.title { texts.append("title of \(e(change.chapter.id)): \(words(title, style: style))") }
            if let text = change.text {
                texts.append("\(chapter(change.chapter)): \(text.removedWords) words removed, \(text.addedWords) added")
                texts.append("    " + words(text, style: style))
            }
            if let alt = change.pictureAlt { texts.append("picture text of \(e(change.chapter.id)): \(words(alt, style: style))") }
        }
        let endings = changes.endingsAdded.map { "+ a new ending: \(chapter($0))" } + changes.endingsLost.map { "- no longer an ending: \(chapter($0))" }
        let reach = changes.becameUnreachable.map { "now unreachable: \(chapter($0))" } + changes.becameReachable.map { "now reachable: \(chapter($0))" }
        let findings = changes.findingsNew.map { "+ \($0.position) \($0.code) \(e($0.message))" } + changes.findingsFixed.map { "- fixed: \($0.code) \(e($0.message)) (was at \($0.position))" }
        let pictures = changes.pictures.map { "\($0.kind.rawValue) \(e($0.path)) (\($0.chapters.map(e).joined(separator: ", ")))" }
        let translations = changes.translations.map { impact -> String in
            var line = "\(e(impact.language)): \(impact.becomeFuzzy) translated \(impact.becomeFuzzy == 1 ? "string becomes" : "strings become") fuzzy"
            if impact.lost > 0 { line += ", \(impact.lost) lost with their chapter, paragraph or choice" }
            return line + " (\(impact.examples.map(e).joined(separator: ", ")))"
        }
        return [
            ("Story", story), ("Chapters", chapters), ("Choices", choices), ("Text", texts), ("Endings", endings), ("Reachability", reach),
            ("Findings", findings), ("Pictures", pictures), ("Translations", translations),
        ]
    }

    // MARK: Markdown

    public static func markdown(_ changes: StoryChanges) -> String {
        let m: (String) -> String = { MarkdownText.escaped($0) }
        var out = "## Story change: \(m(changes.old.label)) → \(m(changes.new.label))\n\n"
        for line in sides(changes) { out += "- \(m(line))\n" }
        for (heading, lines) in markdownSections(changes) where !lines.isEmpty {
            out += "\n### \(heading)\n\n" + lines.map { "- " + $0 + "\n" }.joined()
        }
        if changes.isEmpty, changes.old.problem == nil, changes.new.problem == nil { out += "\nNo change a reader, an author or a translator would notice.\n" }
        return out
    }

    static func markdownWords(_ diff: WordDiff) -> String {
        // ~~removed~~ and **added**: the runs escaped first (an escaped text never holds the
        // plain markers), then marked.
        words(diff, style: TextStyle(colour: false), escape: { MarkdownText.escaped($0) }).replacingOccurrences(of: "[-", with: "~~").replacingOccurrences(of: "-]", with: "~~")
            .replacingOccurrences(of: "{+", with: "**").replacingOccurrences(of: "+}", with: "**")
    }

    static func markdownSections(_ changes: StoryChanges) -> [(String, [String])] {
        let m: (String) -> String = { MarkdownText.escaped($0) }
        func chapter(_ chapter: StoryChanges.Chapter) -> String { chapter.title.isEmpty ? "`\(code(chapter.id))`" : "“\(m(chapter.title))” (`\(code(chapter.id))`)" }
        let story = changes.story.map { "\($0.field): \(markdownWords($0.change))" }
        let chapters = changes.added.map { "added \(chapter($0))" } + changes.removed.map { "removed \(chapter($0))" }
            + changes.renamed.map { "renamed `\(code($0.from.id))` → `\(code($0.to.id))` \(chapter($0.to)) (\($0.similarity)% alike)" }
        let choices = changes.choices.map { change -> String in
            switch change {
            case .added(let at, let text, let to): "in \(chapter(at)): added “\(m(text))” → `\(code(to))`"
            case .removed(let at, let text, let to): "in \(chapter(at)): removed “\(m(text))” → `\(code(to))`"
            case .retargeted(let at, let text, let from, let to): "in \(chapter(at)): “\(m(text))” now leads to `\(code(to))` (was `\(code(from))`)"
            case .reworded(let at, let to, let diff): "in \(chapter(at)): the choice to `\(code(to))` reads “\(markdownWords(diff))”"
            }
        }
        var texts: [String] = []
        for change in changes.texts {
            if let title = change.title { texts.append("title of `\(code(change.chapter.id))`: \(markdownWords(title))") }
            if let text = change.text { texts.append("\(chapter(change.chapter)): \(text.removedWords) words removed, \(text.addedWords) added: \(markdownWords(text))") }
            if let alt = change.pictureAlt { texts.append("picture text of `\(code(change.chapter.id))`: \(markdownWords(alt))") }
        }
        let endings = changes.endingsAdded.map { "a new ending: \(chapter($0))" } + changes.endingsLost.map { "no longer an ending: \(chapter($0))" }
        let reach = changes.becameUnreachable.map { "now unreachable: \(chapter($0))" } + changes.becameReachable.map { "now reachable: \(chapter($0))" }
        let findings = changes.findingsNew.map { "new: \($0.position) `\($0.code)` \(m($0.message))" } + changes.findingsFixed.map { "fixed: `\($0.code)` \(m($0.message))" }
        let pictures = changes.pictures.map { "\($0.kind.rawValue) `\(code($0.path))`" }
        let translations = changes.translations.map { "`\(code($0.language))`: \($0.becomeFuzzy) translated strings become fuzzy" + ($0.lost > 0 ? ", \($0.lost) lost" : "") }
        return [
            ("Story", story), ("Chapters", chapters), ("Choices", choices), ("Text", texts), ("Endings", endings), ("Reachability", reach),
            ("Findings", findings), ("Pictures", pictures), ("Translations", translations),
        ]
    }

    /// Text inside a code span: made visible, backticks replaced (a code span cannot escape them).
    static func code(_ text: String) -> String { String(VisibleText.escape(text).map { $0 == "`" ? "'" : $0 }) }

    // MARK: JSON

    public static func json(_ changes: StoryChanges) -> String {
        func chapter(_ chapter: StoryChanges.Chapter) -> JSONValue { .object(["id": .string(chapter.id), "title": .string(chapter.title)]) }
        func diff(_ diff: WordDiff) -> JSONValue {
            .object([
                "removedWords": .number(Double(diff.removedWords)), "addedWords": .number(Double(diff.addedWords)),
                "runs": .array(diff.runs.map { .object(["kind": .string($0.kind.rawValue), "text": .string($0.text)]) }),
            ])
        }
        func finding(_ finding: StoryChanges.Finding) -> JSONValue {
            .object([
                "code": .string(finding.code), "severity": .string(finding.severity.rawValue), "message": .string(finding.message),
                "line": .number(Double(finding.position.line)), "column": .number(Double(finding.position.column)),
            ])
        }
        func side(_ side: StoryChanges.Side) -> JSONValue {
            var members: [String: JSONValue] = [
                "label": .string(side.label), "chapters": .number(Double(side.chapters)), "endings": .number(Double(side.endings)),
                "playthroughs": .string(count(side.playthroughs)), "findings": .number(Double(side.findings.count)),
            ]
            members["shortest"] = side.shortest.map { .number(Double($0)) } ?? .null
            members["longest"] = side.longest.map { .number(Double($0)) } ?? .null
            members["problem"] = side.problem.map { .string(describe($0)) } ?? .null
            return .object(members)
        }
        let choices: [JSONValue] = changes.choices.map { change in
            switch change {
            case .added(let at, let text, let to): .object(["change": .string("added"), "chapter": .string(at.id), "text": .string(text), "to": .string(to)])
            case .removed(let at, let text, let to): .object(["change": .string("removed"), "chapter": .string(at.id), "text": .string(text), "to": .string(to)])
            case .retargeted(let at, let text, let from, let to):
                .object(["change": .string("retargeted"), "chapter": .string(at.id), "text": .string(text), "from": .string(from), "to": .string(to)])
            case .reworded(let at, let to, let words): .object(["change": .string("reworded"), "chapter": .string(at.id), "to": .string(to), "text": diff(words)])
            }
        }
        let texts: [JSONValue] = changes.texts.map { change in
            var members: [String: JSONValue] = ["chapter": chapter(change.chapter)]
            if let title = change.title { members["title"] = diff(title) }
            if let text = change.text { members["text"] = diff(text) }
            if let alt = change.pictureAlt { members["pictureAlt"] = diff(alt) }
            return .object(members)
        }
        let value: JSONValue = .object([
            "old": side(changes.old), "new": side(changes.new),
            "story": .array(changes.story.map { .object(["field": .string($0.field), "change": diff($0.change)]) }),
            "added": .array(changes.added.map(chapter)), "removed": .array(changes.removed.map(chapter)),
            "renamed": .array(changes.renamed.map { .object(["from": chapter($0.from), "to": chapter($0.to), "similarity": .number(Double($0.similarity))]) }),
            "choices": .array(choices), "texts": .array(texts),
            "endingsAdded": .array(changes.endingsAdded.map(chapter)), "endingsLost": .array(changes.endingsLost.map(chapter)),
            "becameUnreachable": .array(changes.becameUnreachable.map(chapter)), "becameReachable": .array(changes.becameReachable.map(chapter)),
            "findingsNew": .array(changes.findingsNew.map(finding)), "findingsFixed": .array(changes.findingsFixed.map(finding)),
            "pictures": .array(changes.pictures.map { .object(["path": .string($0.path), "change": .string($0.kind.rawValue), "usedBy": .array($0.chapters.map { .string($0) })]) }),
            "translations": .array(
                changes.translations.map {
                    .object([
                        "language": .string($0.language), "becomeFuzzy": .number(Double($0.becomeFuzzy)), "lost": .number(Double($0.lost)),
                        "examples": .array($0.examples.map { .string($0) }),
                    ])
                }),
        ])
        return value.encoded + "\n"
    }
}
