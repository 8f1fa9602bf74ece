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
    static func document(title: String, depth: Depth, bodyAttributes: [(String, String)] = [], main: String) -> String {
        let up = depth == .root ? "" : "../"
        var layout = PageLayout(
            style: .linked(up + "cyd.css"), script: up + "cyd.js", policyInPage: ContentPolicy.page(pictures: .ownOriginAndWeb, asHeader: false),
            referrer: "no-referrer")
        layout.links = [
            ("manifest", up + "manifest.webmanifest", nil), ("icon", up + SiteIcon.fileName(192), "image/png"),
            ("apple-touch-icon", up + SiteIcon.fileName(192), nil),
        ]
        return layout.document(
            title: title, bodyAttributes: bodyAttributes + [("data-root", up.isEmpty ? "./" : up)],
            header: "<nav aria-label=\"Site\"><a class=\"home\" href=\"\(up)index.html\">Stories</a></nav>", main: main)
    }

    /// ` lang="fr"` on an element holding a translation's text.
    static func lang(_ site: SiteStory) -> String { site.language.map { " lang=\"\(HTML.attribute($0))\"" } ?? "" }

    /// Links to the same page in the story's other languages (nothing when it has none).
    static func languageSwitch(_ site: SiteStory, page: String) -> String {
        guard site.versions.count > 1 else { return "" }
        let items = site.versions.map { version -> String in
            let label = version.language.map { "<span lang=\"\(HTML.attribute($0))\">\(HTML.text($0))</span>" } ?? "As written"
            if version.folder == site.folder { return "<li><span aria-current=\"page\">\(label)</span></li>" }
            let hreflang = version.language.map { " hreflang=\"\(HTML.attribute($0))\"" } ?? ""
            return "<li><a href=\"../\(HTML.pathSegment(version.folder))/\(HTML.attribute(page))\"\(hreflang)>\(label)</a></li>"
        }.joined()
        return "<nav aria-label=\"Languages\" class=\"languages\"><ul>\(items)</ul></nav>"
    }

    /// The site's front page: every story, with its summary and a link to begin.
    public static func library(_ stories: [SiteStory]) -> String {
        // Each story's place and endings found are this browser's (cyd.js fills `.place` in).
        let items = stories.map { story in
            let endings = story.story.chapters.count(where: \.choices.isEmpty)
            return """
                <li data-story="\(HTML.attribute(story.folder))" data-endings="\(endings)">
                <h2><a href="\(HTML.pathSegment(story.folder))/index.html">\(HTML.text(story.story.name.isEmpty ? "Untitled story" : story.story.name))</a></h2>
                <p class="rating">Rated \(HTML.text(story.story.rating)) · \(story.story.chapters.count) chapters · \(endings) \(endings == 1 ? "ending" : "endings")</p>
                <p>\(HTML.text(story.story.summary))</p>
                \(alsoIn(story))
                <p class="place" hidden></p>
                </li>
                """
        }.joined(separator: "\n")
        return document(
            title: "Stories", depth: .root,
            main: """
                <h1>Stories</h1>
                <ul class="stories">
                \(items)
                </ul>
                """)
    }

    /// "Also in fr, de." with links, on the library page.
    static func alsoIn(_ site: SiteStory) -> String {
        let others = site.versions.compactMap { version in
            version.language.map { "<a href=\"\(HTML.pathSegment(version.folder))/index.html\" lang=\"\(HTML.attribute($0))\" hreflang=\"\(HTML.attribute($0))\">\(HTML.text($0))</a>" }
        }
        return others.isEmpty ? "" : "<p class=\"languages\">Also in \(others.joined(separator: ", ")).</p>"
    }

    /// A story's page: its picture, summary and rating; begin. With the script: resume, restart,
    /// endings found, and the reader's name.
    public static func story(_ site: SiteStory) -> String {
        var story = site.story
        if story.name.isEmpty { story.name = "Untitled story" }
        let first = story.firstChapter.map { site.page(of: $0.id) } ?? "index.html"
        let lang = lang(site)
        let picture = story.picPath.flatMap { site.pictures[$0] }.map { source in
            "<img class=\"picture\" src=\"\(HTML.attribute(source))\" alt=\"\(HTML.attribute(story.name))\"\(lang)>"
        } ?? ""
        let endings = story.chapters.count(where: \.choices.isEmpty)
        return document(
            title: story.name, depth: .story,
            bodyAttributes: [("data-story", site.placeKey), ("data-folder", site.folder), ("data-first", first), ("data-endings", String(endings))],
            main: """
                \(languageSwitch(site, page: "index.html"))
                <h1\(lang)>\(HTML.text(story.name))</h1>
                \(picture)
                <p class="rating">Rated \(HTML.text(story.rating)) · \(story.chapters.count) chapters · \(endings) \(endings == 1 ? "ending" : "endings")</p>
                <p\(lang)>\(HTML.text(story.summary))</p>
                <p><a class="begin" href="\(HTML.attribute(first))">Begin</a></p>
                <div class="progress" hidden>
                <p class="found" role="status"></p>
                <p><a class="resume" href="\(HTML.attribute(first))">Resume where you were</a></p>
                <p><button type="button" class="restart">Start again</button></p>
                </div>
                <form class="name" hidden>
                <label for="reader-name">Your name in the story</label>
                <input id="reader-name" name="name" autocomplete="given-name" maxlength="60">
                <button type="submit">Keep</button>
                </form>
                <noscript><p>Your place, your name and the endings you find are kept in this browser by its script; with scripts off, nothing is kept.</p></noscript>
                """)
    }

    /// One chapter: its title, picture, text, and its choices as a numbered list of links (or,
    /// at an ending, the way back).
    public static func chapter(_ chapter: Chapter, of site: SiteStory) -> String {
        // A page's heading is never empty (an empty `h1` names nothing to a screen reader).
        let title = chapter.name.isEmpty ? "Untitled chapter" : chapter.name
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
                <p class="the-end"><strong>The end.</strong> <span class="found"></span></p>
                <nav aria-label="After the end"><ul class="after">
                <li><a class="restart" href="\(HTML.attribute(first))">Start again</a></li>
                <li><a href="index.html">Back to the story</a></li>
                <li><a href="../index.html">All stories</a></li>
                </ul></nav>
                """
        } else {
            let items = chapter.choices.map { choice in
                ids.contains(choice.chapterID)
                    ? "<li><a href=\"\(HTML.attribute(site.page(of: choice.chapterID)))\"\(lang)>\(HTML.text(choice.text))</a></li>"
                    : "<li><span class=\"unavailable\"><span\(lang)>\(HTML.text(choice.text))</span> (this way is not written yet)</span></li>"
            }.joined(separator: "\n")
            choices = """
                <nav aria-label="Choices"><ol class="choices">
                \(items)
                </ol></nav>
                <ul class="reading"><li><a class="restart" href="\(HTML.attribute(first))">Start again</a></li></ul>
                """
        }
        return document(
            title: "\(title) · \(site.story.name)", depth: .story,
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
    public static func offline() -> String {
        document(
            title: "Not saved for offline reading yet", depth: .root,
            main: """
                <h1>Not saved for offline reading yet</h1>
                <p>This page was never opened on this device while it was online, so it was not kept for reading offline.</p>
                <p>Every story you have opened here is kept whole: open it from the list of stories. Once you are online again, any story can be opened, and is kept from then on.</p>
                <p><a class="begin" href="index.html">All stories</a></p>
                """)
    }
}
