#!/usr/bin/env python3
"""Helpers for scripts/shop-bench: the web shop's pages as a visitor (no session, the chosen store
in the `fulfilment_store` cookie) under load, the statements each page sent to PostgreSQL (the
service's own request log, `statements=`), and the table. Standard library only; the HTTP client,
percentiles and CPU readings are checkout-bench's (checkout_bench.py).

Every client is a thread with one keep-alive http.client connection to 127.0.0.1. Each request
carries an X-Request-Id naming the page and the run (`shop-bench.<page>.<clients>c.<client>.<n>`),
so its line in the service's log is found again.
"""
import argparse
import collections
import json
import os
import random
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checkout_bench import Client, cpu_delta, measured_run, summary  # noqa: E402

PRODUCT_LINK = re.compile(rb'href="/shop/products/[^"]+"')


def paths_of(file):
    with open(file) as f:
        paths = [line.strip() for line in f if line.strip()]
    if not paths:
        sys.exit(f"no paths in {file}")
    return paths


def get(client, path, store, request_id):
    return client.request("GET", path, headers={
        "Accept": "text/html", "Cookie": f"fulfilment_store={store}", "X-Request-Id": request_id})


def cmd_probe(args):
    """One request of the page's first path: its status, size and how many product links it shows."""
    client = Client(args.port)
    status, payload, elapsed = get(client, paths_of(args.paths)[0], args.store, f"shop-bench.{args.page}.probe")
    links = len(set(PRODUCT_LINK.findall(payload)))
    json.dump({"status": status, "bytes": len(payload), "product_links": links, "ms": elapsed * 1000}, sys.stdout)


def cmd_load(args):
    """--clients threads, each GETting a random one of --paths for --duration seconds after
    --warmup unmeasured requests."""
    paths = paths_of(args.paths)
    latencies = [[] for _ in range(args.clients)]
    statuses = [collections.Counter() for _ in range(args.clients)]
    sizes = [0] * args.clients
    prefix = f"shop-bench.{args.page}.{args.clients}c"

    def worker(i, gate):
        client = Client(args.port)
        rng = random.Random(f"{args.page}-{args.clients}-{i}")
        for n in range(args.warmup):
            get(client, rng.choice(paths), args.store, f"{prefix}.warmup")
        gate()
        deadline = time.perf_counter() + args.duration
        n = 0
        while time.perf_counter() < deadline:
            status, payload, elapsed = get(client, rng.choice(paths), args.store, f"{prefix}.{i}.{n}")
            latencies[i].append(elapsed)
            statuses[i][status] += 1
            sizes[i] += len(payload)
            n += 1

    elapsed, cpu_before, cpu_after = measured_run(args, args.clients, worker)
    all_latencies = [x for per in latencies for x in per]
    count = len(all_latencies)
    status_total = collections.Counter()
    for per in statuses:
        status_total.update(per)
    result = {
        "page": args.page, "clients": args.clients, "elapsed_s": elapsed, "count": count,
        "rate": count / elapsed if elapsed else 0.0, "latency": summary(all_latencies),
        "statuses": {str(k): v for k, v in sorted(status_total.items())},
        "non_200": sum(v for k, v in status_total.items() if k != 200),
        "mean_bytes": sum(sizes) / count if count else 0, "cpu_ms": cpu_delta(cpu_before, cpu_after, count),
    }
    with open(args.out, "w") as out:
        json.dump(result, out)


def statements_in_log(serve_log, prefix):
    """Statements per request (the service's `statements=`) of the log's lines whose request id
    starts with `prefix`, as a Counter {statements: requests}."""
    pattern = re.compile(r"request_id=" + re.escape(prefix) + r"\S*.*?statements=(\d+)|statements=(\d+).*?request_id="
                         + re.escape(prefix))
    counts = collections.Counter()
    with open(serve_log, errors="replace") as log:
        for line in log:
            if prefix in line and (m := pattern.search(line)):
                counts[int(m.group(1) or m.group(2))] += 1
    return counts


def cmd_report(args):
    pages = [json.loads(line) for line in open(args.results) if line.strip()]
    probes = json.load(open(args.probes))
    nested = json.load(open(args.nested)) if args.nested and os.path.getsize(args.nested) else {}
    labels = dict(tuple(x.split("=", 1)) for x in args.label)

    def statements(page):
        counts = statements_in_log(args.serve_log, f"shop-bench.{page}.")
        if not counts:
            return "?", "none logged"
        n = sum(counts.values())
        mean = sum(k * v for k, v in counts.items()) / n
        spread = ", ".join(f"{k} ({v}x)" for k, v in sorted(counts.items()))
        return f"{mean:.2f}", spread

    print()
    header = (f"{'page':<34} {'clients':>7} {'pages/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'non-200':>7} "
              f"{'stmts':>6} {'svc CPU':>8} {'pg CPU':>7} {'KiB':>6}")
    print(header)
    print("-" * len(header))
    for r in pages:
        cpu = r.get("cpu_ms", {})
        mean, _ = statements(r["page"])
        print(f"{labels.get(r['page'], r['page']):<34} {r['clients']:>7} {r['rate']:>8.1f} {r['latency']['p50_ms']:>7.1f} "
              f"{r['latency']['p99_ms']:>7.1f} {r['latency']['max_ms']:>7.1f} {r['non_200']:>7} {mean:>6} "
              f"{cpu.get('service', float('nan')):>8.2f} {cpu.get('postgres', float('nan')):>7.2f} {r['mean_bytes'] / 1024:>6.1f}")
    print("(pages/s, p50/p99/max: each client a keep-alive connection, as fast as answered, so at many clients the latency\n"
          " is mostly queueing: mean = clients / throughput; stmts: statements the service sent to PostgreSQL per page,\n"
          " each a round trip, from its request log; CPU: ms of the service's and PostgreSQL's CPU per page; KiB: the page)")
    print()
    print("statements per page load (the service's request log, every measured request and warm-up):")
    for page in dict.fromkeys(r["page"] for r in pages):
        _, spread = statements(page)
        line = f"  {labels.get(page, page):<34} {spread}"
        if page in nested:
            n = nested[page]
            line += (f"; pg_stat_statements over the 1-client run: {n['top'] / n['pages']:.2f} top-level and "
                     f"{n['all'] / n['pages']:.2f} with those inside routines, per page")
        print(line)
    print()
    print("one request of each page before the runs (status, size, distinct product links shown):")
    for page, p in probes.items():
        print(f"  {labels.get(page, page):<34} {p['status']}, {p['bytes'] / 1024:.1f} KiB, {p['product_links']} products, "
              f"{p['ms']:.1f} ms (cold)")
    bad = sum(r["non_200"] for r in pages)
    if bad:
        print()
        print(f"NOT ALL 200: {bad} answers were not 200: "
              + "; ".join(f"{r['page']} at {r['clients']}: {r['statuses']}" for r in pages if r["non_200"]))
    print()
    for r in pages:
        if r["page"] == "product":
            p99 = r["latency"]["p99_ms"]
            verdict = "under" if p99 < 20 else "NOT under"
            print(f"product page p99 at {r['clients']} client{'s' if r['clients'] > 1 else ''}: {p99:.1f} ms, "
                  f"{verdict} 20 ms (goal: a product page at the {args.catalogue} catalogue in under 20 ms p99)")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("probe")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--store", required=True)
    p.add_argument("--page", required=True)
    p.add_argument("--paths", required=True, help="file of paths, one a line")
    p.set_defaults(func=cmd_probe)

    p = sub.add_parser("load")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--store", required=True)
    p.add_argument("--page", required=True)
    p.add_argument("--paths", required=True, help="file of paths, one a line; each request takes a random one")
    p.add_argument("--clients", type=int, default=16)
    p.add_argument("--duration", type=float, default=10)
    p.add_argument("--warmup", type=int, default=10, help="unmeasured requests per client first")
    p.add_argument("--server-pid", type=int)
    p.add_argument("--postmaster-pid", type=int)
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_load)

    p = sub.add_parser("report")
    p.add_argument("--results", required=True, help="the load command's results, one JSON a line")
    p.add_argument("--probes", required=True)
    p.add_argument("--serve-log", required=True)
    p.add_argument("--nested", help="pg_stat_statements per page, JSON {page: {pages, top, all}}")
    p.add_argument("--catalogue", required=True)
    p.add_argument("--label", action="append", default=[], help="page=label")
    p.set_defaults(func=cmd_report)

    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
