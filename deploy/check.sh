#!/usr/bin/env bash
# Checks deploy/ offline: every kustomize overlay renders and validates against the Kubernetes
# schemas (kubernetes-validate, strict), and every Dockerfile copies only files that exist in the
# repository. Ends with `N passed, N failed`. Needs kubectl (its built-in kustomize) and
# `pip install kubernetes-validate`.
set -uo pipefail
cd "$(dirname "$0")/.."
K8S_VERSION="${K8S_VERSION:-1.31.0}"
passed=0
failed=0
ok() { echo "ok: $1"; passed=$((passed + 1)); }
bad() { echo "FAILED: $1"; failed=$((failed + 1)); }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for dir in deploy/k8s/base deploy/k8s/overlays/*/; do
  name=$(basename "$dir")
  if ! kubectl kustomize "$dir" > "$out/$name.yaml" 2> "$out/$name.err"; then
    cat "$out/$name.err"; bad "kustomize $dir"; continue
  fi
  if kubernetes-validate -k "$K8S_VERSION" --strict --quiet "$out/$name.yaml"; then
    ok "$dir renders $(grep -c '^kind:' "$out/$name.yaml") objects valid for Kubernetes $K8S_VERSION"
  else
    bad "$dir does not validate"
  fi
done

# Every COPY (not from another stage) names files in the build context, the repository root.
for f in deploy/docker/*.Dockerfile; do
  missing=()
  while read -r src; do
    [ -e "$src" ] || missing+=("$src")
  done < <(awk 'toupper($1) == "COPY" && $2 !~ /^--from/ { for (i = 2; i < NF; i++) if ($i !~ /^--/) print $i }' "$f")
  if [ ${#missing[@]} -eq 0 ]; then ok "$f copies only files that exist"; else bad "$f copies missing ${missing[*]}"; fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
