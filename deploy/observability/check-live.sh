#!/usr/bin/env bash
# Proves the dashboard and the rules against a real Prometheus: starts the one-process portal
# (./target/debug/portal, or PORTAL_BIN) on a free port with fresh embedded storage and
# /metrics on, starts `prometheus` scraping it every second with the rules of
# deploy/observability/rules loaded, drives a little traffic (config, a sign-in code asked for
# and used, a wrong code, the profile without and with a token, a reward redeemed, points
# converted), waits for the scrapes, then evaluates through Prometheus's HTTP API every query of
# deploy/grafana/portal-dashboard.json (Grafana's variables substituted) and every recording
# rule's expression, and checks every rule evaluates without error. Fails listing each query that
# errors or returns no series. Ends with `N passed, N failed`.
#
# TOPOLOGY=split: the split stack instead (deploy/run-split.sh: the gateway and every service its
# own process, on PostgreSQL and Redis at DATABASE_URL and REDIS_URL, fresh schemas), each
# process scraped as its own job, portal-<name>, as deploy/observability/prometheus.yml names them
# in Kubernetes; and the k6 member journeys (deploy/k6/journeys.js) run against it for
# K6_DURATION (default 10s) while Prometheus scrapes, when k6 is installed.
#
# Needs prometheus (`apt-get install -y prometheus`), curl and python3.
# DASHBOARD=path: another dashboard JSON. KEEP_WORK=1: keep the logs, config and TSDB.
set -uo pipefail
cd "$(dirname "$0")/../.."
PORTAL_BIN=${PORTAL_BIN:-./target/debug/portal}
DASHBOARD=${DASHBOARD:-deploy/grafana/portal-dashboard.json}
for tool in prometheus curl python3; do
  command -v "$tool" >/dev/null || { echo "FAILED: $tool is not installed (prometheus: apt-get install -y prometheus)"; exit 1; }
done
[ -x "$PORTAL_BIN" ] || { echo "FAILED: no $PORTAL_BIN (cargo build -p portal-launcher)"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/portal-prom.XXXXXX")
portal_pid=""
prom_pid=""
schemas=""
cleanup() {
  for pid in $prom_pid $portal_pid; do kill "$pid" 2>/dev/null || true; done
  for pid in $prom_pid $portal_pid; do wait "$pid" 2>/dev/null || true; done
  if [ -n "$schemas" ] && command -v psql >/dev/null 2>&1; then
    for s in auth profile connections qff refdata; do psql -q "$DATABASE_URL" -c "DROP SCHEMA IF EXISTS ${schemas}$s CASCADE" >/dev/null 2>&1 || true; done
  fi
  if [ -n "${KEEP_WORK:-}" ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
port=$(free_port)
metrics_port=$(free_port)
sandbox_port=$(free_port)
prom_port=$(free_port)

limits=(PORTAL_RATE_LIMIT__PER_ADDRESS=1000 PORTAL_RATE_LIMIT__PER_IP=100000 PORTAL_PUBLIC_URL="http://localhost:$port" RUST_LOG=warn)
declare -A targets # job -> host:port of its /metrics
schemas=""
if [ "${TOPOLOGY:-embedded}" = split ]; then
  # Every service its own process (deploy/run-split.sh) on PostgreSQL and Redis, in fresh schemas
  # and keys; each process's /metrics is a target of its own job, portal-<name>, as in Kubernetes.
  schemas="prom$(date +%s)$$_"
  export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
  env "${limits[@]}" PORT="$port" PORTAL_BIN="$PORTAL_BIN" QFF_SANDBOX_PORT="$sandbox_port" \
    PORTAL_SCHEMA_PREFIX="$schemas" PORTAL_KV_PREFIX="$schemas:" bash deploy/run-split.sh > "$work/portal.log" 2>&1 &
else
  env -u DATABASE_URL -u REDIS_URL "${limits[@]}" PORT="$port" PORTAL_METRICS_PORT="$metrics_port" \
    PORTAL_DATA_DIR="$work/data" PORTAL_QFF__SANDBOX_PORT="$sandbox_port" "$PORTAL_BIN" > "$work/portal.log" 2>&1 &
  # The one process is the gateway and every service: one target, named as the gateway's job.
  targets[portal-gateway]="127.0.0.1:$metrics_port"
fi
portal_pid=$!
base="http://127.0.0.1:$port"
for _ in $(seq 1 600); do
  # Split: run-split.sh lists the metrics ports once every process is up.
  { [ -z "$schemas" ] || grep -q 'ready on' "$work/portal.log"; } && curl -sf "$base/healthz" >/dev/null && break
  kill -0 "$portal_pid" 2>/dev/null || { echo "FAILED: the portal did not start"; tail -30 "$work/portal.log"; exit 1; }
  sleep 0.1
done
if [ -n "$schemas" ]; then
  while read -r _ name url; do
    targets[portal-$name]=$(echo "$url" | sed -E 's#^http://([^/]+)/metrics$#\1#')
  done < <(grep -E '^metrics: [a-z-]+ http://' "$work/portal.log")
fi
[ "${#targets[@]}" -gt 0 ] || { echo "FAILED: no /metrics to scrape"; tail -30 "$work/portal.log"; exit 1; }
for job in "${!targets[@]}"; do
  curl -sf "http://${targets[$job]}/metrics" >/dev/null || { echo "FAILED: no /metrics at ${targets[$job]} ($job)"; exit 1; }
done

{
  echo "global: {scrape_interval: 1s, evaluation_interval: 1s}"
  echo "rule_files:"
  for f in deploy/observability/rules/*.yaml; do echo "  - $PWD/$f"; done
  echo "scrape_configs:"
  for job in "${!targets[@]}"; do
    echo "  - job_name: $job"
    echo "    static_configs: [{targets: ['${targets[$job]}']}]"
  done
} > "$work/prometheus.yml"
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
  --web.listen-address="127.0.0.1:$prom_port" --log.level=warn > "$work/prometheus.log" 2>&1 &
prom_pid=$!
prom="http://127.0.0.1:$prom_port"
for _ in $(seq 1 300); do
  curl -sf "$prom/-/ready" >/dev/null && break
  kill -0 "$prom_pid" 2>/dev/null || { echo "FAILED: prometheus did not start"; cat "$work/prometheus.log"; exit 1; }
  sleep 0.1
done

# Traffic: what a member does, and a few of the answers a dashboard must show.
call() { # METHOD PATH [BODY] [TOKEN] [extra header]: prints the status
  local args=(-s -o "$work/body" -w '%{http_code}' -X "$1" "$base$2" -H 'content-type: application/json')
  [ -n "${3:-}" ] && args+=(-d "$3")
  [ -n "${4:-}" ] && args+=(-H "authorization: Bearer $4")
  [ -n "${5:-}" ] && args+=(-H "$5")
  curl "${args[@]}"
}
code_for() { # EMAIL: the newest sign-in code the dev outbox holds for EMAIL
  curl -s "$base/_dev/outbox.json" | python3 -c '
import json, re, sys
m = [x for x in json.load(sys.stdin) if x["to"] == sys.argv[1] and x["subject"] == "Your sign-in code"]
print(re.search(r"\d{6}", m[-1]["text"]).group() if m else "")' "$1"
}
tpassed=0
tfailed=0
expect() { # WHAT WANT GOT: the traffic the queries need went through
  if [[ "$3" =~ ^($2)$ ]]; then echo "ok: $1: $3"; tpassed=$((tpassed + 1)); else echo "FAILED: $1: $3, not $2: $(head -c 300 "$work/body")"; tfailed=$((tfailed + 1)); fi
}
sign_in() { # EMAIL: sets token
  expect "POST /api/auth/email" 200 "$(call POST /api/auth/email "{\"email\":\"$1\"}")"
  expect "POST /api/auth/verify" 200 "$(call POST /api/auth/verify "{\"email\":\"$1\",\"code\":\"$(code_for "$1")\"}")"
  token=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("token",""))' "$work/body" 2>/dev/null)
}
token=""
expect "GET /api/config" 200 "$(call GET /api/config)"
sign_in demo@example.com
# A wrong code: a refusal the gRPC panels count as a failed call.
expect "POST /api/auth/verify, a wrong code" 401 "$(call POST /api/auth/verify '{"email":"demo@example.com","code":"000000"}')"
expect "GET /api/profile, no token" 401 "$(call GET /api/profile)"
for _ in 1 2; do call GET /api/profile "" "$token" >/dev/null; done
expect "GET /api/profile" 200 "$(call GET /api/profile "" "$token")"
expect "GET /api/profile/transactions" 200 "$(call GET '/api/profile/transactions?include=product' "" "$token")"
expect "POST /api/profile/rewards/redeem" 201 "$(call POST /api/profile/rewards/redeem '{"catalogue_id":"coffee"}' "$token" "Idempotency-Key: live-$$-1")"
# Points to the airline (the launcher's partner sandbox): link the Frequent Flyer account, convert.
expect "POST /api/qff/link" 200 "$(call POST /api/qff/link '{"qff_number":"1900123456","last_name":"Demo"}' "$token")"
expect "POST /api/qff/redeem" "200|202" "$(call POST /api/qff/redeem '{"points":1000}' "$token" "Idempotency-Key: live-$$-2")"

# Split: the k6 member journeys (deploy/k6/journeys.js) run against the stack for K6_DURATION
# while Prometheus scrapes it, as an operator's dashboard sees real traffic. Their thresholds are
# k6's own business (deploy/k6/run.sh); here they are traffic, and it must reach Prometheus.
k6_route=""
if [ -n "$schemas" ] && command -v k6 >/dev/null; then
  profile_grpc=$(grep -o 'profile=[0-9.:]*' "$work/portal.log" | head -1 | cut -d= -f2)
  k6_rc=0
  BASE="$base" PROFILE_GRPC="$profile_grpc" DURATION="${K6_DURATION:-10s}" REPORT="$work/k6-report.html" \
    bash deploy/k6/run.sh > "$work/k6.log" 2>&1 || k6_rc=$?
  echo "k6 journeys for ${K6_DURATION:-10s} against the split stack (exit $k6_rc):" \
    "$(grep -oE 'http_reqs\.*: [0-9]+' "$work/k6.log" | grep -oE '[0-9]+$' || echo no) requests"
  # Only the journeys change comms preferences: their traffic, seen by Prometheus.
  k6_route='/api/profile/attributes/comms'
fi

# Wait until Prometheus holds the traffic (the conversion, the last call; k6's), then two more scrapes.
for route in /api/qff/redeem $k6_route; do
  for _ in $(seq 1 30); do
    n=$(curl -s "$prom/api/v1/query" --data-urlencode "query=count(http_requests_total{route=\"$route\"})" |
      python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else 0)')
    [ "$n" != 0 ] && break
    sleep 1
  done
  expect "Prometheus holds the traffic on $route" '[1-9][0-9]*' "$n"
done
sleep 3

TPASSED=$tpassed TFAILED=$tfailed PROM="$prom" DASHBOARD="$DASHBOARD" python3 - <<'EOF'
import json, os, re, sys, urllib.parse, urllib.request
import yaml

prom, dashboard = os.environ["PROM"], os.environ["DASHBOARD"]
passed, failed = int(os.environ["TPASSED"]), int(os.environ["TFAILED"])


def query(q):
    url = prom + "/api/v1/query?" + urllib.parse.urlencode({"query": q})
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            body = json.load(r)
    except urllib.error.HTTPError as e:
        body = json.load(e)
    if body.get("status") != "success":
        return None, body.get("error", "query failed")
    return body["data"]["result"], None


def judge(what, q):
    global passed, failed
    result, err = query(q)
    if err:
        print(f"FAILED: {what}: {err}\n    {q}")
        failed += 1
    elif not result:
        print(f"FAILED: {what}: no series\n    {q}")
        failed += 1
    else:
        print(f"ok: {what}: {len(result)} series")
        passed += 1


# Grafana's variables: $job is every value of label_values(up, job), as "All" selects.
jobs, err = query("up")
jobs = sorted({s["metric"].get("job", "") for s in jobs or []})
judge("template variable job: label_values(up, job)", "up")
subst = {
    "$__rate_interval": "1m", "${__rate_interval}": "1m", "$__interval": "15s", "${__interval}": "15s",
    "$__range": "5m", "${__range}": "5m", "$job": "(" + "|".join(jobs) + ")", "${job}": "(" + "|".join(jobs) + ")",
}


def grafana(expr):
    for k in sorted(subst, key=len, reverse=True):
        expr = expr.replace(k, subst[k])
    return expr


def panels(ps):
    for p in ps:
        yield p
        yield from panels(p.get("panels", []))


with open(dashboard) as f:
    d = json.load(f)
for p in panels(d["panels"]):
    for t in p.get("targets", []):
        if t.get("expr"):
            left = re.findall(r"\$\{?\w+\}?", grafana(t["expr"]))
            what = f"panel {p.get('title')!r} ({t.get('legendFormat') or t.get('refId')})"
            if left:
                print(f"FAILED: {what}: variables not substituted: {left}")
                failed += 1
                continue
            judge(what, grafana(t["expr"]))

rules_dir = "deploy/observability/rules"
for name in sorted(os.listdir(rules_dir)):
    with open(os.path.join(rules_dir, name)) as f:
        doc = yaml.safe_load(f)
    for g in doc.get("groups", []):
        for r in g.get("rules", []):
            if "record" in r:
                labels = ",".join(f'{k}="{v}"' for k, v in r.get("labels", {}).items())
                judge(f"recording rule {r['record']}{{{labels}}}", r["expr"])
                judge(f"recorded series {r['record']}{{{labels}}}", f"{r['record']}{{{labels}}}")

# Every rule, alerts too, evaluated by Prometheus without an error.
with urllib.request.urlopen(prom + "/api/v1/rules", timeout=10) as r:
    groups = json.load(r)["data"]["groups"]
n = 0
for g in groups:
    for r in g["rules"]:
        n += 1
        if r.get("health") != "ok":
            print(f"FAILED: rule {r['name']} ({g['name']}): health {r.get('health')}: {r.get('lastError')}")
            failed += 1
print(f"(rules loaded and evaluated: {n})")
if n == 0:
    print("FAILED: no rules loaded")
    failed += 1
firing = [a for g in groups for r in g["rules"] for a in r.get("alerts", []) if a.get("state") == "firing"]
for a in firing:
    print(f"note: firing on this run: {a['labels'].get('alertname')}")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
EOF
rc=$?
[ "$rc" -eq 0 ] || { echo "--- prometheus log"; tail -20 "$work/prometheus.log"; }
exit "$rc"
