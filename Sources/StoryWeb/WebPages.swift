import InterfaceWords
import StoryFormat

/// The pages of the browser reader, as HTML. Pages are complete without a script: choices are
/// links, every page has one `h1`, landmarks and a skip link. A script of the site's own
/// (`cyd.js`) adds what needs memory: the reader's place, endings found, their name, number keys.
/// Story text reaches a page only through `HTML.text` and `HTML.attribute`.
public enum WebPages {
    /// Where a page sits in the site, for its relative links.
    public enum Depth: Sendable { case root, story }

    /// A whole document: head (the stylesheet, the script, a Content-Security-Policy that allows
    /// no inline script and no other origin's script), header with the site's name, and `main`.
    static func document(title: String, depth: Depth, words: Phrasebook, bodyAttributes: [(String, String)] = [], main: String) -> String {
        let up = depth == .root ? "" : "../"
        var layout = PageLayout(
            style: .linked(up + "cyd.css"), script: up + "cyd.js", policyInPage: ContentPolicy.page(pictures: .ownOriginAndWeb, asHeader: false),
            referrer: "no-referrer", skipLink: words[.pageSkipToStory], language: words.language)
        layout.links = [
            ("manifest", up + "manifest.webmanifest", nil), ("icon", up + SiteIcon.fileName(192), "image/png"),
            ("apple-touch-icon", up + SiteIcon.fileName(192), nil),
        ]
        return layout.document(
            title: title, bodyAttributes: bodyAttributes + [("data-root", up.isEmpty ? "./" : up)] + scriptWords(words),
            header: "<nav aria-label=\"\(HTML.attribute(words[.pageSite]))\"><a class=\"home\" href=\"\(up)index.html\">\(HTML.text(words[.pageStories]))</a></nav>", main: main)
    }

    /// The phrases cyd.js writes, in the page's words (`data-words`, a JSON object by phrase key);
    /// none on an English page, where the script's own English stands.
    static func scriptWords(_ words: Phrasebook) -> [(String, String)] {
        guard words.language != "en" else { return [] }
        let phrases: [Phrase] = [.pageEndingsFound, .pageYouAreAt, .pageNotStarted, .siteConfirmRestart, .siteCalled, .siteCalledReader]
        return [("data-words", JSONValue.object(Dictionary(uniqueKeysWithValues: phrases.map { ($0.rawValue, JSONValue.string(words[$0])) })).encoded)]
    }

    /// "Rated PG · 12 chapters · 3 endings".
    static func rated(_ rating: String, chapters: Int, endings: Int, _ words: Phrasebook) -> String {
        words(.pageRated, [
            "rating": rating, "chapters": words.counted(chapters, one: .pageChaptersOne, other: .pageChaptersOther),
            "endings": words.counted(endings, one: .pageEndingsOne, other: .pageEndingsOther),
        ])
    }

    /// ` lang="fr"` on an element holding a translation's text.
    static func lang(_ site: SiteStory) -> String { textLanguage(site.language, on: site.words) }

    /// ` lang="fr"` on an element holding story text in `language` (nil: the story as written)
    /// on a page in `words`' language: a translation's tag; for the story as written, counted
    /// English as story.json names no language, `en` when the page's own words are not English.
    public static func textLanguage(_ language: String?, on words: Phrasebook) -> String {
        (language ?? (words.language == "en" ? nil : "en")).map { " lang=\"\(HTML.attribute($0))\"" } ?? ""
    }

    /// Links to the same page in the story's other languages (nothing when it has none).
    static func languageSwitch(_ site: SiteStory, page: String) -> String {
        guard site.versions.count > 1 else { return "" }
        let items = site.versions.map { version -> String in
            let label = version.language.map { "<span lang=\"\(HTML.attribute($0))\">\(HTML.text($0))</span>" } ?? HTML.text(site.words[.pageAsWritten])
            if version.folder == site.folder { return "<li><span aria-current=\"page\">\(label)</span></li>" }
            let hreflang = version.language.map { " hreflang=\"\(HTML.attribute($0))\"" } ?? ""
            return "<li><a href=\"../\(HTML.pathSegment(version.folder))/\(HTML.attribute(page))\"\(hreflang)>\(label)</a></li>"
        }.joined()
        return "<nav aria-label=\"\(HTML.attribute(site.words[.pageLanguages]))\" class=\"languages\"><ul>\(items)</ul></nav>"
    }

    /// The site's front page: every story, with its summary and a link to begin.
    public static func library(_ stories: [SiteStory], words: Phrasebook = .english) -> String {
        // Each story's place and endings found are this browser's (cyd.js fills `.place` in).
        let items = stories.map { story in
            let endings = story.story.chapters.count(where: \.choices.isEmpty)
            return """
                <li data-story="\(HTML.attribute(story.folder))" data-endings="\(endings)">
                <h2><a href="\(HTML.pathSegment(story.folder))/index.html">\(HTML.text(story.story.name.isEmpty ? words[.pageUntitledStory] : story.story.name))</a></h2>
                <p class="rating">\(HTML.text(rated(story.story.rating, chapters: story.story.chapters.count, endings: endings, words)))</p>
                <p>\(HTML.text(story.story.summary))</p>
                \(alsoIn(story, words))
                <p class="place" hidden></p>
                </li>
                """
        }.joined(separator: "\n")
        return document(
            title: words[.pageStories], depth: .root, words: words,
            main: """
                <h1>\(HTML.text(words[.pageStories]))</h1>
                <ul class="stories">
                \(items)
                </ul>
                """)
    }

    /// "Also in fr, de." with links, on the library page.
    static func alsoIn(_ site: SiteStory, _ words: Phrasebook) -> String {
        let others = site.versions.compactMap { version in
            version.language.map { "<a href=\"\(HTML.pathSegment(version.folder))/index.html\" lang=\"\(HTML.attribute($0))\" hreflang=\"\(HTML.attribute($0))\">\(HTML.text($0))</a>" }
        }
        return others.isEmpty ? "" : "<p class=\"languages\">\(Phrasebook.fill(HTML.text(words[.pageAlsoIn]), ["languages": others.joined(separator: ", ")]))</p>"
    }

    /// A story's page: its picture, summary and rating; begin. With the script: resume, restart,
    /// endings found, and the reader's name.
    public static func story(_ site: SiteStory) -> String {
        var story = site.story
        let words = site.words
        if story.name.isEmpty { story.name = words[.pageUntitledStory] }
        let first = story.firstChapter.map { site.page(of: $0.id) } ?? "index.html"
        let lang = lang(site)
        let picture = story.picPath.flatMap { site.pictures[$0] }.map { source in
            "<img class=\"picture\" src=\"\(HTML.attribute(source))\" alt=\"\(HTML.attribute(story.name))\"\(lang)>"
        } ?? ""
        let endings = story.chapters.count(where: \.choices.isEmpty)
        return document(
            title: story.name, depth: .story, words: words,
            bodyAttributes: [("data-story", site.placeKey), ("data-folder", site.folder), ("data-first", first), ("data-endings", String(endings))],
            main: """
                \(languageSwitch(site, page: "index.html"))
                <h1\(lang)>\(HTML.text(story.name))</h1>
                \(picture)
                <p class="rating">\(HTML.text(rated(story.rating, chapters: story.chapters.count, endings: endings, words)))</p>
                <p\(lang)>\(HTML.text(story.summary))</p>
                <p><a class="begin" href="\(HTML.attribute(first))">\(HTML.text(words[.pageBegin]))</a></p>
                <div class="progress" hidden>
                <p class="found" role="status"></p>
                <p><a class="resume" href="\(HTML.attribute(first))">\(HTML.text(words[.siteResume]))</a></p>
                <p><button type="button" class="restart">\(HTML.text(words[.pageStartAgain]))</button></p>
                </div>
                <form class="name" hidden>
                <label for="reader-name">\(HTML.text(words[.pageYourName]))</label>
                <input id="reader-name" name="name" autocomplete="given-name" maxlength="60">
                <button type="submit">\(HTML.text(words[.pageKeep]))</button>
                </form>
                <noscript><p>\(HTML.text(words[.siteNoScript]))</p></noscript>
                """)
    }

    /// One chapter: its title, picture, text, and its choices as a numbered list of links (or,
    /// at an ending, the way back).
    public static func chapter(_ chapter: Chapter, of site: SiteStory) -> String {
        // A page's heading is never empty (an empty `h1` names nothing to a screen reader).
        let words = site.words
        let title = chapter.name.isEmpty ? words[.pageUntitledChapter] : chapter.name
        let lang = lang(site)
        // A tap on the picture opens it alone, full size, where a phone can zoom it.
        let picture = chapter.picPath.flatMap { site.pictures[$0] }.map { source in
            "<a class=\"picture\" href=\"\(HTML.attribute(source))\"><img class=\"picture\" src=\"\(HTML.attribute(source))\" alt=\"\(HTML.attribute(chapter.picAlt ?? title))\"\(lang)></a>"
        } ?? ""
        let ids = Set(site.story.chapters.map(\.id))
        let ending = chapter.choices.isEmpty
        let first = site.story.firstChapter.map { site.page(of: $0.id) } ?? "index.html"
        let endings = site.story.chapters.count(where: \.choices.isEmpty)
        let choices: String
        if ending {
            choices = """
                <p class="the-end"><strong>\(HTML.text(words[.pageTheEnd]))</strong> <span class="found"></span></p>
                <nav aria-label="\(HTML.attribute(words[.siteAfterTheEnd]))"><ul class="after">
                <li><a class="restart" href="\(HTML.attribute(first))">\(HTML.text(words[.pageStartAgain]))</a></li>
                <li><a href="index.html">\(HTML.text(words[.siteBackToStory]))</a></li>
                <li><a href="../index.html">\(HTML.text(words[.pageAllStories]))</a></li>
                </ul></nav>
                """
        } else {
            let items = chapter.choices.map { choice in
                ids.contains(choice.chapterID)
                    ? "<li><a href=\"\(HTML.attribute(site.page(of: choice.chapterID)))\"\(lang)>\(HTML.text(choice.text))</a></li>"
                    : "<li><span class=\"unavailable\"><span\(lang)>\(HTML.text(choice.text))</span> \(HTML.text(words[.pageNotWrittenYet]))</span></li>"
            }.joined(separator: "\n")
            choices = """
                <nav aria-label="\(HTML.attribute(words[.pageChoices]))"><ol class="choices">
                \(items)
                </ol></nav>
                <ul class="reading"><li><a class="restart" href="\(HTML.attribute(first))">\(HTML.text(words[.pageStartAgain]))</a></li></ul>
                """
        }
        return document(
            title: "\(title) · \(site.story.name)", depth: .story, words: words,
            bodyAttributes: [
                ("data-story", site.placeKey), ("data-folder", site.folder), ("data-chapter", chapter.id), ("data-ending", ending ? "true" : "false"), ("data-first", first),
                ("data-endings", String(endings)),
            ],
            main: """
                \(languageSwitch(site, page: site.page(of: chapter.id)))
                <p class="story-title"><a href="index.html"\(lang)>\(HTML.text(site.story.name))</a></p>
                <h1\(lang)>\(HTML.text(title))</h1>
                \(picture)
                <div class="text"\(lang)>
                \(HTML.paragraphs(of: chapter))
                </div>
                \(choices)
                """)
    }

    /// What the service worker shows, offline, for a page this browser never kept.
    public static func offline(words: Phrasebook = .english) -> String {
        document(
            title: words[.siteOfflineTitle], depth: .root, words: words,
            main: """
                <h1>\(HTML.text(words[.siteOfflineTitle]))</h1>
                <p>\(HTML.text(words[.siteOfflineWhy]))</p>
                <p>\(HTML.text(words[.siteOfflineWhat]))</p>
                <p><a class="begin" href="index.html">\(HTML.text(words[.pageAllStories]))</a></p>
                """)
    }
}
