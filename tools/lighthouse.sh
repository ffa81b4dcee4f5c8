#!/usr/bin/env bash
# Lighthouse against the built portal (make build), as a new user on a phone would meet it:
# starts it on a free port with fresh embedded storage, runs tools/lighthouse/run.mjs on / and
# /home (signed in), stops it. Exits 1 when a target is missed (see run.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d tools/lighthouse/node_modules ] || npm install --prefix tools/lighthouse --no-audit --no-fund
PORTAL_BIN=${PORTAL_BIN:-./target/debug/portal}
work=$(mktemp -d "${TMPDIR:-/tmp}/portal-lighthouse.XXXXXX")
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
env -u DATABASE_URL -u REDIS_URL PORT="$port" PORTAL_DATA_DIR="$work/data" PORTAL_PUBLIC_URL="http://localhost:$port" \
  "$PORTAL_BIN" > "$work/portal.log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 300); do
  curl -sf "http://localhost:$port/healthz" >/dev/null && break
  kill -0 "$pid" 2>/dev/null || { cat "$work/portal.log"; exit 1; }
  sleep 0.1
done
PORTAL_URL="http://localhost:$port" node tools/lighthouse/run.mjs
