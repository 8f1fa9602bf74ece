#!/usr/bin/env python3
"""A git:// server on 127.0.0.1 that misbehaves on purpose, for the network-limit tests.

usage: hostile_git_server.py MODE [PORTFILE]
  prints the port it listens on (or writes it to PORTFILE), then serves until killed
  endless-refs  advertises refs without end (a client must stop at its advertisement limit)
  trickle       sends a valid advertisement one byte a second
  many-refs     advertises 20,000 branches (a finite list, over the default count limit)
  garbage       answers with random bytes, then closes
  huge-pack     advertises one branch, then sends a pack declaring 100 million objects,
                followed by an endless stream of small objects
Every loop is bounded (at most 300 s or 2 GB per connection); nothing leaves 127.0.0.1.
"""
import os
import socket
import struct
import sys
import threading
import time
import zlib

OID = "1" * 40


def pkt(text):
    data = text.encode() if isinstance(text, str) else text
    return b"%04x" % (len(data) + 4) + data


def read_pkt(conn):
    header = b""
    while len(header) < 4:
        chunk = conn.recv(4 - len(header))
        if not chunk:
            return None
        header += chunk
    length = int(header, 16)
    if length == 0:
        return b""
    data = b""
    while len(data) < length - 4:
        chunk = conn.recv(length - 4 - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def serve(conn, mode):
    started = time.monotonic()
    try:
        read_pkt(conn)  # git-upload-pack /path\0host=...\0
        if mode == "endless-refs":
            conn.sendall(pkt(f"{OID} HEAD\0symref=HEAD:refs/heads/main\n"))
            sent, n = 0, 0
            batch = b"".join(pkt(f"{OID} refs/heads/branch-{i:09d}\n") for i in range(1000))
            while time.monotonic() - started < 300 and sent < 2 << 30:
                conn.sendall(batch)
                sent += len(batch)
                n += 1
        elif mode == "many-refs":
            conn.sendall(pkt(f"{OID} HEAD\0symref=HEAD:refs/heads/main\n"))
            conn.sendall(b"".join(pkt(f"{OID} refs/heads/branch-{i:06d}\n") for i in range(20000)) + b"0000")
            read_pkt(conn)
        elif mode == "trickle":
            data = pkt(f"{OID} HEAD\0\n") + pkt(f"{OID} refs/heads/main\n") + b"0000"
            for byte in (data * 100)[:300]:
                conn.sendall(bytes([byte]))
                time.sleep(1)
        elif mode == "garbage":
            conn.sendall(os.urandom(1 << 20))
        elif mode == "huge-pack":
            conn.sendall(pkt(f"{OID} HEAD\0symref=HEAD:refs/heads/main\n") + pkt(f"{OID} refs/heads/main\n") + b"0000")
            while True:  # wants, then "done"
                line = read_pkt(conn)
                if line is None or line.startswith(b"done"):
                    break
            conn.sendall(pkt("NAK\n"))
            conn.sendall(b"PACK" + struct.pack(">II", 2, 100_000_000))
            body = b"x" * 10
            obj = bytes([0x30 | len(body)]) + zlib.compress(body)  # a blob of 10 bytes
            batch = obj * 10000
            sent = 0
            while time.monotonic() - started < 300 and sent < 2 << 30:
                conn.sendall(batch)
                sent += len(batch)
    except (BrokenPipeError, ConnectionResetError, OSError):
        pass
    finally:
        conn.close()


def main():
    mode = sys.argv[1]
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    port = server.getsockname()[1]
    if len(sys.argv) > 2:
        with open(sys.argv[2] + ".tmp", "w") as out:
            out.write(str(port))
        os.rename(sys.argv[2] + ".tmp", sys.argv[2])
    else:
        print(port, flush=True)
    deadline = time.monotonic() + 600
    server.settimeout(1)
    while time.monotonic() < deadline:
        try:
            conn, _ = server.accept()
        except socket.timeout:
            continue
        threading.Thread(target=serve, args=(conn, mode), daemon=True).start()


if __name__ == "__main__":
    main()
