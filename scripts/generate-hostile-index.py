#!/usr/bin/env python3
"""Writes the hostile-index corpus: published catalogue indexes made to crash, hang, exhaust or
fool a reader's `cyd sync --catalogue`. Each NAME.json attacks one way; HostileIndexTests says
what each must end in.

usage: generate-hostile-index.py OUTPUT_DIR [--scale S]
  --scale S  multiplies the sizes (1.0: 100,000 entries, 1,000,000-deep nesting).
"""
import argparse
import json
import os

COMMIT = "0123456789abcdef0123456789abcdef01234567"


def entry(author, repository, url=None, **extra):
    e = {"author": author, "repository": repository, "url": url or f"https://example.org/{author}/{repository}.git",
         "commit": COMMIT, "story_id": "s", "title": f"T {repository}", "rating": "G", "summary": "s", "chapters": 3}
    e.update(extra)
    return e


def index(stories, **extra):
    return {"cyd_catalogue_index": 1, "generated_at": 1, "stories": stories, **extra}


def cases(scale):
    n = max(100, int(100_000 * scale))
    depth = max(1000, int(1_000_000 * scale))
    yield "many-entries", json.dumps(index([entry(f"a{i % 10_000}", f"s{i}") for i in range(n)]))
    yield "deep-before-marker", '{"padding": ' + "[" * depth + "]" * depth + ', "cyd_catalogue_index": 1, "stories": []}'
    yield "deep-inside-entry", json.dumps(index([entry("ana", "tide")]))[:-2] + ', {"author": ' + "[" * depth + "]" * depth + "}]}"
    yield "hostile-urls", json.dumps(index([entry("ana", "tide")] + [
        entry("bad", f"u{i}", url=u or " ") for i, u in enumerate([
            "file:///etc/passwd", "ext::sh -c touch% /tmp/cyd-pwned", "-oProxyCommand=touch /tmp/cyd-pwned", "http://example.org/x.git",
            "ssh://-oProxyCommand=x/y", "https://example.org/x.git\n\u001b[2J", "fd::3", ""])]))
    yield "hostile-names", json.dumps(index([entry("ana", "tide")] + [
        entry(a, r) for a, r in [("..", "x"), ("a", ".."), ("a/b", "c"), ("nul\u0000x", "r"), ("esc\u001b[31m", "r"),
                                 ("bidi\u202eevil", "r"), ("a" * 500, "r"), ("", "r"), ("c1\u0085", "r")]]))
    yield "duplicate-ids", json.dumps(index([entry("ana", "tide")] + [entry("dup" if i % 2 else "DUP", "same", url=f"https://example.org/dup/{i}.git") for i in range(max(10, n // 100))]))
    yield "numbers", json.dumps(index([entry("ana", "tide")]))[:-2] + "".join(
        f', {{"author": "n{i}", "repository": "r", "url": "https://example.org/n{i}.git", "commit": "{COMMIT}", "story_id": "s", "title": "t", "rating": "G", "summary": "s", "chapters": {v}}}'
        for i, v in enumerate(["1e19", "-1e19", "9223372036854775808", "1e308", "-1", "1.5", '"3"', "null", "[]"])) + "]}"
    yield "not-objects", json.dumps(index([entry("ana", "tide"), 1, "x", None, [], True]))
    yield "huge-strings", json.dumps(index([entry("ana", "tide", title="T" * int(4_000_000 * scale + 1000), summary="\u001b]0;x\u0007" * 1000)]))
    yield "wrong-version", json.dumps({"cyd_catalogue_index": 2, "stories": []})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("output")
    parser.add_argument("--scale", type=float, default=1.0)
    args = parser.parse_args()
    os.makedirs(args.output, exist_ok=True)
    for name, text in cases(args.scale):
        with open(os.path.join(args.output, name + ".json"), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
