#!/usr/bin/env bash
# Runs every test of the project and ends with one line: `N passed, N failed, N skipped`.
#   1. cargo: unit and integration tests (storage/KV tests use PostgreSQL and Redis too when
#      DATABASE_URL and REDIS_URL are set), the workspace's crates built through clippy-driver;
#      then the Rust style gates: rustfmt, and no Clippy or rustc warning in that build
#   2. the OpenAPI document and the front end's generated types agree; then the server does what
#      the document says (tools/contract.sh: schemathesis, every check, signed in as a member)
#   3. the front end type-checks (tsc --noEmit over every package) and lints (npm run lint: ESLint
#      with the tab, package and feature boundaries; Prettier); the lock files install as
#      they are and every package accepts the Node package.json names; then jest in every package
#   4. deploy/: the Kubernetes overlays render and validate offline and fit the connection
#      budget; the Dockerfiles' files exist; the alert rules and their routing check; the
#      migrations: shipped ones unchanged, new ones safe for a rolling deploy (squawk)
#   5. e2e: the built portal on a free port with fresh embedded storage, driven by Chromium, the
#      files in three shards at once, each with a portal of its own (e2e/shards.sh);
#      then, when DATABASE_URL and REDIS_URL are set, the journeys that reach the services
#      against every service as its own process (deploy/run-split.sh) on PostgreSQL and Redis
#  5b. the core journeys in Firefox ESR and WebKitGTK, both at once (e2e/engines/run.sh)
#   6. Lighthouse (mobile; its CPU slowdown lowered on a slow host) on / and /home: fails
#      below its targets (tools/lighthouse.sh); then a real Prometheus scrapes the portal (with
#      DATABASE_URL and REDIS_URL: the split stack under the k6 journeys) and every dashboard
#      query and recording rule returns data (deploy/observability/check-live.sh)
#   7. faults, when DATABASE_URL and REDIS_URL are set: the split topology under k6 load loses
#      the profile service, then its own Redis, for 10 s each (deploy/faults/run.sh)
#   8. git status is what it was before the run: nothing rewrote a tracked file (a lock file)
set -uo pipefail
cd "$(dirname "$0")/.."
logs=.cache/test-logs
mkdir -p "$logs"
passed=0
failed=0
add() { passed=$((passed + $1)); failed=$((failed + $2)); }
# Each section's heading says when it started and how long the one before it took, so a slow CI
# run shows where its time went.
started=$SECONDS
last=$SECONDS
# What git sees before anything runs: the installs, builds and tests must leave it as it was.
tree_before=$(git status --porcelain 2>/dev/null)
section() {
  echo "== $* (at $((SECONDS - started)) s; previous section $((SECONDS - last)) s)"
  last=$SECONDS
}

section "cargo test"
# A test that cannot run here (no DATABASE_URL / REDIS_URL) writes its name to PORTAL_TEST_SKIPS
# (portal_common::testing::skip); libtest counts it as passed, this run as skipped.
skipped=0
: > "$logs/skipped.txt"
# The workspace's own crates are compiled through clippy-driver (rustc with Clippy's lints, as
# `cargo clippy` runs it), so the one build of every target gives both the tests and the lints:
# a separate `cargo clippy --workspace --all-targets` checked every crate and dependency again
# (4-7 minutes of CI). Its warnings are read below, as `-D warnings` would refuse them.
clippy_driver="$(rustc --print sysroot)/bin/clippy-driver"
wrapper=()
[ -x "$clippy_driver" ] && wrapper=(env RUSTC_WORKSPACE_WRAPPER="$clippy_driver")
PORTAL_TEST_SKIPS="$PWD/$logs/skipped.txt" "${wrapper[@]}" cargo test --workspace --no-fail-fast 2>&1 | tee "$logs/cargo.log"
cargo_rc=${PIPESTATUS[0]}
read -r p f < <(awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i } } END { print p+0, f+0 }' "$logs/cargo.log")
[ "$cargo_rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1   # a build failure counts as a failure
skipped=$(sort -u "$logs/skipped.txt" | wc -l)
if [ "$skipped" -gt 0 ]; then
  echo "skipped (counted as passed by cargo, not here): $skipped"; sort -u "$logs/skipped.txt" | head -5
fi
add "$((p - skipped))" "$f"

section "Rust style: cargo fmt --check (rustfmt.toml); Clippy and rustc warnings from the build above are errors"
if cargo fmt --all -- --check > "$logs/fmt.log" 2>&1; then
  echo "formatted"; add 1 0
else
  head -40 "$logs/fmt.log"; echo "FAILED: cargo fmt --all -- --check (run cargo fmt --all)"; add 0 1
fi
# Every target cargo test builds (libs, bins, tests, examples; the workspace has no benches), as
# `cargo clippy --workspace --all-targets -- -D warnings` would judge them; cargo repeats a fresh
# crate's warnings, so a rebuild-free run still sees them.
if [ "${#wrapper[@]}" -eq 0 ]; then
  echo "FAILED: no clippy-driver in $(rustc --print sysroot)/bin (rustup component add clippy)"; add 0 1
elif grep -qE '^warning: .* generated [0-9]+ warnings?' "$logs/cargo.log"; then
  grep -E '^(warning|error)' -A8 "$logs/cargo.log" | head -60
  echo "FAILED: Clippy or rustc warnings (above; cargo clippy --workspace --all-targets shows them too)"; add 0 1
else
  echo "clippy: no warnings"; add 1 0
fi

section "OpenAPI document vs generated front-end types"
# target/debug/portal was built by cargo test (the launcher's integration tests need it); building
# it again with `cargo build` would resolve features differently and rebuild half the tree.
if ./target/debug/portal openapi > .cache/openapi.json \
   && npx --no-install openapi-typescript .cache/openapi.json -o .cache/schema.d.ts >/dev/null 2>&1 \
   && diff -q .cache/schema.d.ts shells/runtime/src/api/schema.d.ts >/dev/null; then
  echo "types are current"; add 1 0
else
  echo "FAILED: shells/runtime/src/api/schema.d.ts is stale: run 'make api-types'"; add 0 1
fi

section "contract: the server against its OpenAPI document (schemathesis)"
if bash tools/contract.sh > "$logs/contract.log" 2>&1; then
  tail -5 "$logs/contract.log"; add 1 0
else
  tail -60 "$logs/contract.log"; echo "FAILED: tools/contract.sh (full log: $logs/contract.log)"; add 0 1
fi

section "typecheck"
if npm run --silent typecheck > "$logs/typecheck.log" 2>&1; then
  echo "types check"; add 1 0
else
  cat "$logs/typecheck.log"; echo "FAILED: npm run typecheck"; add 0 1
fi

section "lint: ESLint (types, hooks, accessibility; tab, package and feature boundaries), Prettier"
if npm run --silent lint > "$logs/lint.log" 2>&1; then
  echo "lint clean, formatted"; add 1 0
else
  cat "$logs/lint.log"; echo "FAILED: npm run lint"; add 0 1
fi

section "installs: every lock file takes npm ci as is, every package accepts the Node package.json names"
if node tools/check-installs.mjs > "$logs/installs.log" 2>&1; then
  cat "$logs/installs.log"; add 1 0
else
  cat "$logs/installs.log"; echo "FAILED: tools/check-installs.mjs"; add 0 1
fi

section "README map: every file the map from the spec to the code names exists"
if python3 tools/check-readme-map.py > "$logs/readme-map.log" 2>&1; then
  tail -1 "$logs/readme-map.log"; add 1 0
else
  cat "$logs/readme-map.log"; echo "FAILED: tools/check-readme-map.py"; add 0 1
fi

section "room sizes: no source file outside generated code is longer than 500 lines"
# Generated: the REST types (openapi-typescript). A file that grows past 500 splits by job (a test
# file by topic), as CONTRIBUTING.md says.
long=$(git ls-files -- '*.rs' '*.ts' '*.tsx' '*.mjs' '*.js' '*.cjs' '*.css' '*.py' '*.sh' \
  | grep -v -e '^shells/runtime/src/api/schema\.d\.ts$' \
  | while read -r f; do [ -f "$f" ] && n=$(wc -l < "$f") && [ "$n" -gt 500 ] && echo "$n $f"; done)
if [ -z "$long" ]; then
  echo "every source file is 500 lines or fewer"; add 1 0
else
  echo "$long"; echo "FAILED: source files longer than 500 lines (above)"; add 0 1
fi

section "jest"
npm test 2>&1 | tee "$logs/jest.log"
jest_rc=${PIPESTATUS[0]}
read -r p f < <(grep -E '^[0-9]+ passed, [0-9]+ failed' "$logs/jest.log" | tail -1 | awk '{ print $1, $3 }')
p=${p:-0}; f=${f:-0}
[ "$jest_rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
add "$p" "$f"

section "deploy: Kubernetes overlays validate and fit the connection budget, Dockerfiles copy files that exist, alert rules check and pass their promtool tests"
bash deploy/check.sh 2>&1 | tee "$logs/deploy.log"
read -r p f < <(grep -E '^[0-9]+ passed, [0-9]+ failed' "$logs/deploy.log" | tail -1 | awk '{ print $1, $3 }')
p=${p:-0}; f=${f:-1}
add "$p" "$f"

section "migrations: shipped ones unchanged, new ones safe for a rolling deploy (squawk)"
bash tools/check-migrations.sh 2>&1 | tee "$logs/migrations.log"
read -r p f < <(grep -E '^[0-9]+ passed, [0-9]+ failed' "$logs/migrations.log" | tail -1 | awk '{ print $1, $3 }')
p=${p:-0}; f=${f:-1}
add "$p" "$f"

section "e2e: Chromium, in three shards at once, each against a portal of its own (e2e/shards.sh)"
PORTAL_BIN=./target/debug/portal bash e2e/shards.sh 2>&1 | tee "$logs/e2e.log"
e2e_rc=${PIPESTATUS[0]}
p=$(grep -E '^# pass [0-9]+' "$logs/e2e.log" | tail -1 | awk '{ print $3 }')
f=$(grep -E '^# fail [0-9]+' "$logs/e2e.log" | tail -1 | awk '{ print $3 }')
p=${p:-0}; f=${f:-0}
[ "$e2e_rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
add "$p" "$f"

section "e2e in Firefox ESR and WebKitGTK: the core journeys, both engines at once (e2e/engines/run.sh)"
E2E_SKIP_BUILD=1 PORTAL_BIN=./target/debug/portal bash e2e/engines/run.sh 2>&1 | tee "$logs/e2e-engines.log"
eng_rc=${PIPESTATUS[0]}
p=$(grep -E '^# pass [0-9]+' "$logs/e2e-engines.log" | tail -1 | awk '{ print $3 }')
f=$(grep -E '^# fail [0-9]+' "$logs/e2e-engines.log" | tail -1 | awk '{ print $3 }')
p=${p:-0}; f=${f:-0}
[ "$eng_rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
add "$p" "$f"

section "Lighthouse: / and /home on a phone (performance, accessibility, LCP, CLS, JavaScript)"
# The front end e2e built; nothing else runs meanwhile (the simulated phone's CPU is scaled from
# this machine's).
PORTAL_BIN=./target/debug/portal bash tools/lighthouse.sh 2>&1 | tee "$logs/lighthouse.log"
lh_rc=${PIPESTATUS[0]}
p=$(grep -c '^ok - ' "$logs/lighthouse.log")
f=$(grep -c '^not ok - ' "$logs/lighthouse.log")
[ "$lh_rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
add "$p" "$f"

# With PostgreSQL and Redis: the split stack, every process its own scrape job, under the k6
# member journeys; without: the one-process portal under a few calls.
topology=embedded
[ -n "${DATABASE_URL:-}" ] && [ -n "${REDIS_URL:-}" ] && topology=split
section "observability: the dashboard's queries and the recording rules against a real Prometheus scraping the $topology stack"
TOPOLOGY=$topology PORTAL_BIN=./target/debug/portal bash deploy/observability/check-live.sh 2>&1 | tee "$logs/observability.log"
obs_rc=${PIPESTATUS[0]}
read -r p f < <(grep -E '^[0-9]+ passed, [0-9]+ failed' "$logs/observability.log" | tail -1 | awk '{ print $1, $3 }')
p=${p:-0}; f=${f:-0}
[ "$obs_rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
add "$p" "$f"

if [ -n "${DATABASE_URL:-}" ] && [ -n "${REDIS_URL:-}" ]; then
  section "e2e, split: every service its own process, PostgreSQL and Redis (two shards, a stack each)"
  E2E_TOPOLOGY=split E2E_SHARDS=2 E2E_SKIP_BUILD=1 PORTAL_BIN=./target/debug/portal bash e2e/shards.sh 2>&1 | tee "$logs/e2e-split.log"
  e2e_rc=${PIPESTATUS[0]}
  p=$(grep -E '^# pass [0-9]+' "$logs/e2e-split.log" | tail -1 | awk '{ print $3 }')
  f=$(grep -E '^# fail [0-9]+' "$logs/e2e-split.log" | tail -1 | awk '{ print $3 }')
  p=${p:-0}; f=${f:-0}
  [ "$e2e_rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
  add "$p" "$f"
fi

if [ -n "${DATABASE_URL:-}" ] && [ -n "${REDIS_URL:-}" ]; then
  section "faults: a service, then Redis, down for 10 s under k6 load"
  PORTAL_BIN=./target/debug/portal bash deploy/faults/run.sh 2>&1 | tee "$logs/faults.log"
  if [ "${PIPESTATUS[0]}" -eq 0 ]; then
    add 1 0
  else
    echo "FAILED: deploy/faults/run.sh"; add 0 1
  fi
fi

if [ -n "${DATABASE_URL:-}" ] && [ -n "${REDIS_URL:-}" ]; then
  section "load balancing: three profile replicas behind one name, one killed, one added, under k6"
  PORTAL_BIN=./target/debug/portal bash deploy/lb/run.sh 2>&1 | tee "$logs/lb.log"
  if [ "${PIPESTATUS[0]}" -eq 0 ]; then
    add 1 0
  else
    echo "FAILED: deploy/lb/run.sh"; add 0 1
  fi
fi

section "the checkout: installs, builds and tests changed no tracked file"
tree_after=$(git status --porcelain 2>/dev/null)
if [ "$tree_before" = "$tree_after" ]; then
  echo "git status is as it was before the run"; add 1 0
else
  diff <(echo "$tree_before") <(echo "$tree_after") | head -20; echo "FAILED: the run changed what git sees (above)"; add 0 1
fi

section "done"
echo
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
