#!/usr/bin/env python3
"""Per-tab deployables (docs: deploy/k8s/components/mfe-store, deploy/k8s/releases), checked offline
by deploy/check.sh: `python3 deploy/mfe_check.py DIR` with DIR holding the rendered overlays
(production.yaml, dev.yaml). Prints one line per problem; exits non-zero if there is any.

- Every tab (scripts/lib.mjs MFE_DIRS) has its release, deploy/k8s/releases/<tab>, which renders
  and validates (kubernetes-validate, strict): a Job running that tab's own image
  (registry/.../<tab>) with the mfe-store volume read-write at /store and the release command.
- The web image builds the shell alone (PORTAL_SHELL_ONLY=1); the tab image takes the tab (ARG MFE).
- In each overlay: the PersistentVolumeClaim mfe-store; web serves it read-only as /mfe/; the
  gateway mounts it read-only and reads the manifest from it (PORTAL_MFE_MANIFEST); the Ingress
  sends /mfe-manifest.json to the gateway and /mfe to web.
"""
import os
import pathlib
import re
import subprocess
import sys
import tempfile

import yaml

K8S_VERSION = os.environ.get("K8S_VERSION", "1.31.0")
ROOT = pathlib.Path(__file__).resolve().parent.parent
problems = []


def docs(text):
    return [d for d in yaml.safe_load_all(text) if d]


def find(objs, kind, name):
    return next((d for d in objs if d["kind"] == kind and d["metadata"]["name"] == name), None)


def container(deploy, name):
    return next((c for c in deploy["spec"]["template"]["spec"]["containers"] if c["name"] == name), None)


def claim_volume(pod, claim):
    return next((v["name"] for v in pod.get("volumes", []) if v.get("persistentVolumeClaim", {}).get("claimName") == claim), None)


tabs = re.search(r"MFE_DIRS = \[([^\]]*)\]", (ROOT / "scripts/lib.mjs").read_text()).group(1)
tabs = re.findall(r"'([^']+)'", tabs)

for tab in tabs:
    where = ROOT / "deploy/k8s/releases" / tab
    render = subprocess.run(["kubectl", "kustomize", str(where)], capture_output=True, text=True)
    if render.returncode:
        problems.append(f"{where.relative_to(ROOT)} does not render: {render.stderr.strip()}")
        continue
    with tempfile.NamedTemporaryFile("w", suffix=".yaml") as f:
        f.write(render.stdout)
        f.flush()
        if subprocess.run(["kubernetes-validate", "-k", K8S_VERSION, "--strict", "--quiet", f.name]).returncode:
            problems.append(f"{where.relative_to(ROOT)} does not validate")
    jobs = [d for d in docs(render.stdout) if d["kind"] == "Job"]
    if len(jobs) != 1:
        problems.append(f"{tab}: its release renders {len(jobs)} Jobs, not 1")
        continue
    pod = jobs[0]["spec"]["template"]["spec"]
    c = pod["containers"][0]
    if not re.search(rf"/{re.escape(tab)}:[^:]+$", c["image"]):
        problems.append(f"{tab}: the release runs {c['image']}, not the tab's own image")
    vol = claim_volume(pod, "mfe-store")
    if not vol or not any(m["name"] == vol and m["mountPath"] == "/store" and not m.get("readOnly") for m in c.get("volumeMounts", [])):
        problems.append(f"{tab}: the release does not mount mfe-store read-write at /store")
    if (c.get("args") or [None])[0] != "release":
        problems.append(f"{tab}: the release Job's args do not start with the release command")

web_docker = (ROOT / "deploy/docker/web.Dockerfile").read_text()
if "PORTAL_SHELL_ONLY=1 npm run build" not in web_docker:
    problems.append("deploy/docker/web.Dockerfile must build the shell alone (PORTAL_SHELL_ONLY=1 npm run build)")
mfe_docker = ROOT / "deploy/docker/mfe.Dockerfile"
if not mfe_docker.exists() or "ARG MFE" not in mfe_docker.read_text():
    problems.append("deploy/docker/mfe.Dockerfile (one image per tab, ARG MFE) is missing")

for overlay in ("production", "dev"):
    rendered = pathlib.Path(sys.argv[1]) / f"{overlay}.yaml"
    if not rendered.exists():
        problems.append(f"{overlay}: not rendered")
        continue
    objs = docs(rendered.read_text())
    if not find(objs, "PersistentVolumeClaim", "mfe-store"):
        problems.append(f"{overlay}: no PersistentVolumeClaim mfe-store")
    web, gateway = find(objs, "Deployment", "web"), find(objs, "Deployment", "gateway")
    for name, d, path in (("web", web, "/usr/share/nginx/html/mfe"), ("gateway", gateway, None)):
        pod = d["spec"]["template"]["spec"]
        vol = claim_volume(pod, "mfe-store")
        mounts = [m for m in (container(d, name) or {}).get("volumeMounts", []) if vol and m["name"] == vol]
        if not mounts or not all(m.get("readOnly") for m in mounts) or (path and not any(m["mountPath"] == path for m in mounts)):
            problems.append(f"{overlay}: {name} does not mount mfe-store read-only{' at ' + path if path else ''}")
        if name == "gateway":
            env = {e["name"]: e.get("value") for e in container(d, name).get("env", [])}
            manifest = env.get("PORTAL_MFE_MANIFEST") or ""
            if not mounts or not manifest.startswith(mounts[0]["mountPath"].rstrip("/") + "/"):
                problems.append(f"{overlay}: the gateway's PORTAL_MFE_MANIFEST ({manifest or 'unset'}) is not in mfe-store")
    ingress = find(objs, "Ingress", "portal")
    routes = {p["path"]: p["backend"]["service"]["name"] for r in ingress["spec"]["rules"] for p in r["http"]["paths"]}
    if routes.get("/mfe-manifest.json") != "gateway" or routes.get("/mfe") != "web":
        problems.append(f"{overlay}: the Ingress must send /mfe-manifest.json to the gateway and /mfe to web")

for p in problems:
    print(p)
sys.exit(1 if problems else 0)
