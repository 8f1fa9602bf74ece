"""`cyd serve` checked from outside: in a real browser (Debian's Chromium through Playwright, with
axe-core) and over raw HTTP.

usage:
  serve_check.py browser BASE_URL STORY_ID HOSTILE_ID FIRST_PICTURE_ALT CYD LIBRARY
  serve_check.py guard BASE_URL TOKEN STORY_ID DEADLINE_SECONDS
  serve_check.py crosssite KEYED_LINK

`browser` plays STORY_ID to an ending by keyboard with scripts on (chapters come in place) and
off (plain POSTs and redirects), checks every kind of page with axe (WCAG 2.2 A and AA, light
and dark), a phone's width, the picture's alt text, bookmarks and notes, the hostile story, and
that the place is shared with `cyd read --json` (CYD, LIBRARY) both ways.
`guard` checks a server started with --key: the token, the cookie, the anti-forgery token, the
Host header, bounded headers and bodies, slow clients, and many POSTs at once.
`crosssite` opens the keyed link as a reader does from a web chat or webmail: a page of another
site (localhost, where the server is 127.0.0.1) links to it, and Chromium follows the link; the
reader must land in the library, stay in on reload and on a second link, and a form POSTed from
that other site must still change nothing.
Prints one line per check; exits 1 when one fails, naming it.
"""

import http.client
import json
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.parse

from checks import WCAG, check, finish


def wait_until(page, script, timeout=10000, arg=None):
    """Polls `script` in the page until it is true. (Playwright's wait_for_function evaluates a
    string, which the pages' Content-Security-Policy forbids, as it should.)"""
    deadline = time.monotonic() + timeout / 1000
    while time.monotonic() < deadline:
        if page.evaluate(script, arg) if arg is not None else page.evaluate(script):
            return True
        time.sleep(0.05)
    raise TimeoutError(f"never true: {script}")


def browser_checks(base, story, hostile, expected_alt, cyd, library):
    from axe_playwright_python.sync_playwright import Axe
    from playwright.sync_api import sync_playwright

    story_url = f"{base}stories/{story}"

    def cyd_read(keys):
        """The terminal reader's view of the place, by --json, after typing `keys`."""
        run = subprocess.run([cyd, "read", "--json", "--library", library, "--name", "Ana", story], input=keys, capture_output=True, text=True, timeout=60)
        chapters = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
        chapters = [event for event in chapters if event.get("event") == "chapter"]
        return chapters, run

    def tab_to(page, script, limit=80):
        for _ in range(limit):
            page.keyboard.press("Tab")
            if page.evaluate(script):
                return True
        return False

    def press_enter(page, scripted):
        """Enter on the focused control: with scripts on the next page comes in place (the
        counter `data-shown` moves); with scripts off the browser navigates."""
        if scripted:
            before = page.evaluate("document.body.getAttribute('data-shown') || '0'")
            page.keyboard.press("Enter")
            wait_until(page, f"(document.body.getAttribute('data-shown') || '0') !== {json.dumps(before)}")
        else:
            with page.expect_navigation():
                page.keyboard.press("Enter")

    def play(page, scripted):
        """From the library to an ending, by keyboard only. On a chapter seen before, the next
        choice along is taken, so loops are left. Returns titles passed and whether it ended."""
        page.goto(base)
        titles = []
        if not tab_to(page, f"document.activeElement.getAttribute('href') === '/stories/{story}'"):
            return titles, False
        with page.expect_navigation():
            page.keyboard.press("Enter")
        if not tab_to(page, "/^(Begin|Start again)$/.test(document.activeElement.textContent)"):
            return titles, False
        if page.evaluate("document.activeElement.tagName") == "A":
            # Start again asks first, on a page of its own.
            with page.expect_navigation():
                page.keyboard.press("Enter")
            if not tab_to(page, "document.activeElement.tagName === 'BUTTON' && document.activeElement.textContent === 'Start again from the first chapter'"):
                return titles, False
        press_enter(page, scripted)
        visits = {}
        for _ in range(80):
            titles.append(page.inner_text("main h1"))
            if page.query_selector(".the-end"):
                return titles, True
            chapter = page.evaluate("document.body.getAttribute('data-chapter')")
            visits[chapter] = visits.get(chapter, 0) + 1
            count = len(page.query_selector_all("ol.choices button"))
            if count == 0:
                return titles, False
            wanted = (visits[chapter] - 1) % count
            if not tab_to(page, f"document.activeElement === document.querySelectorAll('ol.choices button')[{wanted}]"):
                return titles, False
            press_enter(page, scripted)
        return titles, False

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        axe = Axe()

        # Scripts on: chapters come in place, focus goes to the heading, the change is announced.
        context = browser.new_context()
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        titles, ended = play(page, scripted=True)
        check("keyboard-only playthrough to an ending, chapters in place (scripts on)", ended, f"passed {titles}")
        check("after a choice, focus is on the chapter's heading", page.evaluate("document.activeElement === document.querySelector('main h1')"),
              page.evaluate("document.activeElement.outerHTML"))
        try:
            wait_until(page, f"Array.from(document.querySelectorAll('[role=status]')).some(e => e.textContent.indexOf({json.dumps(titles[-1])}) >= 0)")
        except TimeoutError:
            pass
        live = page.evaluate("Array.from(document.querySelectorAll('[role=status]')).map(e => e.textContent).join(' | ')")
        check("the new chapter is announced in a status region", titles[-1] in live, live)
        check("the address is the chapter's own (/stories/ID/CHAPTER)", re.search(rf"/stories/{story}/[^/]+$", page.url) is not None, page.url)
        ending_url = page.url
        previous = titles[-2] if len(titles) > 1 else None
        page.go_back()
        wait_until(page, f"document.querySelector('main h1').textContent !== {json.dumps(titles[-1])}")
        check("the browser's back button shows the chapter before", page.inner_text("main h1") == previous, page.inner_text("main h1"))
        check("no script error", not errors, "; ".join(errors))

        # The place is the terminal's place: cyd read --json resumes where the browser ended.
        chapters, run = cyd_read("q\n")
        ending_key = urllib.parse.unquote(ending_url.rsplit("/", 1)[1])
        check("cyd read --json resumes at the chapter the browser reached", chapters and chapters[0]["key"] == ending_key,
              f"{chapters[:1]} against {ending_key}; {run.stderr}")
        # And back: start again in the terminal, take choice 1; the browser's story page resumes there.
        chapters, run = cyd_read("r\n1\nq\n")
        terminal_key = chapters[-1]["key"] if chapters else None
        page.goto(story_url)
        resume = page.get_attribute("a.resume", "href") or ""
        check("the story page resumes where cyd read left off", terminal_key is not None and urllib.parse.unquote(resume.rsplit("/", 1)[1]) == terminal_key,
              f"resume {resume!r}, terminal at {terminal_key!r}; {run.stderr}")

        # Number keys take choices.
        page.goto(base + resume.lstrip("/"))
        first = page.inner_text("main h1")
        before = page.evaluate("document.body.getAttribute('data-shown') || '0'")
        page.keyboard.press("1")
        wait_until(page, f"(document.body.getAttribute('data-shown') || '0') !== {json.dumps(before)}")
        check("the key 1 takes the first choice", page.inner_text("main h1") != first, page.inner_text("main h1"))

        # Bookmarks and notes, from the chapter page.
        chapter_url = page.url
        page.click("text=Bookmark this chapter")
        wait_until(page, "document.getElementById('status') && document.getElementById('status').textContent.length > 0")
        check("a bookmark is placed and said", "Bookmarked" in page.inner_text("#status"), page.inner_text("#status"))
        page.fill("#note-text", "The lamp <b>smokes</b>")
        page.click("form.note button")
        wait_until(page, "document.getElementById('status').textContent.indexOf('Note kept') >= 0")
        page.goto(story_url + "/-/marks")
        marks = page.inner_text("main")
        check("the bookmarks page lists the bookmark and the note as written", "The lamp <b>smokes</b>" in marks and "Go on from there" in marks, marks[:500])
        page.goto(story_url + "/-/path")
        check("the path page lists the chapters taken", len(page.query_selector_all("ol.path li")) >= 2, page.inner_text("main")[:300])

        # The reader's name in the story.
        page.goto(story_url)
        page.fill("#reader-name", "Ana")
        page.click("form.name button")
        wait_until(page, "document.getElementById('status').textContent.indexOf('name') >= 0")
        check("the name is kept", page.input_value("#reader-name") == "Ana", page.input_value("#reader-name"))

        # axe-core on every kind of page, light and dark, and with reduced motion.
        pages = [("library", base), ("search", base + "search?q=lamp"), ("story", story_url), ("chapter", chapter_url), ("ending", ending_url),
                 ("bookmarks and notes", story_url + "/-/marks"), ("path", story_url + "/-/path"), ("catalogue", base + "catalogue"),
                 ("profiles", base + "profiles"), ("not found", base + "stories/999999")]
        for scheme in ["light", "dark"]:
            page.emulate_media(color_scheme=scheme, reduced_motion="reduce" if scheme == "dark" else "no-preference")
            for kind, url in pages:
                page.goto(url)
                result = axe.run(page, options={"runOnly": {"type": "tag", "values": WCAG}})
                check(f"axe: no violations on the {kind} page ({scheme})", result.violations_count == 0, result.generate_report())
        context.close()

        # Scripts off: the same playthrough by plain forms, post/redirect/get.
        context = browser.new_context(java_script_enabled=False)
        page = context.new_page()
        titles, ended = play(page, scripted=False)
        check("keyboard-only playthrough to an ending (scripts off)", ended, f"passed {titles}")
        check("with scripts off the chapter has its own address after the redirect", re.search(rf"/stories/{story}/[^/-][^/]*$", page.url) is not None, page.url)
        context.close()

        # The first chapter's picture, with its alt text.
        context = browser.new_context()
        page = context.new_page()
        page.goto(story_url + "/-/restart")
        page.click("text=Start again from the first chapter")
        page.wait_for_selector("main img", timeout=10000)
        picture = page.query_selector("main img")
        wait_until(page, "img => img.complete", timeout=20000, arg=picture)
        alt = picture.get_attribute("alt")
        loaded = page.evaluate("img => img.naturalWidth > 0", picture)
        check("the chapter's picture loads from the library and says what it shows", loaded and alt == expected_alt, f"alt={alt!r} loaded={loaded}")
        context.close()

        # A phone, 375 px wide: no sideways scrolling.
        phone = browser.new_context(viewport={"width": 375, "height": 667}, is_mobile=True, has_touch=True)
        page = phone.new_page()
        for kind, url in [("library", base), ("story", story_url), ("chapter", chapter_url), ("marks", story_url + "/-/marks"),
                          ("hostile story", f"{base}stories/{hostile}"), ("hostile chapter", f"{base}stories/{hostile}/start")]:
            page.goto(url)
            width = page.evaluate("document.documentElement.scrollWidth")
            check(f"no sideways scrolling at 375 px: {kind}", width <= 375, f"scroll width {width}")
        phone.close()

        # A hostile story runs nothing; its markup is text.
        context = browser.new_context()
        page = context.new_page()
        dialogs = []
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        page.goto(f"{base}stories/{hostile}")
        check("a story's <script> title is shown as text", page.inner_text("main h1") == "<script>alert('title')</script>", page.inner_text("main h1"))
        page.click("main .actions form button")  # Begin (or Start again)
        page.wait_for_selector("ol.choices", timeout=10000)
        text = page.inner_text("main")
        check("a chapter's script is shown as text", "<script>alert(2)</script>" in text, text[:300])
        src = page.get_attribute("main img", "src") or ""
        check("a javascript: pic_path never becomes a URL of the page", "javascript" not in src.lower(), src)
        page.keyboard.press("1")
        page.wait_for_timeout(500)
        check("no script of the story ran (no dialog opened)", not dialogs, "; ".join(dialogs))
        context.close()

        # Profiles: once another has a place (cyd read --profile bea), a new browser is asked who
        # is reading, and then reads with that profile's places.
        subprocess.run([cyd, "read", "--json", "--library", library, "--profile", "bea", "--name", "Bea", "1"], input="1\nq\n",
                       capture_output=True, text=True, timeout=60)
        context = browser.new_context()
        page = context.new_page()
        page.goto(base)
        check("with another profile, a new browser is asked who is reading", page.url.endswith("/profiles") and "Who is reading" in page.inner_text("main h1"),
              page.url)
        result = axe.run(page, options={"runOnly": {"type": "tag", "values": WCAG}})
        check("axe: no violations on the profile picker", result.violations_count == 0, result.generate_report())
        page.click("ul.profiles button:has-text('bea')")
        wait_until(page, f"location.href === {json.dumps(base)} && !!document.querySelector('main h1')")
        first = page.inner_text(f"ul.stories li:has(a[href='/stories/1'])")
        check("reading as bea: the header says so and story 1 shows bea's place", "Reading as bea" in page.inner_text("header") and "You are at" in first,
              page.inner_text("header") + " / " + first)
        context.close()
        browser.close()
    finish()


def crosssite_checks(link):
    """A keyed link followed from another site: a chat page served on localhost links to the
    reader at 127.0.0.1 (another site: a site is the scheme and host, the port aside)."""
    import http.server
    from playwright.sync_api import sync_playwright

    parsed = urllib.parse.urlparse(link)
    reader = f"{parsed.scheme}://{parsed.netloc}"
    chat = (
        "<!doctype html><html lang=en><title>Chat</title><body><p>Ana: read this with me: "
        f"<a id=link href=\"{link}\">{link}</a></p>"
        f"<form id=forged method=post action=\"{reader}/stories/1/-/restart\"><input name=token value=guess><button>go</button></form>"
        "</body></html>"
    ).encode()

    class Chat(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(chat)))
            self.end_headers()
            self.wfile.write(chat)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Chat)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    chat_url = f"http://localhost:{server.server_address[1]}/chat"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_context().new_page()
        page.goto(chat_url)
        with page.expect_navigation():
            page.click("#link")
        body = page.content()
        check("a keyed link followed from another site lands in the library", "<h1>Stories</h1>" in body and "needs its link" not in body,
              page.url + " " + page.inner_text("main")[:200])
        check("the key left the address", "token=" not in page.url, page.url)
        page.reload()
        check("a reload keeps the reader in", "<h1>Stories</h1>" in page.content(), page.inner_text("main")[:200])
        page.goto(chat_url)
        with page.expect_navigation():
            page.click("#link")
        check("the link followed again from the chat keeps the reader in", "<h1>Stories</h1>" in page.content(), page.inner_text("main")[:200])
        page.goto(reader + "/")
        check("typed in, the address alone keeps the reader in (the key is in the cookie)", "<h1>Stories</h1>" in page.content(), page.inner_text("main")[:200])
        page.goto(chat_url)
        with page.expect_navigation():
            page.click("#forged button")
        check("a form POSTed from the other site changes nothing (403)", "nothing was changed" in page.content() or "needs its link" in page.content(),
              page.inner_text("body")[:200])
        browser.close()
    server.shutdown()
    finish()


def guard_checks(base, token, story, deadline):
    parsed = urllib.parse.urlparse(base)
    host, port = parsed.hostname, parsed.port

    def request(method, path, headers=None, body=None, host_header=None):
        connection = http.client.HTTPConnection(host, port, timeout=15)
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        connection.putheader("Host", host_header or f"{host}:{port}")
        for name, value in (headers or {}).items():
            connection.putheader(name, value)
        if body is not None:
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response, data.decode("utf-8", "replace")

    response, text = request("GET", "/")
    check("without the key: refused (403) in words", response.status == 403 and "needs its link" in text, response.status)
    response, _ = request("GET", "/?token=" + "0" * len(token))
    check("with a wrong key: refused", response.status == 403, response.status)
    response, _ = request("GET", "/?token=" + token)
    cookie = response.getheader("Set-Cookie") or ""
    check("with the key: a redirect that takes it out of the address", response.status == 303 and response.getheader("Location") == "/", response.status)
    # Lax, not Strict: a link to the reader followed from another site (a web chat) is a top-level
    # GET, which must carry the key's cookie; a POST from another site never carries it.
    check("the key goes into an HttpOnly SameSite=Lax cookie", "HttpOnly" in cookie and "SameSite=Lax" in cookie and token in cookie, cookie)
    jar = {"Cookie": "cyd_access=" + token}
    response, page = request("GET", "/", jar)
    check("with the cookie: the library", response.status == 200 and "<h1>Stories</h1>" in page, response.status)
    csp = response.getheader("Content-Security-Policy") or ""
    check("pages forbid inline script", "script-src 'self'" in csp and "unsafe-inline" not in csp.split("script-src")[1].split(";")[0], csp)
    response, page = request("GET", f"/stories/{story}", jar)
    form_token = re.search(r'name="token" value="([0-9a-f]+)"', page)
    check("forms carry an anti-forgery token", form_token is not None, page[:300])
    form_token = form_token.group(1) if form_token else ""

    form = {"Content-Type": "application/x-www-form-urlencoded", **jar}
    response, text = request("POST", f"/stories/{story}/-/restart", form, b"")
    check("a POST without the anti-forgery token changes nothing (403)", response.status == 403 and "nothing was changed" in text, response.status)
    response, _ = request("POST", f"/stories/{story}/-/restart", {**form, "Origin": "http://evil.example"}, f"token={form_token}".encode())
    check("a POST from another origin is refused", response.status == 403, response.status)
    response, _ = request("POST", f"/stories/{story}/-/restart", {**form, "Sec-Fetch-Site": "cross-site"}, f"token={form_token}".encode())
    check("a cross-site POST is refused", response.status == 403, response.status)
    response, _ = request("POST", f"/stories/{story}/-/restart", form, f"token={form_token}".encode())
    check("a POST with the token is answered by a redirect to the chapter", response.status == 303 and f"/stories/{story}/" in (response.getheader("Location") or ""),
          response.status)
    first = urllib.parse.unquote((response.getheader("Location") or "").rsplit("/", 1)[-1])
    response, _ = request("POST", f"/stories/{story}/-/choose", form, f"token={form_token}&from={urllib.parse.quote(first)}&choice=1".encode())
    moved = response.getheader("Location") or ""
    _, page = request("GET", f"/stories/{story}", jar)
    before = re.search(r'class="resume" href="([^"]+)"', page)
    response, page = request("GET", f"/stories/{story}/-/restart", jar)
    check("a GET of Start again only asks", response.status == 200 and "again?" in page and 'action="/stories/' in page, response.status)
    _, page = request("GET", f"/stories/{story}", jar)
    after = re.search(r'class="resume" href="([^"]+)"', page)
    check("a GET never changes the place", before is not None and after is not None and before.group(1) == after.group(1) and before.group(1) in moved,
          (moved, before and before.group(1), after and after.group(1)))

    response, _ = request("GET", "/", jar, host_header="rebind.example:%d" % port)
    check("a Host header naming another host is refused (DNS rebinding)", response.status == 421, response.status)
    response, _ = request("GET", "/", jar, host_header=f"localhost:{port}")
    check("localhost with our port is accepted", response.status == 200, response.status)
    response, _ = request("GET", "/", jar, host_header=f"{host}:{port + 1}")
    check("our address with another port is refused", response.status == 421, response.status)

    # Pipelined requests on one connection: kept pages are answered before the router (on the
    # event loop), made pages after it; the answers come in the order of the requests, each whole.
    sock = socket.create_connection((host, port), timeout=15)
    pipelined = [("/", 200, "<h1>Stories</h1>"), (f"/stories/{story}", 200, 'name="token"'), ("/no-such-page", 404, "Page not found"),
                 ("/", 200, "<h1>Stories</h1>"), (f"/stories/{story}/-/marks", 200, "<h1>"), ("/", 200, "<h1>Stories</h1>")]
    sock.sendall(b"".join(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nCookie: cyd_access={token}\r\n\r\n".encode() for path, _, _ in pipelined))
    buffer = b""

    def next_response():
        nonlocal buffer
        while b"\r\n\r\n" not in buffer:
            chunk = sock.recv(65536)
            if not chunk:
                return None
            buffer += chunk
        head, buffer = buffer.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        fields = {name.strip().lower(): value.strip() for name, value in (line.split(":", 1) for line in lines[1:])}
        length = int(fields.get("content-length", "0"))
        while len(buffer) < length:
            chunk = sock.recv(65536)
            if not chunk:
                return None
            buffer += chunk
        body, buffer = buffer[:length], buffer[length:]
        return int(lines[0].split()[1]), fields, body.decode("utf-8", "replace")

    answers = [next_response() for _ in pipelined]
    sock.close()
    in_order = all(a is not None and a[0] == status and needle in a[2] for a, (_, status, needle) in zip(answers, pipelined))
    check("six pipelined GETs on one connection (kept pages, made pages, a 404) are answered in order, each whole",
          in_order, [(a[0], a[2][:60]) if a else None for a in answers])
    check("a kept page carries the security headers, its length and the date",
          all(a is not None and "script-src 'self'" in a[1].get("content-security-policy", "") and a[1].get("cache-control") == "no-store"
              and re.fullmatch(r"[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT", a[1].get("date", "")) for a in answers if a and a[0] == 200),
          [a[1] for a in answers[:1] if a])
    sock = socket.create_connection((host, port), timeout=15)
    sock.sendall(f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\nCookie: cyd_access={token}\r\nConnection: close\r\n\r\n".encode())
    received = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            break
        received += chunk
    sock.close()
    check("a kept page asked for with Connection: close is answered, then the connection closed", received.startswith(b"HTTP/1.1 200") and b"<h1>Stories</h1>" in received,
          received[:80])

    try:
        response, _ = request("GET", "/", {**jar, "X-Big": "a" * 40000})
        status = response.status
    except (ConnectionError, http.client.RemoteDisconnected, OSError):
        status = "closed"
    check("a 40 KB header is not served", status != 200, status)
    try:
        response, _ = request("POST", f"/stories/{story}/-/note", form, b"token=" + form_token.encode() + b"&text=" + b"a" * 100000)
        status = response.status
    except (ConnectionError, http.client.RemoteDisconnected, OSError):
        status = "closed"
    check("a 100 KB form is refused", status in (413, "closed"), status)

    # A client that sends its request a byte at a time is cut off at the deadline.
    started = time.monotonic()
    sock = socket.create_connection((host, port), timeout=30)
    line = f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\nX-Slow: " + "a" * 200
    closed = False
    for byte in line.encode():
        try:
            sock.send(bytes([byte]))
        except OSError:
            closed = True
            break
        sock.settimeout(0.25)
        try:
            if sock.recv(1) == b"":
                closed = True
                break
        except socket.timeout:
            pass
        if time.monotonic() - started > deadline + 10:
            break
    elapsed = time.monotonic() - started
    sock.close()
    check(f"a client trickling its request is disconnected near the {deadline} s deadline", closed and elapsed < deadline + 3, f"closed={closed} after {elapsed:.1f} s")

    # Many readers at once: every POST answered, none lost, no "database is locked".
    results = []
    lock = threading.Lock()

    def reader(number):
        for step in range(25):
            action = "restart" if step % 5 == 0 else "choose"
            body = f"token={form_token}&choice=1".encode()
            try:
                response, text = request("POST", f"/stories/{story}/-/{action}", form, body)
                outcome = response.status
            except Exception as error:  # noqa: BLE001 - the failure is the finding
                outcome = repr(error)
            with lock:
                results.append(outcome)

    threads = [threading.Thread(target=reader, args=(n,)) for n in range(16)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    bad = [r for r in results if r != 303]
    check(f"400 POSTs from 16 clients at once are all answered ({len(results) / elapsed:.0f}/s)", len(results) == 400 and not bad, bad[:5])
    finish()


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "browser":
        browser_checks(*sys.argv[2:8])
    elif mode == "crosssite":
        crosssite_checks(sys.argv[2])
    elif mode == "guard":
        guard_checks(sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]))
    else:
        sys.exit(f"unknown mode {mode}")
