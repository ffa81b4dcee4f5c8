#!/usr/bin/env bash
# The portal as production runs it: the gateway, the five services and the airline partner
# sandbox, each its own process, talking gRPC (and HTTP to the partner) over loopback, against
# PostgreSQL and Redis, configured only by environment. Stops them all on Ctrl-C or TERM.
#
#   deploy/run-split.sh             (make run-split) on http://localhost:${PORT:-8080}
#
# Environment: DATABASE_URL and REDIS_URL (default: the local PostgreSQL `test` database and
# Redis), PORT, QFF_SANDBOX_PORT, PORTAL_SCHEMA_PREFIX / PORTAL_KV_PREFIX (default `split_` /
# `split:`), PORTAL_BIN (default ./target/debug/portal, built if missing), and any other
# PORTAL_* setting, which every process sees.
set -euo pipefail
cd "$(dirname "$0")/.."

export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
export PORTAL_SCHEMA_PREFIX="${PORTAL_SCHEMA_PREFIX:-split_}"
export PORTAL_KV_PREFIX="${PORTAL_KV_PREFIX:-split:}"
PORT="${PORT:-8080}"
bin="${PORTAL_BIN:-./target/debug/portal}"
[ -x "$bin" ] || cargo build -q -p portal-launcher

free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

pids=()
stop() {
  trap - EXIT INT TERM
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap stop EXIT
trap 'exit 0' INT TERM

# start NAME PORT COMMAND...: runs it in the background and waits until its port answers.
start() {
  local name=$1 port=$2
  shift 2
  "$@" > >(sed -u "s/^/[$name] /") 2>&1 &
  pids+=($!)
  for _ in $(seq 1 300); do
    listening "$port" && return 0
    sleep 0.1
  done
  echo "$name did not start listening on $port" >&2
  exit 1
}

declare -A grpc
for s in refdata connections profile qff auth; do grpc[$s]=$(free_port); done
for s in refdata connections profile qff auth; do
  export "PORTAL_SERVICES__${s^^}=http://127.0.0.1:${grpc[$s]}"
done
sandbox_port="${QFF_SANDBOX_PORT:-$(free_port)}"
export QFF_API_URL="${QFF_API_URL:-http://127.0.0.1:$sandbox_port}"

if [ "$QFF_API_URL" = "http://127.0.0.1:$sandbox_port" ]; then
  start qff-sandbox "$sandbox_port" "$bin" qff-sandbox "127.0.0.1:$sandbox_port"
fi
# In the order they ask each other: profile and connections ask refdata; auth asks profile.
# Each process serves Prometheus metrics on a port of its own (PORTAL_METRICS_PORT).
declare -A metrics
for s in refdata connections profile qff auth gateway; do metrics[$s]=$(free_port); done
for s in refdata connections profile qff auth; do
  start "$s" "${grpc[$s]}" env PORTAL_GRPC_PORT="${grpc[$s]}" PORTAL_METRICS_PORT="${metrics[$s]}" "$bin" serve "$s"
done
start gateway "$PORT" env PORT="$PORT" PORTAL_METRICS_PORT="${metrics[gateway]}" "$bin" serve gateway
for s in gateway refdata connections profile qff auth; do
  echo "metrics: $s http://127.0.0.1:${metrics[$s]}/metrics"
done
echo "gRPC services: $(for s in refdata connections profile qff auth; do printf '%s=127.0.0.1:%s ' "$s" "${grpc[$s]}"; done)"
echo "portal (split: gateway, 5 services, partner sandbox) ready on http://localhost:$PORT"
while :; do
  for pid in "${pids[@]}"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "a process stopped; stopping the others" >&2
      exit 1
    fi
  done
  sleep 1
done
