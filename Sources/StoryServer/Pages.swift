// The browser reader is built with the package trait BrowserReader only.
#if BrowserReader
import StoryFormat
import StoryReader
import StoryStore
import StoryWeb

/// The served reader's pages. Every string from a story, the library or the request reaches the
/// page through StoryWeb's `HTML.text` / `HTML.attribute` (the one escaping place); every form
/// that changes something is a POST carrying the anti-forgery token. Pages are whole without a
/// script; `serve.js` only makes moving between chapters happen in place.
enum Pages {
    /// What every page needs to know about who is reading.
    struct Reader {
        var profile: String
        /// More than one profile exists: the header offers to change.
        var canChangeProfile: Bool
        /// The anti-forgery token every form carries.
        var formToken: String
    }

    static let layout = PageLayout(style: .linked("/assets/cyd.css"), script: "/assets/serve.js", referrer: "same-origin", followsColorScheme: true)

    static func document(title: String, reader: Reader?, notice: String? = nil, bodyAttributes: [(String, String)] = [], main: String) -> String {
        let profile = reader.map { (reader) -> String in
            let change = reader.canChangeProfile ? " (<a href=\"/profiles\">change</a>)" : ""
            return "<li>Reading as <strong>\(HTML.text(reader.profile))</strong>\(change)</li>"
        } ?? ""
        let header = """
            <nav aria-label="Site"><ul class="site">
            <li><a href="/">Stories</a></li>
            <li><a href="/catalogue">Catalogue</a></li>
            \(profile)
            </ul></nav>
            """
        return layout.document(title: title, bodyAttributes: bodyAttributes, header: header, status: notice ?? "", main: main)
    }

    /// A hidden field: its value carried (`Forms.carry`), so the browser sends back exactly what
    /// the server wrote; read it with `Form.carried`.
    static func hidden(_ name: String, _ value: String) -> String {
        "<input type=\"hidden\" name=\"\(HTML.attribute(name))\" value=\"\(Forms.carry(value))\">"
    }

    /// A form of one button that POSTs to `action`.
    static func button(_ label: String, action: String, reader: Reader, fields: [(String, String)] = [], className: String? = nil) -> String {
        let extra: String = fields.map { hidden($0.0, $0.1) }.joined()
        let cls = className.map { " class=\"\(HTML.attribute($0))\"" } ?? ""
        return "<form method=\"post\" action=\"\(HTML.attribute(action))\"\(cls)>\(hidden("token", reader.formToken))\(extra)<button type=\"submit\">\(HTML.text(label))</button></form>"
    }

    static func storyURL(_ story: StoryRecord) -> String { "/stories/\(story.id)" }
    static func chapterURL(_ story: StoryRecord, _ key: String) -> String { "/stories/\(story.id)/\(segment(key))" }

    /// A chapter's id as one segment of a path: percent-encoded, and never a segment that a
    /// browser resolves or the routes keep for themselves. `.` and `..` are dot-segments
    /// (browsers resolve them, even as %2E), `-` is the `/-/` routes' segment and an empty one
    /// is no segment: these, and ids beginning with `~`, get a `~` in front, which `chapterKey`
    /// takes off again.
    static func segment(_ key: String) -> String {
        let marked = key.isEmpty || key == "." || key == ".." || key == "-" || key.hasPrefix("~") ? "~" + key : key
        return HTML.pathSegment(marked)
    }

    /// The chapter id a path segment made by `segment` names.
    static func chapterKey(fromSegment segment: String) -> String {
        let decoded = Forms.uncarry(segment)
        return decoded.hasPrefix("~") ? String(decoded.dropFirst()) : decoded
    }

    static func title(_ story: StoryRecord) -> String { story.title.isEmpty ? "Untitled story" : story.title }

    /// ` lang="fr"` on an element holding story text in another language than the page's.
    static func lang(_ language: String?) -> String { language.map { " lang=\"\(HTML.attribute($0))\"" } ?? "" }

    /// "Also in fr (100%), de (40%)." for a story's languages.
    static func languagesLine(_ languages: [StoryLanguage]) -> String {
        guard !languages.isEmpty else { return "" }
        let items = languages.map { "<span lang=\"\(HTML.attribute($0.language))\">\(HTML.text($0.language))</span> (\($0.percent)%)" }.joined(separator: ", ")
        return "<p class=\"languages\">Also in \(items).</p>"
    }
    static func title(_ chapter: ChapterRecord) -> String { chapter.name.isEmpty ? "Untitled chapter" : chapter.name }

    // MARK: The library

    struct Shelf {
        var story: StoryRecord
        var place: String?
        var endingsFound: Int
        var languages: [StoryLanguage] = []
    }

    static func library(_ shelves: [Shelf], reader: Reader, query: String = "", hits: [SearchHit]? = nil) -> String {
        let items = shelves.map { (shelf) -> String in
            let place = shelf.place.map { "You are at “\(HTML.text($0))”." } ?? "Not started."
            return """
                <li>
                <h2><a href="\(storyURL(shelf.story))">\(HTML.text(title(shelf.story)))</a></h2>
                <p class="rating">Rated \(HTML.text(shelf.story.rating)) · \(shelf.story.chapterCount) chapters · endings found: \(shelf.endingsFound) of \(shelf.story.endingCount)</p>
                <p>\(HTML.text(shelf.story.summary))</p>
                \(languagesLine(shelf.languages))
                <p class="place">\(place)</p>
                </li>
                """
        }.joined(separator: "\n")
        let empty = shelves.isEmpty ? "<p>The library is empty. The <a href=\"/catalogue\">catalogue</a> lists stories to get.</p>" : ""
        var results = ""
        if let hits {
            let found = hits.map { (hit) -> String in
                let target = hit.chapterKey.map { chapterURL(hit.story, $0) } ?? storyURL(hit.story)
                let chapter = hit.chapterTitle.map { " · “\(HTML.text($0))”" } ?? ""
                return "<li><a href=\"\(HTML.attribute(target))\">\(HTML.text(title(hit.story)))\(chapter)</a><p>\(HTML.text(hit.snippet))</p></li>"
            }.joined(separator: "\n")
            results = """
                <section aria-labelledby="results"><h2 id="results">\(hits.count) \(hits.count == 1 ? "place" : "places") with “\(HTML.text(query))”</h2>
                <ul class="hits">\(found)</ul></section>
                """
        }
        return document(
            title: "Stories", reader: reader,
            main: """
                <h1>Stories</h1>
                <form method="get" action="/search" role="search" class="search">
                <label for="q">Search the stories</label>
                <input id="q" name="q" type="search" value="\(HTML.attribute(query))" maxlength="200">
                <button type="submit">Search</button>
                </form>
                \(results)
                \(empty)
                <ul class="stories">
                \(items)
                </ul>
                """)
    }

    static func profiles(_ names: [String], current: String?, option: String, reader: Reader) -> String {
        let items = names.map { (name) -> String in
            let mark = name == current ? " (reading now)" : ""
            return "<li>\(button(name + mark, action: "/profiles", reader: reader, fields: [("chosen", name)]))</li>"
        }.joined(separator: "\n")
        return document(
            title: "Who is reading?", reader: nil,
            main: """
                <h1>Who is reading?</h1>
                <p>Each profile has its own places, bookmarks, notes and name, the same as <code>\(HTML.text(option))</code> in the terminal.</p>
                <ul class="profiles">
                \(items)
                </ul>
                <form method="post" action="/profiles" class="new-profile">
                \(hidden("token", reader.formToken))
                <label for="profile">A new profile</label>
                <input id="profile" name="profile" maxlength="60" required>
                <button type="submit">Read as this profile</button>
                </form>
                """)
    }

    // MARK: A story

    /// `language`: the language the story is shown in (the browser's), when not its own.
    static func story(
        _ story: StoryRecord, place: ChapterRecord?, endings: Int, firstName: String?, reader: Reader, notice: String?, language: StoryLanguage? = nil
    ) -> String {
        let shownIn = language.map { language in
            let rest = language.translated < language.total ? "; the rest as the author wrote it" : ""
            return "<p class=\"languages\">In <span lang=\"\(HTML.attribute(language.language))\">\(HTML.text(language.language))</span>, your browser's language: \(language.percent)% translated\(rest).</p>"
        } ?? ""
        let url = storyURL(story)
        let begin: String
        if let place {
            begin = """
                <p>You are at “\(HTML.text(title(place)))”.</p>
                <ul class="actions">
                <li><a class="resume" href="\(chapterURL(story, place.key))">Resume</a></li>
                <li>\(button("Start again", action: url + "/-/restart", reader: reader))</li>
                </ul>
                """
        } else {
            begin = "<ul class=\"actions\"><li>\(button("Begin", action: url + "/-/restart", reader: reader, className: "begin"))</li></ul>"
        }
        return document(
            title: title(story), reader: reader, notice: notice,
            main: """
                <h1\(lang(language?.language))>\(HTML.text(title(story)))</h1>
                <p class="rating">Rated \(HTML.text(story.rating)) · \(story.chapterCount) chapters · endings found: \(endings) of \(story.endingCount)</p>
                <p\(lang(language?.language))>\(HTML.text(story.summary))</p>
                \(shownIn)
                \(begin)
                <form method="post" action="\(url)/-/name" class="name">
                \(hidden("token", reader.formToken))
                <label for="reader-name">Your name in the story</label>
                <input id="reader-name" name="name" autocomplete="given-name" maxlength="60" value="\(HTML.attribute(firstName ?? ""))">
                <button type="submit">Keep</button>
                </form>
                <ul class="more">
                <li><a href="\(url)/-/marks">Bookmarks and notes</a></li>
                <li><a href="\(url)/-/path">The path taken</a></li>
                </ul>
                """)
    }

    // MARK: A chapter

    static func chapter(
        _ view: ChapterView, of story: StoryRecord, isPlace: Bool, place: ChapterRecord?, endings: (found: Int, of: Int),
        reader: Reader, notice: String?, language: String? = nil
    ) -> String {
        let lang = lang(language)
        let chapter = view.record
        let url = storyURL(story)
        let heading = title(chapter)
        let picture = chapter.picPath.map { (_) -> String in
            "<img class=\"picture\" src=\"\(url)/-/picture/\(segment(chapter.key))\" alt=\"\(HTML.attribute(chapter.picAlt ?? heading))\">"
        } ?? ""
        var elsewhere = ""
        if let place, !isPlace {
            elsewhere = "<p class=\"elsewhere\">Your place in this story is “<a href=\"\(chapterURL(story, place.key))\">\(HTML.text(title(place)))</a>”; a choice here goes on from this chapter.</p>"
        }
        let text: String = view.paragraphs.map { "<p>" + HTML.text($0).split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "<br>\n") + "</p>" }
            .joined(separator: "\n")
        let choices: String
        if chapter.endsReading {
            choices = """
                <p class="the-end"><strong>The end.</strong> Endings found: \(endings.found) of \(endings.of).</p>
                """
        } else {
            let items = chapter.choices.enumerated().map { (index, choice) -> String in
                choice.isAvailable
                    ? "<li><button type=\"submit\" name=\"choice\" value=\"\(index + 1)\"\(lang)>\(HTML.text(choice.label))</button></li>"
                    : "<li><span class=\"unavailable\"><span\(lang)>\(HTML.text(choice.label))</span> (this way is not written yet)</span></li>"
            }.joined(separator: "\n")
            choices = """
                <form method="post" action="\(url)/-/choose" class="choices">
                \(hidden("token", reader.formToken))\(hidden("from", chapter.key))
                <nav aria-label="Choices"><ol class="choices">
                \(items)
                </ol></nav>
                </form>
                """
        }
        let here = [("from", chapter.key)]
        return document(
            title: "\(heading) · \(title(story))", reader: reader, notice: notice,
            bodyAttributes: [("data-chapter", chapter.key)],
            main: """
                <p class="story-title"><a href="\(url)"\(lang)>\(HTML.text(title(story)))</a></p>
                <h1 tabindex="-1"\(lang)>\(HTML.text(heading))</h1>
                \(elsewhere)
                \(picture)
                <div class="text"\(lang)>
                \(text)
                </div>
                \(choices)
                <nav aria-label="Reading" class="reading">
                <ul class="actions">
                <li>\(button("Back", action: url + "/-/back", reader: reader, fields: here))</li>
                <li>\(button("Start again", action: url + "/-/restart", reader: reader))</li>
                <li>\(button("Bookmark this chapter", action: url + "/-/bookmark", reader: reader, fields: here))</li>
                <li><a href="\(url)/-/marks">Bookmarks and notes</a></li>
                <li><a href="\(url)/-/path">The path taken</a></li>
                </ul>
                </nav>
                <form method="post" action="\(url)/-/note" class="note">
                \(hidden("token", reader.formToken))\(hidden("from", chapter.key))
                <label for="note-text">A note on this chapter</label>
                <textarea id="note-text" name="text" rows="2" maxlength="4000" required></textarea>
                <button type="submit">Keep the note</button>
                </form>
                """)
    }

    // MARK: Bookmarks, notes, the path

    static func marks(_ story: StoryRecord, bookmarks: [Bookmark], notes: [Note], titles: [String: String], reader: Reader, notice: String?) -> String {
        let url = storyURL(story)
        func name(_ key: String) -> String { titles[key].flatMap { $0.isEmpty ? nil : $0 } ?? key }
        let marks = bookmarks.isEmpty ? "<p>No bookmarks yet: “Bookmark this chapter” under a chapter adds one.</p>" : """
            <ul class="bookmarks">
            \(bookmarks.map { (mark) -> String in
                "<li>\(HTML.text(mark.name)) · “\(HTML.text(name(mark.chapterKey)))” \(button("Go there", action: url + "/-/jump", reader: reader, fields: [("bookmark", mark.name)])) \(button("Remove", action: url + "/-/unmark", reader: reader, fields: [("bookmark", mark.name)]))</li>"
            }.joined(separator: "\n"))
            </ul>
            """
        let kept = notes.isEmpty ? "<p>No notes yet.</p>" : """
            <ul class="notes">
            \(notes.map { (note) -> String in
                "<li><p>\(HTML.text(note.body))</p><p class=\"where\">on “\(HTML.text(name(note.chapterKey)))” \(button("Remove", action: url + "/-/unnote", reader: reader, fields: [("note", String(note.id))]))</p></li>"
            }.joined(separator: "\n"))
            </ul>
            """
        return document(
            title: "Bookmarks and notes · \(title(story))", reader: reader, notice: notice,
            main: """
                <p class="story-title"><a href="\(url)">\(HTML.text(title(story)))</a></p>
                <h1>Bookmarks and notes</h1>
                <h2>Bookmarks</h2>
                \(marks)
                <h2>Notes</h2>
                \(kept)
                """)
    }

    static func path(_ story: StoryRecord, steps: [(key: String, name: String)], reader: Reader) -> String {
        let url = storyURL(story)
        let items = steps.enumerated().map { (index, step) -> String in
            let name = step.name.isEmpty ? step.key : step.name
            let current = index == steps.count - 1 ? " aria-current=\"step\"" : ""
            return "<li\(current)><a href=\"\(chapterURL(story, step.key))\">\(HTML.text(name))</a></li>"
        }.joined(separator: "\n")
        return document(
            title: "The path taken · \(title(story))", reader: reader,
            main: """
                <p class="story-title"><a href="\(url)">\(HTML.text(title(story)))</a></p>
                <h1>The path taken</h1>
                \(steps.isEmpty ? "<p>Not started.</p>" : "<ol class=\"path\">\n\(items)\n</ol>")
                """)
    }

    // MARK: The catalogue

    static func catalogue(_ entries: [CatalogueEntry], inLibrary: [String: StoryRecord], fetchedBy: String, reader: Reader, notice: String?) -> String {
        let items = entries.map { (entry) -> String in
            let action: String
            if let story = inLibrary[entry.url] {
                action = "<a href=\"\(storyURL(story))\">In your library: read it</a>"
            } else {
                action = button("Get this story", action: "/catalogue/get", reader: reader, fields: [("url", entry.url)])
            }
            return """
                <li>
                <h2>\(HTML.text(entry.title ?? entry.id))</h2>
                <p class="rating">by \(HTML.text(entry.author)) · Rated \(HTML.text(entry.rating ?? "?")) · \(entry.chapterCount.map(String.init) ?? "?") chapters</p>
                <p>\(HTML.text(entry.summary ?? ""))</p>
                \(action)
                </li>
                """
        }.joined(separator: "\n")
        return document(
            title: "Catalogue", reader: reader, notice: notice,
            main: """
                <h1>Catalogue</h1>
                \(entries.isEmpty ? "<p>The catalogue is empty here: <code>\(HTML.text(fetchedBy))</code> in a terminal fetches it.</p>" : "<ul class=\"stories\">\n\(items)\n</ul>")
                """)
    }

    // MARK: Words of refusal

    static func message(title: String, _ sentences: [String], links: [(String, String)] = [("/", "All stories")], reader: Reader?) -> String {
        document(
            title: title, reader: reader,
            main: """
                <h1>\(HTML.text(title))</h1>
                \(sentences.map { (sentence) -> String in "<p>\(HTML.text(sentence))</p>" }.joined(separator: "\n"))
                <ul class="actions">\(links.map { (link) -> String in "<li><a href=\"\(HTML.attribute(link.0))\">\(HTML.text(link.1))</a></li>" }.joined())</ul>
                """)
    }
}
#endif
