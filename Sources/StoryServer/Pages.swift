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
        /// The languages the library's stories are translated into (the language switch offers them).
        var languages: [String] = []
        /// The reader's choice on a page, if they chose.
        var language: LanguageChoice? = nil
        /// The server's language (`ServeConfiguration.language`), if it has one.
        var serverLanguage: LanguageChoice? = nil
        /// The page's path, where the language switch comes back to.
        var path = "/"
    }

    /// The language switch in every page's header (when any story is translated): a form, so it
    /// works with scripts off.
    static func languageSwitch(_ reader: Reader) -> String {
        guard !reader.languages.isEmpty else { return "" }
        let fallback = reader.serverLanguage.map { choice -> String in
            switch choice {
            case .original: "This reader's: as written"
            case .language(let tag): "This reader's: \(tag)"
            }
        } ?? "Your browser's languages"
        var options = [("", fallback, nil as String?), ("original", "As written", nil)]
        options += reader.languages.map { ($0, $0, $0) }
        let chosen = reader.language?.value ?? ""
        let items = options.map { (value, label, lang) in
            "<option value=\"\(HTML.attribute(value))\"\(value == chosen ? " selected" : "")\(Pages.lang(lang))>\(HTML.text(label))</option>"
        }.joined()
        return """
            <li class="language"><form method="post" action="/language">\(hidden("token", reader.formToken))\(hidden("back", reader.path))<label for="language">Stories in</label> <select id="language" name="lang">\(items)</select> <button type="submit">Show</button></form></li>
            """
    }

    static let layout = PageLayout(style: .linked("/assets/cyd.css"), script: "/assets/serve.js", referrer: "same-origin", followsColorScheme: true)

    /// `siteLinks`: false on a page shown to a browser that is not let in (every link would be
    /// refused too).
    static func document(
        title: String, reader: Reader?, notice: String? = nil, bodyAttributes: [(String, String)] = [], siteLinks: Bool = true, main: String
    ) -> String {
        let profile = reader.map { (reader) -> String in
            let change = reader.canChangeProfile ? " (<a href=\"/profiles\">change</a>)" : ""
            return "<li class=\"profile\"><span>Reading as <strong>\(HTML.text(reader.profile))</strong>\(change)</span></li>"
        } ?? ""
        let header = siteLinks
            ? """
                <nav aria-label="Site"><ul class="site">
                <li><a href="/">Stories</a></li>
                <li><a href="/catalogue">Catalogue</a></li>
                \(profile)
                \(reader.map(languageSwitch) ?? "")
                </ul></nav>
                """
            : "<p class=\"site\">ChooseYourDestiny</p>"
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
        /// The language the story is shown in, when not as written.
        var language: String? = nil
    }

    /// A search hit as the reader may see it.
    struct Found {
        var hit: SearchHit
        /// The hit is in an ending this reader has not reached: its title and text stay hidden
        /// (a search must not give the ending away).
        var isUnreachedEnding = false
    }

    /// A hit's excerpt, the words searched for marked.
    static func excerpt(_ pieces: [SearchHit.Piece]) -> String {
        pieces.map { $0.isMatch ? "<mark>\(HTML.text($0.text))</mark>" : HTML.text($0.text) }.joined()
    }

    static func library(_ shelves: [Shelf], reader: Reader, query: String = "", found: [Found]? = nil) -> String {
        let items = shelves.map { (shelf) -> String in
            let place = shelf.place.map { "You are at “<span\(lang(shelf.language))>\(HTML.text($0))</span>”." } ?? "Not started."
            return """
                <li>
                <h3\(lang(shelf.language))><a href="\(storyURL(shelf.story))">\(HTML.text(title(shelf.story)))</a></h3>
                <p class="rating">Rated \(HTML.text(shelf.story.rating)) · \(shelf.story.chapterCount) chapters · endings found: \(shelf.endingsFound) of \(shelf.story.endingCount)</p>
                <p\(lang(shelf.language))>\(HTML.text(shelf.story.summary))</p>
                \(languagesLine(shelf.languages))
                <p class="place">\(place)</p>
                </li>
                """
        }.joined(separator: "\n")
        let empty = shelves.isEmpty ? "<p>The library is empty. The <a href=\"/catalogue\">catalogue</a> lists stories to get.</p>" : ""
        var results = ""
        if let found {
            if found.isEmpty {
                results = """
                    <section aria-labelledby="results" class="results"><h2 id="results">No results for “\(HTML.text(query))”</h2>
                    <p>No story in the library has these words in its title, summary or chapters. Try fewer words, or other ones.</p></section>
                    """
            } else {
                let items = found.map { (found) -> String in
                    let hit = found.hit
                    if found.isUnreachedEnding {
                        return "<li><a href=\"\(storyURL(hit.story))\">\(HTML.text(title(hit.story)))</a><p class=\"hidden-ending\">In an ending you have not reached yet: it stays hidden until you do.</p></li>"
                    }
                    let target = hit.chapterKey.map { chapterURL(hit.story, $0) } ?? storyURL(hit.story)
                    let chapter = hit.chapterTitle.map { " · “\(HTML.text($0))”" } ?? ""
                    return "<li><a href=\"\(HTML.attribute(target))\">\(HTML.text(title(hit.story)))\(chapter)</a><p>\(excerpt(hit.excerpt))</p></li>"
                }.joined(separator: "\n")
                results = """
                    <section aria-labelledby="results" class="results"><h2 id="results">\(found.count) \(found.count == 1 ? "result" : "results") for “\(HTML.text(query))”</h2>
                    <ul class="hits">\(items)</ul></section>
                    """
            }
        }
        // Under a search, the library is a section of its own, named so it is not taken for results.
        let shelfHeading = found == nil ? "<h2 class=\"visually-hidden\">Your stories</h2>" : "<h2>All your stories</h2>"
        return document(
            title: found == nil ? "Stories" : "Search: \(query) · Stories", reader: reader,
            main: """
                <h1>Stories</h1>
                <form method="get" action="/search" role="search" class="search">
                <label for="q">Search the stories</label>
                <input id="q" name="q" type="search" value="\(HTML.attribute(query))" maxlength="200">
                <button type="submit">Search</button>
                </form>
                \(results)
                \(empty)
                \(shelves.isEmpty ? "" : shelfHeading)
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
                <p class="warning"><strong>Profiles are not accounts:</strong> anyone who has this reader's link can choose any profile here and read, or change, its places and notes.</p>
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
            return "<p class=\"languages\">In <span lang=\"\(HTML.attribute(language.language))\">\(HTML.text(language.language))</span>: \(language.percent)% translated\(rest). “Stories in” at the top of every page changes the language.</p>"
        } ?? ""
        let url = storyURL(story)
        let begin: String
        if let place {
            begin = """
                <p>You are at “<span\(lang(language?.language))>\(HTML.text(title(place)))</span>”.</p>
                <ul class="actions">
                <li><a class="resume" href="\(chapterURL(story, place.key))">Resume</a></li>
                <li><a href="\(url)/-/restart">Start again</a></li>
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
        // A tap on the picture opens it alone, full size, where a phone can zoom it.
        let picture = chapter.picPath.map { (_) -> String in
            let source = "\(url)/-/picture/\(segment(chapter.key))"
            return "<a class=\"picture\" href=\"\(source)\" title=\"The picture, full size\"><img class=\"picture\" src=\"\(source)\" alt=\"\(HTML.attribute(chapter.picAlt ?? heading))\"\(lang)></a>"
        } ?? ""
        var elsewhere = ""
        if let place, !isPlace {
            elsewhere = """
                <div class="elsewhere" role="note"><p>This is not your place: your place in this story is “<a href="\(chapterURL(story, place.key))"\(lang)>\(HTML.text(title(place)))</a>”. A choice here goes on from this chapter.</p>
                \(button("Go on from here", action: url + "/-/jump", reader: reader, fields: [("chapter", chapter.key)]))</div>
                """
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
                \(hidden("token", reader.formToken))\(hidden("from", chapter.key))\(hidden("at", place?.key ?? ""))
                <nav aria-label="Choices"><ol class="choices">
                \(items)
                </ol></nav>
                </form>
                """
        }
        let here = [("from", chapter.key)]
        return document(
            title: "\(heading) · \(title(story))", reader: reader, notice: notice,
            bodyAttributes: [("data-chapter", chapter.key), ("data-place", place?.key ?? ""), ("data-place-title", place.map { title($0) } ?? "")],
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
                <li><a href="\(url)/-/restart">Start again</a></li>
                <li><a href="\(url)/-/marks">Bookmarks and notes</a></li>
                <li><a href="\(url)/-/path">The path taken</a></li>
                </ul>
                </nav>
                <form method="post" action="\(url)/-/bookmark" class="bookmark">
                \(hidden("token", reader.formToken))\(hidden("from", chapter.key))
                <label for="bookmark-name">Bookmark name <span class="optional">(optional: the chapter's title)</span></label>
                <input id="bookmark-name" name="name" maxlength="60">
                <button type="submit">Bookmark this chapter</button>
                </form>
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
        // A bookmark named after its chapter (the default) says the name once.
        let marks = bookmarks.isEmpty ? "<p>No bookmarks yet: “Bookmark this chapter” under a chapter adds one.</p>" : """
            <ul class="bookmarks">
            \(bookmarks.map { (mark) -> String in
                let chapter = name(mark.chapterKey)
                let label = mark.name == chapter ? "" : "\(HTML.text(mark.name)) · "
                return "<li>\(label)<a href=\"\(chapterURL(story, mark.chapterKey))\">\(HTML.text(chapter))</a> \(button("Go on from there", action: url + "/-/jump", reader: reader, fields: [("bookmark", mark.name)])) \(button("Remove", action: url + "/-/unmark", reader: reader, fields: [("bookmark", mark.name)]))</li>"
            }.joined(separator: "\n"))
            </ul>
            """
        let kept = notes.isEmpty ? "<p>No notes yet.</p>" : """
            <ul class="notes">
            \(notes.map { (note) -> String in
                "<li><p>\(HTML.text(note.body))</p><p class=\"where\">on “<a href=\"\(chapterURL(story, note.chapterKey))\">\(HTML.text(name(note.chapterKey)))</a>” \(button("Remove", action: url + "/-/unnote", reader: reader, fields: [("note", String(note.id))]))</p></li>"
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

    /// Asks before starting again: the path taken is cleared and Back cannot bring it back.
    static func restart(_ story: StoryRecord, place: ChapterRecord, steps: Int, reader: Reader) -> String {
        let url = storyURL(story)
        let along = steps == 1 ? "1 chapter along" : "\(steps) chapters along"
        return document(
            title: "Start again? · \(title(story))", reader: reader,
            main: """
                <p class="story-title"><a href="\(url)">\(HTML.text(title(story)))</a></p>
                <h1>Start “\(HTML.text(title(story)))” again?</h1>
                <p>You are at “\(HTML.text(title(place)))”, \(along). Starting again takes you to the first chapter and clears the path taken: Back will not bring it back.</p>
                <p>Your bookmarks, notes and the endings you have found are kept; a bookmark takes you back to a chapter later.</p>
                <ul class="actions">
                <li>\(button("Start again from the first chapter", action: url + "/-/restart", reader: reader, className: "begin"))</li>
                <li><a class="resume" href="\(chapterURL(story, place.key))">Keep reading where you are</a></li>
                <li><a href="\(url)/-/marks">Bookmark your place first</a></li>
                </ul>
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

    static func message(title: String, _ sentences: [String], links: [(String, String)] = [("/", "All stories")], reader: Reader?, siteLinks: Bool = true) -> String {
        document(
            title: title, reader: reader, siteLinks: siteLinks,
            main: """
                <h1>\(HTML.text(title))</h1>
                \(sentences.map { (sentence) -> String in "<p>\(HTML.text(sentence))</p>" }.joined(separator: "\n"))
                <ul class="actions">\(links.map { (link) -> String in "<li><a href=\"\(HTML.attribute(link.0))\">\(HTML.text(link.1))</a></li>" }.joined())</ul>
                """)
    }
}
#endif
