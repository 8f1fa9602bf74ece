#!/usr/bin/env bash
# Benchmarks of the reader.
#
# library: adds generated stories of 100, 10k and 100k chapters to a fresh library, then times
#   `cyd read ID` with one scripted choice, from process start to exit, for the 100- and the
#   100k-chapter story in alternated rounds (medians of 30), and reports peak memory. Showing a chapter loads
#   that chapter only, so the two should take about the same time. Then one 50 MB chapter.
# pictures: what drawing a chapter's picture adds to showing the chapter. `cyd read` runs in a
#   100 x 50 pseudo-terminal (scripts/pty-bench.py), shows the first chapter and quits: a story
#   without a picture, the same story with a 3560x2373 JPEG of about 3 MB (made by
#   scripts/make-pictures.py, like PrototypeStory's pub.jpg) drawn as symbols, sixel and kitty,
#   and with pictures off; chafa's own tool drawing the same JPEG at the same size is the peer.
#   Prints medians, peak memory and the cost of the picture (with minus without).
#
# usage: scripts/bench-read.sh [library|pictures]   (default: both; PICTURE_RUNS=21)
set -euo pipefail
cd "$(dirname "$0")/.."
part=${1:-all}
work=${BENCH_DIR:-$(mktemp -d)}
mkdir -p "$work"
# CYD names a cyd built already (bench-all.sh builds one for every script).
if [ -n "${CYD:-}" ]; then
  cyd=$CYD
else
  swift build -c release --product cyd >/dev/null
  cyd=$(swift build -c release --show-bin-path)/cyd
fi

library() {
export CYD_HOME="$work/library"
rm -rf "$CYD_HOME"

declare -A ids
for size in 100 10000 100000; do
  mkdir -p "$work/story-$size"
  [ -f "$work/story-$size/story.json" ] || python3 scripts/generate-story.py "$size" "$work/story-$size/story.json"
done
# Adding: five runs into a fresh library, each followed by the peer, python's json.load of the
# same file (the least any reader of it must do); the two alternate so that a noisy neighbour
# slows both alike. Medians, and the median of the five ratios.
for size in 100 10000 100000; do
  times=() loads=() ratios=()
  for run in 1 2 3 4 5; do
    rm -rf "$work/add-library"
    add=$({ CYD_HOME="$work/add-library" /usr/bin/time -f %e "$cyd" add "$work/story-$size" >/dev/null; } 2>&1 | tail -1)
    load=$({ /usr/bin/time -f %e python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$work/story-$size/story.json"; } 2>&1 | tail -1)
    times+=("$add") loads+=("$load") ratios+=("$(python3 -c "print(round($add / max($load, 0.001), 2))")")
  done
  median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 3p)
  load=$(printf '%s\n' "${loads[@]}" | sort -n | sed -n 3p)
  ratio=$(printf '%s\n' "${ratios[@]}" | sort -n | sed -n 3p)
  echo "add $size chapters: median ${median} s (runs: ${times[*]}); json.load ${load} s; add / json.load ${ratio} (each pair: ${ratios[*]})"
  if [ "$size" = 100000 ]; then
    met=$(python3 -c "print('yes' if $ratio <= 1.2 else 'no')")
    python3 scripts/bench_summary.py record add "100,000 chapters into a new library" "${median} s" "json.load ${load} s" "$ratio" "at most 1.2x" "$met"
  fi
  id=$("$cyd" add "$work/story-$size" | sed -n 's/.*(id \([0-9]*\),.*/\1/p')
  ids[$size]=$id
done

printf '1\nq\n' >"$work/input"
# Alternated rounds (3 to warm up, then 30), not one command's runs and then the other's: a
# slow spell of this shared machine falls on both alike, and the ratio is of the same minutes.
python3 - "$work/read.json" \
  "read 100" "$cyd read ${ids[100]} --restart --name Ana < $work/input" \
  "read 100k" "$cyd read ${ids[100000]} --restart --name Ana < $work/input" <<'PY'
import json, subprocess, sys, time
out, pairs = sys.argv[1], sys.argv[2:]
commands = list(zip(pairs[0::2], pairs[1::2]))
times = {name: [] for name, _ in commands}
for round in range(33):
    for name, command in commands:
        start = time.perf_counter()
        subprocess.run(command, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        if round >= 3:
            times[name].append(time.perf_counter() - start)
json.dump({"results": [{"command": name, "times": values} for name, values in times.items()]}, open(out, "w"))
PY
# Peak memory: the median of seven runs (one run's peak moves by half a MiB from run to run, as
# much as the row's margin).
peak_kb() {
  for _ in 1 2 3 4 5 6 7; do
    /usr/bin/time -f %M "$cyd" read "$1" --restart --name Ana <"$work/input" 2>&1 >/dev/null | tail -1
  done | sort -n | sed -n 4p
}
small_kb=$(peak_kb "${ids[100]}")
large_kb=$(peak_kb "${ids[100000]}")
python3 - "$work/read.json" "$small_kb" "$large_kb" <<'PY'
import json, statistics, sys
results = {r["command"]: statistics.median(r["times"]) for r in json.load(open(sys.argv[1]))["results"]}
small, large = results["read 100"], results["read 100k"]
print(f"read with one choice, 100 chapters:  median {small * 1000:.1f} ms, peak {int(sys.argv[2]) / 1024:.1f} MiB")
print(f"read with one choice, 100k chapters: median {large * 1000:.1f} ms, peak {int(sys.argv[3]) / 1024:.1f} MiB")
print(f"ratio 100k / 100: {large / small:.2f}")
sys.path.insert(0, "scripts")
from bench_summary import at_most, record
record("read", "a chapter and one choice, 100,000 chapters / 100", f"{large * 1000:.1f} ms", f"100 chapters {small * 1000:.1f} ms", large / small, "at most 1.2x", at_most(large / small, 1.2))
record("read", "peak memory of that read, 100,000 chapters", f"{int(sys.argv[3]) / 1024:.1f} MiB", "", None, "at most 30 MiB", int(sys.argv[3]) / 1024 <= 30)
PY

# A chapter of 50 MB (60,000 paragraphs, with [[name]]): showing it costs its size, not more.
mkdir -p "$work/huge-chapter"
python3 - "$work/huge-chapter/story.json" <<'PY'
import json, sys
text = ("Hello [[name]]. The lantern swings over the harbour and the gulls wait for the tide. " * 10 + "\n\n") * 60000
chapters = [{"id": "a", "name": "A", "text": text, "is_first_chapter": True, "choices": [{"chapter_id": "b", "text": "On"}]},
            {"id": "b", "name": "B", "text": "The end.", "is_ending": True}]
json.dump({"story": {"id": "huge", "name": "A huge chapter", "rating": "G", "summary": "50 MB of text", "chapters": chapters}}, open(sys.argv[1], "w"))
PY
huge=$("$cyd" add "$work/huge-chapter" | sed -n 's/.*(id \([0-9]*\),.*/\1/p')
hyperfine --style none --warmup 1 --runs 5 --export-json "$work/huge.json" \
  -n "read huge" "$cyd read $huge --restart --plain --name Ana < /dev/null > /dev/null" >/dev/null
huge_kb=$(/usr/bin/time -f %M "$cyd" read "$huge" --restart --plain --name Ana </dev/null 2>&1 >/dev/null | tail -1)
python3 - "$work/huge.json" "$huge_kb" "$(stat -c %s "$work/huge-chapter/story.json")" <<'PY'
import json, statistics, sys
time = statistics.median(json.load(open(sys.argv[1]))["results"][0]["times"])
print(f"show one chapter of {int(sys.argv[3]) / 1e6:.0f} MB (plain, to /dev/null): median {time:.2f} s, peak {int(sys.argv[2]) / 1024:.0f} MB")
sys.path.insert(0, "scripts")
from bench_summary import record
record("read", f"one chapter of {int(sys.argv[3]) / 1e6:.0f} MB (plain, to /dev/null)", f"{time:.2f} s", "", None, "under 1 s", time < 1)
record("read", f"peak memory of that chapter", f"{int(sys.argv[2]) / 1024:.0f} MB", "", None, "under 150 MB", int(sys.argv[2]) / 1024 < 150)
PY
}

pictures() {
mkdir -p "$work/with/resources" "$work/without"
if ! command -v chafa >/dev/null; then
  # The peer, chafa's own tool (cyd links libchafa; the tool is a package of its own).
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chafa >/dev/null \
    || { echo "chafa (the peer) could not be installed: apt-get install chafa" >&2; exit 1; }
fi
picture_runs=${PICTURE_RUNS:-21}
[ -f "$work/with/resources/pub.jpg" ] || python3 scripts/make-pictures.py photo "$work/with/resources/pub.jpg"
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
story = {"story": {"id": "pub", "name": "The Pub", "rating": "G", "summary": "A pub on a wet night.", "chapters": [
    {"id": "pub", "name": "The Pub", "is_first_chapter": True, "pic_path": "resources/pub.jpg",
     "text": "The door creaks open on a room of low beams and a fire burning down to its embers. " * 4,
     "choices": [{"chapter_id": "end", "text": "Sit by the fire"}]},
    {"id": "end", "name": "By the Fire", "is_ending": True, "text": "Warm at last."}]}}
json.dump(story, open(f"{work}/with/story.json", "w"))
del story["story"]["chapters"][0]["pic_path"]
json.dump(story, open(f"{work}/without/story.json", "w"))
PY
export CYD_HOME="$work/picture-library" TERM=xterm-256color COLORTERM=truecolor
# Both stories added first (and the picture stored), so every timed run resumes a story.
python3 scripts/pty-bench.py 1 100 50 'q\n' "add=$cyd read --name Ana --pictures off $work/with" "add=$cyd read --name Ana $work/without --pictures off" >/dev/null
python3 scripts/pty-bench.py "$picture_runs" 100 50 'q\n' \
  "cyd, no picture=$cyd read --name Ana --pictures symbols $work/without" \
  "cyd, JPEG as symbols=$cyd read --name Ana --pictures symbols $work/with" \
  "cyd, JPEG as sixel=$cyd read --name Ana --pictures sixel $work/with" \
  "cyd, JPEG as kitty=$cyd read --name Ana --pictures kitty $work/with" \
  "cyd, JPEG, pictures off=$cyd read --name Ana --pictures off $work/with" \
  "chafa -f symbols 100x25=chafa -f symbols -s 100x25 $work/with/resources/pub.jpg" | tee "$work/read.txt"
python3 - "$work/read.txt" <<'PY'
import re, sys
sys.path.insert(0, "scripts")
from bench_summary import record
rows = {}
for line in open(sys.argv[1]).read().splitlines()[1:]:
    name, rest = line[:28].strip(), line[28:]
    numbers = re.findall(r"[\d.]+", rest)
    rows[name] = (float(numbers[0]), float(numbers[2]))
base = rows["cyd, no picture"]
print()
for name in ("cyd, JPEG as symbols", "cyd, JPEG as sixel", "cyd, JPEG as kitty"):
    time, memory = rows[name]
    print(f"{name}: the picture adds {time - base[0]:.1f} ms and {memory - base[1]:.1f} MB (targets: 80 ms, 30 MB)")
    if name == "cyd, JPEG as symbols":
        record("pictures", "a chapter with a 3.3 MB JPEG (symbols) less one without: time", f"{time - base[0]:.1f} ms", f"chafa {rows['chafa -f symbols 100x25'][0]:.1f} ms", None, "at most 80 ms", time - base[0] <= 80)
        record("pictures", "the same: memory", f"{memory - base[1]:.1f} MB", f"chafa {rows['chafa -f symbols 100x25'][1]:.1f} MB", None, "at most 30 MB", memory - base[1] <= 30)
peer = rows["chafa -f symbols 100x25"][0]
print(f"cyd symbols chapter / chafa drawing the picture alone: {rows['cyd, JPEG as symbols'][0] / peer:.2f}")
PY
}

case "$part" in
  library) library ;;
  pictures) pictures ;;
  all) library; pictures ;;
  *) echo "usage: scripts/bench-read.sh [library|pictures]" >&2; exit 2 ;;
esac
