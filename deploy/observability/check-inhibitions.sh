#!/usr/bin/env bash
# The inhibition rules of deploy/observability/alertmanager.yml, in a real Alertmanager (Debian's
# `prometheus-alertmanager`): amtool tests routes, not inhibitions. Starts one with those rules
# (and a receiver that sends nothing), posts alerts as Prometheus would, with the labels the rules
# give them, and reads back which ones Alertmanager holds back:
#   1. the gateway down: every objective's alerts (page and ticket) are held back, the gateway's
#      own page and an alert without an objective are not;
#   2. an objective paging: its slow-burn ticket is held back, another objective's ticket is not.
# Ends with `N passed, N failed`.
set -uo pipefail
cd "$(dirname "$0")/../.."
am_bin=$(command -v prometheus-alertmanager || command -v alertmanager) ||
  { echo "FAILED: Alertmanager is not installed (apt-get install -y prometheus-alertmanager)"; echo "0 passed, 1 failed"; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/portal-am.XXXXXX")
pid=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')

# The real inhibit_rules; one receiver that sends nothing.
python3 - "$work/alertmanager.yml" <<'EOF'
import sys, yaml
real = yaml.safe_load(open("deploy/observability/alertmanager.yml"))
test = {"route": {"receiver": "none"}, "receivers": [{"name": "none"}], "inhibit_rules": real["inhibit_rules"]}
yaml.safe_dump(test, open(sys.argv[1], "w"))
EOF

run_case() { # NAME: starts a fresh Alertmanager, posts $work/NAME.json, checks $work/NAME.want
  "$am_bin" --config.file="$work/alertmanager.yml" --storage.path="$work/data-$1" \
    --web.listen-address="127.0.0.1:$port" --cluster.listen-address= --log.level=warn > "$work/am-$1.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/-/ready" >/dev/null && break; sleep 0.1; done
  curl -sf -X POST -H 'content-type: application/json' --data @"$work/$1.json" "http://127.0.0.1:$port/api/v2/alerts" >/dev/null ||
    { echo "FAILED: $1: Alertmanager did not take the alerts"; tail -5 "$work/am-$1.log"; }
  # Inhibitions are worked out as alerts arrive; read until every alert is there.
  python3 - "$port" "$1" "$work/$1.want" <<'EOF'
import json, sys, time, urllib.request
port, name, want_file = sys.argv[1], sys.argv[2], sys.argv[3]
want = json.load(open(want_file))  # alertname -> True (held back) / False
for _ in range(50):
    alerts = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v2/alerts"))
    got = {a["labels"]["alertname"]: bool(a["status"]["inhibitedBy"]) for a in alerts}
    if set(got) >= set(want) and all(got[k] == v for k, v in want.items()):
        break
    time.sleep(0.1)
for k, v in want.items():
    state = "held back" if v else "sent"
    if got.get(k) == v:
        print(f"ok: {name}: {k} {state}")
    else:
        print(f"FAILED: {name}: {k} should be {state}; Alertmanager has {got}")
EOF
  kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; pid=""
}

alert() { # ALERTNAME SEVERITY [SLO]
  printf '{"labels": {"alertname": "%s", "severity": "%s"%s}, "annotations": {"summary": "test"}}' "$1" "$2" "${3:+, \"slo\": \"$3\"}"
}
cat > "$work/gateway-down.json" <<EOF
[$(alert PortalGatewayDown page), $(alert MemberApiAvailabilityErrorBudgetBurn page member-api-availability),
 $(alert MemberApiAvailabilityErrorBudgetSlowBurn ticket member-api-availability), $(alert AirlinePartnerUnavailable ticket)]
EOF
cat > "$work/gateway-down.want" <<'EOF'
{"PortalGatewayDown": false, "MemberApiAvailabilityErrorBudgetBurn": true, "MemberApiAvailabilityErrorBudgetSlowBurn": true,
 "AirlinePartnerUnavailable": false}
EOF
cat > "$work/objective-pages.json" <<EOF
[$(alert ProfileReadLatencyErrorBudgetBurn page profile-read-latency), $(alert ProfileReadLatencyErrorBudgetSlowBurn ticket profile-read-latency),
 $(alert RedemptionAvailabilityErrorBudgetSlowBurn ticket redemption-availability)]
EOF
cat > "$work/objective-pages.want" <<'EOF'
{"ProfileReadLatencyErrorBudgetBurn": false, "ProfileReadLatencyErrorBudgetSlowBurn": true,
 "RedemptionAvailabilityErrorBudgetSlowBurn": false}
EOF

out=$( { run_case gateway-down; run_case objective-pages; } 2>&1)
echo "$out"
passed=$(grep -c '^ok: ' <<< "$out")
failed=$(grep -c '^FAILED' <<< "$out")
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
