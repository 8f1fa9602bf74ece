#!/usr/bin/env python3
"""Writes a valid story.json with N chapters, for benchmarks.

Every chapter is reachable and every path reaches an ending, so `cyd validate` runs all of its
rules over the whole file and finds nothing. About 750 bytes a chapter: 100,000 chapters make
a file of about 75 MB. Deterministic for a given N and seed.

With --flaws N the story is broken on purpose, for the bad-day benchmark: N choices lead to
misspelt chapter ids (each has one close match, so every finding carries a suggestion) and N
chapters are orphans that nothing leads to. The file stays about the same size.

usage: generate-story.py CHAPTERS OUTPUT [--seed N] [--pictures] [--flaws N]
"""
import argparse
import json
import random

WORDS = (
    "harbour lantern tide rope gull salt fog bell keeper ledger stair window oar current "
    "shadow lamp compass chart wind reef moon cellar door key whisper letter candle storm "
    "quiet narrow old bright cold warm distant hidden broken silver wet heavy sudden "
    "walks waits listens opens climbs follows turns watches answers counts remembers"
).split()


def sentence(rng):
    words = [rng.choice(WORDS) for _ in range(rng.randint(6, 13))]
    return " ".join(words).capitalize() + "."


def paragraph(rng):
    return " ".join(sentence(rng) for _ in range(rng.randint(2, 3)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("chapters", type=int)
    parser.add_argument("output")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--pictures", action="store_true", help="give every tenth chapter a picture")
    parser.add_argument("--flaws", type=int, default=0, help="misspelt choice targets and orphan chapters")
    parser.add_argument("--long-texts", type=int, default=0, metavar="PARAGRAPHS",
                        help="chapters of this many paragraphs with curly quotes, dashes and accents, as written stories have")
    parser.add_argument("--warnings", type=int, default=0, help="chapters whose text names an unknown placeholder ([[nmae]]: CYD701)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    n = args.chapters
    # Every 50th chapter (and the last) is an ending. The others lead to the next two chapters
    # (so no chapter is cut off by an ending before it) and to up to two chapters further on.
    chapters = []
    for i in range(n):
        chapter = {
            "id": f"chapter{i:06d}",
            "name": f"Chapter {i + 1}: the {rng.choice(WORDS)}",
            "text": "\n\n".join(paragraph(rng) for _ in range(2)) + ("\n\nHello again, [[name]]." if i % 7 == 0 else ""),
        }
        if args.long_texts:
            chapter["text"] = "\n\n".join(
                paragraph(rng).replace(" the ", " the \u2018old\u2019 ", 1).replace(". ", " \u2014 caf\u00e9 and na\u00efve. ", 1)
                for _ in range(args.long_texts)
            ) + ("\n\n\u201cHello again, [[name]].\u201d" if i % 7 == 0 else "")
        if i == 0:
            chapter["is_first_chapter"] = True
        if args.pictures and i % 10 == 0:
            chapter["pic_path"] = f"resources/picture{i % 3}.png"
        is_ending = i == n - 1 or (i % 50 == 49 and i > 0)
        if not is_ending:
            targets = {t for t in (i + 1, i + 2) if t < n}
            for _ in range(rng.randint(0, 2)):
                targets.add(rng.randint(i + 1, min(n - 1, i + 200)))
            chapter["choices"] = [
                {"chapter_id": f"chapter{t:06d}", "text": f"Follow the {rng.choice(WORDS)} {rng.choice(WORDS)}"}
                for t in sorted(targets)
            ]
        else:
            chapter["is_ending"] = True
        chapters.append(chapter)
    if args.warnings:
        warn_rng = random.Random(args.seed + 2)
        for chapter in warn_rng.sample(chapters, min(args.warnings, n)):
            chapter["text"] += "\n\nGoodbye, [[nmae]]."
    if args.flaws:
        flaw_rng = random.Random(args.seed + 1)
        with_choices = [c for c in chapters[1:] if "choices" in c]
        for chapter in flaw_rng.sample(with_choices, min(args.flaws, len(with_choices))):
            choice = chapter["choices"][-1]
            choice["chapter_id"] = choice["chapter_id"].replace("chapter", "chaptre", 1)
        # Orphans replace ordinary chapters near the end, so the size stays the same. Each one
        # becomes an ending that nothing leads to: the chapter before it no longer points at it.
        for i in range(max(1, n - 2 * args.flaws), n - 1, 2):
            orphan = chapters[i]
            orphan["id"] = f"orphan{i:06d}"
            orphan.pop("choices", None)
            orphan["is_ending"] = True
    story = {
        "story": {
            "id": f"generated{n}",
            "name": f"A generated story of {n} chapters",
            "rating": "G",
            "summary": "Made by scripts/generate-story.py for benchmarks",
            "chapters": chapters,
        }
    }
    with open(args.output, "w", encoding="utf-8") as out:
        json.dump(story, out, indent=2, ensure_ascii=False)
        out.write("\n")


if __name__ == "__main__":
    main()
