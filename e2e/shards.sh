#!/usr/bin/env bash
# The Chromium suite (e2e/tests) in E2E_SHARDS runs at once (default 3), each against a portal of
# its own (e2e/run.sh: a free port, fresh embedded storage, its own copy of public/). The tests
# mostly wait (for the browser, the server, animations): on two cores three shards take 300 s
# where one run takes 490 s. Every test file must pass on a fresh portal whichever files ran
# before it in its shard.
#
# The files go to the shards longest first, each to the shard with the least so far; a file's
# weight is the seconds it took in a full run here (WEIGHTS below; a file not listed counts 10).
# Prints each shard's lines prefixed with [shard N], then the sums as node's test runner does
# (`# pass N`, `# fail N`), and fails if any shard failed or ran nothing.
#   E2E_SKIP_BUILD, PORTAL_BIN, E2E_TOPOLOGY, E2E_ONLY: as for e2e/run.sh (make test passes the
#   cargo-built portal); E2E_TOPOLOGY=split: a split stack per shard, in schemas of its own.
set -uo pipefail
cd "$(dirname "$0")/.."
shards=${E2E_SHARDS:-3}
declare -A WEIGHTS=(
  [a11y-desktop]=65 [a11y-phone]=52 [phone]=46 [offline-data]=32 [privacy]=23 [email-change]=22 [wishlist-edit]=22 [profile]=22
  [forms-journeys]=22 [stores]=19 [native]=18 [sw-update]=17 [embed]=16 [keyboard]=12 [deploy]=12
  [canary]=10 [session]=9 [home]=8 [formats]=8 [qff]=8 [prerender]=7 [signin]=7 [orders]=7 [rewards]=6
  [tabs]=6 [offline]=5 [card]=4 [content-language]=4 [register]=4
)
if [ -z "${E2E_SKIP_BUILD:-}" ]; then npm run build || exit 1; fi
if [ -z "${PORTAL_BIN:-}" ]; then
  cargo build -q -p portal-launcher || exit 1
  PORTAL_BIN=./target/debug/portal
fi

# Longest first, each to the lightest shard.
declare -a load files
for ((i = 0; i < shards; i++)); do load[i]=0; files[i]=""; done
while read -r weight file; do
  best=0
  for ((i = 1; i < shards; i++)); do [ "${load[i]}" -lt "${load[best]}" ] && best=$i; done
  load[best]=$((load[best] + weight))
  files[best]="${files[best]} tests/$file"
done < <(
  # E2E_ONLY: those files; the split topology: the journeys that reach the services; else all.
  if [ -n "${E2E_ONLY:-}" ]; then list=$E2E_ONLY
  elif [ "${E2E_TOPOLOGY:-embedded}" = split ]; then list=$(grep -v '^#' e2e/split.list)
  else list=$(cd e2e && ls tests/*.test.mjs); fi
  for f in $list; do
    name=$(basename "$f" .test.mjs)
    echo "${WEIGHTS[$name]:-10} $(basename "$f")"
  done | sort -k1,1nr -k2,2
)

logs=$(mktemp -d "${TMPDIR:-/tmp}/portal-shards.XXXXXX")
trap 'rm -rf "$logs"' EXIT
started=$SECONDS
pids=()
for ((i = 0; i < shards; i++)); do
  echo "shard $((i + 1)) (~${load[i]} s):${files[i]}"
  E2E_ONLY="${files[i]# }" E2E_SKIP_BUILD=1 PORTAL_BIN="$PORTAL_BIN" bash e2e/run.sh > "$logs/$i.log" 2>&1 &
  pids+=($!)
done
rc=0
pass=0
fail=0
for ((i = 0; i < shards; i++)); do
  wait "${pids[i]}" || rc=1
  sed "s/^/[shard $((i + 1))] /" "$logs/$i.log"
  p=$(awk '/^# pass [0-9]+/ { s += $3 } END { print s + 0 }' "$logs/$i.log")
  f=$(awk '/^# fail [0-9]+/ { s += $3 } END { print s + 0 }' "$logs/$i.log")
  [ "$p" -gt 0 ] || { echo "not ok - shard $((i + 1)) ran no test"; f=$((f + 1)); rc=1; }
  pass=$((pass + p))
  fail=$((fail + f))
done
echo "$shards shards took $((SECONDS - started)) s"
echo "# pass $pass"
echo "# fail $fail"
[ "$fail" -eq 0 ] || rc=1
exit "$rc"
