#!/usr/bin/env bash
# The OpenAPI document is the contract: schemathesis checks that the server does exactly what
# /api/openapi.json says. Starts the built portal on a free port with fresh embedded storage,
# signs in as demo@example.com (link from the dev outbox), then runs schemathesis with every
# check against every member route (sign-in routes and routes answering 501 left out), and
# fails on any failure. Generation is deterministic: a run repeats exactly. tools/contract.toml
# holds the settings (and the one, argued, exception). Extra arguments go to schemathesis, e.g.
# `tools/contract.sh --continue-on-failure`.
#   PORTAL_BIN          the portal binary (default ./target/debug/portal, as cargo test builds it)
#   CONTRACT_EXAMPLES   test cases per operation (default 100)
#   CONTRACT_SEED       a seed: random generation from it instead of the deterministic run
#   CONTRACT_REPORT     directory for the junit report (default .cache/contract)
set -euo pipefail
cd "$(dirname "$0")/.."
PORTAL_BIN=${PORTAL_BIN:-./target/debug/portal}
examples=${CONTRACT_EXAMPLES:-100}
report=${CONTRACT_REPORT:-.cache/contract}
generation=(--generation-deterministic)
[ -z "${CONTRACT_SEED:-}" ] || generation=(--seed "$CONTRACT_SEED" --generation-database none)
command -v schemathesis >/dev/null || { echo "schemathesis is not installed: pip install schemathesis==4.32.5"; exit 1; }
[ -x "$PORTAL_BIN" ] || { echo "no $PORTAL_BIN: build it first (cargo build -p portal-launcher)"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/portal-contract.XXXXXX")
mkdir -p "$report"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
port=$(free_port)
base="http://127.0.0.1:$port"
# Embedded storage in a temp dir; rate limits out of the way (schemathesis sends thousands of
# requests from one address); no front end needed.
env -u DATABASE_URL -u REDIS_URL PORT="$port" PORTAL_DATA_DIR="$work/data" PORTAL_STATIC_DIR="$work/public" \
  PORTAL_PUBLIC_URL="$base" PORTAL_RATE_LIMIT__PER_ADDRESS=100000 PORTAL_RATE_LIMIT__PER_IP=1000000 \
  PORTAL_LOG_FORMAT=text RUST_LOG=warn "$PORTAL_BIN" > "$work/portal.log" 2>&1 &
pid=$!
cleanup() {
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
for _ in $(seq 1 300); do
  curl -sf "$base/healthz" >/dev/null && break
  kill -0 "$pid" 2>/dev/null || { cat "$work/portal.log"; exit 1; }
  sleep 0.1
done

# Sign in as the demo member: ask for a link, read it from the dev outbox, exchange it.
curl -sf -XPOST "$base/api/auth" -H 'content-type: application/json' -d '{"email":"demo@example.com"}' >/dev/null
link=$(curl -sf "$base/_dev/outbox.json" | python3 -c 'import json,sys,urllib.parse as u; m=json.load(sys.stdin)[0]; print(u.parse_qs(u.urlparse(m["link"]).query)["token"][0])')
token=$(curl -sf -XPOST "$base/api/auth/exchange" -H 'content-type: application/json' -d "{\"token\":\"$link\"}" \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')

# Left out: sign-in and session routes (they would sign the member out, or hit the sign-in
# limits), and routes whose issue has not landed (501 by design).
pending=$(curl -sf "$base/api/openapi.json" | python3 -c '
import json, sys
doc = json.load(sys.stdin)
print("|".join(sorted({p for p, ops in doc["paths"].items() for op in ops.values()
                      if isinstance(op, dict) and "501" in op.get("responses", {})})))')
# Signing a session out by id is left out for the same reason: the stateful phase follows the
# session list to it and would sign out the session the run uses.
exclude="^/api/auth(/|$)|^/api/privacy/sessions/\\{id\\}$"
[ -z "$pending" ] || exclude="$exclude|^($pending)$"

# Two workers: the machine has two cores and the portal needs one. The health checks are about
# how fast values can be drawn from the schemas' strict patterns, not about the server.
start=$(date +%s)
rc=0
# tools/contract_hooks.py: a check that keeps the toml's one exception to the data-dependent rules.
PYTHONPATH="tools${PYTHONPATH:+:$PYTHONPATH}" SCHEMATHESIS_HOOKS=contract_hooks \
schemathesis --config-file tools/contract.toml run "$base/api/openapi.json" \
  --checks all \
  --max-examples "$examples" \
  "${generation[@]}" \
  --exclude-path-regex "$exclude" \
  --header "Authorization: Bearer $token" \
  --workers 2 \
  --request-timeout 15 \
  --suppress-health-check all \
  --no-color \
  --report junit --report-junit-path "$report/junit.xml" "$@" || rc=$?
echo "schemathesis: $(( $(date +%s) - start )) s"
[ "$rc" -eq 0 ] || { echo "--- portal log (last 30 lines)"; tail -30 "$work/portal.log"; }
exit "$rc"
