#!/usr/bin/env python3
"""The portal's SLOs, in one place: writes the recording rules and multi-window, multi-burn-rate
alerts (rules/slo.yaml) and their `promtool test rules` cases (tests/slo_test.yaml), and checks
every rule file.

  python3 deploy/observability/slo.py generate   # rewrite rules/slo.yaml and tests/slo_test.yaml
  python3 deploy/observability/slo.py check      # the committed files are what generate writes;
                                                  # every alert has severity, summary, description
                                                  # and a runbook_url naming a heading of
                                                  # docs/alerts.md; every alert is expected to fire
                                                  # in some test

The SLOs themselves (what each measures, why that target) are written down in docs/alerts.md.
Burn rates follow the Google SRE workbook (chapter "Alerting on SLOs"), for a 30-day window:
2 % of the budget spent in 1 h (and still burning over 5 m) pages, 5 % in 6 h (and 30 m) pages,
10 % in 3 days (and 6 h) opens a ticket.
"""
import math
import pathlib
import re
import sys

import yaml

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
RULES = HERE / "rules" / "slo.yaml"
TESTS = HERE / "tests" / "slo_test.yaml"
DOC = ROOT / "docs" / "alerts.md"
RUNBOOK = "docs/alerts.md#"

WINDOWS = ["5m", "30m", "1h", "6h", "3d"]
# (long window, short window, burn rate, severity, `for`): the SRE workbook's table.
PAGE = [("1h", "5m", 14.4), ("6h", "30m", 6)]
TICKET = ("3d", "6h", 1)

SLOS = [
    {
        "slo": "member-api-availability",
        "alert": "MemberApiAvailability",
        "objective": 0.999,
        "what": "member API answers that are not a server error (5xx), out of every /api answer but the 4xx (the client's)",
        # A ratio SLI: bad events over valid ones. No 5xx at all is a ratio of 0, not no data.
        "bad": 'http_requests_total{route=~"/api/.+",status=~"5.."}',
        "valid": 'http_requests_total{route=~"/api/.+",status!~"4.."}',
        "labels": {"method": "GET", "route": "/api/profile"},
    },
    {
        "slo": "profile-read-latency",
        "alert": "ProfileReadLatency",
        "objective": 0.99,
        "what": "successful GET /api/profile and GET /api/profile/... reads answered within 250 ms",
        # A latency SLI: the share of valid events above the bucket bound (0.25 s: a bound the
        # exporter has; 0.3 s is not one).
        "good": 'http_request_duration_seconds_bucket{method="GET",route=~"/api/profile(/.*)?",status=~"2..",le="0.25"}',
        "valid": 'http_request_duration_seconds_count{method="GET",route=~"/api/profile(/.*)?",status=~"2.."}',
        "labels": {"method": "GET", "route": "/api/profile", "status": "200"},
    },
    {
        "slo": "sign-in-delivery",
        "alert": "SignInDelivery",
        "objective": 0.995,
        "what": "requests for a sign-in link or code (POST /api/auth, /api/auth/magicLink, /api/auth/email, /api/auth/sms) not answered with a server error",
        "bad": 'http_requests_total{method="POST",route=~"/api/auth|/api/auth/magicLink|/api/auth/email|/api/auth/sms",status=~"5.."}',
        "valid": 'http_requests_total{method="POST",route=~"/api/auth|/api/auth/magicLink|/api/auth/email|/api/auth/sms",status!~"4.."}',
        "labels": {"method": "POST", "route": "/api/auth/email"},
    },
    {
        "slo": "redemption-availability",
        "alert": "RedemptionAvailability",
        "objective": 0.995,
        "what": "reward redemptions and points conversions (POST /api/profile/rewards/redeem, POST /api/qff/redeem) accepted or refused for a reason of the member's, not a server error; a conversion left pending (202) counts as accepted",
        "bad": 'http_requests_total{method="POST",route=~"/api/profile/rewards/redeem|/api/qff/redeem",status=~"5.."}',
        "valid": 'http_requests_total{method="POST",route=~"/api/profile/rewards/redeem|/api/qff/redeem",status!~"4.."}',
        "labels": {"method": "POST", "route": "/api/qff/redeem"},
    },
]


def budget(s):
    return round(1 - s["objective"], 6)


def fmt(x):
    return f"{x:g}"


def window_expr(s, w):
    def r(sel):
        return f"sum(rate({sel}[{w}]))"

    if "bad" in s:
        return f"(\n  {r(s['bad'])}\n  or vector(0)\n)\n/\n{r(s['valid'])}\n"
    return f"1 - (\n  {r(s['good'])}\n  /\n  {r(s['valid'])}\n)\n"


def sel(s, w):
    return f'slo:sli_error:ratio_rate{w}{{slo="{s["slo"]}"}}'


def pair(s, long, short, rate):
    t = fmt(rate * budget(s))
    return f"{sel(s, long)} > {t}\nand\n{sel(s, short)} > {t}"


def annotations(s, severity):
    pct = fmt(s["objective"] * 100)
    if severity == "page":
        summary = f"{s['slo']}: the error budget is burning fast (2 % of 30 days' budget in 1 h, or 5 % in 6 h)"
        when = "at this rate the whole 30-day budget is gone within 2 to 5 days"
    else:
        summary = f"{s['slo']}: the error budget is burning (10 % of 30 days' budget in 3 days)"
        when = "at this rate the 30-day budget runs out before the month does"
    return {
        "summary": summary,
        "description": f"SLO {pct} % of {s['what']}, over 30 days; {when}. "
        f"Current error ratios are recorded as slo:sli_error:ratio_rate<window>{{slo=\"{s['slo']}\"}}.",
        "runbook_url": RUNBOOK + (s["alert"] + ("ErrorBudgetBurn" if severity == "page" else "ErrorBudgetSlowBurn")).lower(),
    }


def rules():
    recording = []
    for w in WINDOWS:
        for s in SLOS:
            recording.append({"record": f"slo:sli_error:ratio_rate{w}", "labels": {"slo": s["slo"]}, "expr": window_expr(s, w)})
    alerts = []
    for s in SLOS:
        page = "(\n" + "\n)\nor\n(\n".join(pair(s, *p) for p in PAGE) + "\n)\n"
        alerts.append({
            "alert": s["alert"] + "ErrorBudgetBurn",
            "expr": page,
            "for": "2m",
            "labels": {"severity": "page", "slo": s["slo"]},
            "annotations": annotations(s, "page"),
        })
        alerts.append({
            "alert": s["alert"] + "ErrorBudgetSlowBurn",
            "expr": pair(s, *TICKET) + "\n",
            "for": "15m",
            "labels": {"severity": "ticket", "slo": s["slo"]},
            "annotations": annotations(s, "ticket"),
        })
    return {"groups": [
        {"name": "portal-slo-recording", "rules": recording},
        {"name": "portal-slo-alerts", "rules": alerts},
    ]}


# ---- tests: synthetic series at one sample a minute, N valid events a minute ----------------
N = 1000


def series(s, segments):
    """Input series for `segments`, a list of (error ratio, minutes)."""
    def cumulative(per_minute):
        out, total, first = [], 0.0, True
        for value, mins in per_minute:
            if first:
                out.append(f"0+{fmt(value)}x{mins}")
                total = value * mins
                first = False
            else:
                out.append(f"{fmt(total + value)}+{fmt(value)}x{mins - 1}")
                total += value * mins
        return " ".join(out)

    labels = s["labels"]

    def name(metric, **extra):
        ls = {**labels, **extra}
        return metric + "{" + ",".join(f'{k}="{v}"' for k, v in ls.items()) + "}"

    if "bad" in s:
        metric = "http_requests_total"
        return [
            {"series": name(metric, status="200"), "values": cumulative([(N * (1 - f), m) for f, m in segments])},
            {"series": name(metric, status="503"), "values": cumulative([(N * f, m) for f, m in segments])},
            # Client errors, as many as every valid answer: excluded, so they never burn the budget.
            {"series": name(metric, status="422"), "values": cumulative([(N, m) for _, m in segments])},
        ]
    return [
        {"series": name("http_request_duration_seconds_bucket", le="0.25"), "values": cumulative([(N * (1 - f), m) for f, m in segments])},
        {"series": name("http_request_duration_seconds_count"), "values": cumulative([(N, m) for _, m in segments])},
        # A client error, slow: not a valid event of a latency SLI that counts successful reads.
        {"series": name("http_request_duration_seconds_count", status="404"), "values": cumulative([(N, m) for _, m in segments])},
        {"series": name("http_request_duration_seconds_bucket", status="404", le="0.25"), "values": cumulative([(0, m) for _, m in segments])},
    ]


def expected(s, severity):
    name = s["alert"] + ("ErrorBudgetBurn" if severity == "page" else "ErrorBudgetSlowBurn")
    return {"exp_labels": {"severity": severity, "slo": s["slo"]}, "exp_annotations": annotations(s, severity)}, name


def check_at(s, t, firing):
    """alert_rule_test entries for both alerts of `s` at `t`: `firing` is the set that fires."""
    out = []
    for severity in ("page", "ticket"):
        exp, name = expected(s, severity)
        out.append({"eval_time": t, "alertname": name, "exp_alerts": [exp] if severity in firing else []})
    return out


def outage_page_minutes(s):
    """How soon a total outage pages: the 1 h window's ratio crosses 14.4 x budget, then `for`."""
    return math.ceil(60 * PAGE[0][2] * budget(s)) + 3


def tests():
    cases = []
    for s in SLOS:
        b = budget(s)
        fast, medium, slow, healthy = 20 * b, 10 * b, 3 * b, 0.5 * b
        # Every case starts with 6 h of healthy traffic (half the budget's rate), so each window
        # reads as it would in a long-running Prometheus.
        before = (healthy, 360)
        cases += [
            {   # 20x the budget: the 1 h window crosses 14.4x after ~43 min of it; 30 min in,
                # nothing pages yet; a full hour in, it pages and a ticket is open.
                "name": f"{s['slo']}: burning 20x pages on the 1 h and 5 m windows",
                "interval": "1m",
                "input_series": series(s, [before, (fast, 90)]),
                "alert_rule_test": check_at(s, "6h30m", set())[:1] + check_at(s, "7h", {"page", "ticket"}),
            },
            {   # Everything failing: the 1 h window crosses 14.4x after 60 min x 14.4 x budget
                # (1 min at 99.9 %, 9 at 99 %), the page fires 2 min later (`for`).
                "name": f"{s['slo']}: a total outage pages within {outage_page_minutes(s)} minutes",
                "interval": "1m",
                "input_series": series(s, [before, (1.0, 20)]),
                "alert_rule_test": check_at(s, f"6h{outage_page_minutes(s)}m", {"page"})[:1],
            },
            {   # The burn stopped: the 5 m and 30 m windows clear the page long before 1 h/6 h do.
                "name": f"{s['slo']}: the page clears once the burn stops",
                "interval": "1m",
                "input_series": series(s, [before, (fast, 60), (0, 60)]),
                "alert_rule_test": check_at(s, "7h", {"page"})[:1] + check_at(s, "8h", set())[:1],
            },
            {   # 10x: under 14.4, so the 1 h pair never pages; the 6 h / 30 m pair does once the
                # 6 h window crosses 6x (~3.5 h in).
                "name": f"{s['slo']}: burning 10x pages on the 6 h and 30 m windows",
                "interval": "1m",
                "input_series": series(s, [before, (medium, 300)]),
                "alert_rule_test": check_at(s, "7h", set())[:1] + check_at(s, "10h", {"page", "ticket"}),
            },
            {   # 3x: no page; a ticket from the 3 d / 6 h pair once both cross 1x (~1.5 h in).
                "name": f"{s['slo']}: burning 3x files a ticket, no page",
                "interval": "1m",
                "input_series": series(s, [before, (slow, 120)]),
                "alert_rule_test": check_at(s, "8h", {"ticket"}),
            },
            {   # Within budget (half of it), with as many 4xx as valid answers: quiet.
                "name": f"{s['slo']}: half the budget and many client errors stay quiet",
                "interval": "1m",
                "input_series": series(s, [(healthy, 480)]),
                "alert_rule_test": check_at(s, "7h", set()) + check_at(s, "8h", set()),
            },
        ]
    # The recording rules themselves: the ratio is exact, and 0 (not absent) without errors.
    # The sign-in answers are member API answers too: 2 errors a minute out of 2,000 valid.
    a, lat, sign_in = SLOS[0], SLOS[1], SLOS[2]
    cases.append({
        "name": "recording rules: the error ratio of every window, 0 without errors",
        "interval": "1m",
        "input_series": series(a, [(0.002, 60)]) + series(lat, [(0.05, 60)]) + series(sign_in, [(0, 60)]),
        "promql_expr_test": [
            {"expr": f"round({sel(a, w)}, 0.0001)", "eval_time": "40m",
             "exp_samples": [{"labels": f'{{slo="{a["slo"]}"}}', "value": 0.001}]} for w in ("5m", "30m", "1h", "6h", "3d")
        ] + [
            {"expr": f"round({sel(lat, '5m')}, 0.0001)", "eval_time": "40m",
             "exp_samples": [{"labels": f'{{slo="{lat["slo"]}"}}', "value": 0.05}]},
            {"expr": sel(sign_in, "1h"), "eval_time": "40m",
             "exp_samples": [{"labels": f'slo:sli_error:ratio_rate1h{{slo="{sign_in["slo"]}"}}', "value": 0}]},
        ],
    })
    return {"rule_files": ["../rules/slo.yaml"], "evaluation_interval": "1m", "tests": cases}


class Dumper(yaml.SafeDumper):
    pass


def _str(dumper, data):
    if "\n" in data:
        return dumper.represent_scalar("tag:yaml.org,2002:str", data, style="|")
    return dumper.represent_scalar("tag:yaml.org,2002:str", data)


Dumper.add_representer(str, _str)

HEADER = "# Written by deploy/observability/slo.py (`python3 deploy/observability/slo.py generate`): change the SLOs there.\n"


def render(doc):
    return HEADER + yaml.dump(doc, Dumper=Dumper, sort_keys=False, width=200, allow_unicode=True)


def anchors(md):
    """GitHub's anchors of the headings of a Markdown text."""
    out = set()
    for line in md.splitlines():
        m = re.match(r"#{1,6}\s+(.*)", line)
        if m:
            a = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
            out.add(a)
    return out


def check():
    problems = []
    for path, doc in ((RULES, rules()), (TESTS, tests())):
        if not path.exists() or path.read_text() != render(doc):
            problems.append(f"{path.relative_to(ROOT)} is not what slo.py writes: run `python3 deploy/observability/slo.py generate`")
    heads = anchors(DOC.read_text()) if DOC.exists() else set()
    alerts = {}
    for f in sorted((HERE / "rules").glob("*.yaml")):
        for g in (yaml.safe_load(f.read_text()) or {}).get("groups", []):
            for r in g.get("rules", []):
                if "alert" not in r:
                    continue
                name = r["alert"]
                alerts[name] = f
                sev = r.get("labels", {}).get("severity")
                if sev not in ("page", "ticket"):
                    problems.append(f"{name}: severity {sev!r}, not page or ticket")
                ann = r.get("annotations", {})
                for k in ("summary", "description", "runbook_url"):
                    if not ann.get(k):
                        problems.append(f"{name}: no {k}")
                url = ann.get("runbook_url", "")
                if not url.startswith(RUNBOOK) or url[len(RUNBOOK):] not in heads:
                    problems.append(f"{name}: runbook_url {url!r} is not a heading of docs/alerts.md")
    fired = set()
    for f in sorted((HERE / "tests").glob("*.yaml")):
        for t in (yaml.safe_load(f.read_text()) or {}).get("tests", []):
            for a in t.get("alert_rule_test", []):
                if a.get("exp_alerts"):
                    fired.add(a["alertname"])
    for name in sorted(set(alerts) - fired):
        problems.append(f"{name}: no test expects it to fire")
    for p in problems:
        print("FAILED:", p)
    if not problems:
        print(f"ok: {len(alerts)} alerts, each with severity, summary, description, a runbook heading and a test that fires it")
    return not problems


def main():
    cmd = sys.argv[1] if len(sys.argv) > 1 else "check"
    if cmd == "generate":
        RULES.parent.mkdir(exist_ok=True)
        TESTS.parent.mkdir(exist_ok=True)
        RULES.write_text(render(rules()))
        TESTS.write_text(render(tests()))
        print(f"wrote {RULES.relative_to(ROOT)} and {TESTS.relative_to(ROOT)}")
    elif cmd == "check":
        sys.exit(0 if check() else 1)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
