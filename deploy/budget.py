#!/usr/bin/env python3
"""The database connection budget of a rendered overlay (deploy/check.sh).

Every container given DATABASE_URL must say how many connections its pool opens
(PORTAL_DB_POOL_SIZE, read by portal_common::db). The most pods a Deployment can run at once is
its HorizontalPodAutoscaler's maxReplicas (its replicas without one) plus the rolling update's
surge (maxSurge, 25 % by default, rounded up). Summed over the Deployments, pool x pods must fit
the database's max_connections less what is reserved (superuser, operators, migrations), both
from the ConfigMap portal-database. Prints the table; exits 1 when over budget or unbounded.

usage: budget.py RENDERED.yaml [--scale DEPLOYMENT=FACTOR]  (the option multiplies a pool: a
self-test that the check fails when a pool grows past the budget)
"""
import math
import sys

import yaml


def surge(deployment, pods):
    value = ((deployment["spec"].get("strategy") or {}).get("rollingUpdate") or {}).get("maxSurge", "25%")
    if isinstance(value, str) and value.endswith("%"):
        return math.ceil(pods * int(value[:-1]) / 100)
    return int(value)


def main(argv):
    path, scale = argv[1], {}
    for arg in argv[2:]:
        if arg.startswith("--scale="):
            name, factor = arg.split("=", 1)[1].split("=")
            scale[name] = int(factor)
    docs = [d for d in yaml.safe_load_all(open(path)) if d]
    hpa = {d["spec"]["scaleTargetRef"]["name"]: d["spec"]["maxReplicas"] for d in docs if d["kind"] == "HorizontalPodAutoscaler"}
    budget_maps = [d for d in docs if d["kind"] == "ConfigMap" and d["metadata"]["name"] == "portal-database"]
    if not budget_maps:
        return "no ConfigMap portal-database (max-connections, reserved-connections): the budget is unknown"
    data = budget_maps[0]["data"]
    limit = int(data["max-connections"]) - int(data["reserved-connections"])
    rows, problems, total = [], [], 0
    for d in docs:
        if d["kind"] != "Deployment":
            continue
        name = d["metadata"]["name"]
        for c in d["spec"]["template"]["spec"]["containers"]:
            env = {e["name"]: e for e in c.get("env", [])}
            if "DATABASE_URL" not in env:
                continue
            size = env.get("PORTAL_DB_POOL_SIZE", {}).get("value")
            if size is None or int(size) <= 0:
                problems.append(f"{name}/{c['name']} has DATABASE_URL but no PORTAL_DB_POOL_SIZE: its pool is not budgeted")
                continue
            pool = int(size) * scale.get(name, 1)
            pods = hpa.get(name, d["spec"].get("replicas", 1))
            pods += surge(d, pods)
            rows.append((name, pool, pods, pool * pods))
            total += pool * pods
    for name, pool, pods, n in rows:
        print(f"  {name:<12} pool {pool:>3} x {pods:>3} pods = {n:>4}")
    print(f"  {'total':<12} {total:>27} of {limit} ({data['max-connections']} max_connections - {data['reserved-connections']} reserved)")
    if total > limit:
        problems.append(f"{total} connections at full scale exceed the budget of {limit}")
    return "; ".join(problems) or None


if __name__ == "__main__":
    sys.exit(main(sys.argv))
