#!/usr/bin/env python3
"""Writes the large files of the hostile corpus (Tests/Fixtures/hostile/ holds the small ones).

Each file attacks one way a validator can fall over: depth, size, one huge line, floods of
findings, quadratic shapes, invalid bytes. Beside each NAME.json it writes clean-NAME.json, a
valid story of about the same size, so a test can bound the hostile file's cost by the clean
one's ("at most 10 times a clean file of the same size") on any machine.

usage: generate-hostile.py OUTPUT_DIR [--scale S] [--only NAME ...]
  --scale S  multiplies the sizes (1.0: the sizes the issue names, e.g. 1M tiny chapters,
             100k choices in one chapter; the test suite uses a smaller scale).
"""
import argparse
import json
import os
import random

WORDS = "tide rope gull salt fog bell stair lamp reef moon door key candle storm".split()


def story(chapters, **extra):
    return {"story": {"id": "hostile", "name": "A hostile story", "rating": "G", "summary": "Made to break things", "chapters": chapters, **extra}}


def chapter(cid, text="Plain text.", first=False, choices=None):
    c = {"id": cid, "name": "Chapter " + cid, "text": text}
    if first:
        c["is_first_chapter"] = True
    if choices:
        c["choices"] = [{"chapter_id": t, "text": "Go to " + t} for t in choices]
    return c


def chain(n, prefix="c", text="Plain text."):
    """n chapters in a line, the last an ending: valid, every chapter reachable."""
    return [chapter(f"{prefix}{i}", text, first=i == 0, choices=[f"{prefix}{i + 1}"] if i < n - 1 else None) for i in range(n)]


def dump(value, minified=False):
    if minified:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()
    return json.dumps(value, indent=2, ensure_ascii=False).encode()


def clean_of_size(size):
    """A valid story of about `size` bytes (indented)."""
    rng = random.Random(1)
    text = " ".join(rng.choice(WORDS) for _ in range(60))
    per = len(dump(chapter("c0", text, choices=["c1"]))) + 8
    return dump(story(chain(max(2, size // per), text=text)))


def cases(scale):
    s = lambda n: max(2, int(n * scale))
    yield "nesting-10k", b"[" * 10_000 + b"]" * 10_000
    yield "nesting-1m", b"[" * s(1_000_000) + b"]" * s(1_000_000)
    yield "unterminated-string", b'{"story": {"id": "' + b"x" * s(20_000_000)
    # One line: a minified story whose chapters point at chapters that do not exist.
    chapters = chain(s(100_000))
    for c in chapters[1::50]:
        c["choices"] = [{"chapter_id": c["id"] + "-missing", "text": "Nowhere"}]
    yield "minified-with-findings", dump(story(chapters), minified=True)
    yield "megabyte-text-line", dump(story([chapter("a", "word " * s(1_000_000), first=True)]))
    yield "tiny-chapters", dump(story(chain(s(1_000_000))), minified=True)
    dup = chain(s(20_000))
    yield "all-ids-duplicated", dump(story(dup + [chapter(c["id"]) for c in dup]))
    n = s(20_000)
    yield "misspelt-targets", dump(story([chapter("start", first=True, choices=[f"chapter-{i % n:06d}x" for i in range(s(50_000))])] + [chapter(f"chapter-{i:06d}") for i in range(n)]))
    yield "escape-flood", dump(story([chapter("a", "\u001b[31m\u202e" * s(100_000), first=True)]))
    yield "many-choices", dump(story([chapter("a", first=True, choices=[f"b{i}" for i in range(s(100_000))])] + [chapter(f"b{i}") for i in range(s(100_000))]))
    yield "unreachable-flood", dump(story([chapter("start", first=True)] + [chapter(f"lost{i}") for i in range(s(200_000))]))
    # Invalid UTF-8 in every string: a lone continuation byte, an overlong form, a surrogate.
    body = dump(story(chain(s(20_000), text="caf\u00e9 BAD")))
    yield "invalid-utf8-everywhere", body.replace(b"BAD", b"\x80\xc0\xaf\xed\xa0\x80")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("output")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--only", nargs="*")
    args = parser.parse_args()
    os.makedirs(args.output, exist_ok=True)
    for name, data in cases(args.scale):
        if args.only and name not in args.only:
            continue
        with open(os.path.join(args.output, name + ".json"), "wb") as out:
            out.write(data)
        with open(os.path.join(args.output, "clean-" + name + ".json"), "wb") as out:
            out.write(clean_of_size(len(data)))
        print(f"{name}.json {len(data)} bytes")


if __name__ == "__main__":
    main()
