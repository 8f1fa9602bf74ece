// The browser reader is built with the package trait BrowserReader only.
#if BrowserReader
import StoryAnalysis
import StoryFormat
import StoryWeb

/// The preview's pages: a chapter with its findings beside it, every finding of the story, and
/// the chapter map. Story text reaches them through StoryWeb's `HTML` only; the script
/// (`preview.js`) only fetches the next reading and puts it in place.
enum PreviewPages {
    static let layout = PageLayout(style: .linked("/assets/cyd.css"), script: "/assets/preview.js", referrer: "same-origin", followsColorScheme: true)

    static func document(_ snapshot: PreviewSnapshot, title: String, notice: String = "", chapter: String? = nil, main: String) -> String {
        let story = snapshot.story.map { $0.name.isEmpty ? "Untitled story" : $0.name } ?? "No story yet"
        let errors = snapshot.findings.count { $0.severity == .error }
        let header = """
            <nav aria-label="Preview"><ul class="site">
            <li><a href="/">\(HTML.text(story))</a></li>
            <li><a href="/map\(chapter.map { "?at=" + HTML.pathSegment($0) } ?? "")">Chapter map</a></li>
            <li><a href="/findings">All findings (\(snapshot.findings.count)\(errors > 0 ? ", \(errors) \(errors == 1 ? "error" : "errors")" : ""))</a></li>
            </ul></nav>
            """
        var attributes = [("data-version", String(snapshot.version)), ("data-asked", String(snapshot.asked))]
        if let chapter { attributes.append(("data-chapter", chapter)) }
        var top = ""
        if let missing = snapshot.missingLanguage {
            top += "<p class=\"problem\">This folder has no translation into <span lang=\"\(HTML.attribute(missing))\">\(HTML.text(missing))</span> (translations/\(HTML.text(missing)).po or .xlf): the story is shown as written.</p>\n"
        }
        if let problem = snapshot.problem {
            top += """
                <div class="problem" role="alert"><p><strong>The last save of story.json is not shown:</strong> \(HTML.text(problem.file)):\(problem.position) \(HTML.text(problem.code)) \(HTML.text(problem.message)).</p>
                <p>This is the last version that could be read; the page follows as soon as story.json reads again.</p></div>
                """
        }
        return layout.document(title: "\(title) · preview", bodyAttributes: attributes, header: header, status: notice, main: top + main)
    }

    static func findingItem(_ finding: PreviewFinding, link: Bool) -> String {
        let place = "\(HTML.text(finding.file)):\(finding.position)"
        let chapter = link ? finding.chapter.map { " · <a href=\"/chapter/\(Pages.segment($0))\">\(HTML.text($0))</a>" } ?? "" : ""
        return "<li class=\"finding \(finding.severity == .error ? "error" : "warning")\"><code>\(HTML.text(finding.code))</code> \(HTML.text(finding.message)) <span class=\"where\">\(place)</span>\(chapter)</li>"
    }

    // MARK: A chapter

    static func chapter(_ id: String, in snapshot: PreviewSnapshot, language: String?, folder: String, from: String? = nil) -> String {
        let lang = language.map { " lang=\"\(HTML.attribute($0))\"" } ?? ""
        guard let story = snapshot.story, let chapter = snapshot.chapter(id) else {
            let first = snapshot.firstChapter.map { "<li><a href=\"/chapter/\(Pages.segment($0))\">The first chapter</a></li>" } ?? ""
            return document(
                snapshot, title: "No chapter “\(id)”", chapter: id,
                main: """
                    <h1>No chapter “\(HTML.text(id))”</h1>
                    <p>The story has no chapter with this id (any more): it was removed, or renamed to words the preview could not match.</p>
                    <ul class="actions">\(first)<li><a href="/map">The chapter map</a></li></ul>
                    """)
        }
        let title = chapter.name.isEmpty ? "Untitled chapter" : chapter.name
        let ids = Set(story.chapters.map(\.id))
        let picture = chapter.picPath.map { path -> String in
            if path.contains("://") { return "<p class=\"unavailable\">Picture \(HTML.text(path)) (readers fetch it from the web)</p>" }
            return "<img class=\"picture\" src=\"/picture?path=\(HTML.pathSegment(path))\" alt=\"\(HTML.attribute(chapter.picAlt ?? title))\"\(lang)>"
        } ?? ""
        let choices: String
        if chapter.choices.isEmpty {
            choices = "<p class=\"the-end\"><strong>The end.</strong> <a href=\"/chapter/\(Pages.segment(snapshot.firstChapter ?? ""))\">Start again</a></p>"
        } else {
            let items = chapter.choices.map { choice in
                ids.contains(choice.chapterID)
                    ? "<li><a href=\"/chapter/\(Pages.segment(choice.chapterID))\"\(lang)>\(HTML.text(choice.text))</a></li>"
                    : "<li><span class=\"unavailable\"><span\(lang)>\(HTML.text(choice.text))</span> (not written yet: no chapter “\(HTML.text(choice.chapterID))”)</span></li>"
            }.joined(separator: "\n")
            choices = "<nav aria-label=\"Choices\"><ol class=\"choices\">\n\(items)\n</ol></nav>"
        }
        let here = snapshot.findings(of: chapter.id)
        let findings = here.isEmpty
            ? "<p>No findings in this chapter.</p>"
            : "<ul class=\"findings\">\(here.map { findingItem($0, link: false) }.joined(separator: "\n"))</ul>"
        let notice = from.map { "This chapter was “\($0)”: its id changed in the last save." } ?? ""
        return document(
            snapshot, title: title, notice: notice, chapter: chapter.id,
            main: """
                <h1 tabindex="-1"\(lang)>\(HTML.text(title))</h1>
                <p class="story-title">Chapter id <code>\(HTML.text(chapter.id))</code>\(chapter.isFirstChapter ? " · the first chapter" : "")</p>
                \(picture)
                <div class="text"\(lang)>
                \(HTML.paragraphs(of: chapter))
                </div>
                \(choices)
                <section aria-labelledby="here" class="findings-here"><h2 id="here">Findings in this chapter (\(here.count))</h2>
                \(findings)
                </section>
                """)
    }

    // MARK: Every finding

    static func findings(_ snapshot: PreviewSnapshot, folder: String) -> String {
        let items = snapshot.findings.map { findingItem($0, link: true) }.joined(separator: "\n")
        return document(
            snapshot, title: "All findings",
            main: """
                <h1>All findings (\(snapshot.findings.count))</h1>
                \(snapshot.findings.isEmpty ? "<p>The checks find nothing in this story.</p>" : "<ul class=\"findings\">\n\(items)\n</ul>")
                """)
    }

    // MARK: The chapter map

    static func map(_ snapshot: PreviewSnapshot, at current: String?, folder: String) -> String {
        guard let map = snapshot.map else {
            return document(snapshot, title: "Chapter map", main: "<h1>Chapter map</h1><p>No story has been read yet.</p>")
        }
        var leads: [Int: [String]] = [:]
        for edge in map.edges {
            let target = edge.to.map { index -> String in
                let node = map.nodes[index]
                return "<a href=\"/chapter/\(Pages.segment(node.id))\">\(HTML.text(node.id))</a>"
            } ?? "<span class=\"unavailable\">\(HTML.text(edge.missing ?? "")) (missing)</span>"
            leads[edge.from, default: []].append(target)
        }
        let items = map.nodes.enumerated().map { index, node -> String in
            var kinds: [String] = []
            if node.isStart { kinds.append("start") }
            if node.isEnding { kinds.append("ending") }
            if node.isUnreachable { kinds.append("unreachable") }
            if node.isTrap { kinds.append("dead-end") }
            let words = kinds.map { $0 == "dead-end" ? "no way to an ending" : $0 }.joined(separator: ", ")
            let mark = node.id == current ? " aria-current=\"true\"" : ""
            let onward = leads[index].map { " → " + $0.joined(separator: ", ") } ?? ""
            return "<li class=\"\(kinds.joined(separator: " "))\"\(mark)><a href=\"/chapter/\(Pages.segment(node.id))\">\(HTML.text(node.title.isEmpty ? node.id : node.title))</a> <code>\(HTML.text(node.id))</code>\(words.isEmpty ? "" : " <span class=\"kind\">(\(words))</span>")\(onward)</li>"
        }.joined(separator: "\n")
        return document(
            snapshot, title: "Chapter map", chapter: nil,
            main: """
                <h1>Chapter map</h1>
                <p class="legend">Each chapter, in the order story.json gives them, and where its choices lead. <span class="start">The first chapter</span>, <span class="ending">endings</span>, <span class="unreachable">chapters no reader reaches</span> and <span class="dead-end">chapters with no way to an ending</span> are marked, in the colours of the drawn map.</p>
                <ol class="map">
                \(items)
                </ol>
                """)
    }

    static let stylesheet = """
        .problem { border: 2px solid #b3261e; border-radius: 6px; padding: .25rem .75rem; margin: 1rem 0; font-family: system-ui, sans-serif; }
        .findings { font-family: system-ui, sans-serif; font-size: 1rem; padding-left: 1.25rem; }
        .finding.error code { color: #b3261e; }
        .finding .where { color: var(--muted); }
        .findings-here { margin-top: 2rem; border-top: 1px solid var(--line); }
        .map { font-family: system-ui, sans-serif; font-size: 1rem; }
        .map li { margin: .35rem 0; }
        .map a { display: inline-block; min-height: 24px; }
        .map li.start > a, .legend .start { font-weight: bold; }
        .map li.ending, .legend .ending { border-left: 4px solid #2e7d32; padding-left: .5rem; }
        .map li.unreachable, .legend .unreachable { border-left: 4px solid #9e9e9e; padding-left: .5rem; color: var(--muted); }
        .map li.dead-end, .legend .dead-end { border-left: 4px solid #b3261e; padding-left: .5rem; }
        .map li[aria-current] { outline: 3px solid var(--focus); outline-offset: 2px; }
        @media (prefers-color-scheme: dark) { .finding.error code { color: #ff8a80; } .problem { border-color: #ff8a80; } }

        """

    static let script = """
        // ChooseYourDestiny's preview: follows the story folder as the author saves it. Asks the
        // server for the next reading (it answers when the folder was read again, or when the
        // editor asked for a chapter), then puts the page made from it in place: no reload, the
        // same chapter (or where it went), the scroll kept.
        (function () {
          "use strict";
          var body = document.body;
          function number(name) { return Number(body.getAttribute(name) || "0"); }
          var asked = number("data-asked");

          function swap(html, url, said) {
            var next = new DOMParser().parseFromString(html, "text/html");
            var main = next.querySelector("main"), header = next.querySelector("header");
            if (!main) { return; }
            var y = window.scrollY;
            document.querySelector("main").replaceChildren.apply(document.querySelector("main"), Array.from(main.childNodes).map(function (n) { return document.importNode(n, true); }));
            if (header) { document.querySelector("header").replaceChildren.apply(document.querySelector("header"), Array.from(header.childNodes).map(function (n) { return document.importNode(n, true); })); }
            ["data-version", "data-chapter"].forEach(function (name) {
              var value = next.body.getAttribute(name);
              if (value === null) { body.removeAttribute(name); } else { body.setAttribute(name, value); }
            });
            document.title = next.title;
            if (url !== window.location.pathname + window.location.search) { window.history.replaceState(null, "", url); }
            var status = document.getElementById("status");
            if (said && status) { status.textContent = said; }
            body.setAttribute("data-updates", String(number("data-updates") + 1));
            window.scrollTo(0, y);
          }

          function wait() {
            return new Promise(function (resolve) { window.setTimeout(resolve, 1000); });
          }

          function follow() {
            window.fetch("/changes?since=" + number("data-version") + "&asked=" + asked, { cache: "no-store" })
              .then(function (response) { return response.json(); })
              .then(function (change) {
                var target = window.location.pathname + window.location.search;
                var said = "";
                var chapter = body.getAttribute("data-chapter");
                // Addresses come from the server, made as its pages make theirs.
                if (typeof change.chapter === "string" && change.asked > asked) {
                  target = change.chapter;
                  said = "Showing the chapter your editor asked for.";
                } else if (chapter !== null && change.renamed && typeof change.renamed[chapter] === "string") {
                  target = change.renamed[chapter] + "?from=" + encodeURIComponent(chapter);
                }
                asked = change.asked || asked;
                if (change.version <= number("data-version") && !said) { return null; }
                return window.fetch(target, { cache: "no-store" }).then(function (response) { return response.text(); })
                  .then(function (html) { swap(html, target.split("?from=")[0], said); });
              })
              .catch(wait)
              .then(follow);
          }

          follow();
        })();

        """
}
#endif
