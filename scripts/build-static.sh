#!/usr/bin/env bash
# Builds a cyd that runs on a Linux machine without Swift: the Swift standard library,
# Foundation and Dispatch linked in (--static-swift-stdlib); libgit2 and SQLite come from the
# system as shared libraries and libcurl is loaded on first use, as in every build. Packs it as
# the release archive the GitHub Action downloads (dist/cyd-linux-<arch>.tar.gz) and prints
# its size and start-up time.
#
# usage: scripts/build-static.sh      (scratch folder .build-static, kept for the next build)
# A machine that runs it needs: libgit2-1.5, libsqlite3-0 and, for https, libcurl4 (Debian
# package names; `ldd cyd` lists them).
#
# usage: scripts/build-static.sh [--from-build BIN] [--archive FILE] [--binary FILE]
#   --from-build BIN  link the objects of a build already made (its bin folder, .build/debug)
#                     with Swift's runtime linked in, compiling nothing: the test command
#                     checks the archive this way on the build it tests, scripts/install-cyd.sh
#                     and scripts/bench-all.sh link the release build this way
#   --archive FILE    where the archive goes (default dist/cyd-linux-<arch>.tar.gz)
#   --binary FILE     write the stripped binary to FILE; with --binary and no --archive, no
#                     archive is made
set -euo pipefail
cd "$(dirname "$0")/.."
from=""
archive=""
binary=""
while [ $# -gt 0 ]; do
  case "$1" in
    --from-build) from=$2; shift 2 ;;
    --archive) archive=$2; shift 2 ;;
    --binary) binary=$2; shift 2 ;;
    *) echo "build-static.sh: unknown option $1 (see the usage at the top of the script)" >&2; exit 2 ;;
  esac
done
[ -n "$archive" ] || [ -n "$binary" ] || archive="dist/cyd-linux-$(uname -m).tar.gz"
stripped=$(mktemp -d)
trap 'rm -rf "$stripped"' EXIT
if [ -z "$from" ]; then
  scratch=${CYD_STATIC_SCRATCH:-.build-static}
  mkdir -p "$scratch"
  # The build's own output is kept: a release build of our sources must compile without a
  # warning (what was compiled this time is counted; a fresh clone compiles everything).
  # With the browser reader, as the installed cyd: every documented command is in it.
  swift build -c release --traits BrowserReader --product cyd --static-swift-stdlib --scratch-path "$scratch" >"$scratch/build.log" 2>&1 \
    || { cat "$scratch/build.log" >&2; exit 1; }
  warnings=$(grep -E '^/.*/Sources/[^:]+:[0-9]+:[0-9]+: warning:' "$scratch/build.log" | sort -u || true)
  echo "compiler warnings in Sources: $(printf '%s' "$warnings" | grep -c . || true)"
  [ -z "$warnings" ] || printf '%s\n' "$warnings"
  cp "$(swift build -c release --traits BrowserReader --product cyd --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)/cyd" "$stripped/cyd"
else
  # The link SwiftPM makes for `--static-swift-stdlib`, on objects compiled against the shared
  # runtime: their autolink entries name Foundation alone, so the static Foundation's own
  # libraries are named here, in one group.
  list="$from/cyd.product/Objects.LinkFileList"
  [ -f "$list" ] || { echo "build-static.sh: $list does not exist: build cyd there first" >&2; exit 2; }
  # The linker's one warning comes from the static Foundation (its use of mktemp), not from
  # cyd: it is left out; anything else the link says is shown, and all of it when it fails.
  swiftc -L "$from" -o "$stripped/cyd" -module-name cyd -static-stdlib -emit-executable -Xlinker --defsym -Xlinker main=cyd_main "@$list" -ldl \
    -Xlinker --start-group -lFoundation -lCoreFoundation -lFoundationInternationalization -l_FoundationICU -lFoundationEssentials \
    -l_FoundationCShims -l_FoundationCollections -lFoundationNetworking -l_CFURLSessionInterface -Xlinker --end-group -lstdc++ \
    2>"$stripped/link.log" || { cat "$stripped/link.log" >&2; exit 1; }
  grep -v "libFoundationEssentials.a(Data+Writing.swift.o).*the use of \`mktemp' is dangerous" "$stripped/link.log" >&2 || true
  echo "linked from $from (nothing compiled)"
fi
strip "$stripped/cyd"
if ldd "$stripped/cyd" | grep -q 'libswift\|libFoundation\|libdispatch'; then
  echo "build-static.sh: the binary still needs Swift's shared libraries:" >&2
  ldd "$stripped/cyd" | grep 'libswift\|libFoundation\|libdispatch' >&2
  exit 1
fi
if [ -n "$archive" ]; then
  mkdir -p "$(dirname "$archive")"
  tar -czf "$archive" -C "$stripped" cyd
fi
if [ -n "$binary" ]; then
  mkdir -p "$(dirname "$binary")"
  cp "$stripped/cyd" "$binary"
fi
start=$(date +%s%N)
for _ in 1 2 3 4 5 6 7 8 9 10; do env -i "$stripped/cyd" --help >/dev/null; done
end=$(date +%s%N)
echo "cyd (static Swift runtime): $(du -k "$stripped/cyd" | cut -f1) KB stripped${archive:+, $(du -k "$archive" | cut -f1) KB as $archive}${binary:+, written to $binary};" \
  "start-up (cyd --help, env -i, mean of 10): $(( (end - start) / 10000000 )) ms"
echo "shared libraries it needs: $(ldd "$stripped/cyd" | awk '{print $1}' | grep -v '^linux-vdso\|^/lib64/ld-linux' | sort | tr '\n' ' ')"
