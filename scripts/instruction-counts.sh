#!/usr/bin/env bash
# The regression gate that noise cannot fool: the instructions a handful of core operations
# execute on fixed inputs, counted by valgrind's callgrind (the same total for the same binary
# and input, whatever else the machine is doing), against the budgets kept in
# Tests/Fixtures/instruction-budgets.json. An operation more than 10% over its budget fails;
# one more than 10% under it is pointed out, so the budget can be lowered on purpose.
#
# The cyd counted is the test command's own debug build (no second build: the gate must cost
# CI under a minute), so the figures are a debug build's, about ten times a release build's;
# what they catch is more work, not the compiler's optimisations. Inputs are small for the same
# reason (callgrind runs a debug build about 60 times slower): stories of 500 chapters.
#
# usage: scripts/instruction-counts.sh [--update | --compare COUNTS]
#   --update writes the counts measured as the new budgets (after a change that costs more on
#   purpose, or saves); --compare COUNTS judges counts kept from an earlier run (COUNTS_OUT)
#   without measuring again. CYD: the cyd to count (default: the test command's debug build);
#   BUDGETS: the budgets file (default Tests/Fixtures/instruction-budgets.json); COUNTS_OUT: a
#   file to keep the counts in.
set -euo pipefail
cd "$(dirname "$0")/.."
budgets=${BUDGETS:-Tests/Fixtures/instruction-budgets.json}
update=0
compare=""
case "${1:-}" in
  --update) update=1 ;;
  --compare) compare=${2:?usage: scripts/instruction-counts.sh --compare COUNTS} ;;
  "") ;;
  *) echo "usage: scripts/instruction-counts.sh [--update | --compare COUNTS]" >&2; exit 2 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "$compare" ]; then
  cp "$compare" "$work/counts"
else
command -v valgrind >/dev/null || { echo "valgrind is not installed (scripts/install-deps.sh installs it)" >&2; exit 2; }
cyd=${CYD:-$(swift build --traits BrowserReader -Xswiftc -gline-tables-only --show-bin-path)/cyd}
[ -x "$cyd" ] || { echo "no $cyd: build it first (scripts/test.sh builds it)" >&2; exit 2; }
# Valgrind 3.19 cannot read the DWARF 5 the Swift 6 toolchain writes: a copy without it.
cp "$cyd" "$work/cyd"
strip --strip-debug "$work/cyd"
# Fixed inputs: generated stories (deterministic for a seed), a bundled story, a reading.
mkdir -p "$work/clean" "$work/flawed" "$work/home"
python3 scripts/generate-story.py 500 "$work/clean/story.json" --seed 7 >/dev/null
python3 scripts/generate-story.py 500 "$work/flawed/story.json" --seed 7 --flaws 20 >/dev/null
printf '# A story\n#ChooseYourDestiny\n' >"$work/clean/README.md"
# The same process each time: hashing seeded the same, no colour, no terminal, a library of its own.
run_env=(env -i PATH="$PATH" HOME="$work/home" CYD_HOME="$work/home/library" SWIFT_DETERMINISTIC_HASHING=1 NO_COLOR=1 TERM=dumb LANG=C.UTF-8)
count() {  # NAME ARGS... (standard input from $input)
  local name=$1
  shift
  local log="$work/$name.log"
  "${run_env[@]}" valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/cyd" "$@" <"${input:-/dev/null}" >"$work/$name.out" 2>"$log" || true
  local total
  total=$(sed -n 's/^==[0-9]*== Collected : \([0-9]*\).*/\1/p' "$log")
  [ -n "$total" ] || { echo "callgrind counted nothing for $name:" >&2; tail -20 "$log" >&2; exit 2; }
  echo "$name $total" >>"$work/counts"
}
input=/dev/null
count validate-clean validate "$work/clean/story.json"
count validate-flawed validate "$work/flawed/story.json"
count add add "$work/clean"
# Reading a chapter: the story added above (the library's first, id 1), one choice taken.
printf '1\nq\n' >"$work/reading"
input="$work/reading" count read-chapter read 1 --restart --name Ana --plain
input=/dev/null
# Chapter pages: the static site of a story of 50 chapters (no pictures).
mkdir -p "$work/small"
python3 scripts/generate-story.py 50 "$work/small/story.json" --seed 7 >/dev/null
count chapter-pages build web "$work/site" "$work/small"
count extract-translations l10n extract --story "$work/clean" -o "$work/story.pot"
[ -z "${COUNTS_OUT:-}" ] || cp "$work/counts" "$COUNTS_OUT"
fi

python3 - "$budgets" "$work/counts" "$update" <<'PY'
import json, os, sys
path, counts_path, update = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
counts = dict((line.split()[0], int(line.split()[1])) for line in open(counts_path))
if update:
    data = {
        "about": "Instructions each operation executes on scripts/instruction-counts.sh's fixed inputs, "
                 "counted by callgrind on the test command's debug build. Update on purpose: scripts/instruction-counts.sh --update.",
        "budgets": counts,
    }
    with open(path, "w") as out:
        json.dump(data, out, indent=2)
        out.write("\n")
    print(f"wrote {len(counts)} budgets to {path}")
    for name, value in counts.items():
        print(f"  {name:22s} {value:>15,}")
    sys.exit(0)
budgets = json.load(open(path))["budgets"]
failed = False
print(f"{'operation':22s} {'instructions':>15s} {'budget':>15s}  ratio")
for name, value in counts.items():
    budget = budgets.get(name)
    if budget is None:
        print(f"{name:22s} {value:>15,} {'(none)':>15s}  -- no budget: run scripts/instruction-counts.sh --update")
        failed = True
        continue
    ratio = value / budget
    verdict = "over budget by more than 10%" if ratio > 1.10 else ("more than 10% under budget: lower it with --update" if ratio < 0.90 else "ok")
    failed = failed or ratio > 1.10
    print(f"{name:22s} {value:>15,} {budget:>15,}  {ratio:5.3f}  {verdict}")
for name in budgets:
    if name not in counts:
        print(f"{name:22s} not measured: the script and the budgets disagree")
        failed = True
sys.exit(1 if failed else 0)
PY
