#!/usr/bin/env bash
# Benchmark: what drawing a chapter's picture adds to showing the chapter. `cyd read` (release
# build) runs in a 100 x 50 pseudo-terminal (scripts/pty-bench.py), shows the first chapter and
# quits: a story without a picture, the same story with a 3560x2373 JPEG of about 3 MB (made by
# scripts/make-pictures.py, like PrototypeStory's pub.jpg) drawn as symbols, sixel and kitty,
# and with pictures off; chafa's own tool drawing the same JPEG at the same size is the peer.
# Prints medians, peak memory and the cost of the picture (with minus without).
#
# usage: scripts/bench-read.sh [RUNS]   (default 21)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-21}
work=${BENCH_DIR:-$(mktemp -d)}
mkdir -p "$work/with/resources" "$work/without"
command -v chafa >/dev/null || { echo "chafa (the peer) is not installed: apt-get install chafa" >&2; exit 1; }

swift build -c release --product cyd >/dev/null
cyd=$(swift build -c release --show-bin-path)/cyd
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
export CYD_HOME="$work/home" TERM=xterm-256color COLORTERM=truecolor
# Both stories added first (and the picture stored), so every timed run resumes a story.
python3 scripts/pty-bench.py 1 100 50 'q\n' "add=$cyd read --name Ana --pictures off $work/with" "add=$cyd read --name Ana $work/without --pictures off" >/dev/null
python3 scripts/pty-bench.py "$runs" 100 50 'q\n' \
  "cyd, no picture=$cyd read --name Ana --pictures symbols $work/without" \
  "cyd, JPEG as symbols=$cyd read --name Ana --pictures symbols $work/with" \
  "cyd, JPEG as sixel=$cyd read --name Ana --pictures sixel $work/with" \
  "cyd, JPEG as kitty=$cyd read --name Ana --pictures kitty $work/with" \
  "cyd, JPEG, pictures off=$cyd read --name Ana --pictures off $work/with" \
  "chafa -f symbols 100x25=chafa -f symbols -s 100x25 $work/with/resources/pub.jpg" | tee "$work/read.txt"
python3 - "$work/read.txt" <<'PY'
import re, sys
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
peer = rows["chafa -f symbols 100x25"][0]
print(f"cyd symbols chapter / chafa drawing the picture alone: {rows['cyd, JPEG as symbols'][0] / peer:.2f}")
PY
