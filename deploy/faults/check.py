#!/usr/bin/env python3
"""The fault test's verdict (deploy/faults/run.sh): reads the run's events, k6's response and
acknowledged-write log lines, and PostgreSQL; prints a summary; exits 1 on any violation.

  check.py WORKDIR SCHEMA_PREFIX DOWN_SECS
"""
import collections
import json
import os
import subprocess
import sys

RECOVERY_MS = 5000

work, schemas, down_secs = sys.argv[1], sys.argv[2], int(sys.argv[3])
events = {}
for line in open(os.path.join(work, "events")):
    k, v = line.split()
    events[k] = int(v)

responses, acks, notes = [], [], []
for line in open(os.path.join(work, "k6.log"), errors="replace"):
    if line.startswith("R "):
        parts = line.split(" ", 7)
        responses.append({"t": int(parts[1]), "journey": parts[2], "status": int(parts[3]), "ms": int(parts[4]), "method": parts[5],
                          "path": parts[6].strip(), "violation": "VIOLATION" in line, "line": line.strip()})
    elif line.startswith("A "):
        acks.append(json.loads(line[2:]))
    elif line.strip():
        notes.append(line.strip())

violations = []
outages = [("profile", events["profile_down"], events["profile_up"]), ("redis", events["redis_down"], events["redis_up"])]


def phase(t):
    for name, down, up in outages:
        if down <= t <= up:
            return f"{name} down"
        if up < t <= up + RECOVERY_MS:
            return f"{name} back (first 5 s)"
    return "steady"


# 1. Every answer is a success, a business refusal or a 503 + Retry-After (k6 judged each).
table = collections.defaultdict(collections.Counter)
for r in responses:
    table[phase(r["t"])][r["status"]] += 1
    if r["violation"]:
        violations.append(f"unexpected answer: {r['line'][:240]}")

# 2. 503s only while a part is down or within 5 s of its return.
for r in responses:
    if r["status"] == 503 and phase(r["t"]) == "steady":
        violations.append(f"503 outside an outage (recovery slower than 5 s?): {r['line'][:200]}")

# 3. Recovery measured by the probe.
for name in ("profile", "redis"):
    ms = events.get(f"{name}_recovered_ms")
    if ms is None or ms > RECOVERY_MS:
        violations.append(f"{name}: GET /api/profile answered 200 only {ms} ms after it was back (limit {RECOVERY_MS})")

# 4. While Redis was down, sign-in (links, codes, verification) refused: by the script's own
#    requests, and every sign-in step k6 made in that window.
refusals = open(os.path.join(work, "refusals")).read().split("\n")
for line in refusals:
    if line.startswith("FAIL"):
        violations.append(f"sign-in not refused while Redis was down: {line}")
_, rdown, rup = outages[1]
signin_in_outage = collections.Counter()
for r in responses:
    if r["journey"] == "sign_in" and r["path"].startswith("/api/auth") and rdown + 200 <= r["t"] <= rup:
        signin_in_outage[r["status"]] += 1
        if r["status"] != 503:
            violations.append(f"sign-in step answered {r['status']} while Redis was down: {r['line'][:200]}")

# 5. Every acknowledged write is in PostgreSQL.
def psql(sql):
    out = subprocess.run(["psql", "-X", "-qAt", os.environ["DATABASE_URL"], "-c", sql], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"psql failed: {out.stderr}")
    return out.stdout.strip()


def lit(s):
    return "'" + str(s).replace("'", "''") + "'"


by_kind = collections.Counter(a["kind"] for a in acks)
lost = []
profile, qff = f"{schemas}profile", f"{schemas}qff"
rewards = [a for a in acks if a["kind"] == "reward"]
if rewards:
    values = ",".join(f"({int(a['id'])},{lit(a['pid'])})" for a in rewards)
    missing = psql(f"SELECT a.id FROM (VALUES {values}) AS a(id, pid) LEFT JOIN {profile}.rewards r ON r.id = a.id AND r.profile_id = a.pid WHERE r.id IS NULL")
    lost += [f"reward {m}" for m in missing.split() if m]
conversions = [a for a in acks if a["kind"] == "conversion"]
if conversions:
    values = ",".join(f"({lit(a['id'])},{lit(a['pid'])},{lit(a['status'])})" for a in conversions)
    # Answered completed: still completed. Answered pending: pending, or settled either way.
    missing = psql(
        f"SELECT a.id FROM (VALUES {values}) AS a(id, pid, st) LEFT JOIN {qff}.qff_conversions c ON c.id = a.id AND c.profile_id = a.pid "
        f"WHERE c.id IS NULL OR (a.st = 'completed' AND c.status <> 'completed')"
    )
    lost += [f"conversion {m}" for m in missing.split() if m]
comms = [a for a in acks if a["kind"] == "comms"]
if comms:
    # The preference's state when the answer came back, from the consent history (every change
    # is recorded there): the newest record at or before that moment has the answered value.
    values = ",".join(f"({i},{lit(a['pid'])},{lit(a['channel'])},{1 if a['value'] else 0},{int(a['t1'])})" for i, a in enumerate(comms))
    missing = psql(
        f"SELECT a.i FROM (VALUES {values}) AS a(i, pid, ch, v, t1) WHERE COALESCE((SELECT h.value FROM {profile}.consent_history h "
        f"WHERE h.profile_id = a.pid AND h.channel = a.ch AND h.at_ms <= a.t1 ORDER BY h.at_ms DESC LIMIT 1), -1) <> a.v"
    )
    lost += [f"preference {comms[int(m)]}" for m in missing.split() if m]
for item in lost:
    violations.append(f"acknowledged write not in PostgreSQL: {item}")

# 6. k6's own thresholds (fault_violations == 0).
if events.get("k6_rc", 1) != 0:
    violations.append(f"k6 exited {events.get('k6_rc')} (a threshold failed or k6 broke): {' | '.join(notes[-5:])}")

# Summary.
print("\n== fault test summary")
order = ["steady", "profile down", "profile back (first 5 s)", "redis down", "redis back (first 5 s)"]
def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else 0


print(f"{'phase':26} {'answers':>7} {'p99 ms':>7} {'max ms':>7}  statuses")
for p in order:
    c = table.get(p, collections.Counter())
    ms = [r["ms"] for r in responses if phase(r["t"]) == p]
    print(f"{p:26} {sum(c.values()):>7} {pct(ms, 0.99):>7} {max(ms, default=0):>7}  " + ", ".join(f"{s}: {n}" for s, n in sorted(c.items())))
for name, down, up in outages:
    print(f"{name}: down {(up - down) / 1000:.1f} s; GET /api/profile answered 200 {events.get(name + '_recovered_ms')} ms after it was back")
last = {}
for i, (name, down, up) in enumerate(outages):
    until = outages[i + 1][1] if i + 1 < len(outages) else float("inf")
    after = [r["t"] - up for r in responses if r["status"] == 503 and up < r["t"] < until]
    last[name] = max(after) if after else 0
    print(f"{name}: last 503 seen by k6 {last[name]} ms after it was back")
print("while Redis was down: " + "; ".join(x for x in refusals if x))
print("  k6 sign-in steps in that window: " + (", ".join(f"{s}: {n}" for s, n in sorted(signin_in_outage.items())) or "none"))
print(f"acknowledged writes: {len(acks)} ({', '.join(f'{k}: {n}' for k, n in sorted(by_kind.items()))}); lost: {len(lost)}")
print(f"k6 responses logged: {len(responses)}; k6 exit code {events.get('k6_rc')}")
if violations:
    print(f"\nFAILED: {len(violations)} violation(s)")
    for v in violations[:30]:
        print("  - " + v)
    sys.exit(1)
print("\nPASSED: only 2xx, business refusals and 503 + Retry-After; recovery within 5 s; 0 lost acknowledged writes")
