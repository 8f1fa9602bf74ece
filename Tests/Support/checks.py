"""What the browser checks of Tests/Support share: a line per check, the verdict, waiting on a
page (Playwright's wait_for_function evaluates a string, which our pages' Content-Security-Policy
forbids, as it should), and axe-core's WCAG 2.2 A and AA."""

import sys
import time

WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
failures = []


def check(name, condition, detail=""):
    """Prints "ok" or "FAIL" and the check's name (and what was seen, when it failed)."""
    print(("ok   " if condition else "FAIL ") + name + ("" if condition else ": " + str(detail)[:1500]), flush=True)
    if not condition:
        failures.append(name)


def finish():
    print(f"{len(failures)} failed" if failures else "all passed")
    sys.exit(1 if failures else 0)


def wait_until(page, script, timeout=10.0):
    """Polls `script` in the page until it is true; the time it became true, or None."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.evaluate(script):
            return time.monotonic()
        time.sleep(0.01)
    return None


def axe_clean(axe, page, name):
    result = axe.run(page, options={"runOnly": {"type": "tag", "values": WCAG}})
    violations = result.response.get("violations", [])
    check(f"axe finds nothing on {name}", not violations, [(v["id"], [n["html"][:120] for n in v["nodes"][:2]]) for v in violations])
