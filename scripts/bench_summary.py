#!/usr/bin/env python3
"""The one summary table of scripts/bench-all.sh.

Each benchmark script, when BENCH_SUMMARY names a file, appends one row per measure it has a
target for: what was measured, cyd's figure, the peer's figure, the ratio the target is stated
in, the target, and whether it was met. bench-all.sh then writes the rows as one table into
docs/benchmarks.md and the README's figures, between their markers.

From a script's Python:   sys.path.insert(0, "scripts"); from bench_summary import record
From a shell script:      python3 scripts/bench_summary.py record AREA MEASURE CYD PEER RATIO TARGET MET
Rendering:                python3 scripts/bench_summary.py write ROWS DOC HEADING [FAILED...]
                          (write-short: the first row of each area, for the README)
"""
import json
import os
import sys

BEGIN = "<!-- bench-all: begin (written by scripts/bench-all.sh; do not edit by hand) -->"
END = "<!-- bench-all: end -->"


def record(area, measure, cyd, peer, ratio, target, met):
    """Appends a row. `ratio` is a number or None; `met` True, False or None (no target)."""
    path = os.environ.get("BENCH_SUMMARY")
    if not path:
        return
    row = {"area": area, "measure": measure, "cyd": cyd, "peer": peer,
           "ratio": None if ratio is None else round(float(ratio), 3), "target": target, "met": met}
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps(row, ensure_ascii=False) + "\n")


def at_most(value, bound):
    return value is not None and value <= bound


def rows_of(path):
    if not os.path.exists(path):
        return []
    return [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]


def table(rows, failed=()):
    def cell(text):
        return str(text).replace("|", "\\|")
    lines = ["| area | measure | cyd | peer | ratio | target | met |", "|---|---|---:|---:|---:|---|---|"]
    for row in rows:
        ratio = "" if row["ratio"] is None else f"{row['ratio']:.2f}"
        met = {True: "met", False: "**not met**", None: ""}[row["met"]]
        lines.append("| " + " | ".join(cell(x) for x in (row["area"], row["measure"], row["cyd"], row["peer"], ratio, row["target"], met)) + " |")
    for script in failed:
        lines.append(f"| {cell(script)} | the script failed: no figures | | | | | **not met** |")
    return "\n".join(lines)


def headline(rows):
    """The first row of each area: the README's short form of the table."""
    seen, first = set(), []
    for row in rows:
        if row["area"] not in seen:
            seen.add(row["area"])
            first.append(row)
    return first


def write(rows_path, doc_path, heading, failed=(), short=False):
    rows = rows_of(rows_path)
    with_target = [r for r in rows if r["met"] is not None]
    met = sum(1 for r in with_target if r["met"])
    shown = headline(rows) if short else rows
    body = f"{heading}\n\n{met} of {len(with_target)} targets met.\n\n{table(shown, failed)}\n"
    text = open(doc_path, encoding="utf-8").read()
    if BEGIN in text and END in text:
        before, rest = text.split(BEGIN, 1)
        after = rest.split(END, 1)[1]
        text = before + BEGIN + "\n" + body + END + after
    else:
        raise SystemExit(f"{doc_path} has no bench-all markers ({BEGIN})")
    open(doc_path, "w", encoding="utf-8").write(text)
    return met, len(with_target)


def main(argv):
    if len(argv) >= 9 and argv[1] == "record":
        area, measure, cyd, peer, ratio, target, met = argv[2:9]
        record(area, measure, cyd, peer, None if ratio in ("", "-") else float(ratio), target,
               {"yes": True, "no": False}.get(met))
        return 0
    if len(argv) >= 5 and argv[1] in ("write", "write-short"):
        failed = argv[5:] if len(argv) > 5 else []
        met, total = write(argv[2], argv[3], argv[4], failed, short=argv[1] == "write-short")
        print(f"{met} of {total} targets met; the table is in {argv[3]}")
        return 0
    if len(argv) == 3 and argv[1] == "print":
        print(table(rows_of(argv[2])))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
