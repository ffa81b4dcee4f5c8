#!/usr/bin/env bash
# Checks deploy/ offline: every kustomize overlay renders and validates against the Kubernetes
# schemas (kubernetes-validate, strict) and fits the database's connection budget
# (deploy/budget.py), and every Dockerfile copies only files that exist in the repository. Ends
# with `N passed, N failed`. Needs kubectl (its built-in kustomize) and
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
  # The connection budget: every SQL pool times the most pods a rollout runs fits the database.
  if python3 deploy/budget.py "$out/$name.yaml"; then
    ok "$dir: the SQL pools at full scale fit the database's connection budget"
  else
    bad "$dir: the SQL pools at full scale exceed the database's connection budget (deploy/budget.py)"
  fi
done
# ... and the check can fail: the production overlay with the profile pool ten times larger.
if python3 deploy/budget.py "$out/production.yaml" --scale=profile=10 > /dev/null; then
  bad "deploy/budget.py passes a profile pool ten times larger: the budget is not checked"
else
  ok "deploy/budget.py refuses a pool that outgrows the budget"
fi

# Every COPY (not from another stage) names files in the build context, the repository root.
for f in deploy/docker/*.Dockerfile; do
  missing=()
  while read -r src; do
    [ -e "$src" ] || missing+=("$src")
  done < <(awk 'toupper($1) == "COPY" && $2 !~ /^--from/ { for (i = 2; i < NF; i++) if ($i !~ /^--/) print $i }' "$f")
  if [ ${#missing[@]} -eq 0 ]; then ok "$f copies only files that exist"; else bad "$f copies missing ${missing[*]}"; fi
done

# Prometheus rules (deploy/observability, docs/alerts.md): the SLO files are what slo.py writes,
# every alert has a severity, a summary, a description, a runbook heading and a test that fires
# it; promtool checks and unit-tests them (Debian's `prometheus` package); the production overlay
# ships every rule file, unchanged, in the ConfigMap portal-prometheus-rules.
if python3 deploy/observability/slo.py check; then ok "deploy/observability: SLO rules current, every alert documented and tested"; else bad "deploy/observability/slo.py check"; fi
if command -v promtool >/dev/null; then
  if promtool check rules deploy/observability/rules/*.yaml > "$out/promtool-check.log" 2>&1; then
    ok "promtool check rules: $(grep -o '[0-9]* rules found' "$out/promtool-check.log" | awk '{n += $1} END {print n}') rules"
  else cat "$out/promtool-check.log"; bad "promtool check rules deploy/observability/rules/*.yaml"; fi
  if promtool test rules deploy/observability/tests/*.yaml > "$out/promtool-test.log" 2>&1; then
    ok "promtool test rules: $(cat deploy/observability/tests/*.yaml | grep -c '^ *- name:') cases pass"
  else cat "$out/promtool-test.log"; bad "promtool test rules deploy/observability/tests/*.yaml"; fi
else
  bad "promtool is not installed (apt-get install -y prometheus): the alert rules are not checked"
fi
if python3 - "$out/production.yaml" <<'EOF'
import pathlib, sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
cm = [d for d in docs if d["kind"] == "ConfigMap" and d["metadata"]["name"] == "portal-prometheus-rules"]
files = {p.name: p.read_text() for p in pathlib.Path("deploy/observability/rules").glob("*.yaml")}
if not cm:
    sys.exit("the production overlay has no ConfigMap portal-prometheus-rules")
if cm[0].get("data") != files:
    sys.exit(f"portal-prometheus-rules holds {sorted(cm[0].get('data', {}))}, not rules/ as it is: {sorted(files)}")
cfg = yaml.safe_load(open("deploy/observability/prometheus.yml"))
assert cfg["rule_files"] and cfg["scrape_configs"], "deploy/observability/prometheus.yml: no rules or scrape job"
EOF
then ok "production ships every rule file in ConfigMap portal-prometheus-rules"; else bad "production overlay: the rules ConfigMap"; fi

# Alertmanager (deploy/observability/alertmanager.yml, Debian's `prometheus-alertmanager`): the
# config is valid, every alert of the rules reaches the receiver its severity names (page: the
# pager; ticket: the ticket queue), and the routing test can fail.
if command -v amtool >/dev/null; then
  am=deploy/observability/alertmanager.yml
  if amtool check-config "$am" > "$out/amtool.log" 2>&1; then ok "amtool check-config: $am"; else cat "$out/amtool.log"; bad "amtool check-config $am"; fi
  routed=0; misrouted=()
  while read -r receiver labels; do
    # shellcheck disable=SC2086
    if amtool config routes test --config.file="$am" --verify.receivers="$receiver" $labels > /dev/null 2>&1; then
      routed=$((routed + 1))
    else misrouted+=("$labels -> not $receiver"); fi
  done < <(python3 -c '
import glob, yaml
for path in sorted(glob.glob("deploy/observability/rules/*.yaml")):
    for group in yaml.safe_load(open(path))["groups"]:
        for rule in group["rules"]:
            if "alert" in rule:
                labels = {"alertname": rule["alert"], **rule.get("labels", {})}
                receiver = {"page": "pager", "ticket": "tickets"}[labels["severity"]]
                print(receiver, " ".join(f"{k}={v}" for k, v in labels.items()))
')
  if [ "$routed" -gt 0 ] && [ ${#misrouted[@]} -eq 0 ]; then ok "Alertmanager routes each of $routed alerts by its severity"; else bad "Alertmanager misroutes: ${misrouted[*]:-no alerts read}"; fi
  if amtool config routes test --config.file="$am" --verify.receivers=pager severity=ticket alertname=Probe > /dev/null 2>&1; then
    bad "amtool's routing test passes a ticket sent to the pager: it checks nothing"
  else ok "a ticket does not page (the routing test can fail)"; fi
  # The inhibitions, which amtool can't test: a real Alertmanager holds back what it should.
  if bash deploy/observability/check-inhibitions.sh > "$out/inhibitions.log" 2>&1; then
    ok "Alertmanager's inhibitions: $(tail -1 "$out/inhibitions.log")"
  else cat "$out/inhibitions.log"; bad "Alertmanager's inhibitions (deploy/observability/check-inhibitions.sh)"; fi
else
  bad "amtool is not installed (apt-get install -y prometheus-alertmanager): the alert routing is not checked"
fi

# gRPC backends are headless Services reached as dns:///<name>:50051, so callers balance across
# every pod (docs/scale-out.md); a ClusterIP Service or an http:// URL would pin one connection.
for overlay in "$out"/*.yaml; do
  if python3 - "$overlay" <<'EOF'
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
backends = {"auth", "profile", "connections", "qff", "refdata"}
problems = []
for d in docs:
    name = d["metadata"]["name"]
    if d["kind"] == "Service" and name in backends and d["spec"].get("clusterIP") != "None":
        problems.append(f"Service {name} is not headless")
    if d["kind"] in ("Deployment", "StatefulSet"):
        for c in d["spec"]["template"]["spec"]["containers"]:
            for e in c.get("env", []):
                if e["name"].startswith("PORTAL_SERVICES__") and not str(e.get("value", "")).startswith("dns:///"):
                    problems.append(f"{name}: {e['name']}={e.get('value')} is not dns:///")
if problems:
    sys.exit("; ".join(problems))
EOF
  then ok "$(basename "$overlay"): gRPC backends headless, reached as dns:///"; else bad "$(basename "$overlay"): gRPC backends must be headless and reached as dns:///"; fi
done

# Per-tab delivery (deploy/mfe_check.py): a release Job and an image per tab, the web image the
# shell alone, the mfe-store volume served by web and read by the gateway.
if python3 deploy/mfe_check.py "$out"; then
  ok "per-tab deployables: every tab's release renders and validates, mfe-store serves the tabs and the manifest"
else
  bad "per-tab deployables (deploy/mfe_check.py)"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
