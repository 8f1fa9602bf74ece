#!/usr/bin/env bash
# Installs what building, testing and benchmarking cyd needs on Debian (run as root):
# the C libraries (libgit2, libcurl, SQLite; libedit for the reader's line editing; libchafa and the
# picture decoders libjpeg-turbo, libpng, giflib and libwebp, whose headers the build reads), git (its daemon and http-backend serve test
# repositories), hyperfine and GNU time (benchmarks), valgrind and binutils' strip (the instruction-count gate,
# scripts/instruction-counts.sh), tmux (terminal tests), Graphviz (the
# chapter map: `cyd graph --format svg`, and the test that its DOT parses), groff (the test
# that the man page renders), Neovim (the test that runs the editor set-up in docs/editors-and-ci.md), patch
# (the test that `cyd fix --dry-run` prints a patch that applies), and
# check-jsonschema, pre-commit, pytest-lsp and Pillow from PyPI (schema agreement tests and benchmark
# peer; the hook `cyd init` writes and the project's own hook; the client that tests `cyd lsp`);
# Chromium, with Playwright and axe-playwright-python from PyPI, for the test that reads the site
# `cyd build web` makes in a real browser (Playwright drives Debian's chromium; its own browser
# download is not needed); zbar-tools, whose zbarimg reads back the QR code `cyd serve` draws; epubcheck (with Java), which checks the books `cyd export epub` makes;
# GNU gettext (msgfmt, msgmerge, msgattrib), translate-toolkit from PyPI (pofilter, po2xliff, xliff2po) and
# libxml2-utils (xmllint, against the OASIS XLIFF 2.1 schema), which check the translation files `cyd l10n` writes.
# Quiet and quick when everything is already there.
set -euo pipefail
packages=(libgit2-dev libcurl4-openssl-dev libsqlite3-dev libedit2 libchafa0 libjpeg62-turbo-dev libpng-dev libgif-dev libwebp-dev
  git curl hyperfine time valgrind binutils tmux graphviz groff-base neovim patch chromium zbar-tools epubcheck signify-openbsd gettext libxml2-utils)
# python3 and pip may come from elsewhere (pyenv); only ask apt for them when there is none.
command -v python3 >/dev/null 2>&1 || packages+=(python3 python3-pip)
missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if ! command -v check-jsonschema >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check check-jsonschema \
    || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages check-jsonschema
  hash -r
fi
command -v check-jsonschema >/dev/null || { echo "check-jsonschema is not on PATH after installing it" >&2; exit 1; }
# pre-commit: the test that a story made by `cyd init` passes its own hook.
if ! command -v pre-commit >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check pre-commit \
    || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages pre-commit
  hash -r
fi
command -v pre-commit >/dev/null || { echo "pre-commit is not on PATH after installing it" >&2; exit 1; }
# pytest-lsp (with pygls and lsprotocol): the client that drives `cyd lsp` in the test suite.
if ! python3 -c 'import pytest_lsp' >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check pytest-lsp \
    || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages pytest-lsp
fi
python3 -c 'import pytest_lsp' || { echo "pytest-lsp cannot be imported after installing it" >&2; exit 1; }
# Pillow: scripts/make-pictures.py writes the pictures the picture tests and bench-read.sh use.
if ! python3 -c 'import PIL' >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check Pillow \
    || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages Pillow
fi
python3 -c 'import PIL' || { echo "Pillow cannot be imported after installing it" >&2; exit 1; }
# Playwright (it drives /usr/bin/chromium) and axe-core for it: the browser test of `cyd build web`.
if ! python3 -c 'import playwright, axe_playwright_python' >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check playwright axe-playwright-python \
    || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages playwright axe-playwright-python
fi
python3 -c 'import playwright, axe_playwright_python' || { echo "playwright or axe-playwright-python cannot be imported after installing them" >&2; exit 1; }
# translate-toolkit: pofilter, po2xliff and xliff2po, which the translation tests run on cyd's files.
if ! command -v pofilter >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check translate-toolkit \
    || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages translate-toolkit
  hash -r
fi
command -v pofilter >/dev/null || { echo "pofilter (translate-toolkit) is not on PATH after installing it" >&2; exit 1; }
