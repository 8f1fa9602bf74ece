"""The static site of `cyd build web`, read in a real browser (Debian's Chromium, driven by
Playwright) and checked with axe-core (axe-playwright-python bundles it).

usage: web_reader_check.py SITE_FOLDER STORY_FOLDER HOSTILE_FOLDER FIRST_PICTURE_ALT

SITE_FOLDER holds a site built from the bundled stories and one hostile story; STORY_FOLDER and
HOSTILE_FOLDER are the site folders of the story to play through and of the hostile story, and
FIRST_PICTURE_ALT the pic_alt of the picture of the played story's first chapter. The
site is served by python's http.server on 127.0.0.1. Prints one line per check; exits 1 when one
fails, naming it.
"""

import http.server
import json
import socketserver
import sys
import threading
from functools import partial

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import sync_playwright

SITE, STORY, HOSTILE, EXPECTED_ALT = sys.argv[1:5]
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
failures = []


def check(name, condition, detail=""):
    print(("ok   " if condition else "FAIL ") + name + ("" if condition else ": " + detail), flush=True)
    if not condition:
        failures.append(name)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class QuietServer(socketserver.ThreadingTCPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A browser that moves on before a picture is sent closes the connection: not a failure.
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


server = QuietServer(("127.0.0.1", 0), partial(QuietHandler, directory=SITE))
threading.Thread(target=server.serve_forever, daemon=True).start()
base = f"http://127.0.0.1:{server.server_address[1]}/"


def play(page):
    """From the library to an ending by keyboard: Tab to a link, Enter. Takes the first choice
    that leads somewhere not yet seen. Returns the chapter titles passed and whether it ended."""
    page.goto(base + "index.html")
    titles = []

    def tab_to(selector_script, limit=80):
        for _ in range(limit):
            page.keyboard.press("Tab")
            if page.evaluate(selector_script):
                return True
        return False

    def follow():
        with page.expect_navigation():
            page.keyboard.press("Enter")

    if not tab_to(f"document.activeElement.getAttribute('href') === '{STORY}/index.html'"):
        return titles, False
    follow()
    if not tab_to("document.activeElement.classList.contains('begin')"):
        return titles, False
    follow()
    seen = set()
    for _ in range(60):
        titles.append(page.inner_text("h1"))
        if page.query_selector(".the-end"):
            return titles, True
        seen.add(page.url)
        links = page.eval_on_selector_all(".choices a", "links => links.map(l => l.href)")
        if not links:
            return titles, False
        fresh = [href for href in links if href not in seen]
        target = (fresh or links)[0]
        if not tab_to(f"document.activeElement.href === {json.dumps(target)}"):
            return titles, False
        follow()
    return titles, False


with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
    axe = Axe()

    # A keyboard-only playthrough with scripts on: to an ending, and the place is kept.
    context = browser.new_context()
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    titles, ended = play(page)
    check("keyboard-only playthrough to an ending (scripts on)", ended, f"passed {titles}")
    found_here = page.inner_text(".the-end .found") if page.query_selector(".the-end .found") else ""
    check("an ending says how many endings are found", found_here.startswith("Endings found: 1 of "), found_here)
    page.goto(base + "index.html")
    shelf = page.inner_text(f"li[data-story='{STORY}'] .place") if page.query_selector(f"li[data-story='{STORY}'] .place:not([hidden])") else ""
    check("the library page says where the reader is in a story, and its endings found", shelf.startswith("You are at “") and "Endings found: 1 of " in shelf, shelf)
    others = page.eval_on_selector_all(f"li[data-story]:not([data-story='{STORY}']) .place", "ps => ps.map(p => p.textContent)")
    check("and says “Not started.” of the others", others and all(text == "Not started." for text in others), str(others))
    # Start again from a chapter page: asked first; no keeps the place, yes goes to the first chapter.
    page.goto(base + STORY + "/index.html")
    page.wait_for_selector(".progress:not([hidden])", timeout=5000)
    resume = page.get_attribute(".resume", "href")
    page.goto(base + STORY + "/" + resume)
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.click("a.restart")
    page.wait_for_timeout(200)
    check("Start again on a chapter page asks first; no keeps the place", asked and page.url.endswith("/" + resume), f"{asked} {page.url}")
    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_navigation():
        page.click("a.restart")
    first_page = page.evaluate("document.body.getAttribute('data-first')")
    check("yes goes to the first chapter", page.url.endswith("/" + first_page), page.url)
    page.goto(base + STORY + "/index.html")
    page.wait_for_selector(".progress:not([hidden])", timeout=5000)
    found = page.inner_text(".found")
    check("the story page says an ending was found", found.startswith("Endings found: 1 of "), found)
    check("the story page offers to resume", page.is_visible(".resume"), "no resume link")
    check("no script error on any page", not errors, "; ".join(errors))

    # Number keys take choices.
    page.goto(base + STORY + "/index.html")
    with page.expect_navigation():
        page.click(".begin")
    first_title = page.inner_text("h1")
    first_choice = page.eval_on_selector(".choices a", "a => a.href")
    with page.expect_navigation():
        page.keyboard.press("1")
    check("the key 1 takes the first choice", page.url == first_choice and page.inner_text("h1") != first_title, page.url)

    # The reader's name replaces [[name]] once given.
    page.goto(base + STORY + "/index.html")
    page.fill("#reader-name", "Ana")
    page.click("form.name button")
    page.goto(base + STORY + "/index.html")
    check("the name is kept", page.input_value("#reader-name") == "Ana", page.input_value("#reader-name"))

    # axe-core, WCAG 2.2 A and AA, on every kind of page, in both colour schemes.
    chapter_url = first_choice
    for scheme in ["light", "dark"]:
        page.emulate_media(color_scheme=scheme)
        for kind, url in [("library", base + "index.html"), ("story", base + STORY + "/index.html"), ("chapter", chapter_url)]:
            page.goto(url)
            result = axe.run(page, options={"runOnly": {"type": "tag", "values": WCAG}})
            check(f"axe: no violations on the {kind} page ({scheme})", result.violations_count == 0, result.generate_report())
    context.close()

    # The ending page, found by playing again, checked by axe too.
    context = browser.new_context()
    page = context.new_page()
    titles, ended = play(page)
    if ended:
        result = axe.run(page, options={"runOnly": {"type": "tag", "values": WCAG}})
        check("axe: no violations on an ending page", result.violations_count == 0, result.generate_report())
    context.close()

    # The same playthrough with scripts off: plain links all the way.
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    titles, ended = play(page)
    check("keyboard-only playthrough to an ending (scripts off)", ended, f"passed {titles}")
    page.goto(base + STORY + "/index.html")
    check("with scripts off the page says nothing is kept", "nothing is kept" in page.inner_text("main"), page.inner_text("main"))
    context.close()

    # A picture with its alt text: the first chapter's picture, described by its pic_alt.
    context = browser.new_context()
    page = context.new_page()
    page.goto(base + STORY + "/index.html")
    with page.expect_navigation():
        page.click(".begin")
    picture = page.query_selector("main img")
    if picture:
        alt = picture.get_attribute("alt")
        loaded = page.evaluate("img => img.complete && img.naturalWidth > 0", picture)
        check("a chapter's picture loads and says what it shows (its pic_alt)", loaded and alt == EXPECTED_ALT, f"alt={alt!r} loaded={loaded}")
        src = picture.get_attribute("src")
        with page.expect_navigation():
            page.click("main a.picture")
        check("a tap on the picture opens it alone, full size", page.url.endswith("/" + src), f"{page.url} {src}")
    else:
        check("the first chapter of the story played has a picture", False, "no picture")

    # A phone: 375 px wide, no sideways scrolling on any kind of page.
    phone = browser.new_context(viewport={"width": 375, "height": 667}, is_mobile=True, has_touch=True)
    page = phone.new_page()
    for url in [base + "index.html", base + STORY + "/index.html", chapter_url, base + HOSTILE + "/index.html", base + HOSTILE + "/start.html"]:
        page.goto(url)
        width = page.evaluate("document.documentElement.scrollWidth")
        check(f"no sideways scrolling at 375 px: {url[len(base):]}", width <= 375, f"scroll width {width}")
    phone.close()

    # A translated story has its own pages, a switch to the same page in each language, and one place.
    context = browser.new_context()
    page = context.new_page()
    french = "seven-stairs-fr"
    page.goto(base + "seven-stairs/index.html")
    with page.expect_navigation():
        page.click(".begin")
    here = page.url.rsplit("/", 1)[1]
    with page.expect_navigation():
        page.click("nav.languages a[hreflang=fr]")
    check("the language switch goes to the same chapter in French", page.url.endswith(f"/{french}/{here}"), page.url)
    check("the French page is French: cyd's words (html lang=fr, “Recommencer”) and its text marked lang=fr",
          page.get_attribute("h1", "lang") == "fr" and page.get_attribute("html", "lang") == "fr"
          and page.get_attribute(".text", "lang") == "fr" and page.inner_text("ul.reading a.restart") == "Recommencer", page.content()[:300])
    result = axe.run(page, options={"runOnly": {"type": "tag", "values": WCAG}})
    check("axe: no violations on a translated chapter", result.violations_count == 0, result.generate_report())
    page.goto(base + french + "/index.html")
    page.wait_for_selector(".progress:not([hidden])", timeout=5000)
    check("the place is one in both languages: the French story page resumes there", page.get_attribute(".resume", "href") == here, page.get_attribute(".resume", "href"))
    page.goto(base + "index.html")
    check("the library links the translation from its story", page.query_selector(f"a[href='{french}/index.html'][lang=fr]") is not None)
    context.close()

    # Installable: a manifest Chromium reads without errors, icons of the sizes it names, a favicon.
    context = browser.new_context(viewport={"width": 375, "height": 812}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(base + "index.html")
    for _ in range(100):
        if page.evaluate("navigator.serviceWorker.controller !== null"):
            break
        page.wait_for_timeout(100)
    box = page.eval_on_selector("header a", "a => { const r = a.getBoundingClientRect(); return [r.width, r.height]; }")
    check("the header's link is a 44 px target", box[0] >= 44 and box[1] >= 44, str(box))
    cdp = context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    check("Chromium reads the web app manifest without errors", manifest.get("url", "").endswith("manifest.webmanifest") and not manifest.get("errors"), str(manifest)[:500])
    # A Playwright context is an incognito profile, which no site can be installed from: that
    # one finding is the test's, not the site's.
    installability = [e for e in cdp.send("Page.getInstallabilityErrors").get("installabilityErrors", []) if e.get("errorId") != "in-incognito"]
    check("Chromium finds nothing else that stops the site being installed (manifest, icons, service worker)", not installability, str(installability))
    data = json.load(open(f"{SITE}/manifest.webmanifest"))
    for icon in data["icons"]:
        png = open(f"{SITE}/{icon['src']}", "rb").read()
        width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
        check(f"the icon {icon['src']} is a PNG of the size the manifest says", png[:8] == b"\x89PNG\r\n\x1a\n" and f"{width}x{height}" == icon["sizes"], f"{width}x{height}")
    loaded = page.evaluate("async () => { const link = document.querySelector('link[rel=icon]'); const r = await fetch(link.href); return r.ok && (await r.blob()).type; }")
    check("the page names a favicon that loads", loaded == "image/png", str(loaded))
    context.close()

    # Offline, having arrived by a deep link: the bare address and a story never opened are pages of ours.
    context = browser.new_context()
    page = context.new_page()
    deep = [name for name in json.load(open(f"{SITE}/{STORY}/offline.json"))["files"] if name.endswith(".html") and name != "index.html"][0]
    page.goto(base + STORY + "/" + deep)
    ready = False
    for _ in range(100):
        ready = page.evaluate("""async () => {
            if (!navigator.serviceWorker.controller) return false;
            const cache = await caches.open('cyd-site-2');
            return (await cache.match(location.origin + '/')) !== undefined && (await cache.match(location.origin + '/offline.html')) !== undefined;
        }""")
        if ready:
            break
        page.wait_for_timeout(100)
    check("the service worker keeps the library and its offline page at once", ready)
    context.set_offline(True)
    try:
        page.goto(base)
        check("offline, the bare address opens the library after arriving by a deep link", page.inner_text("h1") == "Stories", page.content()[:200])
    except Exception as error:  # noqa: BLE001 - the failure is the finding
        check("offline, the bare address opens the library after arriving by a deep link", False, str(error))
    try:
        page.goto(base + HOSTILE + "/index.html")
        check("offline, a story never opened says so in a page of ours", page.inner_text("h1") == "Not saved for offline reading yet", page.content()[:200])
        result = axe.run(page, options={"runOnly": {"type": "tag", "values": WCAG}})
        check("axe: no violations on the offline page", result.violations_count == 0, result.generate_report())
    except Exception as error:  # noqa: BLE001
        check("offline, a story never opened says so in a page of ours", False, str(error))
    context.close()

    # Offline after one visit: the service worker keeps the opened story whole.
    context = browser.new_context()
    page = context.new_page()
    page.goto(base + STORY + "/index.html")
    wanted = len(json.load(open(f"{SITE}/{STORY}/offline.json"))["files"])
    kept = 0
    for _ in range(100):
        kept = page.evaluate(f"""async () => {{
            const cache = await caches.open('cyd-site-2');
            const keys = await cache.keys();
            return keys.filter(k => new URL(k.url).pathname.startsWith('/{STORY}/')).length;
        }}""")
        if kept >= wanted:
            break
        page.wait_for_timeout(100)
    check("opening a story keeps all its files for reading offline", kept >= wanted, f"{kept} of {wanted} kept")
    context.set_offline(True)
    pages = [name for name in json.load(open(f"{SITE}/{STORY}/offline.json"))["files"] if name.endswith(".html") and name != "index.html"]
    unvisited = base + STORY + "/" + pages[-1]
    try:
        page.goto(unvisited)
        check("offline, a chapter never opened reads from the cache", page.query_selector("h1") is not None, page.content()[:200])
    except Exception as error:  # noqa: BLE001 - the failure is the finding
        check("offline, a chapter never opened reads from the cache", False, str(error))
    context.close()

    # A hostile story runs nothing: no dialog opens, its markup is shown as text.
    context = browser.new_context()
    page = context.new_page()
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(base + HOSTILE + "/index.html")
    title = page.inner_text("h1")
    check("a story's <script> title is shown as text", title == "<script>alert('title')</script>", title)
    with page.expect_navigation():
        page.click(".begin")
    text = page.inner_text("main")
    check("a chapter's script is shown as text", "<script>alert(2)</script>" in text, text[:300])
    for link in page.eval_on_selector_all(".choices a", "links => links.map(l => l.href)"):
        page.goto(link)
    check("no script of the story ran (no dialog opened)", not dialogs, "; ".join(dialogs))
    context.close()
    browser.close()

server.shutdown()
print(f"{len(failures)} failed" if failures else "all passed")
sys.exit(1 if failures else 0)
