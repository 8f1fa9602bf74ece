#!/usr/bin/env bash
# `cyd serve` against nginx, side by side in one run on this machine: wrk asks both for the same
# chapter (cyd from the library, nginx the page `cyd build web` made of it), 64 connections, two
# alternating rounds each; then cyd's resident memory under that load, how soon after start-up
# the first chapter page is answered, and places written by POSTs (each from a new profile, so a
# lost write shows as a missing row) with any "database is locked" counted.
#
# usage: scripts/bench-serve.sh            (BENCH_DIR=folder keeps the work files; SECONDS_EACH=10)
# Needs wrk and nginx (installed here from Debian when missing) and a release build of cyd with
# the BrowserReader trait (made here, in .build-serve, apart from the reader's .build).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${SECONDS_EACH:-10}

missing=()
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  # Debian starts an installed nginx as a service on port 80; this benchmark runs its own, so
  # services are held back while installing (policy-rc.d, the Debian way), unless a policy is set.
  held=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | $sudo tee /usr/sbin/policy-rc.d >/dev/null && $sudo chmod +x /usr/sbin/policy-rc.d && held=yes
  fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  [ -z "$held" ] || $sudo rm -f /usr/sbin/policy-rc.d
fi
nginx=$(command -v nginx || echo /usr/sbin/nginx)

# CYD names a cyd built already (bench-all.sh builds one for every script).
if [ -n "${CYD:-}" ]; then
  cyd=$CYD
else
  swift build -c release --traits BrowserReader --product cyd --scratch-path .build-serve >/dev/null
  cyd=$(swift build -c release --traits BrowserReader --scratch-path .build-serve --show-bin-path)/cyd
fi

work=${BENCH_DIR:-$(mktemp -d)}
mkdir -p "$work"
rm -rf "$work/library" "$work/site"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT

"$cyd" add --library "$work/library" Stories/the-keeper-of-gull-rock >/dev/null
"$cyd" build web "$work/site" Stories/the-keeper-of-gull-rock >/dev/null
chapter=arrival
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# The first page after start-up: from spawning cyd serve to the chapter answered (median of 5).
first_page=$(python3 - "$cyd" "$work/library" "$chapter" <<'EOF'
import http.client, socket, statistics, subprocess, sys, time
cyd, library, chapter = sys.argv[1:4]
times = []
for _ in range(5):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
    started = time.monotonic()
    server = subprocess.Popen([cyd, "serve", "--library", library, "--listen", f"127.0.0.1:{port}"], stdout=subprocess.DEVNULL)
    answered = None
    while time.monotonic() - started < 10 and answered is None:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", f"/stories/1/{chapter}")
            if connection.getresponse().status == 200:
                answered = time.monotonic() - started
            connection.close()
        except OSError:
            time.sleep(0.001)
    server.terminate(); server.wait()
    times.append(answered if answered is not None else float("inf"))
print(f"{statistics.median(times) * 1000:.1f}")
EOF
)

cyd_port=$(free_port)
"$cyd" serve --library "$work/library" --listen "127.0.0.1:$cyd_port" >/dev/null &
cyd_pid=$!
pids+=("$cyd_pid")
nginx_port=$(free_port)
cat >"$work/nginx.conf" <<EOF
worker_processes 2;
daemon off;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  include /etc/nginx/mime.types;
  server { listen 127.0.0.1:$nginx_port; root $work/site; }
}
EOF
"$nginx" -p "$work" -c "$work/nginx.conf" &
pids+=($!)
sleep 1
# Both answer the chapter itself (200 with its heading), not a redirect or an error page.
for url in "http://127.0.0.1:$cyd_port/stories/1/$chapter" "http://127.0.0.1:$nginx_port/gull-rock/$chapter.html"; do
  page=$(curl -s -w '\n%{http_code}' "$url")
  [ "${page##*$'\n'}" = 200 ] && grep -q '<h1[^>]*>Gull Rock</h1>' <<<"$page" || { echo "bench-serve: $url did not answer the chapter" >&2; exit 1; }
done

# wrk's figures: requests a second, and the 99th percentile latency in ms.
run_wrk() {
  wrk -t2 -c64 -d"${seconds}s" --latency "$1" | python3 -c '
import re, sys
text = sys.stdin.read()
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
value, unit = re.search(r"\s99%\s+([\d.]+)(us|ms|s)", text).groups()
p99 = float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
print(f"{rps:.0f} {p99:.2f} {errors.group(1) if errors else 0}")'
}
results=()
for round in 1 2; do
  results+=("cyd $(run_wrk "http://127.0.0.1:$cyd_port/stories/1/$chapter")")
  results+=("nginx $(run_wrk "http://127.0.0.1:$nginx_port/gull-rock/$chapter.html")")
done
rss=$(awk '/VmRSS/ {print $2}' "/proc/$cyd_pid/status")
hwm=$(awk '/VmHWM/ {print $2}' "/proc/$cyd_pid/status")

# Places written: POSTs of a choice, each from a profile of its own, so that a lost write shows
# as a missing row. A profile cookie is sealed by the server that made it, so the profiles are
# chosen first, one POST to /profiles each (PROFILES of them, more than the load can use), and
# wrk's threads share them out.
token=$(curl -s "http://127.0.0.1:$cyd_port/stories/1" | sed -n 's/.*name="token" value="\([0-9a-f]*\)".*/\1/p' | head -1)
profiles=${PROFILES:-30000}
python3 - "$cyd_port" "$token" "$profiles" "$work/cookies.txt" <<'EOF'
import http.client, sys, urllib.parse
port, token, count, out = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
cookies = []
for n in range(count):
    body = urllib.parse.urlencode({"token": token, "profile": f"w{n}"})
    connection.request("POST", "/profiles", body, {"Content-Type": "application/x-www-form-urlencoded"})
    response = connection.getresponse()
    response.read()
    cookie = next((v.split(";")[0] for k, v in response.getheaders() if k.lower() == "set-cookie" and v.startswith("cyd_profile=")), None)
    if cookie is None:
        sys.exit(f"bench-serve: choosing profile w{n} gave {response.status} and no profile cookie")
    cookies.append(cookie)
open(out, "w").write("\n".join(cookies) + "\n")
EOF
cat >"$work/post.lua" <<'EOF'
local threads = {}
function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end
function init(args)
  token, from, file, counter = args[1], args[2], args[3], 0
  cookies = {}
  for line in io.lines(file) do table.insert(cookies, line) end
end
function request()
  -- Thread 0 takes the even cookies, thread 1 the odd ones; none is used twice while they last.
  local n = (counter * 2 + id) % #cookies + 1
  counter = counter + 1
  local headers = { ["Content-Type"] = "application/x-www-form-urlencoded", ["Cookie"] = cookies[n] }
  return wrk.format("POST", "/stories/1/-/choose", headers, "token=" .. token .. "&from=" .. from .. "&choice=1")
end
function done(summary, latency, requests)
  io.write(string.format("answered %d failed %d\n", summary.requests, summary.errors.status))
end
EOF
posts=$(wrk -t2 -c64 -d"${seconds}s" -s "$work/post.lua" "http://127.0.0.1:$cyd_port" -- "$token" "$chapter" "$work/cookies.txt")
answered=$(echo "$posts" | awk '/^answered/ {print $2}')
failed=$(echo "$posts" | awk '/^answered/ {print $4}')
post_rps=$(echo "$posts" | awk '/Requests\/sec/ {print $2}')
rows=$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM progress WHERE profile LIKE ?", ("w%",)).fetchone()[0])' "$work/library/library.sqlite")
locked=$(grep -c "locked" "$work/nginx-error.log" 2>/dev/null || true)

python3 - "$first_page" "$rss" "$hwm" "$answered" "$failed" "$post_rps" "$rows" "${results[@]}" "$profiles" <<'EOF'
import statistics, sys
first, rss, hwm, answered, failed, post_rps, rows = sys.argv[1:8]
runs = [line.split() for line in sys.argv[8:-1]]
def med(name, index):
    return statistics.median(float(r[index]) for r in runs if r[0] == name)
cyd_rps, nginx_rps = med("cyd", 1), med("nginx", 1)
print(f"one chapter page, wrk -t2 -c64, {len(runs) // 2} rounds each (medians):")
print(f"  cyd serve  {cyd_rps:9.0f} requests/s  p99 {med('cyd', 2):6.2f} ms  non-2xx/3xx {sum(int(r[3]) for r in runs if r[0] == 'cyd')}")
print(f"  nginx      {nginx_rps:9.0f} requests/s  p99 {med('nginx', 2):6.2f} ms")
print(f"  cyd / nginx: {cyd_rps / nginx_rps:.2f}")
print(f"cyd's memory after the load: resident {int(rss) / 1024:.1f} MB, peak {int(hwm) / 1024:.1f} MB")
print(f"first chapter page after start-up: {first} ms (median of 5)")
print(f"places written by POST (a new profile each): {float(post_rps):.0f}/s; answered {answered}, failed {failed}, rows in the library {rows}")
sys.path.insert(0, "scripts")
from bench_summary import at_most, record
record("serve", "a chapter page, wrk -t2 -c64: rate", f"{cyd_rps:.0f}/s", f"nginx {nginx_rps:.0f}/s", cyd_rps / nginx_rps, "at least 0.8x nginx", cyd_rps / nginx_rps >= 0.8)
record("serve", "the same: p99 latency", f"{med('cyd', 2):.2f} ms", f"nginx {med('nginx', 2):.2f} ms", None, "under 5 ms", med("cyd", 2) < 5)
record("serve", "first chapter page after start-up", f"{float(first):.1f} ms", "", None, "under 30 ms", float(first) < 30)
profiles = int(sys.argv[-1])
# wrk counts the answers it read before its time was up; the requests still in flight then (at
# most one a connection, 64) are stored too, so the rows may exceed the answers by that much.
kept = min(int(answered), profiles) <= int(rows) <= min(int(answered) + 64, profiles)
record("serve", "places written by POST, each from a new profile", f"{float(post_rps):.0f}/s; {rows} rows for {answered} answered", "", None, "every answered POST stored", int(failed) == 0 and kept)
EOF
