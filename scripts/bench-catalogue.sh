#!/usr/bin/env bash
# A catalogue at scale: 10,000 authors and 100,000 stories (index entries made by a generator:
# no repository behind them), published by a keeper and served by nginx on 127.0.0.1, then
# synced by a reader; beside it, a few hundred real repositories on git daemon for the fetch part.
#   - publish from the synced catalogue (signed), and the root's size;
#   - a reader's first full sync from the signed root (requests, bytes, time, peak memory),
#     against the same reader syncing the one-file index.json of all 100,000 stories;
#   - a no-op sync (requests and bytes: one conditional request, answered 304);
#   - one changed author: publish again, and the reader's sync (requests: the root and one shard);
#   - the fetch part: REPOS repositories (default 200) synced by the keeper, published, and all
#     got by a reader at their pinned commits.
# Requests and bytes are counted from nginx's access log ($bytes_sent: headers and body).
#
# usage: scripts/bench-catalogue.sh        (BENCH_DIR=folder keeps the work files; AUTHORS, STORIES, REPOS; SCRATCH=.build-x builds apart)
set -euo pipefail
cd "$(dirname "$0")/.."
authors=${AUTHORS:-10000}
stories=${STORIES:-100000}
repos=${REPOS:-200}
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || {
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  held=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then printf '#!/bin/sh\nexit 101\n' | $sudo tee /usr/sbin/policy-rc.d >/dev/null && $sudo chmod +x /usr/sbin/policy-rc.d && held=yes; fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends nginx >/dev/null
  [ -z "$held" ] || $sudo rm -f /usr/sbin/policy-rc.d
}
nginx=$(command -v nginx || echo /usr/sbin/nginx)
scratch=${SCRATCH:-.build}
# CYD names a cyd built already (bench-all.sh builds one for every script).
if [ -n "${CYD:-}" ]; then
  cyd=$CYD
else
  swift build -c release --product cyd --scratch-path "$scratch" >/dev/null
  cyd=$(swift build -c release --scratch-path "$scratch" --show-bin-path)/cyd
fi

work=${BENCH_DIR:-$(mktemp -d)}
mkdir -p "$work"
rm -rf "$work/keeper" "$work/reader" "$work/legacy" "$work/www" "$work/gen" "$work/keys" "$work/keys.pub" "$work/keys.sec" "$work/git" "$work/getter" "$work/gitkeeper"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
gtime() { /usr/bin/time -f "%e %M" -o "$work/time" "$@"; }
seconds() { cut -d' ' -f1 "$work/time"; }
peak_mb() { awk '{ printf "%.0f", $2 / 1024 }' "$work/time"; }

# The generator: an index of AUTHORS authors and STORIES stories (an old-style index.json, which a
# keeper's library syncs as it would any index), with commit and story hashes.
mkdir -p "$work/gen"
python3 - "$work/gen/index.json" "$authors" "$stories" <<'EOF'
import hashlib, json, sys
path, authors, stories = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(path, "w") as out:
    out.write('{\n  "cyd_catalogue_index": 1,\n  "generated_at": 1,\n  "stories": [')
    for n in range(stories):
        a = n % authors
        h = hashlib.sha256(str(n).encode()).hexdigest()
        entry = {"author": f"author{a:05d}", "repository": f"story{n:06d}", "url": f"https://stories.example/author{a:05d}/story{n:06d}.git",
                 "commit": h[:40], "story_sha256": h, "story_id": f"s{n}", "title": f"Story number {n}", "rating": "G",
                 "summary": "A generated story for the catalogue benchmark.", "chapters": 12}
        out.write(("\n    " if n == 0 else ",\n    ") + json.dumps(entry, separators=(",", ":")))
    out.write("\n  ]\n}\n")
EOF
"$cyd" sync --library "$work/keeper" --catalogue "$work/gen/index.json" >/dev/null
mkdir -p "$work/keys"
"$cyd" catalogue keygen "$work/keys/keeper" >/dev/null
key=$work/keys/keeper.sec
pub=$work/keys/keeper.pub
gtime "$cyd" catalogue publish --library "$work/keeper" "$work/www/site" --sign "$key" >/dev/null
publish_s=$(seconds); publish_mb=$(peak_mb)
root_bytes=$(stat -c %s "$work/www/site/catalogue.sig")
index_bytes=$(stat -c %s "$work/www/site/index.json")
shards=$(ls "$work/www/site/shards" | wc -l)

port=$(free_port)
cat >"$work/nginx.conf" <<EOF
daemon off;
worker_processes 1;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 256; }
http {
  log_format counted '\$status \$bytes_sent \$request_uri';
  access_log $work/access.log counted;
  server { listen 127.0.0.1:$port; root $work/www; etag on; }
}
EOF
: >"$work/access.log"
"$nginx" -p "$work" -c "$work/nginx.conf" &
pids+=($!)
for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$port/site/catalogue.json" && break; sleep 0.05; done
base="http://127.0.0.1:$port/site"
mark() { wc -l <"$work/access.log"; }
since() { tail -n +"$(($1 + 1))" "$work/access.log" | awk '{ n++; b += $2; s[$1]++ } END { printf "%d requests, %d bytes", n, b; for (k in s) printf ", %d x %s", s[k], k }'; }

m=$(mark)
gtime "$cyd" sync --library "$work/reader" --catalogue "$base/catalogue.sig" --trust "$pub" >/dev/null
first_s=$(seconds); first_mb=$(peak_mb); first_traffic=$(since "$m")
# The one-file index as an older site serves it: index.json alone (beside a signed root, cyd
# reads the signed root instead, whichever file is named).
mkdir -p "$work/www/legacy"
cp "$work/www/site/index.json" "$work/www/legacy/index.json"
m=$(mark)
gtime "$cyd" sync --library "$work/legacy" --catalogue "http://127.0.0.1:$port/legacy/index.json" >/dev/null
legacy_s=$(seconds); legacy_mb=$(peak_mb); legacy_traffic=$(since "$m")
m=$(mark)
gtime "$cyd" sync --library "$work/reader" --catalogue "$base/catalogue.sig" >/dev/null
noop_s=$(seconds); noop_traffic=$(since "$m")

# One author's story changes: the keeper syncs it and publishes; the reader syncs.
python3 - "$work/gen/index.json" <<'EOF'
import sys
path = sys.argv[1]
text = open(path).read()
i = text.index('"repository":"story000007"')
j = text.index('"commit":"', i) + len('"commit":"')
text = text[:j] + "f" * 40 + text[j + 40:]
open(path, "w").write(text)
EOF
"$cyd" sync --library "$work/keeper" --catalogue "$work/gen/index.json" >/dev/null
gtime "$cyd" catalogue publish --library "$work/keeper" "$work/www/site" --sign "$key" >/dev/null
republish_s=$(seconds)
m=$(mark)
gtime "$cyd" sync --library "$work/reader" --catalogue "$base/catalogue.sig" >/dev/null
changed_s=$(seconds); changed_traffic=$(since "$m")

# The fetch part: real repositories on git daemon.
mkdir -p "$work/git/served" "$work/git/work"
gport=$(free_port)
git daemon --reuseaddr --export-all --listen=127.0.0.1 --port="$gport" --base-path="$work/git/served" "$work/git/served" >/dev/null 2>&1 &
pids+=($!)
for _ in $(seq 1 200); do python3 -c "import socket; socket.create_connection(('127.0.0.1', $gport), 1)" 2>/dev/null && break; sleep 0.05; done
python3 - "$work/git" "$repos" "$gport" <<'EOF'
import json, os, subprocess, sys
root, repos, port = sys.argv[1], int(sys.argv[2]), sys.argv[3]
urls = []
for n in range(repos):
    work = f"{root}/work/r{n}"
    os.makedirs(work)
    story = {"story": {"id": f"r{n}", "name": f"Repository story {n}", "rating": "G", "summary": "Two chapters.", "chapters": [
        {"id": "start", "name": "Start", "text": f"Story {n} begins.", "is_first_chapter": True, "choices": [{"chapter_id": "end", "text": "Go on"}]},
        {"id": "end", "name": "End", "text": "It ends.", "is_ending": True, "choices": []}]}}
    open(f"{work}/story.json", "w").write(json.dumps(story, indent=2))
    open(f"{work}/README.md", "w").write("# A story\n\n#ChooseYourDestiny\n")
    env = dict(os.environ, GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@example.invalid", GIT_COMMITTER_NAME="b", GIT_COMMITTER_EMAIL="b@example.invalid")
    subprocess.run(["git", "init", "-q", "-b", "main", work], check=True)
    subprocess.run(["git", "-C", work, "add", "-A"], check=True)
    subprocess.run(["git", "-C", work, "commit", "-q", "-m", "story"], check=True, env=env)
    subprocess.run(["git", "clone", "-q", "--bare", work, f"{root}/served/r{n}.git"], check=True)
    urls.append(f"git://127.0.0.1:{port}/r{n}.git")
authors = [{"name": f"writer{a}", "repos": urls[a::20]} for a in range(20)]
json.dump({"authors": authors}, open(f"{root}/authors.json", "w"))
EOF
gtime "$cyd" sync --library "$work/gitkeeper" --catalogue "$work/git/authors.json" --jobs 6 >/dev/null
gitsync_s=$(seconds)
"$cyd" catalogue publish --library "$work/gitkeeper" "$work/www/git" --sign "$key" >/dev/null
"$cyd" sync --library "$work/getter" --catalogue "$base/../git/catalogue.sig" --trust "$pub" >/dev/null
ids=$("$cyd" list --available --library "$work/getter" --json | python3 -c 'import json,sys; print(" ".join(s["id"] for s in json.load(sys.stdin)["stories"]))' 2>/dev/null || true)
if [ -z "$ids" ]; then ids=$(python3 -c "print(' '.join(f'writer{n % 20}/r{n}' for n in range($repos)))"); fi
# shellcheck disable=SC2086
gtime "$cyd" get --library "$work/getter" $ids >/dev/null
get_s=$(seconds)
got=$("$cyd" list --library "$work/getter" | grep -c "Repository story" || true)

python3 - <<EOF
print("catalogue of $authors authors, $stories stories ($shards shards; index.json $index_bytes bytes)")
print(f"  publish (signed)        {float('$publish_s'):6.2f} s, {int('$publish_mb')} MB peak; root {int('$root_bytes')} bytes (target: under 10 s, root under 64 KB)")
print(f"  first sync, root+shards {float('$first_s'):6.2f} s, {int('$first_mb')} MB peak; $first_traffic")
print(f"  first sync, index.json  {float('$legacy_s'):6.2f} s, {int('$legacy_mb')} MB peak; $legacy_traffic")
print(f"  no-op sync              {float('$noop_s'):6.2f} s; $noop_traffic")
print(f"  one author changed      publish {float('$republish_s'):.2f} s; reader {float('$changed_s'):.2f} s, $changed_traffic")
print(f"fetch part: $repos repositories on git daemon")
print(f"  keeper sync             {float('$gitsync_s'):6.2f} s")
print(f"  reader get of all       {float('$get_s'):6.2f} s ($got stored, each at its pinned commit, hashes checked)")
import sys
sys.path.insert(0, "scripts")
from bench_summary import record
record("catalogue", "publish $authors authors, $stories stories (signed)", f"{float('$publish_s'):.2f} s, {int('$publish_mb')} MB", "", None, "under 10 s", float('$publish_s') < 10)
record("catalogue", "the signed root's size", f"{int('$root_bytes') / 1024:.1f} KB", f"index.json {int('$index_bytes') / 1e6:.1f} MB", None, "under 64 KB", int('$root_bytes') < 65536)
record("catalogue", "a reader's first sync, root and shards", f"{float('$first_s'):.2f} s, {int('$first_mb')} MB", f"one index.json {float('$legacy_s'):.2f} s, {int('$legacy_mb')} MB", float('$first_s') / max(float('$legacy_s'), 0.001), "", None)
record("catalogue", "a reader's get of $repos repositories at their pinned commits", f"{float('$get_s'):.2f} s", "", None, "", None)
EOF
