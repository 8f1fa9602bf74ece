#!/usr/bin/env bash
# Checks `cyd export twee` against tweego, the Twee compiler authors use: every bundled story and a
# generated one of 3,000 chapters, written for Harlowe, SugarCube and Chapbook, must compile with
# tweego without a warning; `tweego -d` of the HTML must import back (`cyd import twee`) to the
# same story, and so must the compiled HTML itself (`cyd import twine`).
#
# Not part of the test command: tweego is not in Debian or PyPI, so it cannot be had on a fresh
# machine. Built by hand, offline, like this (Go and tweego's dependencies from Debian; tweego's
# own source, and radovskyb/watcher, which Debian lacks, from their repositories):
#
#   apt-get install golang-go golang-golang-x-net-dev golang-golang-x-text-dev \
#     golang-github-masterminds-semver-dev golang-github-paulrosania-go-charset-dev
#   mkdir -p $GOPATH/src/github.com/{tmedwards/tweego,radovskyb/watcher}   # put the sources there
#   cd $GOPATH/src/github.com/tmedwards/tweego
#   GO111MODULE=off GOPATH=$GOPATH:/usr/share/gocode go build -o /opt/tweego/tweego .
#
# and the story formats beside it, in /opt/tweego/storyformats/NAME-VERSION/format.js (Twine's
# own copies: public/story-formats in the twinejs repository).
#
# usage: scripts/check-tweego.sh PATH/TO/tweego
set -euo pipefail
cd "$(dirname "$0")/.."
tweego=${1:?usage: scripts/check-tweego.sh PATH/TO/tweego}
swift build -c release --product cyd >/dev/null
cyd=$(swift build -c release --show-bin-path)/cyd
work=$(mktemp -d)
python3 scripts/generate-story.py 3000 "$work/generated.json"
formats=$( ("$tweego" --list-formats 2>&1 || true) | awk 'NR > 3 { print $1 }')  # it exits 1 after listing
format_id() { echo "$formats" | grep "^$1-" | sort -V | tail -1 || true; }

failures=0
checked=0
for story in Stories/*/story.json "$work/generated.json"; do
  name=$(basename "$(dirname "$story")")
  [ "$story" = "$work/generated.json" ] && name=generated
  for format in harlowe sugarcube chapbook; do
    id=$(format_id "$format")
    [ -n "$id" ] || { echo "tweego has no $format story format" >&2; exit 2; }
    base="$work/$name-$format"
    "$cyd" export twee "$story" --format "$format" -o "$base.twee" >/dev/null
    if ! "$tweego" -f "$id" -o "$base.html" "$base.twee" 2>"$base.warnings" || [ -s "$base.warnings" ]; then
      echo "FAIL $name ($id): tweego: $(head -3 "$base.warnings")"
      failures=$((failures + 1))
      continue
    fi
    "$tweego" -d -o "$base.back.twee" "$base.html"
    "$cyd" import twee "$base.back.twee" -o "$base.back.json" >/dev/null
    "$cyd" import twine "$base.html" -o "$base.html.json" >/dev/null
    for back in "$base.back.json" "$base.html.json"; do
      checked=$((checked + 1))
      if ! python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1])) != json.load(open(sys.argv[2])))' "$story" "$back"; then
        echo "FAIL $name ($id): $(basename "$back") is not the same story"
        failures=$((failures + 1))
      fi
    done
    echo "ok   $name ($id): compiled without a warning; tweego -d and the HTML both import back to the same story"
  done
done
echo "$checked round trips, $failures failed"
[ "$failures" -eq 0 ]
