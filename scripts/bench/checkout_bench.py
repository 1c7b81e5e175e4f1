#!/usr/bin/env python3
"""Helpers for scripts/checkout-bench: sign-ins, the HTTP load (checkouts, collection scans),
pgbench's per-transaction logs, and the table of figures. Standard library only.

Every HTTP client is a thread with one keep-alive http.client connection to 127.0.0.1.
"""
import argparse
import collections
import glob
import http.client
import itertools
import json
import math
import os
import random
import re
import sys
import threading
import time
import uuid


def percentile(sorted_values, p):
    """Nearest-rank percentile of an ascending list (NaN when empty)."""
    if not sorted_values:
        return float("nan")
    rank = max(1, math.ceil(p / 100 * len(sorted_values)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


def _stat(pid):
    with open(f"/proc/{pid}/stat") as f:
        text = f.read()
    return text[text.rindex(")") + 2:].split()   # fields from the 3rd (state) on


def cpu_seconds(server_pid=None, postmaster_pid=None):
    """CPU seconds so far of the service process and of the PostgreSQL cluster (the postmaster,
    its live children, and the children it has reaped)."""
    tick = os.sysconf("SC_CLK_TCK")
    result = {}
    if server_pid:
        f = _stat(server_pid)
        result["service"] = (int(f[11]) + int(f[12])) / tick
    if postmaster_pid:
        f = _stat(postmaster_pid)
        total = sum(int(x) for x in f[11:15])
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                g = _stat(entry)
            except OSError:
                continue
            if g[1] == str(postmaster_pid):
                total += int(g[11]) + int(g[12])
        result["postgres"] = total / tick
    return result


def cpu_delta(before, after, operations):
    """Milliseconds of CPU per operation, by whom."""
    return {k: (after[k] - before[k]) * 1000 / operations for k in after if k in before and operations}


def summary(latencies_s):
    values = sorted(x * 1000 for x in latencies_s)
    return {
        "n": len(values),
        "p50_ms": percentile(values, 50),
        "p99_ms": percentile(values, 99),
        "mean_ms": sum(values) / len(values) if values else float("nan"),
        "max_ms": values[-1] if values else float("nan"),
    }


class Client:
    """One keep-alive connection, one bearer token."""

    def __init__(self, port, token=None):
        self.port = port
        self.token = token
        self.conn = None

    def request(self, method, path, body=None, headers=None):
        """(status, body bytes, seconds). Reconnects once if the server closed the connection."""
        all_headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.token:
            all_headers["Authorization"] = "Bearer " + self.token
        if headers:
            all_headers.update(headers)
        data = json.dumps(body).encode() if body is not None else None
        for attempt in (0, 1):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            started = time.perf_counter()
            try:
                self.conn.request(method, path, body=data, headers=all_headers)
                response = self.conn.getresponse()
                payload = response.read()
                elapsed = time.perf_counter() - started
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()
                self.conn = None
                if attempt:
                    raise
                continue
            if response.getheader("Connection", "").lower() == "close":
                self.conn.close()
                self.conn = None
            return response.status, payload, elapsed
        raise RuntimeError("unreachable")


def run_threads(count, target):
    errors = []

    def guarded(i):
        try:
            target(i)
        except BaseException as error:  # report, never hang the run
            errors.append(f"client {i}: {error!r}")

    threads = [threading.Thread(target=guarded, args=(i,), daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        sys.exit("HTTP load failed:\n  " + "\n  ".join(errors[:5]))


def cpu_text(result):
    """"CPU per op: service 1.2 ms, postgres 0.8 ms, client 0.3 ms (of 40 s of CPU)"."""
    parts = [f"{k} {v:.2f} ms" for k, v in result["cpu_ms"].items()]
    return "CPU per op: " + ", ".join(parts) if parts else "CPU not measured"


# ---- sign-ins -------------------------------------------------------------------------------

def cmd_signin(args):
    """Logs in every account named on the command line; writes {"customers": [...], "staff": [...]}."""
    result = {"customers": [], "staff": []}
    client = Client(args.port)
    for role, emails in (("customers", args.customers), ("staff", args.staff)):
        for email in emails:
            status, payload, _ = client.request(
                "POST", "/v1/auth/login", {"email": email, "password": args.password})
            if status != 200:
                sys.exit(f"login {email}: HTTP {status} {payload[:300]!r}")
            result[role].append(json.loads(payload)["token"])
    with open(args.out, "w") as out:
        json.dump(result, out)


# ---- checkouts ------------------------------------------------------------------------------

class Schedule:
    """--rate: client i of `clients` sends on a fixed schedule, `rate` operations a second in all,
    the clients staggered; without a rate, as fast as answered."""

    def __init__(self, i, clients, rate, started):
        self.interval = clients / rate if rate else 0
        self.due = started + i * self.interval / clients

    def wait(self):
        """Sleeps until the next operation is due and returns when that was (None without a rate)."""
        if not self.interval:
            return None
        time.sleep(max(0.0, self.due - time.perf_counter()))
        due, self.due = self.due, self.due + self.interval
        return due


def measured_run(args, clients, worker):
    """Runs worker(i, gate) on `clients` threads. Each worker warms up, calls gate(), then does
    its measured work. The span runs from the moment every worker is at the gate to the last
    one's finish; CPU of the service, PostgreSQL and this process is read across that span.
    Returns (elapsed seconds, cpu before, cpu after)."""
    ready = threading.Barrier(clients + 1)
    go = threading.Barrier(clients + 1)
    finish, holder = {}, {}

    def gate():
        ready.wait()
        go.wait()

    def run(i):
        worker(i, gate)
        finish[i] = time.perf_counter()

    def coordinator():
        ready.wait()
        holder["cpu"] = cpu_seconds(args.server_pid, args.postmaster_pid)
        holder["cpu"]["client"] = time.process_time()
        holder["start"] = time.perf_counter()
        go.wait()

    coordinating = threading.Thread(target=coordinator, daemon=True)
    coordinating.start()
    run_threads(clients, run)
    coordinating.join()
    elapsed = max(finish.values()) - holder["start"]
    cpu_after = cpu_seconds(args.server_pid, args.postmaster_pid)
    cpu_after["client"] = time.process_time()
    return elapsed, holder["cpu"], cpu_after


def cmd_checkout(args):
    sessions = json.load(open(args.sessions))["customers"]
    products = [line.strip() for line in open(args.products) if line.strip()]
    clients = len(sessions)
    issued = itertools.count()          # measured checkouts started, across clients
    lock = threading.Lock()
    tokens, put_lat, post_lat, bad = [], [], [], {}

    # --slots: each checkout books a pickup slot drawn from the file (slots-bench), so it also
    # takes a place and the order's pick work in that slot.
    slots = [line.strip() for line in open(args.slots) if line.strip()] if args.slots else []

    def one(client, rng):
        product = rng.choice(products)
        status, payload, put_s = client.request("PUT", f"/v1/cart/items/{product}", {"quantity": 1})
        if status != 200:
            return ("PUT", status, payload, put_s, None)
        body = {"paymentMethod": "pay_at_collection"}
        if slots:
            body["pickupSlot"] = rng.choice(slots)
        status, payload, post_s = client.request("POST", "/v1/checkout", body, {"Idempotency-Key": str(uuid.uuid4())})
        if status != 201:
            return ("POST", status, payload, put_s, post_s)
        return (None, status, json.loads(payload)["pickupToken"], put_s, post_s)

    def worker(i, gate):
        client = Client(args.port, sessions[i])
        rng = random.Random(i)
        mine_tokens, mine_put, mine_post, mine_bad = [], [], [], {}
        for _ in range(args.warmup):               # connections, pools, caches; not measured
            failed, status, value, _, _ = one(client, rng)
            if failed is None:
                mine_tokens.append(value)
        gate()
        started = time.perf_counter()
        deadline = started + args.duration
        schedule = Schedule(i, clients, args.rate, started)
        while time.perf_counter() < deadline and next(issued) < args.max:
            schedule.wait()
            failed, status, value, put_s, post_s = one(client, rng)
            mine_put.append(put_s)
            if failed is None:
                mine_post.append(post_s)
                mine_tokens.append(value)
            else:
                key = f"{failed} {status}"
                mine_bad[key] = mine_bad.get(key, 0) + 1
                if len(mine_bad) == 1 and mine_bad[key] == 1:
                    sys.stderr.write(f"  client {i}: {key} {value[:200]!r}\n")
        with lock:
            tokens.extend(mine_tokens)
            put_lat.extend(mine_put)
            post_lat.extend(mine_post)
            for key, n in mine_bad.items():
                bad[key] = bad.get(key, 0) + n

    elapsed, cpu_before, cpu_after = measured_run(args, clients, worker)
    with open(args.tokens_out, "w") as out:
        out.write("\n".join(tokens) + "\n")
    result = {
        "clients": clients, "seconds": elapsed, "completed": len(post_lat),
        "loops": len(put_lat) + clients * args.warmup,   # every PUT (+ POST) loop, warm-up included
        "rate": len(post_lat) / elapsed, "errors": bad,
        "post": summary(post_lat), "put": summary(put_lat),
        "cpu_ms": cpu_delta(cpu_before, cpu_after, len(post_lat)), "cpu_s": cpu_delta(cpu_before, cpu_after, 1000),
    }
    json.dump(result, open(args.out, "w"))
    print(f"  {len(post_lat)} checkouts in {elapsed:.1f} s by {clients} clients: {result['rate']:.1f}/s; "
          f"POST /v1/checkout p50 {result['post']['p50_ms']:.1f} ms p99 {result['post']['p99_ms']:.1f} ms; "
          f"PUT cart item p50 {result['put']['p50_ms']:.1f} ms; errors {bad or 'none'}; {cpu_text(result)}")


# ---- the service's floor ----------------------------------------------------------------------

def cmd_floor(args):
    """GET /healthz by every customer session at once (their bearer tokens sent, as the shops' apps
    do): the whole middleware stack and the OpenAPI layer, no database. The least CPU a request
    costs this service, beside which its CPU per checkout request is read."""
    sessions = json.load(open(args.sessions))["customers"]
    clients = len(sessions)
    counts = [0] * clients

    def worker(i, gate):
        client = Client(args.port, sessions[i])
        for _ in range(args.warmup):
            client.request("GET", "/healthz")
        gate()
        deadline = time.perf_counter() + args.duration
        while time.perf_counter() < deadline:
            status, payload, _ = client.request("GET", "/healthz")
            if status != 200:
                sys.exit(f"GET /healthz: HTTP {status} {payload[:200]!r}")
            counts[i] += 1

    elapsed, cpu_before, cpu_after = measured_run(args, clients, worker)
    done = sum(counts)
    result = {"clients": clients, "seconds": elapsed, "completed": done, "rate": done / elapsed,
              "cpu_ms": cpu_delta(cpu_before, cpu_after, done)}
    json.dump(result, open(args.out, "w"))
    print(f"  {done} requests in {elapsed:.1f} s by {clients} clients: {result['rate']:.0f}/s; {cpu_text(result)}")


# ---- collection scans -----------------------------------------------------------------------

def cmd_collect(args):
    sessions = json.load(open(args.sessions))["staff"]
    tokens = [line.strip() for line in open(args.tokens) if line.strip()]
    clients = len(sessions)
    warm = min(len(tokens) // 4, clients * args.warmup)
    warm_tokens, measured_tokens = tokens[:warm], tokens[warm:]
    next_warm, next_token = itertools.count(), itertools.count()
    lock = threading.Lock()
    latencies, bad = [], {}

    def worker(i, gate):
        client = Client(args.port, sessions[i])
        while (k := next(next_warm)) < len(warm_tokens):
            client.request("POST", args.path, {"token": warm_tokens[k]})
        mine, mine_bad = [], {}
        gate()
        started = time.perf_counter()
        deadline = started + args.duration
        # --rate: a scan's time counts from when it was due, so a stall delays the ones behind it
        # and they show it.
        schedule = Schedule(i, clients, args.rate, started)
        while time.perf_counter() < deadline and (k := next(next_token)) < len(measured_tokens):
            due = schedule.wait()
            status, payload, seconds = client.request("POST", args.path, {"token": measured_tokens[k]})
            if due is not None:
                seconds = time.perf_counter() - due
            if status == 200:
                mine.append(seconds)
            else:
                key = str(status)
                mine_bad[key] = mine_bad.get(key, 0) + 1
                if mine_bad[key] == 1:
                    sys.stderr.write(f"  client {i}: HTTP {status} {payload[:200]!r}\n")
        with lock:
            latencies.extend(mine)
            for key, n in mine_bad.items():
                bad[key] = bad.get(key, 0) + n

    elapsed, cpu_before, cpu_after = measured_run(args, clients, worker)
    result = {
        "clients": clients, "seconds": elapsed, "completed": len(latencies),
        "rate": len(latencies) / elapsed, "errors": bad, "scan": summary(latencies),
        "ran_out": len(latencies) + sum(bad.values()) >= len(measured_tokens),
        "cpu_ms": cpu_delta(cpu_before, cpu_after, len(latencies)), "cpu_s": cpu_delta(cpu_before, cpu_after, 1000),
    }
    json.dump(result, open(args.out, "w"))
    print(f"  {len(latencies)} scans in {elapsed:.1f} s by {clients} clients: {result['rate']:.1f}/s; "
          f"POST {args.path} p50 {result['scan']['p50_ms']:.1f} ms p99 {result['scan']['p99_ms']:.1f} ms; "
          f"errors {bad or 'none'}{' (used every token)' if result['ran_out'] else ''}; {cpu_text(result)}")


# ---- pgbench --------------------------------------------------------------------------------

def cmd_pgbench(args):
    """Reads pgbench's stdout and its per-transaction logs (-l): tps, p50/p99 of the whole script."""
    text = open(args.stdout).read()

    def grab(pattern, cast=float, default=None):
        match = re.search(pattern, text, re.MULTILINE)
        return cast(match.group(1)) if match else default

    latencies = []
    for path in glob.glob(args.log_prefix + ".*"):
        for line in open(path):
            fields = line.split()
            # client_id transaction_no time script_no time_epoch time_us [...]; time in us,
            # or "failed"/"skipped" instead of a time
            if len(fields) >= 3 and fields[2].isdigit():
                latencies.append(int(fields[2]) / 1e6)
    completed = grab(r"^number of transactions actually processed: (\d+)", int, 0)
    cpu = {}
    if args.cpu_before:
        cpu = cpu_delta(json.load(open(args.cpu_before)), cpu_seconds(None, args.postmaster_pid), completed)
    result = {
        "cpu_ms": cpu,
        "tps": grab(r"^tps = ([0-9.]+) \(without initial connection time\)"),
        "completed": grab(r"^number of transactions actually processed: (\d+)", int, 0),
        "failed": grab(r"^number of failed transactions: (\d+)", int, 0),
        "seconds": grab(r"^duration: (\d+) s", int),
        "latency": summary(latencies),
    }
    json.dump(result, open(args.out, "w"))
    print(f"  pgbench: {result['completed']} transactions, {result['tps']:.1f} tps; "
          f"p50 {result['latency']['p50_ms']:.2f} ms p99 {result['latency']['p99_ms']:.2f} ms; "
          f"failed {result['failed']}; {cpu_text(result)}")


# ---- the table ------------------------------------------------------------------------------

def cmd_cpu(args):
    json.dump(cpu_seconds(None, args.postmaster_pid), open(args.out, "w"))


def cpu_cell(result, who):
    value = result.get("cpu_ms", {}).get(who)
    return f"{value:6.2f}" if value is not None else f"{'-':>6}"


def print_rows(rows):
    """The table of runs: (group, what, rate, unit, latency summary, n, errors, result)."""
    print(f"{'':11}{'':44}{'throughput':>14}{'p50':>11}{'p99':>11}{'n':>7}{'errors':>7}"
          f"   CPU ms/op: service postgres client")
    for group, what, rate, unit, lat, n, errors, result in rows:
        print(f"{group:11}{what:44}{rate:>10.1f} {unit:<3}{lat['p50_ms']:>8.2f} ms{lat['p99_ms']:>8.2f} ms{n:>7}{errors:>7}"
              f"   {'':10}{cpu_cell(result, 'service')}   {cpu_cell(result, 'postgres')} {cpu_cell(result, 'client')}")


def checkout_rows(group, ck, ckdb, ceiling):
    return [
        (group, "service: PUT cart item + POST /v1/checkout", ck["rate"], "/s", ck["post"], ck["completed"],
         sum(ck["errors"].values()), ck),
        ("", "pgbench: the service's SQL (line, checkout)", ckdb["tps"], "tps", ckdb["latency"], ckdb["completed"],
         ckdb["failed"], ckdb),
        ("", "pgbench: cart upsert + ceiling statement", ceiling["tps"], "tps", ceiling["latency"], ceiling["completed"],
         ceiling["failed"], ceiling),
    ]


def cmd_report(args):
    ck = json.load(open(args.checkout))
    ckdb = json.load(open(args.checkout_pgbench))
    ceiling = json.load(open(args.checkout_ceiling))
    co = json.load(open(args.collect))
    codb = json.load(open(args.collect_pgbench))

    rows = checkout_rows("checkout", ck, ckdb, ceiling) + [
        ("collection", "service: POST /v1/collections", co["rate"], "/s", co["scan"], co["completed"],
         sum(co["errors"].values()), co),
        ("", "pgbench: the service's collection SQL", codb["tps"], "tps", codb["latency"], codb["completed"],
         codb["failed"], codb),
    ]
    preview = json.load(open(args.preview)) if args.preview else None
    if preview:
        rows.append(("preview", "service: POST /v1/collections/preview", preview["rate"], "/s", preview["scan"],
                     preview["completed"], sum(preview["errors"].values()), preview))
    print()
    print_rows(rows)
    if preview:
        print(f"\nscan preview at {preview['clients']} clients as fast as answered: p50 {preview['scan']['p50_ms']:.1f} ms, "
              f"p99 {preview['scan']['p99_ms']:.1f} ms (goal p99 < 20 ms); closed loop, so mean latency is clients / "
              f"throughput = {preview['clients'] / preview['rate'] * 1000:.1f} ms whatever the service does")
    paced = json.load(open(args.preview_paced)) if args.preview_paced else None
    if paced:
        print(f"scan preview at {paced['clients']} clients, {float(args.preview_rate):.0f}/s on a schedule (timed from when "
              f"each was due): p50 {paced['scan']['p50_ms']:.1f} ms, p99 {paced['scan']['p99_ms']:.1f} ms, "
              f"{paced['rate']:.0f}/s done (goal p99 < 20 ms)")
    ck_ratio = ck["rate"] / ckdb["tps"]
    co_ratio = co["rate"] / codb["tps"]
    ceiling_ratio = ck["rate"] / ceiling["tps"]
    print()
    pg = lambda result: result.get("cpu_ms", {}).get("postgres")
    if pg(ck) and pg(ceiling):
        print(f"checkout against the ceiling: throughput {ceiling_ratio:.2f}x; PostgreSQL CPU per checkout "
              f"{pg(ck):.2f} ms over HTTP, {pg(ckdb):.2f} ms as the service's SQL by pgbench, "
              f"{pg(ceiling):.2f} ms for the ceiling: {pg(ck) / pg(ceiling):.2f}x (the cart refill included in all three)")
    service = ck.get("cpu_ms", {}).get("service")
    floor = json.load(open(args.floor)) if args.floor else None
    if service:
        line = (f"service CPU per checkout request: {service:.2f} ms per PUT + POST loop, {service / 2:.2f} ms a request "
                f"(goal 0.5 ms)")
        if floor and floor.get("cpu_ms", {}).get("service"):
            line += (f"; its floor, GET /healthz (no database) at {floor['clients']} clients, "
                     f"{floor['cpu_ms']['service']:.2f} ms a request ({floor['rate']:.0f}/s)")
        print(line)
        # stack-floor-bench: the same loop on Hummingbird + PostgresNIO alone (trivial SQL, no middleware,
        # no OpenAPI layer); the least the service could cost on this stack at the same rate.
        stack = {name: json.load(open(path)) for name, path in (("paced", args.stack_paced), ("free", args.stack_free)) if path}
        if stack.get("paced", {}).get("cpu_ms", {}).get("service"):
            paced = stack["paced"]
            line = (f"the bare stack's CPU per request (stack-floor-bench: Hummingbird + PostgresNIO, the same round trips, "
                    f"trivial SQL): {paced['cpu_ms']['service'] / 2:.2f} ms at the service's rate ({2 * paced['rate']:.0f} "
                    f"requests/s), so {service / 2 - paced['cpu_ms']['service'] / 2:.2f} ms a request is the service's own")
            free = stack.get("free")
            if free and free.get("cpu_ms", {}).get("service"):
                line += f"; as fast as answered {free['cpu_ms']['service'] / 2:.2f} ms at {2 * free['rate']:.0f} requests/s"
            print(line)
    loops = ck.get("loops", 0)
    if args.http_transactions and loops:
        print(f"PostgreSQL transactions per HTTP checkout loop (PUT cart item + POST /v1/checkout, session "
              f"lookups included): {int(args.http_transactions) / loops:.2f}")
    print(f"service / pgbench throughput: checkout {ck_ratio:.2f}x, collection {co_ratio:.2f}x")
    print(f"service p50 / pgbench p50:    checkout {ck['post']['p50_ms'] / ckdb['latency']['p50_ms']:.1f}x, "
          f"collection {co['scan']['p50_ms'] / codb['latency']['p50_ms']:.1f}x")
    print("(service latency: the one HTTP request; pgbench latency: its whole script. Service, PostgreSQL and the\n"
          " load generators share this machine's cores, so throughput is bounded by their CPU per operation.)")
    if args.serve_log:
        def logged(path, status):
            pattern = re.compile(rf" ms=(\d+) path={re.escape(path)} .*status={status} ")
            values = sorted(int(m.group(1)) for line in open(args.serve_log) if (m := pattern.search(line)))
            return f"p50 {percentile(values, 50)} ms, p99 {percentile(values, 99)} ms (n={len(values)})"
        print(f"the service's own request log (whole ms, warm-up included): "
              f"POST /v1/checkout {logged('/v1/checkout', 201)}; POST /v1/collections {logged('/v1/collections', 200)}")

        def statements(method, path):
            pattern = re.compile(rf"method={method} ms=\d+ path={re.escape(path)}\S* .*statements=(\d+)")
            counts = collections.Counter(int(m.group(1)) for line in open(args.serve_log) if (m := pattern.search(line)))
            return ", ".join(f"{n} ({times}x)" for n, times in sorted(counts.items())) or "none logged"
        print(f"statements to PostgreSQL per request (each a round trip; the session lookup included): "
              f"PUT cart item {statements('PUT', '/v1/cart/items/')}; POST /v1/checkout {statements('POST', '/v1/checkout')}; "
              f"POST /v1/collections {statements('POST', '/v1/collections')}")
    print()
    print("README row:")
    print(f"| checkout and collection | `scripts/checkout-bench` | {ck['clients']} clients over loopback, release build, "
          f"{os.cpu_count()} cores: checkout {ck['rate']:,.0f}/s, p50 {ck['post']['p50_ms']:.0f} ms / "
          f"p99 {ck['post']['p99_ms']:.0f} ms, vs pgbench {ckdb['tps']:,.0f} tps, p50 {ckdb['latency']['p50_ms']:.0f} ms / "
          f"p99 {ckdb['latency']['p99_ms']:.0f} ms: **{ck_ratio:.2f}×**; collection scan {co['rate']:,.0f}/s, "
          f"p50 {co['scan']['p50_ms']:.0f} ms / p99 {co['scan']['p99_ms']:.0f} ms, vs pgbench {codb['tps']:,.0f} tps, "
          f"p50 {codb['latency']['p50_ms']:.0f} ms / p99 {codb['latency']['p99_ms']:.0f} ms: **{co_ratio:.2f}×** |")


def cmd_hot_report(args):
    """Issue 15's hot product: every client buys product 1."""
    ck = json.load(open(args.checkout))
    ckdb = json.load(open(args.checkout_pgbench))
    ceiling = json.load(open(args.checkout_ceiling))
    print()
    print("The hot product: every client buys product 1 (1,000,000 on hand), over HTTP and by pgbench (-D products=1)")
    print_rows(checkout_rows("hot", ck, ckdb, ceiling))
    ratio = ck["rate"] / ckdb["tps"] if ckdb["tps"] else float("nan")
    print(f"service / pgbench (the service's SQL): {ratio:.2f}x (goal >= 0.8x); service / ceiling: "
          f"{ck['rate'] / ceiling['tps']:.2f}x; service p50 / pgbench p50: "
          f"{ck['post']['p50_ms'] / ckdb['latency']['p50_ms']:.1f}x")
    if args.logged_deadlocks == "unavailable":
        logged = "the server log was not readable"
    else:
        http, pgbench, ceiling_n = args.logged_deadlocks.split()
        logged = f"in the server log: HTTP {http}, pgbench {pgbench}, ceiling {ceiling_n}"
    print(f"deadlocks over the three runs (pg_stat_database.deadlocks after - before): {args.deadlocks} ({logged})")
    balanced = "matches" if args.reserved == args.held else "DOES NOT MATCH"
    print(f"oversold stock rows afterwards (reserved > on hand or < 0): {args.oversold}; product 1: on hand "
          f"{int(args.on_hand):,}, reserved {int(args.reserved):,}, held by open orders' lines {int(args.held):,} "
          f"({balanced})")


def cmd_scaling_report(args):
    """Issue 15's cost against size: checkout throughput at each number of products and orders."""
    points = []
    for line in open(args.points):
        if line.strip():
            products, orders, at_start, at_end, path = line.rstrip("\n").split("\t")
            points.append((int(products), int(orders), int(at_start), int(at_end), json.load(open(path))))
    if not points:
        return
    clients = points[0][4]["clients"]
    print()
    print(f"Cost against size: HTTP checkouts (PUT cart item + POST /v1/checkout, {clients} clients, each a random one "
          f"of all the products), a fixed number per point after 3 unmeasured per client"
          + (f"; the phase took {args.elapsed}" if args.elapsed else ""))
    print(f"{'products':>10}{'orders at start':>17}{'at end':>9}{'checkouts/s':>13}{'p50':>11}{'p99':>11}{'n':>6}"
          f"{'errors':>8}   CPU ms/checkout: service postgres")
    for products, orders, at_start, at_end, r in points:
        errors = sum(r["errors"].values())
        print(f"{products:>10,}{at_start:>17,}{at_end:>9,}{r['rate']:>13.1f}{r['post']['p50_ms']:>8.2f} ms"
              f"{r['post']['p99_ms']:>8.2f} ms{r['completed']:>6}{errors:>8}   {'':18}{cpu_cell(r, 'service')}"
              f"   {cpu_cell(r, 'postgres')}")
    def ratio(value_of, by):
        """Mean of value_of over the points at the largest `by` against at the smallest (None if unknown)."""
        groups = collections.defaultdict(list)
        for point in points:
            value = value_of(point[4])
            if value is None:
                return None
            groups[point[by]].append(value)
        mean = lambda values: sum(values) / len(values)
        return mean(groups[max(groups)]) / mean(groups[min(groups)]) if len(groups) > 1 else None

    measures = (("throughput", lambda r: r["rate"]),
                ("PostgreSQL CPU per checkout", lambda r: r.get("cpu_ms", {}).get("postgres")),
                ("service CPU per checkout", lambda r: r.get("cpu_ms", {}).get("service")))
    print("largest against smallest, each a mean over the other dimension (flat: all near 1.00; one point's own noise "
          "on a shared machine is some 10 %):")
    for label, by in (("orders", 1), ("products", 0)):
        sizes = sorted({point[by] for point in points})
        if len(sizes) < 2:
            continue
        figures = [f"{what} {value:.2f}" for what, value_of in measures if (value := ratio(value_of, by)) is not None]
        print(f"  {sizes[-1]:,} {label} / {sizes[0]:,}: " + ", ".join(figures))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("signin")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--password", required=True)
    p.add_argument("--customers", nargs="*", default=[])
    p.add_argument("--staff", nargs="*", default=[])
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_signin)

    p = sub.add_parser("checkout")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--sessions", required=True)
    p.add_argument("--products", required=True, help="file of product ids, one a line")
    p.add_argument("--duration", type=float, default=20)
    p.add_argument("--max", type=int, default=20000, help="measured checkouts at most")
    p.add_argument("--warmup", type=int, default=10, help="unmeasured checkouts per client first")
    p.add_argument("--tokens-out", required=True)
    p.add_argument("--rate", type=float, help="checkouts per second in all, on a fixed schedule (default: as fast as answered)")
    p.add_argument("--slots", help="file of pickup slot starts, one a line: each checkout books one at random")
    p.add_argument("--server-pid", type=int)
    p.add_argument("--postmaster-pid", type=int)
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_checkout)

    p = sub.add_parser("floor")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--sessions", required=True)
    p.add_argument("--duration", type=float, default=5)
    p.add_argument("--warmup", type=int, default=20)
    p.add_argument("--server-pid", type=int)
    p.add_argument("--postmaster-pid", type=int)
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_floor)

    p = sub.add_parser("collect")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--sessions", required=True)
    p.add_argument("--tokens", required=True)
    p.add_argument("--server-pid", type=int)
    p.add_argument("--postmaster-pid", type=int)
    p.add_argument("--duration", type=float, default=20)
    p.add_argument("--warmup", type=int, default=10, help="unmeasured scans per client first")
    p.add_argument("--path", default="/v1/collections", help="/v1/collections/preview: look without handing over")
    p.add_argument("--rate", type=float, help="scans per second in all, on a fixed schedule (default: as fast as answered)")
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_collect)

    p = sub.add_parser("pgbench")
    p.add_argument("--stdout", required=True)
    p.add_argument("--log-prefix", required=True)
    p.add_argument("--postmaster-pid", type=int)
    p.add_argument("--cpu-before", help="from the cpu command, just before pgbench started")
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_pgbench)

    p = sub.add_parser("cpu")
    p.add_argument("--postmaster-pid", type=int, required=True)
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_cpu)

    p = sub.add_parser("report")
    for name in ("checkout", "checkout-pgbench", "checkout-ceiling", "collect", "collect-pgbench"):
        p.add_argument("--" + name, required=True)
    p.add_argument("--http-transactions")
    p.add_argument("--serve-log")
    p.add_argument("--preview", help="the collect command's result for /v1/collections/preview")
    p.add_argument("--preview-paced", help="the same at a fixed rate (--rate)")
    p.add_argument("--preview-rate")
    p.add_argument("--floor", help="the floor command's result (GET /healthz)")
    p.add_argument("--stack-paced", help="the checkout command's result against stack-floor-bench, at the service's rate")
    p.add_argument("--stack-free", help="the same as fast as answered")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("hot-report")
    for name in ("checkout", "checkout-pgbench", "checkout-ceiling", "deadlocks", "logged-deadlocks", "oversold",
                 "on-hand", "reserved", "held"):
        p.add_argument("--" + name, required=True)
    p.set_defaults(func=cmd_hot_report)

    p = sub.add_parser("scaling-report")
    p.add_argument("--points", required=True, help="products, orders, orders at start and end, result file; tab-separated")
    p.add_argument("--elapsed")
    p.set_defaults(func=cmd_scaling_report)

    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
