#!/usr/bin/env bash
# Migrations safe for a rolling deploy (CONTRIBUTING.md "Changing the schema"): while a release
# rolls out, the old pods keep serving against the new schema, so a migration only expands
# (adds tables, nullable or defaulted columns) and a later release contracts.
#  1. A migration that has shipped is never edited: the files in tools/migrations-baseline.sha256
#     (those from before this check) keep their bytes (sqlx would refuse to start anyway).
#  2. Every newer one passes squawk (npm squawk-cli), PostgreSQL 15, as it runs: in one
#     transaction (sqlx). Three rules are off, for reasons that hold for every file:
#     prefer-robust-stmts (the transaction makes a failed migration roll back whole, so nothing
#     is half done to rerun), require-lock-timeout and require-statement-timeout
#     (portal_common::db sets both on the connection that runs the migrations; the files are
#     shared with SQLite, which has no SET). An index on a table that already has rows is not
#     created here but declared as an online index (portal_common::db::OnlineIndex), built
#     CONCURRENTLY in the background.
#  3. The check can fail: squawk refuses an index built the blocking way.
# Ends with `N passed, N failed`.
set -uo pipefail
cd "$(dirname "$0")/.."
squawk=node_modules/.bin/squawk
passed=0
failed=0
ok() { echo "ok: $1"; passed=$((passed + 1)); }
bad() { echo "FAILED: $1"; failed=$((failed + 1)); }
rules=(--pg-version=15 --assume-in-transaction --exclude=prefer-robust-stmts,require-lock-timeout,require-statement-timeout)

if sha256sum --quiet -c tools/migrations-baseline.sha256; then
  ok "the $(wc -l < tools/migrations-baseline.sha256) migrations from before this check are unchanged"
else
  bad "a migration that has shipped was edited (tools/migrations-baseline.sha256): add a new one instead"
fi

new=()
for f in services/*/migrations/*.sql; do
  grep -q "  $f\$" tools/migrations-baseline.sha256 || new+=("$f")
done
if [ ${#new[@]} -eq 0 ]; then
  ok "no migration newer than the baseline to lint"
elif "$squawk" "${rules[@]}" "${new[@]}"; then
  ok "squawk: ${#new[@]} new migration(s) safe for a rolling deploy: ${new[*]}"
else
  bad "squawk refuses a new migration (above): see CONTRIBUTING.md \"Changing the schema\""
fi

if echo 'CREATE INDEX things_n ON things (n);' | "$squawk" "${rules[@]}" --stdin-filepath self-test.sql > /dev/null; then
  bad "squawk lets an index be built the blocking way: the check would pass anything"
else
  ok "squawk refuses an index built the blocking way (self-test)"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
