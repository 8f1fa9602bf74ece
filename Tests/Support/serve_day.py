"""A phone reader's day with `cyd serve`, in Debian's Chromium through Playwright (375x812,
touch, scripts on), with axe-core on every new page and state.

usage:
  serve_day.py day BASE_URL STORY_ID STORY_JSON CYD LIBRARY
  serve_day.py locked BASE_URL

`day` reads STORY_ID (whose story.json is STORY_JSON) as the issue's reader did: a search with no
results and one that touches an ending not reached yet; bookmarks and notes that leave the
browser's history alone; the browser's Back against the page's, with "Go on from here"; the
place moved by `cyd read` (CYD, LIBRARY) while the page is open; Start again asked first; the
header on a phone; a picture opened full size; the profile picker's warning.
`locked` checks the page a browser without the key gets from a server started with --key: styled,
and no link that leads to another refusal.
Prints one line per check; exits 1 when one fails, naming it.
"""

import json
import re
import subprocess
import sys
import time
import urllib.request
import urllib.error

from checks import axe_clean, check, finish, wait_until


def words(text):
    return set(w.lower() for w in re.findall(r"[A-Za-z]{6,}", text))


def day(base, story_id, story_json, cyd, library):
    from axe_playwright_python.sync_playwright import Axe
    from playwright.sync_api import sync_playwright

    story = json.load(open(story_json))["story"]
    chapters = story["chapters"]
    endings = [c for c in chapters if not c.get("choices")]
    elsewhere = words(story.get("name", "") + " " + story.get("summary", ""))
    for chapter in chapters:
        if chapter.get("choices"):
            elsewhere |= words(chapter.get("text", "") + " " + chapter.get("name", ""))
            elsewhere |= words(" ".join(choice.get("text", "") for choice in chapter["choices"]))
    secret = None
    for ending in endings:
        only = sorted(words(ending.get("text", "")) - elsewhere - words(ending.get("name", "")))
        if only:
            secret, secret_ending = only[0], ending
            break
    first = next(c for c in chapters if c.get("is_first_chapter")) if any(c.get("is_first_chapter") for c in chapters) else chapters[0]
    first_word = sorted(words(first["text"]) - words(" ".join(c.get("text", "") for c in chapters if c is not first)))[0]

    def terminal(keys):
        run = subprocess.run([cyd, "read", "--json", "--library", library, "--name", "Ana", story_id], input=keys, capture_output=True, text=True, timeout=60)
        events = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
        return [event for event in events if event.get("event") == "chapter"], run

    def shown(page):
        return page.evaluate("document.body.getAttribute('data-shown') || '0'")

    def wait_shown(page, before):
        return wait_until(page, f"(document.body.getAttribute('data-shown') || '0') !== {json.dumps(before)}")

    def status(page):
        return page.evaluate("(document.getElementById('status') || {}).textContent || ''")

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        axe = Axe()
        context = browser.new_context(viewport={"width": 375, "height": 812}, has_touch=True, is_mobile=True, device_scale_factor=2)
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))

        # Search: nothing found is said plainly; the library below is named as the library.
        page.goto(base + "search?q=zqxjkw")
        heading = page.inner_text("#results")
        check("a search that finds nothing says “No results for …”", heading.startswith("No results for"), heading)
        check("under a search the stories are headed as the library, not as results", page.locator("h2", has_text="All your stories").count() == 1, page.inner_text("main")[:400])
        axe_clean(axe, page, "a search with no results")
        page.goto(base + "search?q=" + first_word)
        marks = page.evaluate("Array.from(document.querySelectorAll('.hits mark')).map(m => m.textContent.toLowerCase())")
        check("the words found are highlighted with <mark>, with no «» around them", first_word in marks and "«" not in page.inner_text(".hits"), (first_word, marks, page.inner_text(".hits")[:300]))
        axe_clean(axe, page, "search results")
        if secret:
            page.goto(base + "search?q=" + secret)
            hits = page.inner_text(".hits") if page.query_selector(".hits") else page.inner_text("main")
            check(f"a search for a word only an unreached ending has (“{secret}”) names the story, not the ending's text or title",
                  "ending you have not reached" in hits and secret not in hits.lower() and secret_ending.get("name", "@@") not in hits, hits[:500])
        else:
            check("the story has a word only an ending has (for the spoiler check)", False)

        # Begin, then two choices along.
        page.goto(base + f"stories/{story_id}")
        before = shown(page)
        page.click("button:has-text('Begin')")
        wait_shown(page, before)
        visited = [page.evaluate("document.body.getAttribute('data-chapter')")]
        for _ in range(2):
            before = shown(page)
            page.click("ol.choices button >> nth=0")
            wait_shown(page, before)
            visited.append(page.evaluate("document.body.getAttribute('data-chapter')"))
        check("two choices along, each chapter its own address", len(set(visited)) == 3, visited)

        # A bookmark (named) and a note: said once, no new history entry, no notice in the address.
        length = page.evaluate("history.length")
        page.fill("#bookmark-name", "sofa")
        before = shown(page)
        page.click("form.bookmark button")
        wait_shown(page, before)
        check("a named bookmark is kept and said", status(page) == "Bookmarked.", status(page))
        page.fill("#note-text", "read on the sofa")
        before = shown(page)
        page.click("form.note button")
        wait_shown(page, before)
        check("a note is kept and said", status(page) == "Note kept.", status(page))
        check("a bookmark and a note add no entry to the browser's history", page.evaluate("history.length") == length, (length, page.evaluate("history.length")))
        check("the address keeps no notice (a reload or Back does not say it again)", "said=" not in page.url, page.url)
        before = shown(page)
        page.click("form.bookmark button")  # unnamed: under the chapter's title
        wait_shown(page, before)

        # The browser's Back shows the page before, marked as not the place, with "Go on from here".
        before = shown(page)
        page.go_back()
        wait_shown(page, before)
        check("the browser's Back shows the chapter before", page.evaluate("document.body.getAttribute('data-chapter')") == visited[1], page.url)
        check("Back does not say “Bookmarked.” or “Note kept.” again", status(page) == "", status(page))
        banner = page.inner_text(".elsewhere") if page.query_selector(".elsewhere") else ""
        check("a page that is not the place says so, naming the place", "This is not your place" in banner, banner)
        chapters, _ = terminal("q\n")
        check("the browser's Back moved nothing: the terminal is still at the third chapter", chapters and chapters[0].get("key") == visited[2], chapters[:1])
        axe_clean(axe, page, "a chapter that is not the place")
        before = shown(page)
        page.click(".elsewhere button")
        wait_shown(page, before)
        check("“Go on from here” makes this chapter the place, and says so", status(page) == "This chapter is your place now." and not page.query_selector(".elsewhere"), status(page))
        chapters, _ = terminal("q\n")
        check("the terminal sees the place the browser chose", chapters and chapters[0].get("key") == visited[1], chapters[:1])

        # The terminal moves the place while the page is open: said when the window is back.
        chapters, run = terminal("1\nq\n")
        moved_to = chapters[-1].get("key") if chapters else None
        check("the terminal took a choice", moved_to is not None and moved_to != visited[1], run.stdout[-300:])
        before = shown(page)
        page.evaluate("window.dispatchEvent(new Event('focus'))")
        wait_shown(page, before)
        check("back in the window, the moved place is said", "Your place moved to" in status(page) and "in another window" in status(page), status(page))
        check("and the page says it is not the place any more", page.query_selector(".elsewhere") is not None)

        # A choice taken on a page shown as the place, after the terminal moved it: said.
        before = shown(page)
        page.click(".elsewhere button")
        wait_shown(page, before)
        terminal("1\nq\n")
        before = shown(page)
        page.click("ol.choices button >> nth=0")
        wait_shown(page, before)
        check("a choice after the place moved elsewhere goes on from this page, and says the place had moved", "moved on in another window" in status(page), status(page))

        # Bookmarks and notes: a named bookmark says its name and chapter; links go to chapters.
        page.goto(base + f"stories/{story_id}/-/marks")
        items = page.evaluate("Array.from(document.querySelectorAll('.bookmarks li')).map(li => (li.firstChild.nodeType === 3 ? li.firstChild.textContent : '') + '|' + (li.querySelector('a') || {}).textContent)")
        check("a named bookmark reads “sofa · chapter”, a default one its chapter once", any(item.startswith("sofa · |") for item in items)
              and any(item.split("|")[0] == "" for item in items), items)
        note_link = page.query_selector(".notes .where a")
        check("a note's “on …” is a link to its chapter", note_link is not None and note_link.get_attribute("href").startswith(f"/stories/{story_id}/"))
        axe_clean(axe, page, "bookmarks and notes")

        # Start again asks first; keeping reading changes nothing.
        page.goto(base + f"stories/{story_id}")
        place_before = page.get_attribute("a.resume", "href")
        page.click("a:has-text('Start again')")
        check("Start again asks first, saying what is lost and what is kept", "again?" in page.inner_text("h1") and "Back will not bring it back" in page.inner_text("main"), page.inner_text("main")[:300])
        axe_clean(axe, page, "the Start again question")
        page.click("a:has-text('Keep reading where you are')")
        page.wait_for_load_state()
        check("“Keep reading” goes back to the place, unchanged", page.url.endswith(place_before), (page.url, place_before))
        page.goto(base + f"stories/{story_id}/-/restart")
        before = shown(page)
        page.click("button:has-text('Start again from the first chapter')")
        wait_shown(page, before)
        check("confirmed, Start again goes to the first chapter", page.evaluate("document.body.getAttribute('data-chapter')") == visited[0], page.url)

        # The header on a phone: every item a 44 px target, on one line with its row.
        boxes = page.evaluate("Array.from(document.querySelectorAll('header .site li')).map(li => { const r = li.getBoundingClientRect(); return [r.top, r.height, li.textContent.trim()]; })")
        check("on a phone every header item is at least 44 px high", all(box[1] >= 44 for box in boxes), boxes)
        rows = {}
        for top, height, text in boxes:
            rows.setdefault(round(top), []).append(height)
        check("on a phone “Reading as …” sits in line with the links", all(max(h) - min(h) < 1 for h in rows.values()), boxes)

        # A picture opens alone, full size, on a tap.
        picture = page.query_selector("a.picture")
        if picture:
            href = picture.get_attribute("href")
            src = page.get_attribute("a.picture img", "src")
            with page.expect_navigation():
                page.tap("a.picture img")
            check("a tap on the picture opens it alone, full size", href == src and page.url.endswith(href), (href, src, page.url))
        else:
            check("the first chapter has a picture (to tap)", False)

        # The language switch, on the library page: French where a story has it, then as written.
        page.goto(base)
        page.select_option("#language", "fr")
        before = shown(page)
        page.click("li.language button")
        wait_shown(page, before)
        french = page.evaluate("Array.from(document.querySelectorAll('.stories h3[lang=fr]')).map(h => h.textContent)")
        check("choosing fr on the page shows the library's French stories in French, marked lang", "Sept étages" in french, french)
        axe_clean(axe, page, "the library in French")
        page.select_option("#language", "original")
        before = shown(page)
        page.click("li.language button")
        wait_shown(page, before)
        check("choosing “As written” shows them as written", page.query_selector(".stories h3[lang]") is None and "Seven Stairs" in page.inner_text(".stories"))

        page.goto(base + "profiles")
        check("the profile picker says profiles are not accounts", "not accounts" in page.inner_text("main"), page.inner_text("main")[:300])
        check("no script error on any page", not errors, errors)
        context.close()

        # Scripts off: the same forms work as plain POSTs and redirects.
        context = browser.new_context(java_script_enabled=False)
        page = context.new_page()
        page.goto(base + f"stories/{story_id}/{visited[1]}")
        if page.query_selector(".elsewhere button"):
            with page.expect_navigation():
                page.click(".elsewhere button")
            check("scripts off: “Go on from here” moves the place", page.inner_text("#status") == "This chapter is your place now.", page.inner_text("#status"))
        else:
            check("scripts off: a chapter that is not the place offers “Go on from here”", False, page.inner_text("main")[:300])
        page.goto(base + f"stories/{story_id}")
        with page.expect_navigation():
            page.click("a:has-text('Start again')")
        with page.expect_navigation():
            page.click("button:has-text('Start again from the first chapter')")
        check("scripts off: Start again, asked and confirmed, goes to the first chapter", page.evaluate("document.body.getAttribute('data-chapter')") == visited[0], page.url)
        page.goto(base)
        page.select_option("#language", "fr")
        with page.expect_navigation():
            page.click("li.language button")
        check("scripts off: the language switch works", "Sept étages" in page.inner_text(".stories"), page.inner_text(".stories")[:200])
        check("scripts off: French chosen, cyd's own words are French too", page.get_attribute("html", "lang") == "fr" and page.inner_text("label[for=q]") == "Chercher dans les histoires",
              page.inner_text("header")[:200])
        page.fill("#q", "zqxjkw")
        with page.expect_navigation():
            page.keyboard.press("Enter")
        check("scripts off: search says no results, in the reader's language", page.inner_text("#results").startswith("Aucun résultat pour"), page.inner_text("#results"))
        browser.close()


def locked(base):
    from axe_playwright_python.sync_playwright import Axe
    from playwright.sync_api import sync_playwright

    try:
        urllib.request.urlopen(base)
        check("without the key the reader is refused", False)
    except urllib.error.HTTPError as error:
        check("without the key the reader is refused (403)", error.code == 403, error.code)
    with urllib.request.urlopen(base + "assets/cyd.css") as response:
        check("the stylesheet is served without the key (it holds nothing of the library)", response.status == 200 and b"--text" in response.read())
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 375, "height": 812})
        page.goto(base + "stories/1")
        check("the page that asks for the link is styled", page.evaluate("getComputedStyle(document.body).maxWidth") != "none", page.evaluate("getComputedStyle(document.body).maxWidth"))
        links = page.evaluate("Array.from(document.querySelectorAll('a[href]')).map(a => a.getAttribute('href')).filter(h => !h.startsWith('#'))")
        check("it has no link that would be refused too", links == [], links)
        Axe_ = Axe()
        axe_clean(Axe_, page, "the page that asks for the link")
        browser.close()


if __name__ == "__main__":
    if sys.argv[1] == "day":
        day(*sys.argv[2:7])
    elif sys.argv[1] == "locked":
        locked(sys.argv[2])
    finish()
