#!/usr/bin/env bash
# The logic of action.yml (a composite GitHub Action), kept here so the test suite can run it
# with the environment GitHub sets: GITHUB_ACTIONS, GITHUB_PATH, GITHUB_OUTPUT,
# GITHUB_STEP_SUMMARY, RUNNER_TEMP and the INPUT_* variables the action passes.
#
# usage: scripts/github-action.sh install    get cyd: download release INPUT_VERSION, or build
#                                            this source with Swift; its folder goes on GITHUB_PATH
#        scripts/github-action.sh validate   check INPUT_PATH: annotations (--format github),
#                                            a Markdown summary, SARIF to INPUT_SARIF if set;
#                                            fails on errors (or on warnings with INPUT_STRICT=true)
#        scripts/github-action.sh diff       on a pull request (GITHUB_EVENT_NAME, GITHUB_BASE_REF),
#                                            what it does to the story in INPUT_DIFF, as Markdown,
#                                            appended to the job summary; never fails the job
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
release_base=${CYD_RELEASE_BASE_URL:-https://github.com/ChooseYourDestiny/ChooseYourDestiny/releases/download}

fail() { echo "::error title=cyd::$*"; exit 2; }

install() {
  local version=${INPUT_VERSION:-}
  local bin
  if [ -n "$version" ]; then
    [[ "$version" =~ ^[0-9A-Za-z][0-9A-Za-z.+-]*$ ]] || fail "version '$version' is not a version number (e.g. 0.1.0)"
    bin="${RUNNER_TEMP:-/tmp}/cyd-$version"
    mkdir -p "$bin"
    local url="$release_base/v$version/cyd-linux-$(uname -m).tar.gz"
    curl --fail --silent --show-error --location --retry 3 --max-time 300 "$url" -o "$bin/cyd.tar.gz" \
      || fail "could not download cyd $version from $url"
    tar -xzf "$bin/cyd.tar.gz" -C "$bin" cyd || fail "$url is not a cyd release archive (it must hold cyd)"
    rm -f "$bin/cyd.tar.gz"
  else
    command -v swift >/dev/null || fail "no version given and no Swift on this runner to build cyd: set 'version' or install Swift first"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    if ! dpkg -s libgit2-dev libcurl4-openssl-dev libsqlite3-dev >/dev/null 2>&1; then
      $sudo apt-get update -qq && $sudo apt-get install -y -qq libgit2-dev libcurl4-openssl-dev libsqlite3-dev >/dev/null \
        || fail "could not install libgit2, libcurl and SQLite with apt-get"
    fi
    swift build -c release --product cyd --package-path "$here" >/dev/null || fail "building cyd with Swift failed"
    bin="$(swift build -c release --product cyd --package-path "$here" --show-bin-path)"
  fi
  "$bin/cyd" --version >/dev/null || fail "the cyd in $bin does not run on this runner"
  echo "$bin" >>"${GITHUB_PATH:-/dev/null}"
  echo "cyd: $("$bin/cyd" --version | head -1)"
}

validate() {
  local cyd
  cyd=$(command -v cyd) || fail "cyd is not on PATH (the install step puts it there)"
  local paths
  read -r -a paths <<<"${INPUT_PATH:-.}"
  local flags=()
  [ "${INPUT_STRICT:-false}" = "true" ] && flags+=(--strict)
  local status=0
  # Annotations: workflow commands on standard output, one per finding.
  "$cyd" validate --format github "${flags[@]}" "${paths[@]}" || status=$?
  [ "$status" -le 1 ] || exit "$status"  # cyd has said why on standard error
  local report
  report=$(mktemp)
  trap 'rm -f "$report"' RETURN
  "$cyd" validate --format json "${flags[@]}" --output "$report" "${paths[@]}" || true
  if [ -n "${INPUT_SARIF:-}" ]; then
    "$cyd" validate --format sarif "${flags[@]}" --output "$INPUT_SARIF" "${paths[@]}" || true
    echo "cyd: SARIF written to $INPUT_SARIF"
  fi
  local python=${CYD_ACTION_PYTHON:-python3}
  if ! command -v "$python" >/dev/null; then
    # No Python on this runner: counts and a pointer to the annotations, without the table.
    local errors warnings
    errors=$(grep -o '"errors" *: *[0-9]*' "$report" | tail -1 | grep -o '[0-9]*$')
    warnings=$(grep -o '"warnings" *: *[0-9]*' "$report" | tail -1 | grep -o '[0-9]*$')
    printf '## cyd validate\n\n%s errors, %s warnings: see the annotations.\n' "$errors" "$warnings" >>"${GITHUB_STEP_SUMMARY:-/dev/null}"
    printf 'errors=%s\nwarnings=%s\n' "$errors" "$warnings" >>"${GITHUB_OUTPUT:-/dev/null}"
    exit "$status"
  fi
  "$python" - "$report" "${GITHUB_STEP_SUMMARY:-/dev/null}" "${GITHUB_OUTPUT:-/dev/null}" "$status" <<'PY'
import json, sys

report_path, summary_path, output_path, status = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
report = json.load(open(report_path))
summary = report["summary"]
errors, warnings = summary["errors"], summary["warnings"]


def cell(text):
    # Markdown table cell: no pipes, no line breaks, no HTML.
    return (str(text).replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")
            .replace("\r", " ").replace("\n", " "))


lines = ["## cyd validate", ""]
verdict = "failed" if status else "passed"
lines.append(f"**{verdict}**: {errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''} "
             f"in {len(report['files'])} file{'s' if len(report['files']) != 1 else ''}.")
findings = [(f["path"], d) for f in report["files"] for d in f["diagnostics"]]
if findings:
    lines += ["", "| | code | where | finding |", "|---|---|---|---|"]
    shown = findings[:200]
    for path, d in shown:
        mark = {"error": "❌", "warning": "⚠️"}.get(d["severity"], "ℹ️")
        lines.append(f"| {mark} | `{cell(d['code'])}` | {cell(path)}:{d['line']}:{d['column']} | {cell(d['message'])} |")
    if len(findings) > len(shown):
        lines.append(f"\n{len(findings) - len(shown)} more findings are in the annotations and the logs.")
with open(summary_path, "a") as out:
    out.write("\n".join(lines) + "\n")
with open(output_path, "a") as out:
    out.write(f"errors={errors}\nwarnings={warnings}\n")
PY
  exit "$status"
}

# What the pull request does to the story, from where it left its base branch (git merge-base),
# as Markdown in the job summary. A summary that cannot be made is said there and in the log;
# it never fails the job (the validate step decides that).
diff() {
  [ "${GITHUB_EVENT_NAME:-}" = "pull_request" ] || { echo "cyd: not a pull request: no story diff"; return 0; }
  local cyd
  cyd=$(command -v cyd) || fail "cyd is not on PATH (the install step puts it there)"
  local folder=${INPUT_DIFF:-.}
  local base_ref=${GITHUB_BASE_REF:-}
  [[ "$base_ref" =~ ^[A-Za-z0-9._/-]+$ ]] || { echo "::warning title=cyd::no base branch to compare with (GITHUB_BASE_REF)"; return 0; }
  local base
  if ! base=$(git -C "$folder" merge-base "origin/$base_ref" HEAD 2>/dev/null); then
    printf '## Story change\n\nThe base branch `%s` is not in this checkout: give actions/checkout `fetch-depth: 0`.\n' "$base_ref" >>"${GITHUB_STEP_SUMMARY:-/dev/null}"
    echo "::warning title=cyd::origin/$base_ref is not in this checkout (actions/checkout needs fetch-depth: 0)"
    return 0
  fi
  local status=0
  "$cyd" diff "$base" HEAD --story "$folder" --format markdown >>"${GITHUB_STEP_SUMMARY:-/dev/null}" || status=$?
  [ "$status" -le 1 ] || echo "::warning title=cyd::cyd diff could not compare the story (exit $status)"
  return 0
}

case "${1:-}" in
  install) install ;;
  validate) validate ;;
  diff) diff ;;
  *) echo "usage: scripts/github-action.sh install|validate|diff" >&2; exit 2 ;;
esac
