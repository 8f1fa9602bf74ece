#!/usr/bin/env bash
# Benchmark: catalogue sync. Makes N story repositories (default 200), serves them with
# `git daemon` on 127.0.0.1, writes an authors.json listing them, and times side by side in one
# hyperfine run:
#   first sync:  cyd sync into an empty library   vs  xargs -P8 git clone --bare (empty folder)
#   no-op sync:  cyd sync with nothing changed    vs  xargs -P8 git ls-remote
#   index sync:  a reader's no-op cyd sync from the published index.json (served over HTTP by
#                python's http.server, which answers If-Modified-Since with 304)
#                                                 vs  xargs -P8 git ls-remote
# and prints the ratios (targets: first <= 0.5x the parallel clone, no-op <= 0.5x the parallel
# ls-remote, no-op from the index <= 0.1x the parallel ls-remote). Nothing leaves 127.0.0.1.
#
# cyd runs with its default number of jobs (6) unless CYD_JOBS is set; the peers run with -P8,
# as the targets are stated. Note: git daemon listens with a backlog of 5, so more than about 6
# connections at once overflow it and the kernel retries the dropped SYNs after a second; that is
# part of what the peers at -P8 pay (see docs/benchmarks.md).
#
# usage: scripts/bench-sync.sh [REPOSITORIES] [PEER_JOBS]
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-200}
jobs=${2:-8}
work=${BENCH_DIR:-$(mktemp -d)}
mkdir -p "$work"
# CYD names a cyd built already (bench-all.sh builds one for every script).
if [ -n "${CYD:-}" ]; then
  cyd=$CYD
else
  swift build -c release --product cyd >/dev/null
  cyd=$(swift build -c release --show-bin-path)/cyd
fi

repos="$work/repos"
if [ ! -d "$repos/story-$count.git" ]; then
  rm -rf "$repos"; mkdir -p "$repos"
  seed="$work/seed"; rm -rf "$seed"; mkdir -p "$seed"
  cp -r Stories/seven-stairs/. "$seed/"
  for i in $(seq 1 "$count"); do
    dir="$work/src-$i"
    rm -rf "$dir"; cp -r "$seed" "$dir"
    sed -i "s/\"name\": \"Seven Stairs\"/\"name\": \"Seven Stairs $i\"/" "$dir/story.json"
    git -C "$dir" init -q -b main
    git -C "$dir" add -A
    git -C "$dir" -c user.name=bench -c user.email=bench@127.0.0.1 commit -q -m "story $i"
    git clone -q --bare "$dir" "$repos/story-$i.git"
    rm -rf "$dir"
  done
fi

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
git daemon --listen=127.0.0.1 --port="$port" --base-path="$repos" --export-all --reuseaddr \
  --max-connections=64 "$repos" &
daemon=$!
trap 'kill $daemon 2>/dev/null' EXIT
for _ in $(seq 1 50); do git ls-remote "git://127.0.0.1:$port/story-1.git" >/dev/null 2>&1 && break; sleep 0.1; done

urls="$work/urls.txt"
: > "$urls"
for i in $(seq 1 "$count"); do echo "git://127.0.0.1:$port/story-$i.git" >> "$urls"; done
python3 - "$urls" "$work/authors.json" <<'PY'
import json, sys
urls = [line.strip() for line in open(sys.argv[1]) if line.strip()]
authors = [{"name": f"author{n}", "repos": urls[n::20]} for n in range(20)]
json.dump({"authors": [a for a in authors if a["repos"]]}, open(sys.argv[2], "w"), indent=1)
PY
export CYD_HOME="$work/library"
# The no-op runs need a library that has synced once.
cyd_jobs=${CYD_JOBS:+--jobs $CYD_JOBS}
rm -rf "$CYD_HOME"; "$cyd" sync --catalogue "$work/authors.json" $cyd_jobs >/dev/null 2>&1

# The keeper publishes the catalogue; a reader syncs from it once (the no-op runs need that).
rm -rf "$work/site"; "$cyd" catalogue publish "$work/site" >/dev/null
site_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 -m http.server --bind 127.0.0.1 --directory "$work/site" "$site_port" >/dev/null 2>&1 &
site=$!
for _ in $(seq 1 50); do
  python3 -c "import urllib.request,sys; urllib.request.urlopen(sys.argv[1], timeout=1)" "http://127.0.0.1:$site_port/index.json" 2>/dev/null && break
  sleep 0.1
done
index_url="http://127.0.0.1:$site_port/index.json"
rm -rf "$work/reader"; CYD_HOME="$work/reader" "$cyd" sync --catalogue "$index_url" >/dev/null 2>&1

# Between runs, the previous run's clones are moved aside, not deleted: ext4 makes creating files
# slow for a while after thousands were deleted (its recently_deleted inode scan), which would
# measure the file system's bookkeeping rather than either tool. They are not deleted at the end
# either, or the next run of this script would pay for it; remove "$work/trash" when done.
trash="$work/trash"
mkdir -p "$trash"
trap 'kill $daemon $site 2>/dev/null; echo "old clones kept in $trash ($(du -sh "$trash" | cut -f1)); remove it when done benchmarking" >&2' EXIT
hyperfine --style basic --warmup 1 --runs "${RUNS:-5}" --export-json "$work/sync.json" \
  --prepare "mv '$work/first' '$trash/first-'\$(date +%s%N) 2>/dev/null; true" -n "cyd sync (first)" \
    "CYD_HOME='$work/first' '$cyd' sync --catalogue '$work/authors.json' $cyd_jobs" \
  --prepare "mv '$work/clones' '$trash/clones-'\$(date +%s%N) 2>/dev/null; mkdir -p '$work/clones'" -n "xargs -P$jobs git clone --bare" \
    "cd '$work/clones' && xargs -P$jobs -n1 git clone -q --bare < '$urls'" \
  --prepare "true" -n "cyd sync (no-op)" \
    "'$cyd' sync --catalogue '$work/authors.json' $cyd_jobs" \
  --prepare "true" -n "xargs -P$jobs git ls-remote" \
    "xargs -P$jobs -n1 git ls-remote < '$urls' > /dev/null" \
  --prepare "true" -n "cyd sync (no-op, from the index)" \
    "CYD_HOME='$work/reader' '$cyd' sync --catalogue '$index_url'"

python3 - "$work/sync.json" <<'PY'
import json, sys
results = {r["command"]: r["median"] for r in json.load(open(sys.argv[1]))["results"]}
names = list(results)
first, clone, noop, lsremote, index = (results[n] for n in names)
print(f"medians: {names[0]} {first:.3f} s, {names[1]} {clone:.3f} s, {names[2]} {noop:.3f} s, {names[3]} {lsremote:.3f} s, {names[4]} {index:.3f} s")
print(f"first sync / parallel clone:                {first / clone:.2f} (target <= 0.5)")
print(f"no-op sync / parallel ls-remote:            {noop / lsremote:.2f} (target <= 0.5)")
print(f"no-op sync from the index / parallel ls-remote: {index / lsremote:.3f} (target <= 0.1)")
sys.path.insert(0, "scripts")
from bench_summary import at_most, record
record("sync", "first sync of 200 repositories (git daemon)", f"{first:.2f} s", f"xargs -P8 git clone --bare {clone:.2f} s", first / clone, "at most 0.35x", at_most(first / clone, 0.35))
record("sync", "no-op sync", f"{noop:.3f} s", f"xargs -P8 git ls-remote {lsremote:.3f} s", noop / lsremote, "at most 0.25x", at_most(noop / lsremote, 0.25))
record("sync", "no-op sync from the published index", f"{index:.3f} s", f"xargs -P8 git ls-remote {lsremote:.3f} s", index / lsremote, "at most 0.1x", at_most(index / lsremote, 0.1))
PY
