#!/usr/bin/env python3
"""The README's map (spec section -> route -> gateway module -> service module -> tab -> tests)
names files; this fails listing each named file that no longer exists, so the map stays true
when code moves. Column prefixes as the README says: gateway modules in
services/gateway/src/routes/ (or src/), service modules as `<service>: file` from
services/<service>/src/, API tests in services/launcher/tests/api/ (a file or its folder),
e2e files in e2e/tests/, other paths from the repository root. Prints `N passed, N failed`."""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def exists(name, dirs):
    return any(os.path.exists(os.path.join(ROOT, d, name)) for d in dirs)


def main():
    rows = [l for l in open(os.path.join(ROOT, "README.md"), encoding="utf-8").read().split("\n")
            if l.startswith("| ") and l.count("|") >= 7 and not l.startswith("| spec section")
            and not l.startswith("|---")]
    checked, missing = 0, []

    def check(ok, what, row):
        nonlocal checked
        checked += 1
        if not ok:
            missing.append(f"{row}: {what}")

    for r in rows:
        cells = [c.strip() for c in r.strip().strip("|").split("|")]
        if len(cells) < 6:
            continue
        row, gw, svc, fe, tests = cells[0][:40], cells[2], cells[3], cells[4], cells[5]
        for n in re.findall(r"`([^`]+\.rs)`", gw):
            check(exists(n, ["services/gateway/src/routes", "services/gateway/src", ""]), f"gateway {n}", row)
        for part in svc.split(";"):
            m = re.match(r"\s*([\w-]+):(.*)", part)
            names = re.findall(r"`([^`]+\.rs)`", m.group(2) if m else part)
            for n in names:
                dirs = [f"services/{m.group(1)}/src", ""] if m else [""]
                check(exists(n, dirs), f"service {(m.group(1) + ': ') if m else ''}{n}", row)
        for n in re.findall(r"`((?:shells|mfe-[\w-]+|packages|scripts)/[^`]*)`", fe + tests):
            check(os.path.exists(os.path.join(ROOT, n)), n, row)
        api = tests.split("·")[0]
        for n in re.findall(r"`([^`/]+\.rs)`", api):
            check(exists(n, ["services/launcher/tests/api"]), f"API test {n}", row)
        for n in re.findall(r"`([^`]+\.test\.mjs)`", tests.split("·")[-1]):
            check(exists(n, ["e2e/tests"]), f"e2e {n}", row)
    for m in missing:
        print(f"FAILED: README map names a missing file: {m}")
    print(f"{checked - len(missing)} passed, {len(missing)} failed")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
