"""A book made by `cyd export epub`, checked from outside: EPUBCheck (Debian's epubcheck, run with
java) reports nothing; the ZIP starts with an uncompressed `mimetype`; every "turn to N" link
leads to the section that starts with N; and, unless --no-browser, Chromium (Playwright) opens
the unzipped first section and follows links to an ending, with every picture on the way loaded.

usage: epub_check.py BOOK [--no-browser]
Prints one line per check; exits 1 when one fails, naming it.
"""

import json
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

book = sys.argv[1]
browser = "--no-browser" not in sys.argv
failures = []


def check(name, condition, detail=""):
    print(("ok   " if condition else "FAIL ") + name + ("" if condition else ": " + str(detail)[:1500]), flush=True)
    if not condition:
        failures.append(name)


# Low priority and one processor: the suite runs other tests beside this one, some of them timed.
run = subprocess.run(["nice", "-n", "19", "java", "-XX:ActiveProcessorCount=1", "-XX:+UseSerialGC", "-jar", "/usr/share/java/epubcheck.jar", book], capture_output=True, text=True, timeout=600)
report = run.stdout + run.stderr
check("EPUBCheck: no error and no warning", run.returncode == 0 and "No errors or warnings detected" in report, report[-1500:])

with zipfile.ZipFile(book) as archive:
    first = archive.infolist()[0]
    check("mimetype first, uncompressed", first.filename == "mimetype" and first.compress_type == zipfile.ZIP_STORED
          and archive.read("mimetype") == b"application/epub+zip", first.filename)
    folder = Path(tempfile.mkdtemp())
    archive.extractall(folder)

sections = sorted((folder / "OEBPS").glob("s*.xhtml"))
headings = {}
for path in sections:
    text = path.read_text(encoding="utf-8")
    number = re.search(r'<h1><span class="number">(\d+)</span>', text)
    headings[path.name] = int(number.group(1)) if number else None
broken = []
for path in sections:
    for target, anchor, said in re.findall(r'<a href="([^"#]+)#s(\d+)">turn to (\d+)</a>', path.read_text(encoding="utf-8")):
        if headings.get(target) != int(said) or anchor != said:
            broken.append(f"{path.name}: turn to {said} -> {target} (starts with {headings.get(target)})")
check(f"every 'turn to N' of {len(sections)} sections leads to the section that starts with N", not broken, broken[:5])

if browser:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = chromium.new_page()
        first_file = min(sections, key=lambda p: headings[p.name] or 10**9)
        page.goto(first_file.as_uri())
        visited = {}
        ended = False
        unloaded = []
        for _ in range(200):
            for image in page.query_selector_all("img"):
                if not page.evaluate("img => img.complete && img.naturalWidth > 0", image):
                    unloaded.append(page.url.rsplit("/", 1)[1])
            if page.query_selector(".the-end"):
                ended = True
                break
            links = page.eval_on_selector_all("ol.choices a", "links => links.map(l => l.href)")
            if not links:
                break
            count = visited.get(page.url, 0)
            visited[page.url] = count + 1
            page.goto(links[count % len(links)])
        check("Chromium follows the links from section 1 to an ending", ended, f"{len(visited)} sections visited")
        check("every picture on the way is in the book and loads", not unloaded, unloaded[:5])
        chromium.close()

print(json.dumps({"sections": len(sections)}))
print(f"{len(failures)} failed" if failures else "all passed")
sys.exit(1 if failures else 0)
