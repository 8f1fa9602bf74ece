#!/usr/bin/env python3
"""A small HTTP server for cyd's tests, on 127.0.0.1 only. Prints its port, then serves:

  /picture.png          a small PNG (counted)
  /redirect/N           N redirects, then /picture.png
  /status/CODE          that status
  /big/BYTES            a body of BYTES bytes
  /stall/SECONDS        headers, a few bytes, then silence for SECONDS
  /count/PATH           how many times PATH was requested
  /flaky/N/KEY          503 with Retry-After: 0 for the first N requests (per KEY), then 200 "ok"
  /drop/N/KEY           closes the connection without an answer N times (per KEY), then 200 "ok"
  /files/PATH           the file PATH under the folder given with --files DIR (no "..")
  /slowdown             429 with Retry-After: 120 (longer than any client should wait)

With --tls CERT KEY it serves https, and also plain http on a second port (for /count); it
prints both ports.

Every loop is bounded; the server exits when its parent closes standard input.
"""
import http.server, socketserver, ssl, sys, threading, time, zlib, struct, collections

counts = collections.Counter()
FILES = None
lock = threading.Lock()


def png():
    raw = b"".join(b"\x00" + bytes([200, 40, 40]) * 4 for _ in range(4))
    def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 4, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


PNG = png()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, code, body=b"", content_type="application/octet-stream", headers=()):
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        with lock:
            counts[self.path] += 1
        parts = self.path.strip("/").split("/")
        if parts[0] == "picture.png":
            self.send(200, PNG, "image/png")
        elif parts[0] == "redirect" and len(parts) == 2:
            n = int(parts[1])
            self.send(302, headers=[("Location", "/picture.png" if n <= 1 else f"/redirect/{n - 1}")])
        elif parts[0] == "status":
            self.send(int(parts[1]), b"no")
        elif parts[0] == "big":
            self.send(200, b"x" * min(int(parts[1]), 64 * 1024 * 1024))
        elif parts[0] == "stall":
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b"xx")
            self.wfile.flush()
            time.sleep(min(float(parts[1]), 30))
        elif parts[0] in ("flaky", "drop") and len(parts) == 3:
            with lock:
                seen = counts[self.path]
            if seen <= int(parts[1]):
                if parts[0] == "flaky":
                    self.send(503, b"busy", headers=[("Retry-After", "0")])
                else:
                    self.close_connection = True
                    self.connection.shutdown(2)
            else:
                self.send(200, b"ok", "text/plain")
        elif parts[0] == "files" and FILES and ".." not in parts:
            import os, urllib.parse
            path = os.path.join(FILES, *[urllib.parse.unquote(p) for p in parts[1:]])
            if os.path.isfile(path):
                import hashlib
                with open(path, "rb") as f:
                    body = f.read()
                # A validator, as static hosts give one: a 304 when the client already has it.
                tag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
                if self.headers.get("If-None-Match") == tag:
                    self.send_response(304)
                    self.send_header("ETag", tag)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                else:
                    self.send(200, body, "image/png" if path.endswith(".png") else "application/json", headers=[("ETag", tag)])
            else:
                self.send(404, b"not found")
        elif parts[0] == "late" and len(parts) == 3 and FILES and ".." not in parts:
            # /late/SECONDS/NAME: a file from --files, sent after a wait (a picture on a slow line).
            import os
            time.sleep(min(float(parts[1]), 30))
            with open(os.path.join(FILES, parts[2]), "rb") as f:
                self.send(200, f.read(), "image/png")
        elif parts[0] == "slowdown":
            self.send(429, b"slow down", headers=[("Retry-After", "120")])
        elif parts[0] == "count":
            with lock:
                n = counts["/" + "/".join(parts[1:])]
            self.send(200, str(n).encode(), "text/plain")
        else:
            self.send(404, b"not found")


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        # A client that hangs up mid-answer (a size limit, a timeout) is what many tests do on
        # purpose; that is not an error of the server's. Anything else is still reported.
        error = sys.exc_info()[1]
        if isinstance(error, (ConnectionError, ssl.SSLError, TimeoutError)):
            return
        super().handle_error(request, client_address)


def main():
    global FILES
    args = sys.argv[1:]
    tls = None
    if "--files" in args:
        at = args.index("--files")
        FILES = args[at + 1]
        del args[at:at + 2]
    if len(args) == 3 and args[0] == "--tls":
        tls = (args[1], args[2])
    servers = [Server(("127.0.0.1", 0), Handler)]
    if tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(tls[0], tls[1])
        servers[0].socket = context.wrap_socket(servers[0].socket, server_side=True)
        servers.append(Server(("127.0.0.1", 0), Handler))
    print(" ".join(str(s.server_address[1]) for s in servers), flush=True)
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()  # until the test closes our input (or dies)
    for server in servers:
        server.shutdown()


if __name__ == "__main__":
    main()
