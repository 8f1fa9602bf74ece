// The browser reader is built with the package trait BrowserReader only.
#if BrowserReader
import InterfaceWords
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
        /// cyd's words, in the reader's languages.
        var words: Phrasebook = .english
    }

    /// The language switch in every page's header (when any story is translated): a form, so it
    /// works with scripts off.
    static func languageSwitch(_ reader: Reader) -> String {
        guard !reader.languages.isEmpty else { return "" }
        let words = reader.words
        let fallback = reader.serverLanguage.map { choice -> String in
            switch choice {
            case .original: words[.serveThisReadersAsWritten]
            case .language(let tag): words(.serveThisReaders, ["language": tag])
            }
        } ?? words[.serveBrowsersLanguages]
        var options = [("", fallback, nil as String?), ("original", words[.pageAsWritten], nil)]
        options += reader.languages.map { ($0, $0, $0) }
        let chosen = reader.language?.value ?? ""
        let items = options.map { (value, label, lang) in
            "<option value=\"\(HTML.attribute(value))\"\(value == chosen ? " selected" : "")\(Pages.lang(lang))>\(HTML.text(label))</option>"
        }.joined()
        return """
            <li class="language"><form method="post" action="/language">\(hidden("token", reader.formToken))\(hidden("back", reader.path))<label for="language">\(HTML.text(words[.serveStoriesIn]))</label> <select id="language" name="lang">\(items)</select> <button type="submit">\(HTML.text(words[.serveShow]))</button></form></li>
            """
    }

    static func layout(_ words: Phrasebook) -> PageLayout {
        PageLayout(
            style: .linked("/assets/cyd.css"), script: "/assets/serve.js", referrer: "same-origin", followsColorScheme: true, skipLink: words[.pageSkipToStory],
            language: words.language)
    }

    /// `siteLinks`: false on a page shown to a browser that is not let in (every link would be
    /// refused too).
    static func document(
        title: String, reader: Reader?, words: Phrasebook? = nil, notice: String? = nil, bodyAttributes: [(String, String)] = [], siteLinks: Bool = true, main: String
    ) -> String {
        let words = words ?? reader?.words ?? .english
        let profile = reader.map { (reader) -> String in
            let change = reader.canChangeProfile ? " (<a href=\"/profiles\">\(HTML.text(words[.serveChange]))</a>)" : ""
            let name = Phrasebook.fill(HTML.text(words[.serveReadingAs]), ["profile": "<strong>\(HTML.text(reader.profile))</strong>"])
            return "<li class=\"profile\"><span>\(name)\(change)</span></li>"
        } ?? ""
        let header = siteLinks
            ? """
                <nav aria-label="\(HTML.attribute(words[.pageSite]))"><ul class="site">
                <li><a href="/">\(HTML.text(words[.pageStories]))</a></li>
                <li><a href="/catalogue">\(HTML.text(words[.serveCatalogue]))</a></li>
                \(profile)
                \(reader.map(languageSwitch) ?? "")
                </ul></nav>
                """
            : "<p class=\"site\">ChooseYourDestiny</p>"
        return layout(words).document(title: title, bodyAttributes: bodyAttributes, header: header, status: notice ?? "", main: main)
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

    static func title(_ story: StoryRecord, _ words: Phrasebook = .english) -> String { story.title.isEmpty ? words[.pageUntitledStory] : story.title }

    /// ` lang="fr"` on an element holding story text in another language than the page's.
    static func lang(_ language: String?) -> String { language.map { " lang=\"\(HTML.attribute($0))\"" } ?? "" }

    /// The `lang` of story text shown in `language` (nil: as written) on a page in `words`' language.
    static func lang(_ language: String?, _ words: Phrasebook) -> String { WebPages.textLanguage(language, on: words) }

    /// "Also in fr (100%), de (40%)." for a story's languages.
    static func languagesLine(_ languages: [StoryLanguage], _ words: Phrasebook) -> String {
        guard !languages.isEmpty else { return "" }
        let items = languages.map { "<span lang=\"\(HTML.attribute($0.language))\">\(HTML.text($0.language))</span> (\($0.percent)%)" }.joined(separator: ", ")
        return "<p class=\"languages\">\(Phrasebook.fill(HTML.text(words[.serveAlsoIn]), ["languages": items]))</p>"
    }
    static func title(_ chapter: ChapterRecord, _ words: Phrasebook = .english) -> String { chapter.name.isEmpty ? words[.pageUntitledChapter] : chapter.name }

    /// "Rated PG · 12 chapters · endings found: 1 of 3".
    static func rated(_ story: StoryRecord, found: Int, _ words: Phrasebook) -> String {
        words(.pageRated, [
            "rating": story.rating, "chapters": words.counted(story.chapterCount, one: .pageChaptersOne, other: .pageChaptersOther),
            "endings": words(.serveEndingsFound, ["found": String(found), "total": String(story.endingCount)]),
        ])
    }

    /// `phrase` as markup: its words escaped, each `[[chapter]]` (or other key) the markup given.
    static func markup(_ words: Phrasebook, _ phrase: Phrase, _ values: KeyValuePairs<String, String>) -> String {
        Phrasebook.fill(HTML.text(words[phrase]), values)
    }

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
        let words = reader.words
        let items = shelves.map { (shelf) -> String in
            let place = shelf.place.map { markup(words, .pageYouAreAt, ["chapter": "<span\(lang(shelf.language, words))>\(HTML.text($0))</span>"]) } ?? HTML.text(words[.pageNotStarted])
            return """
                <li>
                <h3\(lang(shelf.language, words))><a href="\(storyURL(shelf.story))">\(HTML.text(title(shelf.story, words)))</a></h3>
                <p class="rating">\(HTML.text(rated(shelf.story, found: shelf.endingsFound, words)))</p>
                <p\(lang(shelf.language, words))>\(HTML.text(shelf.story.summary))</p>
                \(languagesLine(shelf.languages, words))
                <p class="place">\(place)</p>
                </li>
                """
        }.joined(separator: "\n")
        let empty = shelves.isEmpty ? "<p>\(markup(words, .serveEmptyLibrary, ["catalogue": "<a href=\"/catalogue\">\(HTML.text(words[.serveCatalogue].lowercased()))</a>"]))</p>" : ""
        var results = ""
        if let found {
            if found.isEmpty {
                results = """
                    <section aria-labelledby="results" class="results"><h2 id="results">\(HTML.text(words(.serveNoResults, ["query": query])))</h2>
                    <p>\(HTML.text(words[.serveNoResultsHint]))</p></section>
                    """
            } else {
                let items = found.map { (found) -> String in
                    let hit = found.hit
                    if found.isUnreachedEnding {
                        return "<li><a href=\"\(storyURL(hit.story))\">\(HTML.text(title(hit.story, words)))</a><p class=\"hidden-ending\">\(HTML.text(words[.serveHiddenEnding]))</p></li>"
                    }
                    let target = hit.chapterKey.map { chapterURL(hit.story, $0) } ?? storyURL(hit.story)
                    let chapter = hit.chapterTitle.map { " · “\(HTML.text($0))”" } ?? ""
                    return "<li><a href=\"\(HTML.attribute(target))\">\(HTML.text(title(hit.story, words)))\(chapter)</a><p>\(excerpt(hit.excerpt))</p></li>"
                }.joined(separator: "\n")
                results = """
                    <section aria-labelledby="results" class="results"><h2 id="results">\(HTML.text(words(found.count == 1 ? .serveResultsOne : .serveResultsOther, ["count": String(found.count), "query": query])))</h2>
                    <ul class="hits">\(items)</ul></section>
                    """
            }
        }
        // Under a search, the library is a section of its own, named so it is not taken for results.
        let shelfHeading = found == nil ? "<h2 class=\"visually-hidden\">\(HTML.text(words[.serveYourStories]))</h2>" : "<h2>\(HTML.text(words[.serveAllYourStories]))</h2>"
        return document(
            title: found == nil ? words[.pageStories] : words(.serveSearchTitle, ["query": query]), reader: reader,
            main: """
                <h1>\(HTML.text(words[.pageStories]))</h1>
                <form method="get" action="/search" role="search" class="search">
                <label for="q">\(HTML.text(words[.serveSearchLabel]))</label>
                <input id="q" name="q" type="search" value="\(HTML.attribute(query))" maxlength="200">
                <button type="submit">\(HTML.text(words[.serveSearch]))</button>
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
        let words = reader.words
        let items = names.map { (name) -> String in
            let mark = name == current ? " " + words[.serveReadingNow] : ""
            return "<li>\(button(name + mark, action: "/profiles", reader: reader, fields: [("chosen", name)]))</li>"
        }.joined(separator: "\n")
        return document(
            title: words[.serveWhoIsReading], reader: nil, words: words,
            main: """
                <h1>\(HTML.text(words[.serveWhoIsReading]))</h1>
                <p>\(markup(words, .serveProfilesAre, ["option": "<code>\(HTML.text(option))</code>"]))</p>
                <p class="warning"><strong>\(HTML.text(words[.serveNotAccounts]))</strong> \(HTML.text(words[.serveNotAccountsWhy]))</p>
                <ul class="profiles">
                \(items)
                </ul>
                <form method="post" action="/profiles" class="new-profile">
                \(hidden("token", reader.formToken))
                <label for="profile">\(HTML.text(words[.serveNewProfile]))</label>
                <input id="profile" name="profile" maxlength="60" required>
                <button type="submit">\(HTML.text(words[.serveReadAsProfile]))</button>
                </form>
                """)
    }

    // MARK: A story

    /// `language`: the language the story is shown in (the browser's), when not its own.
    static func story(
        _ story: StoryRecord, place: ChapterRecord?, endings: Int, firstName: String?, reader: Reader, notice: String?, language: StoryLanguage? = nil
    ) -> String {
        let words = reader.words
        let shownIn = language.map { language in
            let phrase: Phrase = language.translated < language.total ? .serveShownInPart : .serveShownIn
            let tag = "<span lang=\"\(HTML.attribute(language.language))\">\(HTML.text(language.language))</span>"
            return "<p class=\"languages\">\(markup(words, phrase, ["language": tag, "percent": String(language.percent)]))</p>"
        } ?? ""
        let url = storyURL(story)
        let begin: String
        if let place {
            begin = """
                <p>\(markup(words, .pageYouAreAt, ["chapter": "<span\(lang(language?.language, words))>\(HTML.text(title(place, words)))</span>"]))</p>
                <ul class="actions">
                <li><a class="resume" href="\(chapterURL(story, place.key))">\(HTML.text(words[.serveResume]))</a></li>
                <li><a href="\(url)/-/restart">\(HTML.text(words[.pageStartAgain]))</a></li>
                </ul>
                """
        } else {
            begin = "<ul class=\"actions\"><li>\(button(words[.pageBegin], action: url + "/-/restart", reader: reader, className: "begin"))</li></ul>"
        }
        return document(
            title: title(story, words), reader: reader, notice: notice,
            main: """
                <h1\(lang(language?.language, words))>\(HTML.text(title(story, words)))</h1>
                <p class="rating">\(HTML.text(rated(story, found: endings, words)))</p>
                <p\(lang(language?.language, words))>\(HTML.text(story.summary))</p>
                \(shownIn)
                \(begin)
                <form method="post" action="\(url)/-/name" class="name">
                \(hidden("token", reader.formToken))
                <label for="reader-name">\(HTML.text(words[.pageYourName]))</label>
                <input id="reader-name" name="name" autocomplete="given-name" maxlength="60" value="\(HTML.attribute(firstName ?? ""))">
                <button type="submit">\(HTML.text(words[.pageKeep]))</button>
                </form>
                <ul class="more">
                <li><a href="\(url)/-/marks">\(HTML.text(words[.serveMarksAndNotes]))</a></li>
                <li><a href="\(url)/-/path">\(HTML.text(words[.servePathTaken]))</a></li>
                </ul>
                """)
    }

    // MARK: A chapter

    static func chapter(
        _ view: ChapterView, of story: StoryRecord, isPlace: Bool, place: ChapterRecord?, endings: (found: Int, of: Int),
        reader: Reader, notice: String?, language: String? = nil
    ) -> String {
        let words = reader.words
        let lang = lang(language, words)
        let chapter = view.record
        let url = storyURL(story)
        let heading = title(chapter, words)
        // A tap on the picture opens it alone, full size, where a phone can zoom it.
        let picture = chapter.picPath.map { (_) -> String in
            let source = "\(url)/-/picture/\(segment(chapter.key))"
            return "<a class=\"picture\" href=\"\(source)\" title=\"\(HTML.attribute(words[.serveFullPicture]))\"><img class=\"picture\" src=\"\(source)\" alt=\"\(HTML.attribute(chapter.picAlt ?? heading))\"\(lang)></a>"
        } ?? ""
        var elsewhere = ""
        if let place, !isPlace {
            elsewhere = """
                <div class="elsewhere" role="note"><p>\(markup(words, .serveNotYourPlace, ["chapter": "<a href=\"\(chapterURL(story, place.key))\"\(lang)>\(HTML.text(title(place, words)))</a>"]))</p>
                \(button(words[.serveGoOnFromHere], action: url + "/-/jump", reader: reader, fields: [("chapter", chapter.key)]))</div>
                """
        }
        let text: String = view.paragraphs.map { "<p>" + HTML.text($0).split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "<br>\n") + "</p>" }
            .joined(separator: "\n")
        let choices: String
        if chapter.endsReading {
            choices = """
                <p class="the-end"><strong>\(HTML.text(words[.pageTheEnd]))</strong> \(HTML.text(words(.pageEndingsFound, ["found": String(endings.found), "total": String(endings.of)])))</p>
                """
        } else {
            let items = chapter.choices.enumerated().map { (index, choice) -> String in
                choice.isAvailable
                    ? "<li><button type=\"submit\" name=\"choice\" value=\"\(index + 1)\"\(lang)>\(HTML.text(choice.label))</button></li>"
                    : "<li><span class=\"unavailable\"><span\(lang)>\(HTML.text(choice.label))</span> \(HTML.text(words[.pageNotWrittenYet]))</span></li>"
            }.joined(separator: "\n")
            choices = """
                <form method="post" action="\(url)/-/choose" class="choices">
                \(hidden("token", reader.formToken))\(hidden("from", chapter.key))\(hidden("at", place?.key ?? ""))
                <nav aria-label="\(HTML.attribute(words[.pageChoices]))"><ol class="choices">
                \(items)
                </ol></nav>
                </form>
                """
        }
        let here = [("from", chapter.key)]
        return document(
            title: "\(heading) · \(title(story, words))", reader: reader, notice: notice,
            bodyAttributes: [("data-chapter", chapter.key), ("data-place", place?.key ?? ""), ("data-place-title", place.map { title($0, words) } ?? "")]
                + (words.language == "en" ? [] : [("data-words", JSONValue.object([Phrase.servePlaceMovedElsewhere.rawValue: .string(words[.servePlaceMovedElsewhere])]).encoded)]),
            main: """
                <p class="story-title"><a href="\(url)"\(lang)>\(HTML.text(title(story, words)))</a></p>
                <h1 tabindex="-1"\(lang)>\(HTML.text(heading))</h1>
                \(elsewhere)
                \(picture)
                <div class="text"\(lang)>
                \(text)
                </div>
                \(choices)
                <nav aria-label="\(HTML.attribute(words[.pageReading]))" class="reading">
                <ul class="actions">
                <li>\(button(words[.serveBack], action: url + "/-/back", reader: reader, fields: here))</li>
                <li><a href="\(url)/-/restart">\(HTML.text(words[.pageStartAgain]))</a></li>
                <li><a href="\(url)/-/marks">\(HTML.text(words[.serveMarksAndNotes]))</a></li>
                <li><a href="\(url)/-/path">\(HTML.text(words[.servePathTaken]))</a></li>
                </ul>
                </nav>
                <form method="post" action="\(url)/-/bookmark" class="bookmark">
                \(hidden("token", reader.formToken))\(hidden("from", chapter.key))
                <label for="bookmark-name">\(HTML.text(words[.serveBookmarkName])) <span class="optional">\(HTML.text(words[.serveBookmarkNameOptional]))</span></label>
                <input id="bookmark-name" name="name" maxlength="60">
                <button type="submit">\(HTML.text(words[.serveBookmarkThis]))</button>
                </form>
                <form method="post" action="\(url)/-/note" class="note">
                \(hidden("token", reader.formToken))\(hidden("from", chapter.key))
                <label for="note-text">\(HTML.text(words[.serveNoteLabel]))</label>
                <textarea id="note-text" name="text" rows="2" maxlength="4000" required></textarea>
                <button type="submit">\(HTML.text(words[.serveKeepNote]))</button>
                </form>
                """)
    }

    // MARK: Bookmarks, notes, the path

    static func marks(_ story: StoryRecord, bookmarks: [Bookmark], notes: [Note], titles: [String: String], reader: Reader, notice: String?) -> String {
        let url = storyURL(story)
        let words = reader.words
        func name(_ key: String) -> String { titles[key].flatMap { $0.isEmpty ? nil : $0 } ?? key }
        // A bookmark named after its chapter (the default) says the name once.
        let marks = bookmarks.isEmpty ? "<p>\(HTML.text(words[.serveNoBookmarks]))</p>" : """
            <ul class="bookmarks">
            \(bookmarks.map { (mark) -> String in
                let chapter = name(mark.chapterKey)
                let label = mark.name == chapter ? "" : "\(HTML.text(mark.name)) · "
                return "<li>\(label)<a href=\"\(chapterURL(story, mark.chapterKey))\">\(HTML.text(chapter))</a> \(button(words[.serveGoOnFromThere], action: url + "/-/jump", reader: reader, fields: [("bookmark", mark.name)])) \(button(words[.serveRemove], action: url + "/-/unmark", reader: reader, fields: [("bookmark", mark.name)]))</li>"
            }.joined(separator: "\n"))
            </ul>
            """
        let kept = notes.isEmpty ? "<p>\(HTML.text(words[.serveNoNotes]))</p>" : """
            <ul class="notes">
            \(notes.map { (note) -> String in
                "<li><p>\(HTML.text(note.body))</p><p class=\"where\">\(markup(words, .serveNoteOn, ["chapter": "<a href=\"\(chapterURL(story, note.chapterKey))\">\(HTML.text(name(note.chapterKey)))</a>"])) \(button(words[.serveRemove], action: url + "/-/unnote", reader: reader, fields: [("note", String(note.id))]))</p></li>"
            }.joined(separator: "\n"))
            </ul>
            """
        return document(
            title: "\(words[.serveMarksAndNotes]) · \(title(story, words))", reader: reader, notice: notice,
            main: """
                <p class="story-title"><a href="\(url)">\(HTML.text(title(story, words)))</a></p>
                <h1>\(HTML.text(words[.serveMarksAndNotes]))</h1>
                <h2>\(HTML.text(words[.serveBookmarks]))</h2>
                \(marks)
                <h2>\(HTML.text(words[.serveNotes]))</h2>
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
        let words = reader.words
        return document(
            title: "\(words[.servePathTaken]) · \(title(story, words))", reader: reader,
            main: """
                <p class="story-title"><a href="\(url)">\(HTML.text(title(story, words)))</a></p>
                <h1>\(HTML.text(words[.servePathTaken]))</h1>
                \(steps.isEmpty ? "<p>\(HTML.text(words[.pageNotStarted]))</p>" : "<ol class=\"path\">\n\(items)\n</ol>")
                """)
    }

    /// Asks before starting again: the path taken is cleared and Back cannot bring it back.
    static func restart(_ story: StoryRecord, place: ChapterRecord, steps: Int, reader: Reader) -> String {
        let url = storyURL(story)
        let words = reader.words
        let along = words(steps == 1 ? .serveRestartWhereOne : .serveRestartWhereOther, ["chapter": title(place, words), "count": String(steps)])
        return document(
            title: "\(words[.serveRestartTitle]) · \(title(story, words))", reader: reader,
            main: """
                <p class="story-title"><a href="\(url)">\(HTML.text(title(story, words)))</a></p>
                <h1>\(HTML.text(words(.serveRestartHeading, ["story": title(story, words)])))</h1>
                <p>\(HTML.text(along))</p>
                <p>\(HTML.text(words[.serveRestartKept]))</p>
                <ul class="actions">
                <li>\(button(words[.serveRestartConfirm], action: url + "/-/restart", reader: reader, className: "begin"))</li>
                <li><a class="resume" href="\(chapterURL(story, place.key))">\(HTML.text(words[.serveKeepReading]))</a></li>
                <li><a href="\(url)/-/marks">\(HTML.text(words[.serveBookmarkFirst]))</a></li>
                </ul>
                """)
    }

    // MARK: The catalogue

    static func catalogue(_ entries: [CatalogueEntry], inLibrary: [String: StoryRecord], fetchedBy: String, reader: Reader, notice: String?) -> String {
        let words = reader.words
        let items = entries.map { (entry) -> String in
            let action: String
            if let story = inLibrary[entry.url] {
                action = "<a href=\"\(storyURL(story))\">\(HTML.text(words[.serveInLibrary]))</a>"
            } else {
                action = button(words[.serveGetStory], action: "/catalogue/get", reader: reader, fields: [("url", entry.url)])
            }
            return """
                <li>
                <h2>\(HTML.text(entry.title ?? entry.id))</h2>
                <p class="rating">\(HTML.text(words(.serveCatalogueLine, ["author": entry.author, "rating": entry.rating ?? "?", "chapters": entry.chapterCount.map(String.init) ?? "?"])))</p>
                <p>\(HTML.text(entry.summary ?? ""))</p>
                \(action)
                </li>
                """
        }.joined(separator: "\n")
        return document(
            title: words[.serveCatalogue], reader: reader, notice: notice,
            main: """
                <h1>\(HTML.text(words[.serveCatalogue]))</h1>
                \(entries.isEmpty ? "<p>\(markup(words, .serveCatalogueEmpty, ["command": "<code>\(HTML.text(fetchedBy))</code>"]))</p>" : "<ul class=\"stories\">\n\(items)\n</ul>")
                """)
    }

    // MARK: Words of refusal

    /// A page of a few sentences (already in `words`' language); `links` nil: back to all stories.
    static func message(title: String, _ sentences: [String], links: [(String, String)]? = nil, reader: Reader?, words: Phrasebook? = nil, siteLinks: Bool = true) -> String {
        let words = words ?? reader?.words ?? .english
        let links = links ?? [("/", words[.pageAllStories])]
        return document(
            title: title, reader: reader, words: words, siteLinks: siteLinks,
            main: """
                <h1>\(HTML.text(title))</h1>
                \(sentences.map { (sentence) -> String in "<p>\(HTML.text(sentence))</p>" }.joined(separator: "\n"))
                <ul class="actions">\(links.map { (link) -> String in "<li><a href=\"\(HTML.attribute(link.0))\">\(HTML.text(link.1))</a></li>" }.joined())</ul>
                """)
    }
}
#endif
