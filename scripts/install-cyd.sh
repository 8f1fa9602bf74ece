#!/usr/bin/env bash
# Installs cyd with its shell completions (bash, zsh, fish) and its man page, both generated
# from the argument parser's own definitions (swift-argument-parser's generate-manual tool and
# --generate-completion-script), so they always match the binary.
#
# usage: scripts/install-cyd.sh [--prefix DIR] [--binary FILE]
#   --prefix DIR   where to install (default /usr/local): DIR/bin/cyd,
#                  DIR/share/man/man1/cyd.1, DIR/share/bash-completion/completions/cyd,
#                  DIR/share/zsh/site-functions/_cyd, DIR/share/fish/vendor_completions.d/cyd.fish
#   --binary FILE  install this cyd instead of building a release one (linked with Swift's
#                  runtime in, as scripts/build-static.sh does)
# Needs what scripts/install-deps.sh installs (the C libraries) and Swift.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=/usr/local
binary=""
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix=$2; shift 2 ;;
    --binary) binary=$2; shift 2 ;;
    *) echo "install-cyd.sh: unknown option $1 (see the usage at the top of the script)" >&2; exit 2 ;;
  esac
done
# A separate scratch folder for the tool when asked (a test runs this while `swift test` holds .build).
scratch=(--scratch-path "${CYD_TOOLS_SCRATCH:-.build}")
made=$(mktemp -d)
trap 'rm -rf "$made"' EXIT
if [ -z "$binary" ]; then
  # With the browser reader: every documented command is in the installed cyd. Its objects are
  # linked with Swift's runtime in (scripts/build-static.sh, compiling nothing again): the
  # installed cyd keeps working when the toolchain moves, starts sooner (no Swift shared
  # library to load and relocate) and holds less memory (scripts/bench-all.sh measures it).
  swift build -c release --traits BrowserReader --product cyd >/dev/null
  scripts/build-static.sh --from-build "$(swift build -c release --traits BrowserReader --show-bin-path)" --binary "$made/cyd" >/dev/null
  binary="$made/cyd"
fi
[ -x "$binary" ] || { echo "install-cyd.sh: $binary is not an executable cyd" >&2; exit 2; }
# swift-argument-parser's generate-manual: CYD_GENERATE_MANUAL when one is built already (the
# test command builds it with the tests), else built here.
manual_tool=${CYD_GENERATE_MANUAL:-}
if [ -z "$manual_tool" ]; then
  swift build "${scratch[@]}" --product generate-manual >/dev/null
  manual_tool="$(swift build "${scratch[@]}" --show-bin-path)/generate-manual"
fi
[ -x "$manual_tool" ] || { echo "install-cyd.sh: $manual_tool is not an executable generate-manual" >&2; exit 2; }
"$manual_tool" "$binary" --output-directory "$made" --authors "ChooseYourDestiny contributors" >/dev/null

install -D -m 755 "$binary" "$prefix/bin/cyd"
install -D -m 644 "$made/cyd.1" "$prefix/share/man/man1/cyd.1"
"$binary" --generate-completion-script bash | install -D -m 644 /dev/stdin "$prefix/share/bash-completion/completions/cyd"
"$binary" --generate-completion-script zsh | install -D -m 644 /dev/stdin "$prefix/share/zsh/site-functions/_cyd"
"$binary" --generate-completion-script fish | install -D -m 644 /dev/stdin "$prefix/share/fish/vendor_completions.d/cyd.fish"
echo "installed cyd $("$prefix/bin/cyd" --version | head -1 | cut -d' ' -f2) in $prefix: bin/cyd, its man page (man cyd) and bash, zsh and fish completions"
