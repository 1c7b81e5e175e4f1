#!/usr/bin/env python3
"""Helpers for scripts/signin-bench (issue 33): an ID token from the local OpenID Connect
provider (its sign-in form posted, the code redeemed with PKCE, as an app does), and a timed
load of sign-ins, by token exchange or by password, from threads with keep-alive connections.
Standard library only; shares checkout_bench.py's client, percentiles and CPU accounting.
"""
import argparse
import base64
import hashlib
import json
import os
import secrets
import sys
import threading
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(__file__))
from checkout_bench import Client, cpu_delta, cpu_seconds, run_threads, summary  # noqa: E402


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def cmd_token(args):
    """Prints an ID token the provider issued to --client for --username, with --nonce."""
    verifier = secrets.token_urlsafe(32)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    query = urllib.parse.urlencode({
        "response_type": "code", "client_id": args.client, "redirect_uri": args.redirect, "scope": "openid email profile",
        "state": secrets.token_urlsafe(16), "nonce": args.nonce, "code_challenge": challenge, "code_challenge_method": "S256",
    })
    form = urllib.parse.urlencode({"username": args.username, "password": args.password, "action": "sign-in"}).encode()
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        opener.open(f"{args.issuer}/authorize?{query}", data=form)
        sys.exit("the provider did not redirect")
    except urllib.error.HTTPError as redirect:
        location = redirect.headers["Location"]
    code = urllib.parse.parse_qs(urllib.parse.urlsplit(location).query)["code"][0]
    body = urllib.parse.urlencode({
        "grant_type": "authorization_code", "code": code, "redirect_uri": args.redirect, "client_id": args.client,
        "code_verifier": verifier,
    }).encode()
    with urllib.request.urlopen(f"{args.issuer}/token", data=body) as response:
        print(json.load(response)["id_token"])


def cmd_one(args):
    """One token exchange; prints its status and milliseconds."""
    client = Client(args.port)
    body = {"issuer": args.issuer, "idToken": args.token, "nonce": args.nonce}
    status, payload, seconds = client.request("POST", "/v1/auth/oidc/token", body)
    if status != 200:
        sys.exit(f"the exchange answered {status}: {payload[:300]!r}")
    print(f"{seconds * 1000:.1f}")


def cmd_load(args):
    """--clients threads sign in for --duration seconds; prints one JSON line of figures."""
    def request(i):
        """Client i's sign-in; a password one is client i's own account (`{i}` in --email), as the
        login throttle allows only 5 attempts in flight per account and address."""
        if args.mode == "exchange":
            return "/v1/auth/oidc/token", {"issuer": args.issuer, "idToken": args.token, "nonce": args.nonce}
        return "/v1/auth/login", {"email": args.email.format(i=i), "password": args.password}
    latencies, statuses, lock = [], {}, threading.Lock()
    deadline = [0.0]
    gate = threading.Barrier(args.clients + 1)

    def worker(i):
        client = Client(args.port)
        path, body = request(i)
        mine, counts = [], {}
        gate.wait()
        while time.perf_counter() < deadline[0]:
            status, _, seconds = client.request("POST", path, body)
            counts[status] = counts.get(status, 0) + 1
            if status == 200:
                mine.append(seconds)
        with lock:
            latencies.extend(mine)
            for k, v in counts.items():
                statuses[k] = statuses.get(k, 0) + v

    threads = [threading.Thread(target=lambda i=i: worker(i), daemon=True) for i in range(args.clients)]
    for thread in threads:
        thread.start()
    before = cpu_seconds(args.server_pid, args.postmaster_pid)
    started = time.perf_counter()
    deadline[0] = started + args.duration
    gate.wait()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - started
    after = cpu_seconds(args.server_pid, args.postmaster_pid)
    result = summary(latencies)
    result.update({"per_second": len(latencies) / wall, "statuses": statuses, "cpu_ms": cpu_delta(before, after, len(latencies))})
    print(json.dumps(result))


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    token = sub.add_parser("token")
    for name in ("issuer", "client", "redirect", "username", "password", "nonce"):
        token.add_argument("--" + name, required=True)
    one = sub.add_parser("one")
    load = sub.add_parser("load")
    for p in (one, load):
        p.add_argument("--port", type=int, required=True)
        p.add_argument("--issuer")
        p.add_argument("--token")
        p.add_argument("--nonce")
    load.add_argument("--mode", choices=["exchange", "password"], required=True)
    load.add_argument("--email")
    load.add_argument("--password")
    load.add_argument("--clients", type=int, default=8)
    load.add_argument("--duration", type=float, default=10)
    load.add_argument("--server-pid", type=int)
    load.add_argument("--postmaster-pid", type=int)
    args = parser.parse_args()
    {"token": cmd_token, "one": cmd_one, "load": cmd_load}[args.command](args)


if __name__ == "__main__":
    main()
