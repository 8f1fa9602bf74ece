#!/usr/bin/env python3
"""A stand-in for a code forge, for cyd's sync tests, on 127.0.0.1 only.

usage: forge_server.py CONFIG.json GIT_ROOT

Prints "HTTP_PORT STALL_PORT" and serves on HTTP_PORT:

  GitHub's REST API, in the documented response shapes, from CONFIG.json (read on every request
  so a test can change it):
    {"users": {"alice": [{"name": "tide", "clone_url": "...", "pushed_at": "...", "fork": false,
                          "size": 12, "readme": "text, or null for none"}]},
     "page_size": 100,                 # repositories a page (to force pagination)
     "rate_limited": false}            # answer every API call 403 with x-ratelimit-remaining: 0
    GET /users/USER/repos?per_page=N&page=P   paginated with a Link header (rel="next", "last"),
                                              an ETag, and 304 for a matching If-None-Match
    GET /repos/OWNER/REPO/readme              {"content": base64, "encoding": "base64", ...} or 404

  Smart HTTP git: /git/NAME.git/... runs `git http-backend` over GIT_ROOT (CGI).

  /error/...         500 for anything (a broken server)

  /_count?key=KEY    how many requests matched KEY: "GET /users/alice/repos" (any query),
                     "304 /users/alice/repos", "POST /git/NAME.git/git-upload-pack",
                     "AUTH /users/alice/repos" (requests that carried a token), ...

STALL_PORT accepts connections and never says a word (a stalled git server).

Every loop is bounded; the server exits when its parent closes standard input.
"""
import base64, collections, hashlib, json, os, socket, subprocess, sys, threading, time, urllib.parse

import http_server  # beside this file: the quiet handler and the threading server

CONFIG, GIT_ROOT = sys.argv[1], sys.argv[2]
counts = collections.Counter()
lock = threading.Lock()


def count(key):
    with lock:
        counts[key] += 1


class Handler(http_server.Handler):
    """The plain test server's quiet HTTP/1.1 handler, with the forge's own routes; every answer
    is counted by status and path."""

    def send(self, code, body=b"", content_type="application/json; charset=utf-8", headers=()):
        super().send(code, body, content_type, headers)
        count(f"{code} {urllib.parse.urlsplit(self.path).path}")

    def config(self):
        with open(CONFIG) as f:
            return json.load(f)

    def body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            data = b""
            for _ in range(1 << 20):
                size = int(self.rfile.readline().strip().split(b";")[0], 16)
                if size == 0:
                    self.rfile.readline()
                    break
                data += self.rfile.read(size)
                self.rfile.readline()
            return data
        return self.rfile.read(int(self.headers.get("Content-Length", "0") or 0))

    def do_GET(self):
        self.route("GET", b"")

    def do_POST(self):
        self.route("POST", self.body())

    def route(self, method, body):
        url = urllib.parse.urlsplit(self.path)
        count(f"{method} {url.path}")
        parts = url.path.strip("/").split("/")
        if parts[0] == "_count":
            key = urllib.parse.parse_qs(url.query).get("key", [""])[0]
            with lock:
                n = counts[key]
            return self.send(200, str(n).encode(), "text/plain")
        if parts[0] == "git":
            return self.git(method, url, body)
        if parts[0] == "error":
            return self.send(500, b"internal error", "text/plain")
        if self.headers.get("Authorization"):
            count(f"AUTH {url.path}")
        config = self.config()
        if config.get("rate_limited"):
            reset = int(time.time()) + 1800
            return self.send(403, json.dumps({
                "message": "API rate limit exceeded for 127.0.0.1. (But here's the good news: Authenticated requests get a higher rate limit.)",
                "documentation_url": "https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting"}).encode(),
                headers=[("x-ratelimit-limit", "60"), ("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", str(reset)),
                         ("x-ratelimit-used", "60"), ("x-ratelimit-resource", "core")])
        limits = [("x-ratelimit-limit", "60"), ("x-ratelimit-remaining", "59"), ("x-ratelimit-resource", "core")]
        if len(parts) == 3 and parts[0] == "users" and parts[2] == "repos":
            user = parts[1]
            if user not in config.get("users", {}):
                return self.send(404, b'{"message": "Not Found", "documentation_url": "https://docs.github.com/rest/repos/repos#list-repositories-for-a-user"}')
            repos = sorted(config["users"][user], key=lambda r: r["name"].lower())
            query = urllib.parse.parse_qs(url.query)
            size = min(int(query.get("per_page", ["30"])[0]), int(config.get("page_size", 100)))
            page = int(query.get("page", ["1"])[0])
            last = max(1, (len(repos) + size - 1) // size)
            items = [self.repository(user, r) for r in repos[(page - 1) * size: page * size]]
            payload = json.dumps(items).encode()
            links = []
            base = f"http://{self.headers.get('Host')}/users/{user}/repos?per_page={size}"
            if page < last:
                links.append(f'<{base}&page={page + 1}>; rel="next"')
                links.append(f'<{base}&page={last}>; rel="last"')
            if page > 1:
                links.append(f'<{base}&page=1>; rel="first"')
                links.append(f'<{base}&page={page - 1}>; rel="prev"')
            return self.cached(payload, limits + ([("Link", ", ".join(links))] if links else []))
        if len(parts) == 4 and parts[0] == "repos" and parts[3] == "readme":
            owner, name = parts[1], parts[2]
            repo = next((r for r in config.get("users", {}).get(owner, []) if r["name"] == name), None)
            if repo is None or repo.get("readme") is None:
                return self.send(404, b'{"message": "Not Found", "documentation_url": "https://docs.github.com/rest/repos/contents#get-a-repository-readme"}')
            text = repo["readme"].encode()
            encoded = base64.encodebytes(text).decode()  # GitHub wraps the base64 at 60 columns, with newlines
            return self.cached(json.dumps({
                "type": "file", "encoding": "base64", "size": len(text), "name": "README.md", "path": "README.md",
                "content": encoded, "sha": hashlib.sha1(text).hexdigest()}).encode(), limits)
        self.send(404, b'{"message": "Not Found"}')

    def repository(self, owner, repo):
        return {
            "id": int(hashlib.sha1(f"{owner}/{repo['name']}".encode()).hexdigest()[:8], 16),
            "name": repo["name"], "full_name": f"{owner}/{repo['name']}", "private": False,
            "owner": {"login": owner, "type": "User"}, "html_url": f"https://github.example/{owner}/{repo['name']}",
            "fork": repo.get("fork", False), "archived": repo.get("archived", False), "size": repo.get("size", 1),
            "default_branch": "main", "pushed_at": repo.get("pushed_at", "2026-01-01T00:00:00Z"),
            "clone_url": repo["clone_url"], "git_url": repo["clone_url"], "topics": [],
        }

    def cached(self, payload, headers):
        etag = '"' + hashlib.sha1(payload).hexdigest() + '"'
        if self.headers.get("If-None-Match") == etag:
            self.send_response(304)
            self.send_header("ETag", etag)
            for name, value in headers:
                if name != "Link":  # a 304 need not repeat it: the client keeps it with the cached body
                    self.send_header(name, value)
            self.send_header("Content-Length", "0")
            self.end_headers()
            count(f"304 {urllib.parse.urlsplit(self.path).path}")
            return
        self.send(200, payload, headers=[("ETag", etag)] + headers)

    def git(self, method, url, body):
        env = dict(os.environ)
        env.update({
            "GIT_PROJECT_ROOT": GIT_ROOT, "GIT_HTTP_EXPORT_ALL": "1", "REQUEST_METHOD": method,
            "PATH_INFO": url.path[len("/git"):], "QUERY_STRING": url.query, "REMOTE_ADDR": "127.0.0.1",
            "CONTENT_TYPE": self.headers.get("Content-Type", ""), "CONTENT_LENGTH": str(len(body)),
            "GIT_PROTOCOL": self.headers.get("Git-Protocol", ""),
        })
        result = subprocess.run(["git", "http-backend"], input=body, env=env, capture_output=True, timeout=60)
        head, _, payload = result.stdout.partition(b"\r\n\r\n")
        if not _:
            head, _, payload = result.stdout.partition(b"\n\n")
        status, headers = 200, []
        for line in head.decode("latin-1").splitlines():
            name, _, value = line.partition(":")
            if name.lower() == "status":
                status = int(value.strip().split()[0])
            elif name:
                headers.append((name, value.strip()))
        headers = [(n, v) for n, v in headers if n.lower() not in ("content-length", "content-type")]
        content_type = next((v for n, v in self.cgi_headers(head) if n.lower() == "content-type"), "text/plain")
        self.send(status, payload, content_type, headers)

    @staticmethod
    def cgi_headers(head):
        for line in head.decode("latin-1").splitlines():
            name, _, value = line.partition(":")
            yield name, value.strip()


def stall(listener):
    held = []
    for _ in range(256):  # bounded: at most 256 connections are held open, in silence
        try:
            connection, _ = listener.accept()
        except OSError:
            return
        held.append(connection)


def main():
    server = http_server.Server(("127.0.0.1", 0), Handler)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    print(server.server_address[1], listener.getsockname()[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    threading.Thread(target=stall, args=(listener,), daemon=True).start()
    sys.stdin.read()  # until the test closes our input (or dies)
    server.shutdown()


if __name__ == "__main__":
    main()
