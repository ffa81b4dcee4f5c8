#!/usr/bin/env bash
# Lighthouse against the built portal (make build), as a new user on a phone would meet it:
# starts it on a free port with fresh embedded storage, runs tools/lighthouse/run.mjs on / and
# /home (signed in), stops it. Exits 1 when a target is missed (see run.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d tools/lighthouse/node_modules ] || npm ci --prefix tools/lighthouse --no-audit --no-fund
PORTAL_BIN=${PORTAL_BIN:-./target/debug/portal}
work=$(mktemp -d "${TMPDIR:-/tmp}/portal-lighthouse.XXXXXX")
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
env -u DATABASE_URL -u REDIS_URL PORT="$port" PORTAL_RATE_LIMIT__PER_ADDRESS=1000 PORTAL_DATA_DIR="$work/data" PORTAL_PUBLIC_URL="http://localhost:$port" \
  "$PORTAL_BIN" > "$work/portal.log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 300); do
  curl -sf "http://localhost:$port/healthz" >/dev/null && break
  kill -0 "$pid" 2>/dev/null || { cat "$work/portal.log"; exit 1; }
  sleep 0.1
done
# Pages over HTTPS and HTTP/2, as the ingress serves them (h2-front.mjs), with a throwaway
# certificate the browser is told to trust by its key's hash.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=localhost \
  -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
spki=$(openssl x509 -in "$work/cert.pem" -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64)
front_port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
node tools/lighthouse/h2-front.mjs --target "http://localhost:$port" --port "$front_port" \
  --key "$work/key.pem" --cert "$work/cert.pem" > "$work/front.log" 2>&1 &
front=$!
trap 'kill "$pid" "$front" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do
  curl -sfk "https://localhost:$front_port/healthz" >/dev/null && break
  sleep 0.1
done
PORTAL_URL="http://localhost:$port" PAGE_URL="https://localhost:$front_port" CERT_SPKI="$spki" node tools/lighthouse/run.mjs
