"""`cyd preview` as an author uses it, in Debian's Chromium through Playwright with axe-core:
the page follows each save without a reload and keeps its chapter; a finding appears and goes
with the edit; a broken save is said and the last good story stays; a renamed chapter is followed;
the chapter map marks the chapter shown and the unreachable; the editor's "Preview this chapter"
(through `cyd lsp`) moves the page.

usage: preview_check.py BASE_URL FOLDER CYD

FOLDER is the story folder the preview serves (a copy of seven-stairs: it is edited here).
Prints one line per check, and the milliseconds from each save to the page; exits 1 when a check
fails, naming it.
"""

import json
import os
import subprocess
import sys
import time

from checks import WCAG, check, failures, wait_until

BASE, FOLDER, CYD = sys.argv[1:4]
STORY = os.path.join(FOLDER, "story.json")


def save(text):
    """As an editor saves: a new file renamed over the old."""
    with open(STORY + ".tmp", "w") as out:
        out.write(text)
    os.replace(STORY + ".tmp", STORY)
    return time.monotonic()


def edited(story, chapter_id, change):
    data = json.loads(story)
    for chapter in data["story"]["chapters"]:
        if chapter["id"] == chapter_id:
            change(chapter)
    return json.dumps(data, ensure_ascii=False, indent=2)


def lsp_preview(chapter_id):
    """`cyd lsp`: the lens above the chapter, then its command, as an editor runs them."""
    process = subprocess.Popen([CYD, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def send(message):
        body = json.dumps(message).encode()
        process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        process.stdin.flush()

    def receive(wanted_id):
        while True:
            length = 0
            while True:
                line = process.stdout.readline()
                if line in (b"\r\n", b""):
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            message = json.loads(process.stdout.read(length))
            if message.get("id") == wanted_id:
                return message

    uri = "file://" + os.path.realpath(STORY)
    send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
    capabilities = receive(1)["result"]["capabilities"]
    send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": open(STORY).read()}}})
    send({"jsonrpc": "2.0", "id": 2, "method": "textDocument/codeLens", "params": {"textDocument": {"uri": uri}}})
    lenses = receive(2)["result"]
    lens = next((item for item in lenses if item["command"]["arguments"][1] == chapter_id), None)
    if lens:
        send({"jsonrpc": "2.0", "id": 3, "method": "workspace/executeCommand", "params": {"command": lens["command"]["command"], "arguments": lens["command"]["arguments"]}})
        receive(3)
    send({"jsonrpc": "2.0", "id": 4, "method": "shutdown"})
    receive(4)
    send({"jsonrpc": "2.0", "method": "exit"})
    process.wait(timeout=10)
    return capabilities, lenses, lens


def main():
    from axe_playwright_python.sync_playwright import Axe
    from playwright.sync_api import sync_playwright

    original = open(STORY).read()
    timings = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        axe = Axe()
        page = browser.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(BASE)
        check("the preview opens at the first chapter", page.url.endswith("/chapter/landing"), page.url)
        heading = page.inner_text("h1")
        page.evaluate("window.keptSinceLoad = 'yes'")

        def axe_clean(name):
            result = axe.run(page, options={"runOnly": {"type": "tag", "values": WCAG}})
            check(f"axe finds nothing on {name}", result.violations_count == 0, result.generate_report())

        axe_clean("a chapter")

        # A save of the text: the page follows in place.
        story = edited(original, "landing", lambda c: c.__setitem__("text", c["text"] + "\n\nA new sentence, just typed."))
        saved = save(story)
        seen = wait_until(page, "document.querySelector('main .text').textContent.indexOf('A new sentence, just typed.') >= 0")
        check("a save shows on the page", seen is not None)
        if seen:
            timings.append((seen - saved) * 1000)
        check("without a reload, on the same chapter", page.evaluate("window.keptSinceLoad") == "yes" and page.url.endswith("/chapter/landing") and page.inner_text("h1") == heading,
              page.url)

        # A finding appears beside the chapter, and goes with the edit.
        broken_choice = edited(story, "landing", lambda c: c["choices"][0].__setitem__("chapter_id", "nowhere-yet"))
        saved = save(broken_choice)
        seen = wait_until(page, "document.querySelector('.findings-here').textContent.indexOf('nowhere-yet') >= 0")
        check("a choice to a missing chapter: its finding appears beside the chapter, with its place", seen is not None and "story.json:" in page.inner_text(".findings-here"),
              page.inner_text(".findings-here"))
        if seen:
            timings.append((seen - saved) * 1000)
        axe_clean("a chapter with findings")
        saved = save(story)
        seen = wait_until(page, "document.querySelector('.findings-here').textContent.indexOf('No findings in this chapter.') >= 0")
        check("fixed: the finding goes", seen is not None, page.inner_text(".findings-here"))

        # A save half typed: said, and the last good story stays.
        saved = save(story[: len(story) // 2])
        seen = wait_until(page, "document.querySelector('.problem') !== null")
        check("a save that does not parse is said at its place", seen is not None and "story.json:" in page.inner_text(".problem"), page.inner_text("main")[:300])
        check("and the last good chapter stays on the page", page.inner_text("h1") == heading and "A new sentence" in page.inner_text("main .text"))
        axe_clean("a broken save")
        save(story)
        check("the problem goes when story.json reads again", wait_until(page, "document.querySelector('.problem') === null") is not None)

        # A chapter renamed while it is shown: the page follows it.
        page.goto(BASE + "chapter/second")
        renamed = story.replace('"second"', '"second-flight"')
        save(renamed)
        seen = wait_until(page, "location.pathname === '/chapter/second-flight'")
        check("a chapter renamed while shown is followed, and said", seen is not None and "was “second”" in page.inner_text("#status"), f"{page.url} {page.inner_text('main')[:200]}")

        # The chapter map: the chapter shown marked, a chapter no reader reaches marked.
        orphan = json.loads(renamed)
        orphan["story"]["chapters"].append({"id": "orphan", "name": "Nobody comes here", "text": "Alone.", "choices": []})
        save(json.dumps(orphan, ensure_ascii=False))
        time.sleep(0.3)
        page.goto(BASE + "map?at=second-flight")
        current = page.evaluate("(document.querySelector('li[aria-current]') || {}).textContent || ''")
        check("the map marks the chapter shown", "second-flight" in current, current)
        check("and the chapter no reader reaches", page.query_selector("li.unreachable code") is not None and "orphan" in page.inner_text("li.unreachable"))
        axe_clean("the chapter map")
        page.goto(BASE + "findings")
        check("all findings link to their chapters", page.query_selector("a[href='/chapter/orphan']") is not None, page.inner_text("main")[:300])
        axe_clean("all findings")

        # By keyboard: a choice is a link.
        page.goto(BASE + "chapter/landing")
        for _ in range(40):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.closest('ol.choices') !== null"):
                break
        with page.expect_navigation():
            page.keyboard.press("Enter")
        check("a choice taken by keyboard plays on", "/chapter/" in page.url and not page.url.endswith("/landing"), page.url)

        # The editor's "Preview this chapter".
        page.goto(BASE + "chapter/landing")
        page.evaluate("window.keptSinceLoad = 'yes'")
        capabilities, lenses, lens = lsp_preview("fifth")
        check("cyd lsp offers a code lens per chapter and the preview command", capabilities.get("codeLensProvider") is not None and len(lenses) >= 5 and lens is not None
              and lens["command"]["title"] == "Preview this chapter", str(lenses)[:300])
        seen = wait_until(page, "location.pathname === '/chapter/fifth'")
        check("“Preview this chapter” moves the open page to the chapter, in place", seen is not None and page.evaluate("window.keptSinceLoad") == "yes", page.url)
        check("no script error", not errors, errors)
        browser.close()
    print("save to page: " + ", ".join(f"{t:.0f} ms" for t in timings))
    print(f"{len(failures)} failed" if failures else "all passed")
    sys.exit(1 if failures else 0)


main()
