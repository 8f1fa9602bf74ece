"""The keeper's report (`cyd catalogue publish` writes report.html and badges/) read in a real
browser (Debian's Chromium, driven by Playwright) with scripts off, and checked with axe-core.

usage: report_check.py SITE_FOLDER HOSTILE_TEXT

SITE_FOLDER is the published catalogue; HOSTILE_TEXT a string (a title with markup) that must be
shown as written and never run. Prints one line per check; exits 1 when one fails, naming it.
"""

import http.server
import socketserver
import sys
import threading
from functools import partial

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import sync_playwright

SITE, HOSTILE = sys.argv[1:3]
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
failures = []


def check(name, condition, detail=""):
    print(("ok   " if condition else "FAIL ") + name + ("" if condition else ": " + detail), flush=True)
    if not condition:
        failures.append(name)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), partial(QuietHandler, directory=SITE))
server.daemon_threads = True
threading.Thread(target=server.serve_forever, daemon=True).start()
base = f"http://127.0.0.1:{server.server_address[1]}/"

with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
    axe = Axe()
    context = browser.new_context(java_script_enabled=False, viewport={"width": 375, "height": 800})
    page = context.new_page()
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(base + "report.html")
    check("the report has a heading and a table with a row per story", page.locator("h1").count() == 1 and page.locator("tbody tr").count() >= 1)
    check("the hostile title is shown as written", HOSTILE in page.inner_text("body"), page.inner_text("body")[:500])
    check("no element of the story's text became markup", page.locator("tbody script, tbody img, tbody iframe").count() == 0)
    width = page.evaluate("document.documentElement.scrollWidth")
    check("no sideways scroll of the page at 375 px", width <= 375, str(width))
    # axe-core is a script: it runs in a second context, with scripts on (the page has none of its own).
    page = browser.new_context(viewport={"width": 375, "height": 800}).new_page()
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    check("the report carries no script", page.goto(base + "report.html") and page.locator("script").count() == 0)
    for scheme in ["light", "dark"]:
        page.emulate_media(color_scheme=scheme)
        page.goto(base + "report.html")
        result = axe.run(page, options={"runOnly": {"type": "tag", "values": WCAG}})
        check(f"axe: no violations on the report ({scheme})", result.violations_count == 0, result.generate_report())
    # Each badge is an image with its text, and its colours pass contrast (axe on a page showing them).
    import os
    badges = []
    for author in sorted(os.listdir(os.path.join(SITE, "badges"))):
        if not os.path.isdir(os.path.join(SITE, "badges", author)):
            continue  # the list of badges written, kept beside them
        for name in sorted(os.listdir(os.path.join(SITE, "badges", author))):
            badges.append(f"badges/{author}/{name}")
    with open(os.path.join(SITE, "badges.html"), "w") as out:
        out.write('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>badges</title></head><body><main><h1>Badges</h1>')
        for badge in badges:
            out.write(open(os.path.join(SITE, badge)).read())
        out.write("</main></body></html>")
    page.goto(base + "badges.html")
    check("every badge is drawn", page.locator("svg").count() == len(badges) and len(badges) > 0, str(len(badges)))
    result = axe.run(page, options={"runOnly": {"type": "tag", "values": WCAG}})
    check("axe: the badges pass (text contrast, names)", result.violations_count == 0, result.generate_report())
    check("nothing ran", not dialogs, "; ".join(dialogs))
    browser.close()

print("all passed" if not failures else f"{len(failures)} failed: {', '.join(failures)}")
sys.exit(1 if failures else 0)
