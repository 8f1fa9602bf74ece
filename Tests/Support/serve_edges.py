"""`cyd serve` at the edges a real reader or an attacker reaches, over raw HTTP.

usage:
  serve_edges.py edges BASE_URL STORY_ID
  serve_edges.py memory BASE_URL STORY_ID SERVER_PID

`edges` needs the story Tests/CydTests/ServeEdgeTests.swift writes: a first chapter `start`
whose choices lead, in order, to chapters with the ids "tab<TAB>here", "..", ".", "-", "~x" and
"big" (3 MB of text). It checks that hidden form values come back exactly (choices, bookmarks,
profiles from a chapter whose id holds a tab), that every id has an address, HEAD, HTTP/1.0
without keep-alive, absolute-form targets, two Host headers, and a profile cookie set by a page
on another port of 127.0.0.1.
`memory` opens 200 connections that ask for the 3 MB chapter with queries of their own and never
read, and checks the server's memory (VmRSS of SERVER_PID) while they wait and after they close,
and that another reader is answered meanwhile.
Prints one line per check; exits 1 when one fails, naming it.
"""

import html
import http.client
import re
import socket
import sys
import time
import urllib.parse

from checks import check, finish


class Client:
    """A browser's cookie jar and its requests, on one host and port."""

    def __init__(self, base):
        parsed = urllib.parse.urlparse(base)
        self.host, self.port = parsed.hostname, parsed.port
        self.cookies = {}

    def request(self, method, path, fields=None, headers=None):
        connection = http.client.HTTPConnection(self.host, self.port, timeout=20)
        body = urllib.parse.urlencode(fields) if fields is not None else None
        all_headers = {"Host": f"{self.host}:{self.port}"}
        if self.cookies:
            all_headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if body is not None:
            all_headers["Content-Type"] = "application/x-www-form-urlencoded"
            all_headers["Origin"] = f"http://{self.host}:{self.port}"
        all_headers.update(headers or {})
        connection.request(method, path, body=body, headers=all_headers)
        response = connection.getresponse()
        data = response.read().decode("utf-8", "replace")
        for value in response.headers.get_all("Set-Cookie") or []:
            name, rest = value.split("=", 1)
            self.cookies[name] = rest.split(";", 1)[0]
        connection.close()
        return response, data

    def follow(self, method, path, fields=None):
        response, data = self.request(method, path, fields)
        hops = 0
        while response.status in (301, 302, 303) and hops < 5:
            path = urllib.parse.urljoin(path, response.getheader("Location"))
            response, data = self.request("GET", urllib.parse.urlparse(path).path + ("?" + urllib.parse.urlparse(path).query if urllib.parse.urlparse(path).query else ""))
            hops += 1
        return response, data, path


def hidden(page, name):
    """Every value of the hidden field `name`, as a browser reads it from the page."""
    return [html.unescape(m) for m in re.findall(r'<input type="hidden" name="' + re.escape(name) + r'" value="([^"]*)"', page)]


def token(page):
    return hidden(page, "token")[0]


def raw(host, port, data, wait=3.0):
    """Sends bytes as they are; what came back before the server closed or `wait` passed, and
    whether it closed."""
    sock = socket.create_connection((host, port), timeout=wait)
    sock.sendall(data)
    received = b""
    closed = False
    deadline = time.monotonic() + wait
    try:
        while time.monotonic() < deadline:
            chunk = sock.recv(65536)
            if not chunk:
                closed = True
                break
            received += chunk
    except socket.timeout:
        pass
    sock.close()
    return received, closed


def edges(base, story):
    browser = Client(base)
    host, port = browser.host, browser.port
    response, start, _ = browser.follow("POST", f"/stories/{story}/-/restart", {"token": token(browser.request("GET", f"/stories/{story}")[1])})
    check("the story begins at its first chapter", response.status == 200 and "Begin." in start, response.status)
    form_token = token(start)

    # 1. Hidden values come back exactly.
    response, tab_page, tab_url = browser.follow("POST", f"/stories/{story}/-/choose", {"token": form_token, "from": hidden(start, "from")[0], "choice": "1"})
    check("the chapter whose id holds a tab is shown", response.status == 200 and "Here: tab" in tab_page, tab_page[:300])
    carried = hidden(tab_page, "from")
    check("its hidden 'from' field holds no caret form of the tab", carried and "^I" not in carried[0], carried)
    response, back, _ = browser.follow("POST", f"/stories/{story}/-/choose", {"token": form_token, "from": carried[0], "choice": "1"})
    check("a choice from it is taken (not 'that chapter is no longer in the story')", response.status == 200 and "Begin." in back and "no longer in the story" not in back, back[:400])
    browser.follow("POST", f"/stories/{story}/-/choose", {"token": form_token, "from": "start", "choice": "1"})
    response, marked, _ = browser.follow("POST", f"/stories/{story}/-/bookmark", {"token": form_token, "from": carried[0], "name": "by the tab"})
    browser.follow("POST", f"/stories/{story}/-/note", {"token": form_token, "from": carried[0], "text": "a note by the tab"})
    _, marks = browser.request("GET", f"/stories/{story}/-/marks")
    check("the bookmark and the note are on the tab's chapter", marks.count("Chapter &#39;tab") + marks.count("Chapter 'tab") >= 2 or marks.count("tab\\there") >= 2, marks[:1500])
    names = hidden(marks, "bookmark")
    response, after, _ = browser.follow("POST", f"/stories/{story}/-/unmark", {"token": form_token, "bookmark": names[0] if names else ""})
    check("Remove removes the bookmark whose row it is on", "Bookmark removed." in after and not hidden(after, "bookmark"), after[:1500])
    # 2. Every id has an address: choices 2-5 lead to "..", ".", "-", "~x".
    for number, chapter in [(2, ".."), (3, "."), (4, "-"), (5, "~x")]:
        response, _ = browser.request("POST", f"/stories/{story}/-/choose", {"token": form_token, "from": "start", "choice": str(number)})
        location = response.getheader("Location") or ""
        resolved = urllib.parse.urlparse(urllib.parse.urljoin(base, location)).path
        response, page = browser.request("GET", resolved)
        check(f"the chapter with id {chapter!r} has an address a browser keeps ({location})", response.status == 200 and f"Here: {html.escape(chapter)}" in page,
              f"{response.status} {resolved} {page[:200]}")
        browser.request("POST", f"/stories/{story}/-/choose", {"token": form_token, "from": chapter, "choice": "1"})

    # 5. HEAD.
    get, body = browser.request("GET", f"/stories/{story}")
    connection = http.client.HTTPConnection(host, port, timeout=10)
    connection.request("HEAD", f"/stories/{story}", headers={"Cookie": "; ".join(f"{k}={v}" for k, v in browser.cookies.items())})
    head = connection.getresponse()
    head_body = head.read()
    connection.close()
    check("HEAD is answered as GET is, without the body", head.status == 200 and head_body == b"" and head.getheader("Content-Length") == str(len(body.encode())),
          f"{head.status} {head.getheader('Content-Length')} vs {len(body.encode())}")
    check("HEAD of an address with no page is 404", browser.request("HEAD", "/nothing-here")[0].status == 404)

    # 4. HTTP/1.0 without keep-alive: closed once answered, not at the idle timeout.
    began = time.monotonic()
    received, closed = raw(host, port, f"GET /stories/{story} HTTP/1.0\r\nHost: {host}:{port}\r\n\r\n".encode(), wait=8)
    elapsed = time.monotonic() - began
    check(f"an HTTP/1.0 request without keep-alive is answered and its connection closed at once ({elapsed:.2f} s)",
          received.startswith(b"HTTP/1.1 200") and closed and elapsed < 2, f"closed={closed} {received[:80]!r}")
    began = time.monotonic()
    received, closed = raw(host, port, f"GET /stories/{story} HTTP/1.0\r\nHost: {host}:{port}\r\nConnection: keep-alive\r\n\r\n".encode(), wait=1.5)
    check("an HTTP/1.0 request that asks for keep-alive keeps its connection", received.startswith(b"HTTP/1.1 200") and not closed, f"closed={closed}")

    # 6. Absolute-form targets and two Host headers.
    received, _ = raw(host, port, f"GET http://evil.example/stories/{story} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode())
    check("an absolute-form target naming another host is refused", received.split(b"\r\n")[0] in (b"HTTP/1.1 421 Misdirected Request", b"HTTP/1.1 400 Bad Request"), received[:80])
    received, _ = raw(host, port, f"GET http://{host}:{port}/stories/{story} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode())
    check("an absolute-form target naming this server is answered", received.startswith(b"HTTP/1.1 200"), received[:80])
    received, _ = raw(host, port, f"GET /stories/{story} HTTP/1.1\r\nHost: {host}:{port}\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode())
    check("a request with two Host headers is 400", received.startswith(b"HTTP/1.1 400"), received[:80])
    received, _ = raw(host, port, f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\nHost: evil.example\r\nConnection: close\r\n\r\n".encode())
    check("two Host headers, the second another host: 400", received.startswith(b"HTTP/1.1 400"), received[:80])

    # 1, again: a profile whose name holds a tab (last: once a second profile exists, a browser
    # that has not chosen is asked who is reading): picked from the list, it is the same profile.
    typed = Client(base)
    typed.request("POST", "/profiles", {"token": form_token, "profile": "tab\there"})
    typed_cookie = typed.cookies.get("cyd_profile")
    typed.request("POST", f"/stories/{story}/-/restart", {"token": form_token})  # the profile is in the library once it has read
    _, picker = typed.request("GET", "/profiles")
    chosen = [v for v in hidden(picker, "chosen") if v.startswith("tab")]
    picked = Client(base)
    picked.request("POST", "/profiles", {"token": form_token, "chosen": chosen[0] if chosen else ""})
    check("a profile picked from the list is the profile of that name, not a new one", typed_cookie and picked.cookies.get("cyd_profile") == typed_cookie,
          f"{typed_cookie} vs {picked.cookies.get('cyd_profile')}")

    # 7. A cookie set by a page on another port (document.cookie cannot be bound to a port).
    for forged in ["cyd_profile=attacker", "cyd_profile=attacker.00000000000000000000000000000000", "cyd_profile=tab%09here"]:
        stranger = Client(base)
        response, page = stranger.request("GET", "/", headers={"Cookie": forged})
        check(f"a profile cookie this server did not make is not read ({forged})",
              "Reading as <strong>attacker" not in page and "Reading as <strong>tab" not in page and (response.status == 303 or "Reading as" in page), f"{response.status} {page[:300]}")
    finish()


def rss(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) // 1024
    return 0


def memory(base, story, pid):
    parsed = urllib.parse.urlparse(base)
    host, port = parsed.hostname, parsed.port
    reader = Client(base)
    reader.request("GET", f"/stories/{story}/big")
    before = rss(pid)
    sockets = []
    for number in range(200):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect((host, port))
        sock.sendall(f"GET /stories/{story}/big?unique={number} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
        sockets.append(sock)
    peak = before
    answered = None
    began = time.monotonic()
    while time.monotonic() - began < 4:
        peak = max(peak, rss(pid))
        if answered is None:
            start = time.monotonic()
            try:
                response, page = Client(base).request("GET", f"/stories/{story}")
                answered = (response.status, time.monotonic() - start)
            except OSError as error:
                answered = (str(error), time.monotonic() - start)
        time.sleep(0.2)
    for sock in sockets:
        sock.close()
    time.sleep(3)
    after = rss(pid)
    print(f"server memory: {before} MB before, {peak} MB with 200 readers that never read, {after} MB after they closed", flush=True)
    check(f"200 readers that never read a 3 MB chapter hold at most 120 MB more ({peak - before} MB)", peak - before <= 120, f"{before} -> {peak}")
    # A starved server does not answer at all (the client gives up after its timeout); under a
    # loaded machine an answer can take seconds, which is not what this checks.
    check("another reader is answered meanwhile, within 15 s", answered is not None and answered[0] == 200 and answered[1] < 15, answered)
    check(f"memory comes back once they close ({after} MB, {before} MB before)", after - before <= 60, f"{before} -> {after}")
    finish()


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "edges":
        edges(sys.argv[2], sys.argv[3])
    elif mode == "memory":
        memory(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        sys.exit(f"unknown mode {mode}")
