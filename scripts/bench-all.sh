#!/usr/bin/env bash
# One run that tells the whole story: every benchmark of cyd against its peer, in turn, on one
# release build (the cyd scripts/install-cyd.sh installs), then one summary table (measure, cyd, peer, ratio, target, met or not) written
# into docs/benchmarks.md with the machine and the date, and its first row of each area into the
# README. A script that fails is named in the table, and the run goes on with the next.
#
# Each script appends its rows to $BENCH_SUMMARY (scripts/bench_summary.py); its whole output is
# kept in $BENCH_DIR/logs. Nothing leaves 127.0.0.1. Takes about 40 minutes on 2 cores; run it
# with nothing else running (no build, no test), or the seconds are the neighbour's.
#
# usage: scripts/bench-all.sh [AREA...]   areas: validate read add pictures interchange
#        translations serve sync catalogue author (default: all). BENCH_DIR keeps the generated
#        inputs between runs (default: a new temporary folder). A run of every area writes the
#        table into the docs; a run of some prints it only (WRITE=1 writes it all the same, and
#        the table then holds those areas alone); NO_WRITE=1 prints it only.
set -euo pipefail
cd "$(dirname "$0")/.."
areas=("$@")
write=${WRITE:-1}
if [ ${#areas[@]} -gt 0 ]; then write=${WRITE:-0}; else areas=(validate read add pictures interchange translations serve sync catalogue author); fi
[ "${NO_WRITE:-0}" != 1 ] || write=0
work=${BENCH_DIR:-$(mktemp -d)}
mkdir -p "$work/logs"
export BENCH_SUMMARY="$work/summary.jsonl"
: >"$BENCH_SUMMARY"

# The cyd scripts/install-cyd.sh installs: the release build linked with Swift's runtime in.
swift build -c release --traits BrowserReader --product cyd >/dev/null
scripts/build-static.sh --from-build "$(swift build -c release --traits BrowserReader --show-bin-path)" --binary "$work/cyd" >/dev/null
CYD="$work/cyd"
export CYD
# What the build was made from, said now: a change made while the benchmarks run is not in it.
built="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- Sources Package.swift || echo ' (with changes not committed)')"

failed=()
run() { # area, script and its arguments (BENCH_DIR set per area)
  local area=$1 dir=$work/$1
  shift
  mkdir -p "$dir"
  echo "== $area: $*" >&2
  local started=$SECONDS
  if BENCH_DIR="$dir" "$@" >"$work/logs/$area.txt" 2>&1; then
    echo "   done in $((SECONDS - started)) s (output: $work/logs/$area.txt)" >&2
  else
    echo "   FAILED after $((SECONDS - started)) s; its output: $work/logs/$area.txt" >&2
    tail -5 "$work/logs/$area.txt" >&2
    failed+=("$area ($*)")
  fi
}

for area in "${areas[@]}"; do
  case "$area" in
    validate) FLOOD=0 run validate scripts/bench-validate.sh 100000 ;;
    read | add) [[ " ${areas[*]} " == *" read "* && "$area" == add ]] || run read scripts/bench-read.sh library ;;
    pictures) run pictures scripts/bench-read.sh pictures ;;
    interchange) run interchange scripts/bench-interchange.sh ;;
    translations) run translations scripts/bench-l10n.sh ;;
    serve) run serve scripts/bench-serve.sh ;;
    sync) run sync scripts/bench-sync.sh ;;
    catalogue) run catalogue scripts/bench-catalogue.sh ;;
    author) run author scripts/bench-author.sh ;;
    *) echo "bench-all: no area named '$area'" >&2; exit 2 ;;
  esac
done

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
memory=$(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)
heading="Measured $(date -u '+%Y-%m-%d %H:%M') UTC at $built by \`scripts/bench-all.sh\`, on $(nproc) cores ($cpu), $memory, $(uname -sr)."
python3 scripts/bench_summary.py print "$BENCH_SUMMARY"
for area in "${failed[@]}"; do echo "FAILED: $area" >&2; done
if [ "$write" = 1 ]; then
  python3 scripts/bench_summary.py write "$BENCH_SUMMARY" docs/benchmarks.md "$heading" "${failed[@]}"
  python3 scripts/bench_summary.py write-short "$BENCH_SUMMARY" README.md "$heading The whole table, and how each figure is measured: [docs/benchmarks.md](docs/benchmarks.md)." "${failed[@]}"
fi
[ ${#failed[@]} -eq 0 ]
