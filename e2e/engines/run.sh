#!/usr/bin/env bash
# The core journeys in Firefox ESR and WebKitGTK (issue 27): both engines at once, each against a
# portal of its own (e2e/run.sh: a free port, fresh embedded storage), so each starts from the
# same demo data (one offer to activate, an airline account to link) and neither waits for the
# other. Prints each engine's lines prefixed with its name, then the two runs' sums as node's test
# runner does (`# pass N`, `# fail N`), and fails if any engine failed.
#   ENGINES="firefox webkit chromium": the engines (chromium: the same file in the reference engine).
#   E2E_SKIP_BUILD, PORTAL_BIN: as for e2e/run.sh (make test passes both).
set -uo pipefail
cd "$(dirname "$0")/../.."
engines=${ENGINES:-"firefox webkit"}
# What each engine needs (.ci/run installs them: apt-get install firefox-esr webkit2gtk-driver xvfb).
for engine in $engines; do
  case $engine in
    firefox) need="firefox-esr" ;;
    webkit) need="WebKitWebDriver Xvfb" ;;
    chromium) need="chromium" ;;
    *) echo "not ok - unknown engine $engine (firefox, webkit, chromium)"; exit 1 ;;
  esac
  for cmd in $need; do
    command -v "$cmd" >/dev/null 2>&1 || { echo "not ok - $engine needs $cmd: apt-get install firefox-esr webkit2gtk-driver xvfb"; exit 1; }
  done
done
files="engines/journeys.test.mjs engines/embed.test.mjs"
if [ -z "${E2E_SKIP_BUILD:-}" ]; then npm run build || exit 1; fi
if [ -z "${PORTAL_BIN:-}" ]; then
  cargo build -q -p portal-launcher || exit 1
  PORTAL_BIN=./target/debug/portal
fi
logs=$(mktemp -d "${TMPDIR:-/tmp}/portal-engines.XXXXXX")
trap 'rm -rf "$logs"' EXIT
started=$SECONDS
pids=()
for engine in $engines; do
  ENGINE="$engine" E2E_ONLY="$files" E2E_SKIP_BUILD=1 PORTAL_BIN="$PORTAL_BIN" bash e2e/run.sh > "$logs/$engine.log" 2>&1 &
  pids+=($!)
done
rc=0
i=0
for engine in $engines; do
  wait "${pids[$i]}" || rc=1
  sed "s/^/[$engine] /" "$logs/$engine.log"
  i=$((i + 1))
done
pass=0
fail=0
for engine in $engines; do
  p=$(awk '/^# pass [0-9]+/ { s += $3 } END { print s + 0 }' "$logs/$engine.log")
  f=$(awk '/^# fail [0-9]+/ { s += $3 } END { print s + 0 }' "$logs/$engine.log")
  [ "$p" -gt 0 ] || { echo "not ok - $engine ran no test"; f=$((f + 1)); rc=1; }
  pass=$((pass + p))
  fail=$((fail + f))
done
echo "engines ($engines) took $((SECONDS - started)) s"
echo "# pass $pass"
echo "# fail $fail"
[ "$fail" -eq 0 ] || rc=1
exit "$rc"
