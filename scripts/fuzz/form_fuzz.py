#!/usr/bin/env python3
"""Form fuzzer for the server-rendered pages: the console (/console), the shop (/shop) and the
customer's order pages (/orders). Run by scripts/form-fuzz, which makes the throwaway cluster and
the keys; this starts `fulfilment serve --demo` itself so that it can start it again after a crash.

1. Setup through the JSON API: material for every form (a cart, orders in every state, a pick list
   with picks to record, orders at the desk needing payment, an ID check or a substitution
   decision) and victims that must not change: a store of its own with a product and stock, a
   second customer with an order and a cart. Their ids are hostile values too.
2. Each role signs in with the sign-in form and crawls the pages its start pages link to (bounded),
   parsing every <form>.
3. Each form is posted with one field at a time (hidden ones included, and the id in its action's
   path) replaced by each hostile value; GET forms and the query parameters of crawled links get
   the same, and numbers inside a base64 JSON token (a page cursor) too. A form whose last post
   changed something is read again first (fresh hidden values), and material that a post used up
   (a pick recorded, an order paid) is made again. Two rounds: the sharpest values for every
   form of every role, then the others, so a time budget running out still leaves every form
   fuzzed with Int64's edges, NaN, NUL and another tenant's ids.
4. After each request: the service is alive and /healthz answers, and the status is no 5xx but a
   503 with Retry-After. A crash is reported with the request that caused it, the service is
   started again and the run goes on. After each form: the victims' rows are unchanged.
Deterministic: no randomness but a seeded UUID. Standard library only.
"""

import argparse
import base64
import http.client
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
import urllib.parse
from dataclasses import dataclass, field
from html.parser import HTMLParser

UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
UUID_RE = re.compile(UUID)

ACCOUNTS = {
    "customer": ("customer@quickcart.demo", "customer-demo"),
    "staff": ("staff@quickcart.demo", "staff-demo-1"),
    "manager": ("manager@quickcart.demo", "manager-demo"),
    "admin": ("admin@quickcart.demo", "admin-demo-1"),
}
# Where each role starts (its home and the pages of its navigation, should a link be missing).
START_PAGES = {
    "customer": ["/", "/shop", "/shop/cart", "/shop/checkout", "/orders", "/shop/stores", "/shop/locate?q=rice", "/account"],
    "staff": ["/", "/console/desk", "/console/orders", "/console/pick-lists", "/console/sales", "/account"],
    "manager": ["/", "/console/desk", "/console/orders", "/console/pick-lists", "/console/stock", "/console/stock?q=rice",
                "/console/sales", "/console/coupons", "/console/news", "/console/moderation", "/console/products", "/console/catalogue/import", "/account"],
    "admin": ["/", "/console/stores", "/console/moderation", "/console/products", "/console/categories", "/console/catalogue/import", "/account"],
    "nobody": ["/", "/shop/register"],
}
# Never fetched: signing out ends the session the run uses; event streams never end; assets and
# the JSON API are not pages; the export is a download with no form.
SKIP_LINK = re.compile(r"^/(signout|console/assets/|v1/|openapi|metrics)|/events$|^/account/export|^/signin/")
# Pages whose path names a store the chain's admin keeps, whichever it is (issue 46): for the
# admin another store's id there is their own business, not another tenant's.
ADMIN_CHAIN_WIDE = re.compile(r"^/console/stores/")
# Never posted: signing out would end the session the run uses.
SKIP_FORM = re.compile(r"^/signout$")

SEED = 20261123
DEBUG = os.environ.get("FORM_FUZZ_DEBUG") == "1"  # every request and its status


def log(text):
    print(text, flush=True)


def psql(query, *options):
    """A query on the service's database (the victims' rows; one reset of a throttle)."""
    result = subprocess.run(["psql", os.environ["DATABASE_URL"], "-XAtq", *options, "-c", query], capture_output=True, text=True)
    if result.returncode != 0:
        raise SetupError(f"psql: {result.stderr.strip()}")
    return result.stdout


def short(text, limit=60):
    text = text if isinstance(text, str) else text.decode("latin-1")
    text = text.encode("unicode_escape").decode("ascii")
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} chars)"


# ---------------------------------------------------------------------------------------------
# Hostile values. `encoded` is what goes after `name=` in the urlencoded body or query, so raw
# bytes (a lone %FF, a truncated UTF-8 sequence, an unencoded 0xFF byte) can be sent as they are.
# ---------------------------------------------------------------------------------------------

@dataclass
class Value:
    label: str
    encoded: bytes | None  # None: the field is left out altogether
    shown: str
    is_id: bool = False  # another tenant's id: also tried in the action's path

    def describe(self):
        """The label, with the value itself when that is short enough to read."""
        return self.label if self.label in ("absent", "100kB", "60kB", "long-number") else f"{self.label} ({short(self.shown, 40)})"


def plain(label, text, is_id=False):
    return Value(label, urllib.parse.quote_plus(text).encode(), text, is_id)


# The first round: these values for every form of every role; the second: the others. Should the
# time budget run out (a slow or busy machine), every form has still had the sharpest ones.
FIRST_ROUND = {"int64-min", "int64-max", "int64-max+1", "minus-one", "zero", "1e308", "nan", "empty", "nul", "bad-utf8",
               "absent", "victim-store", "victim-order", "random-uuid"}


def hostile_values(victims):
    values = [
        plain("int64-min", "-9223372036854775808"),
        plain("int64-max", "9223372036854775807"),
        plain("int64-max+1", "9223372036854775808"),
        plain("int64-min-1", "-9223372036854775809"),
        plain("minus-one", "-1"),
        plain("zero", "0"),
        plain("1e308", "1e308"),
        plain("-1e308", "-1e308"),
        plain("nan", "NaN"),
        plain("infinity", "Infinity"),
        plain("empty", ""),
        plain("long-number", "9" * 400),
        plain("number-newline", "5\n"),
        plain("number-spaces", " 5 "),
        plain("fraction", "1.5"),
        # Over the 64 KiB a console form may have (the 413), and just under it (the handlers).
        plain("100kB", "x" * 100_000),
        plain("60kB", "x" * 60_000),
        plain("nul", "\0"),
        plain("number-nul", "5\0"),
        # Not UTF-8: a truncated sequence and a lone byte, percent-encoded, and raw bytes unencoded.
        Value("bad-utf8", b"%C3%28", "%C3%28"),
        Value("lone-ff", b"%FF", "%FF"),
        Value("raw-ff", b"\xff\xfe", "raw bytes FF FE"),
        Value("absent", None, "(field left out)"),
    ]
    for label, text in victims.hostile_ids():
        values.append(plain(label, text, is_id=True))
    return values


def inner_values(text):
    """Hostile values inside a token the service gave out as base64 JSON (a page cursor): each
    number in it (or null) set to Int64's edges, -1 or 1e308, the rest kept, encoded again as the
    service encodes it. A cursor only ever given out is checked by the server; a forged one must be
    refused, not reach the database's arithmetic."""
    try:
        data = json.loads(base64.b64decode(text + "=" * (-len(text) % 4), validate=True))
    except (ValueError, UnicodeDecodeError):
        return []
    if not isinstance(data, dict):
        return []
    values = []
    for key, old in data.items():
        if old is not None and (isinstance(old, bool) or not isinstance(old, (int, float))):
            continue
        for label, new in (("int64-max", 2**63 - 1), ("int64-min", -2**63), ("minus-one", -1), ("1e308", 1e308)):
            forged = base64.b64encode(json.dumps({**data, key: new}, separators=(",", ":")).encode()).decode()
            values.append(Value(f"{key}={label}-inside", urllib.parse.quote_plus(forged).encode(), f"{key}={new} in it"))
    return values


# ---------------------------------------------------------------------------------------------
# The service: started, watched, started again after a crash.
# ---------------------------------------------------------------------------------------------

class Server:
    def __init__(self, binary, port, keys_dir, pid_file, log_path):
        self.binary, self.port, self.keys_dir, self.pid_file, self.log_path = binary, port, keys_dir, pid_file, log_path
        self.proc = None
        self.restarts = 0
        open(log_path, "wb").close()

    def start(self):
        env = dict(os.environ)
        # Sign-ins and registrations are not what is fuzzed: the cheap bcrypt cost the tests use.
        env.setdefault("FULFILMENT_BCRYPT_COST", "4")
        # A crash is reported with the runtime's message and the first frame in Sources/ from the
        # backtracer (about 3 s a crash for a debug binary): the crashed thread only, no registers.
        env.setdefault("SWIFT_BACKTRACE", "enable=yes,interactive=no,threads=crashed,limit=16,top=0,registers=none,images=none,sanitize=no")
        env.setdefault("LOG_LEVEL", "notice")
        with open(self.log_path, "ab") as out:
            self.proc = subprocess.Popen(
                [self.binary, "serve", "--demo", "--port", str(self.port), "--keys-dir", self.keys_dir],
                stdout=out, stderr=subprocess.STDOUT, env=env)
        with open(self.pid_file, "w") as f:
            f.write(str(self.proc.pid))
        deadline = time.time() + 120
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"form-fuzz: the service exited at start ({self.proc.returncode}); see {self.log_path}")
            if self.probe("/readyz"):
                return
            time.sleep(0.25)
        raise SystemExit("form-fuzz: the service was not ready within 120 s")

    def probe(self, path="/healthz", timeout=2.0):
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
            conn.request("GET", path)
            ok = conn.getresponse().status == 200
            conn.close()
            return ok
        except (OSError, http.client.HTTPException):
            return False

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def log_size(self):
        return os.path.getsize(self.log_path)

    def death_note(self, offset):
        """The runtime's last words since `offset` in the log: its message (a Fatal error, or the
        backtracer's "Swift runtime failure: arithmetic overflow") and where, in Sources/."""
        with open(self.log_path, "rb") as f:
            f.seek(offset)
            tail = f.read().decode("utf-8", "replace").splitlines()
        message = next((re.sub(r"^.*?(Fatal error|fatal error)", r"\1", line).strip() for line in tail
                        if "Fatal error" in line or "fatal error" in line), None)
        if message is None:
            message = next((line.strip(" *") for line in tail if line.startswith("*** ") and "Signal" not in line), None)
        frame = next((line for line in tail if " at /" in line and "/Sources/" in line and "/.build/" not in line), None)
        where = ""
        if frame:
            function = re.sub(r"^\s*\d+\s+(\[[^\]]*\]\s*)*(0x[0-9a-f]+\s+)?", "", frame).split(" in fulfilment at ")[0]
            function = re.sub(r"\s+\+\s+\d+$", "", function)
            where = f" at {frame.split('/Sources/', 1)[1].strip()} ({short(function, 90)})"
        return (message or "no message (SWIFT_BACKTRACE=enable=yes shows where)") + where

    def logged_error(self, offset):
        """The service's own word on a server error, from its log since `offset` (PostgreSQL's
        message when it was the database's)."""
        time.sleep(0.05)  # the log line may follow the answer by a moment
        with open(self.log_path, "rb") as f:
            f.seek(offset)
            lines = [line for line in f.read().decode("utf-8", "replace").splitlines() if " error " in line]
        if not lines:
            return ""
        found = re.search(r"message: ([^,\]]{1,160})", lines[0])
        return f"; log: {found.group(1) if found else short(lines[0].split(' error ', 1)[1], 160)}"

    def how_it_ended(self):
        code = self.proc.returncode
        if code is not None and code < 0:
            return f"signal {signal.Signals(-code).name}"
        return f"exit {code}"

    def restart(self):
        if self.alive():
            self.proc.kill()
        if self.proc is not None:
            self.proc.wait()
        self.restarts += 1
        self.start()

    def stop(self):
        if self.alive():
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


# ---------------------------------------------------------------------------------------------
# HTTP with the checks every request gets.
# ---------------------------------------------------------------------------------------------

@dataclass
class Reply:
    status: int
    headers: http.client.HTTPMessage | None
    body: bytes

    def header(self, name):
        return self.headers.get(name) if self.headers is not None else None

    def json(self):
        return json.loads(self.body or b"null")


class Transport(Exception):
    def __init__(self, text, timed_out=False):
        super().__init__(text)
        self.timed_out = timed_out


class RawConnection(http.client.HTTPConnection):
    """Sends a request line's bytes as they are (latin-1), so a query can carry raw bytes that
    are not UTF-8 (http.client would refuse anything but ASCII)."""

    def _encode_request(self, request):
        return request.encode("latin-1")


@dataclass
class Failure:
    role: str
    method: str
    path: str
    field: str
    value: str
    what: str

    def line(self):
        return f"[{self.role}] {self.method} {short(self.path, 100)} field={self.field} value={self.value}: {self.what}"


class Fuzzer:
    def __init__(self, server, reports, budget):
        self.server = server
        self.base = f"http://127.0.0.1:{server.port}"
        self.origin = self.base
        self.conn = None
        self.requests = 0
        self.failures: list[Failure] = []
        self.dropped = 0
        self.reports = reports
        self.deadline = time.time() + budget
        self.printed = {}

    # One keep-alive connection; a new one after any transport error.
    def raw_request(self, method, path, body=None, headers=None, timeout=30):
        if self.conn is None:
            self.conn = RawConnection("127.0.0.1", self.server.port, timeout=timeout)
        self.conn.timeout = timeout
        if self.conn.sock is not None:
            self.conn.sock.settimeout(timeout)
        try:
            self.conn.request(method, path, body=body, headers=headers or {})
            response = self.conn.getresponse()
            data = response.read()
            if response.getheader("Connection", "").lower() == "close":
                self.conn.close()
                self.conn = None
            return Reply(response.status, response.headers, data)
        except (OSError, http.client.HTTPException) as error:
            if self.conn is not None:
                self.conn.close()
            self.conn = None
            raise Transport(f"{type(error).__name__}: {error}", isinstance(error, TimeoutError)) from None

    def send(self, role, method, path, body=None, headers=None, field="-", value="-", shown=None):
        """A request with every check: a crash, a hang or a server error is a failure, reported
        with the request (`shown`: the path as the report names it); after a crash the service
        is started again. Returns the reply, or None when there was none."""
        self.requests += 1
        request_path, path = path, shown or path
        offset = self.server.log_size()
        if DEBUG:
            log(f"  > [{role}] {method} {short(request_path, 90)} {field}={short(value, 40)}")
        began, timed_out = time.time(), False
        try:
            reply = self.raw_request(method, request_path, body, headers)
        except Transport as error:
            reply, problem, timed_out = None, str(error), error.timed_out
            if timed_out and self.server.alive():
                self.fail(role, method, path, field, value, "TIMEOUT: no answer within 30 s")
        if DEBUG and reply is not None:
            log(f"    {reply.status} {(time.time() - began) * 1000:.0f}ms {reply.header('Location') or ''}")
        if reply is not None and self.server.alive():
            if reply.status >= 500 and not (reply.status == 503 and reply.header("Retry-After")):
                self.fail(role, method, path, field, value,
                          f"status {reply.status}{self.error_note(reply)}{self.server.logged_error(offset)}")
            if field == "-" or self.healthy():
                return reply
            problem = "/healthz did not answer after it"
        # No answer, or an answer from a process that then died: did it crash, hang, or just
        # close the connection (as it may on a body over the limit)?
        until = time.time() + 20
        while time.time() < until and self.server.alive() and not self.server.probe():
            time.sleep(0.2)
        if not self.server.alive():
            self.fail(role, method, path, field, value,
                      f"CRASH ({self.server.how_it_ended()}): {self.server.death_note(offset)}")
            self.server.restart()
            return reply
        if not self.server.probe():
            self.fail(role, method, path, field, value, f"HANG: no answer and /healthz silent ({problem}); restarted")
            self.server.restart()
            return None
        if reply is None and not timed_out:
            # Alive and healthy: the connection was closed on us (an oversize body). Not a failure.
            self.dropped += 1
        return reply

    def healthy(self):
        try:
            return self.raw_request("GET", "/healthz", timeout=10).status == 200
        except Transport:
            return False

    @staticmethod
    def error_note(reply):
        text = reply.body[:2000].decode("utf-8", "replace")
        found = re.search(r'"message"\s*:\s*"([^"]{0,120})', text) or re.search(r"<p>([^<]{0,160})</p>", text)
        return f" ({found.group(1)})" if found else ""

    def fail(self, role, method, path, field, value, what):
        failure = Failure(role, method, path, field, value, what)
        self.failures.append(failure)
        # Many values of one field failing alike: the first few lines on the console, all in the report.
        key = (role, method, re.sub(UUID, "{id}", path.split("?")[0]), field, what.split(":")[0][:20])
        self.printed[key] = self.printed.get(key, 0) + 1
        if self.printed[key] <= 3:
            log("FAIL " + failure.line())
        elif self.printed[key] == 4:
            log(f"FAIL [{role}] {method} {short(path, 100)} field={field}: more alike, see failures.txt")
        with open(os.path.join(self.reports, "failures.txt"), "a") as out:
            out.write(failure.line() + "\n")

    def out_of_time(self):
        return time.time() > self.deadline


# ---------------------------------------------------------------------------------------------
# The JSON API, for setup and for making material again.
# ---------------------------------------------------------------------------------------------

class Api:
    def __init__(self, fuzzer, name, token=None):
        self.fz, self.name, self.token = fuzzer, name, token

    def call(self, method, path, body=None, expect=(200, 201, 204), headers=None):
        sent = {"Accept": "application/json"}
        if self.token:
            sent["Authorization"] = f"Bearer {self.token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        sent.update(headers or {})
        reply = self.fz.send(f"setup:{self.name}", method, path, data, sent)
        if reply is None or (expect and reply.status not in expect):
            status = reply.status if reply else "no answer"
            text = reply.body[:300].decode("utf-8", "replace") if reply else ""
            raise SetupError(f"{self.name}: {method} {path} answered {status} {text}")
        return reply.json() if reply.body and "json" in (reply.header("Content-Type") or "") else None

    def login(self, email, password):
        self.token = self.call("POST", "/v1/auth/login", {"email": email, "password": password})["token"]
        return self


class SetupError(Exception):
    pass


# ---------------------------------------------------------------------------------------------
# Material: what the forms need to exist, made through the API, and made again when used up.
# ---------------------------------------------------------------------------------------------

class Material:
    def __init__(self, fz, binary):
        self.fz, self.binary = fz, binary
        self.orders_made = 0
        self.made = {}  # material made, by kind
        self.cart_dirty = True  # the customer's cart may hold something else than our last order left
        self.slots = {}  # early or not -> the slot material orders take
        self.tokens = {}  # desk kind -> pickup token of the order that kind's forms are about
        self.pick_list = None
        self.arrival_order = None

    def setup(self):
        fz = self.fz
        self.api = {role: Api(fz, role).login(*ACCOUNTS[role]) for role in ACCOUNTS}
        self.store = self.api["staff"].call("GET", "/v1/me")["storeId"]
        self.customer_id = self.api["customer"].call("GET", "/v1/me")["id"]
        manager, admin = self.api["manager"], self.api["admin"]
        # Slots all day long with room for every order the run makes, whatever the time of day.
        manager.call("PUT", f"/v1/stores/{self.store}/calendar", {
            "timeZone": "America/Jamaica",
            "openingHours": [{"weekday": d, "opens": "00:00", "closes": "00:00"}
                             for d in ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]],
            "slotMinutes": 240, "capacity": 1000, "leadMinutes": 0, "horizonDays": 7, "graceMinutes": 1440})
        # Products to order: located (so they are pick stops), with a barcode, not restricted.
        found = self.api["customer"].call("GET", f"/v1/products?storeId={self.store}&limit=100")["items"]
        usable = [p for p in found if p.get("barcode") and not p.get("discontinued") and not p.get("minimumAge")
                  and (p.get("availability") or {}).get("located") and (p.get("availability") or {}).get("available", 0) > 10]
        if len(usable) < 8:
            raise SetupError(f"only {len(usable)} usable products at the store")
        self.basket = [p["id"] for p in usable[:4]]
        self.restricted = usable[4]["id"]
        self.substitutes = usable[5:8]  # a substitute may not be on the order already: one for each line
        self.all_products = self.basket + [self.restricted] + [p["id"] for p in self.substitutes]
        admin.call("PUT", f"/v1/products/{self.restricted}/minimum-age", {"minimumAge": 18})
        self.top_up()
        self.victims = Victims(self)
        self.victims.make()
        # Something for every form: the customer's cart, and every kind of order.
        self.fill_cart()
        self.replenish("pick")
        self.replenish("board")
        self.replenish("arrival")
        for kind in ("desk_unpaid", "desk_ready", "desk_substitution", "favourites_some", "report"):
            self.replenish(kind)
        self.fill_cart()

    def top_up(self):
        for product in self.all_products:
            self.api["manager"].call("POST", f"/v1/stores/{self.store}/stock/{product}/adjustments",
                                     {"delta": 10000, "reason": "received", "note": "form fuzz"})

    def fill_cart(self):
        """The customer's cart at the store, not empty (the cart's and checkout's forms need it)."""
        self.cart_dirty = True
        customer = self.api["customer"]
        customer.call("PUT", "/v1/cart", {"storeId": self.store})
        customer.call("PUT", "/v1/me/store", {"storeId": self.store}, expect=None)
        customer.call("DELETE", "/v1/cart/coupon", expect=None)
        customer.call("PUT", f"/v1/cart/items/{self.basket[0]}", {"quantity": 1})
        customer.call("PUT", f"/v1/cart/items/{self.basket[1]}", {"quantity": 2})

    def slot(self, early):
        """The earliest slot with room, or the latest: the board shows 200 orders, earliest slot
        first, so the orders its forms are about take the earliest and all others the latest."""
        slots = [s["start"] for s in self.api["customer"].call("GET", f"/v1/stores/{self.store}/pickup-slots")["items"]
                 if s["remaining"] > 0]
        return slots[0] if early else slots[-1]

    def order(self, lines, restricted=False, early=False):
        """A pending order of the demo customer (quantities by product). The quick way (the cart
        is empty after our last checkout, the slot has room) first; the whole way if it fails."""
        customer = self.api["customer"]
        for attempt in range(3):
            if self.cart_dirty or attempt:
                customer.call("DELETE", "/v1/cart", expect=None)
                customer.call("PUT", "/v1/cart", {"storeId": self.store})
                customer.call("DELETE", "/v1/cart/coupon", expect=None)
                self.slots = {}
            if attempt:
                # The manager's stock forms may have emptied the shelf, a sale changed a price.
                self.top_up()
            # Each answer shows the cart, so checkout charges the prices it showed.
            for product, quantity in lines:
                customer.call("PUT", f"/v1/cart/items/{product}", {"quantity": quantity, "substitution": {"preference": "best_match"}})
            if restricted:
                customer.call("PUT", f"/v1/cart/items/{self.restricted}", {"quantity": 1})
            if early not in self.slots:
                self.slots[early] = self.slot(early)
            self.orders_made += 1
            reply = self.fz.send("setup:customer", "POST", "/v1/checkout",
                                 json.dumps({"paymentMethod": "pay_at_collection", "pickupSlot": self.slots[early]}).encode(),
                                 {"Authorization": f"Bearer {customer.token}", "Content-Type": "application/json",
                                  "Idempotency-Key": f"form-fuzz-{self.orders_made}"})
            self.cart_dirty = reply is None or reply.status not in (200, 201)
            if not self.cart_dirty:
                return reply.json()
        raise SetupError(f"checkout failed: {reply.status if reply else 'no answer'} {reply.body[:300] if reply else ''}")

    def move(self, order, *targets):
        for target in targets:
            self.api["staff"].call("POST", f"/v1/orders/{order['id']}/transitions", {"to": target})

    def replenish(self, kind):
        """Makes the material `kind`'s forms are about, and points their source at it."""
        self.made[kind] = self.made.get(kind, 0) + 1
        staff = self.api["staff"]
        if kind == "cart":
            self.fill_cart()
        elif kind == "cart_coupon":
            # The demo's coupon on the cart (whether it applies or not, the cart shows "Remove coupon").
            # The wrong codes fuzzed into "Apply" have the customer's coupon attempts refused for a
            # while: their count is cleared first, so this one is taken.
            self.fill_cart()
            psql(f"DELETE FROM coupon_attempts WHERE customer_id = '{self.customer_id}'")
            self.api["customer"].call("PUT", "/v1/cart/coupon", {"code": "WELCOME10"}, expect=None)
        elif kind in ("favourites_none", "favourites_some"):
            customer = self.api["customer"]
            for item in customer.call("GET", f"/v1/favourites?storeId={self.store}&limit=100")["items"]:
                customer.call("DELETE", f"/v1/favourites/{(item.get('product') or item)['id']}", expect=None)
            if kind == "favourites_some":
                for product in self.basket:
                    customer.call("PUT", f"/v1/favourites/{product}", expect=None)
        elif kind == "pick":
            # Six orders of four located products each: 24 picks to record, four stops.
            orders = [self.order([(p, 2) for p in self.basket]) for _ in range(6)]
            made = staff.call("POST", f"/v1/stores/{self.store}/pick-lists", {"orderIds": [o["id"] for o in orders]})
            self.pick_list = made["id"]
        elif kind == "board":
            self.order([(self.basket[0], 1)], early=True)
            packed = self.order([(self.basket[1], 1)], early=True)
            self.move(packed, "packaged")
            arrived = self.order([(self.basket[2], 1)], early=True)
            self.move(arrived, "packaged")
            self.api["customer"].call("POST", f"/v1/orders/{arrived['id']}/arrival", {"bay": "7"})
        elif kind == "arrival":
            order = self.order([(self.basket[0], 1)])
            self.move(order, "packaged")
            self.arrival_order = order["id"]
        elif kind == "desk_unpaid":
            # Unpaid, at the desk, with an age-restricted line: pay (cash, card) and "No ID".
            order = self.order([(self.basket[0], 1)], restricted=True)
            self.move(order, "packaged", "delivering")
            self.tokens[kind] = order["pickupToken"]
        elif kind == "desk_ready":
            # Paid, at the desk, restricted: hand over with the ID check.
            order = self.order([(self.basket[1], 1)], restricted=True)
            self.move(order, "packaged", "delivering")
            due = staff.call("GET", f"/v1/orders/{order['id']}")
            amount = due.get("amountDue") or due["total"]
            staff.call("POST", f"/v1/orders/{order['id']}/payments", {"method": "cash", "amount": amount})
            self.tokens[kind] = order["pickupToken"]
        elif kind == "desk_substitution":
            # Three substitutions the customer has not decided on (a decision form each), the order
            # at the desk.
            order = self.order([(p, 1) for p in self.basket[:3]])
            made = staff.call("POST", f"/v1/stores/{self.store}/pick-lists", {"orderIds": [order["id"]]})
            for product, substitute in zip(self.basket[:3], self.substitutes):
                staff.call("POST", f"/v1/pick-lists/{made['id']}/substitutions",
                           {"orderId": order["id"], "productId": product, "substituteProductId": substitute["id"], "quantity": 1})
            staff.call("POST", f"/v1/pick-lists/{made['id']}/complete")
            status = staff.call("GET", f"/v1/orders/{order['id']}")["status"]
            if status == "pending":
                self.move(order, "packaged")
            self.move(order, "delivering")
            self.tokens[kind] = order["pickupToken"]
        elif kind == "report":
            # A comment of the customer's on the store's news, reported: the moderation page's
            # Hide and Block author. The customer may post again first (a block is fuzzed too).
            for moderator in ("manager", "admin"):  # the store's block, and the chain's
                self.api[moderator].call("DELETE", f"/v1/moderation/blocks/{self.customer_id}", expect=None)
            news = self.api["customer"].call("GET", f"/v1/stores/{self.store}/news")["items"][0]["id"]
            comment = self.api["customer"].call("POST", f"/v1/stores/{self.store}/news/{news}/comments",
                                                {"bodyMarkdown": f"Comment {self.made[kind]}"})
            self.api["staff"].call("POST", "/v1/reports", {"kind": "comment", "contentId": comment["id"], "reason": "form fuzz"})
        elif kind == "blocked":
            # The customer blocked from posting: the moderation page's Unblock.
            self.api["manager"].call("POST", "/v1/moderation/blocks", {"userId": self.customer_id, "reason": "form fuzz"},
                                     expect=None)
        else:
            raise SetupError(f"no material of kind {kind}")


class Victims:
    """Rows no fuzzed form may change: a store of their own (with an aisle, a product in stock, a
    news item, a pick list) and a second customer (an order there and a cart). Their ids are
    hostile values."""

    def __init__(self, material):
        self.m = material
        self.fz = material.fz

    def make(self):
        m = self.m
        admin = m.api["admin"]
        store = admin.call("POST", "/v1/stores", {"code": "FZ-VICTIM", "name": "Victim store", "currency": "JMD",
                                                  "address": "Elsewhere"})
        self.store = store["id"]
        admin.call("POST", f"/v1/stores/{self.store}/aisles", {"code": "1", "name": "Victim aisle", "walkOrder": 1})
        product = admin.call("POST", "/v1/products", {"sku": "FZ-VICTIM-1", "name": "Victim tea", "brand": "Victim",
                                                      "category": "Victims", "price": {"amount": 12345, "currency": "JMD"}})
        self.product = product["id"]
        # The victim store's manager: made on the command line, as a store's first manager is.
        email, password = "victim-manager@form-fuzz.test", "victim-manager-password"
        subprocess.run([m.binary, "user", "create", "--email", email, "--role", "manager", "--store", "FZ-VICTIM"],
                       input=password + "\n", text=True, check=True, capture_output=True)
        manager = Api(self.fz, "victim-manager").login(email, password)
        self.manager_id = manager.call("GET", "/v1/me")["id"]
        manager.call("PUT", f"/v1/stores/{self.store}/stock/{self.product}", {"onHand": 50, "minSupply": 5, "expectedOnHand": 0})
        manager.call("PUT", f"/v1/stores/{self.store}/stock/{self.product}/location", {"aisleCode": "1", "bay": 1, "shelf": "A"})
        news = manager.call("POST", f"/v1/stores/{self.store}/news", {"title": "Victim news", "bodyMarkdown": "Victim", "published": True})
        self.news = news["id"]
        # The second customer: an order at the victim store, and something in the cart.
        registered = Api(self.fz, "victim-customer").call("POST", "/v1/auth/register", {
            "email": "victim-customer@form-fuzz.test", "name": "Victim Customer",
            "password": "victim-customer-password", "passwordConfirmation": "victim-customer-password"})
        customer = Api(self.fz, "victim-customer", registered["token"])
        self.customer = registered["user"]["id"]
        customer.call("PUT", "/v1/cart", {"storeId": self.store})
        customer.call("PUT", f"/v1/cart/items/{self.product}", {"quantity": 2})
        customer.call("GET", "/v1/cart")
        self.idempotency_key = "victim-checkout-1"
        order = customer.call("POST", "/v1/checkout", {"paymentMethod": "pay_at_collection"},
                              headers={"Idempotency-Key": self.idempotency_key})
        self.order, self.token = order["id"], order["pickupToken"]
        pick_list = manager.call("POST", f"/v1/stores/{self.store}/pick-lists", {"orderIds": [self.order]})
        self.pick_list = pick_list["id"]
        customer.call("PUT", f"/v1/cart/items/{self.product}", {"quantity": 1})
        customer.call("PUT", f"/v1/favourites/{self.product}", expect=None)

    def hostile_ids(self):
        rng = random.Random(SEED)
        stranger = "%08x-%04x-4%03x-a%03x-%012x" % (rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(12),
                                                    rng.getrandbits(12), rng.getrandbits(48))
        return [
            ("victim-store", self.store), ("victim-product", self.product), ("victim-order", self.order),
            ("victim-customer", self.customer), ("victim-pick-list", self.pick_list), ("victim-news", self.news),
            ("victim-token", self.token), ("victim-idempotency-key", self.idempotency_key), ("random-uuid", stranger),
        ]

    # The victims' rows, table by table (sql/*.sql): everything of the victim store, the victim
    # product, and the second customer's account, cart, favourites and orders with what hangs on them.
    ORDERS = "(SELECT id FROM orders WHERE store_id = '{store}' OR customer_id = '{customer}')"
    TABLES = [
        ("stores", "id = '{store}'"), ("aisles", "store_id = '{store}'"), ("stock", "store_id = '{store}'"),
        ("store_prices", "store_id = '{store}'"), ("store_sales", "store_id = '{store}'"),
        ("store_minimum_ages", "store_id = '{store}'"), ("store_calendars", "store_id = '{store}'"),
        ("store_opening_hours", "store_id = '{store}'"), ("store_closures", "store_id = '{store}'"),
        ("store_price_history", "store_id = '{store}'"), ("coupons", "store_id = '{store}'"),
        ("news_items", "store_id = '{store}'"), ("comments", "store_id = '{store}'"), ("recipes", "store_id = '{store}'"),
        ("product_reviews", "store_id = '{store}'"), ("stock_movements", "store_id = '{store}'"),
        ("pick_lists", "store_id = '{store}'"), ("pick_list_orders", "store_id = '{store}'"), ("picks", "store_id = '{store}'"),
        ("events", "store_id = '{store}'"), ("products", "id = '{product}'"),
        ("users", "id IN ('{customer}', '{manager}')"), ("sessions", "user_id IN ('{customer}', '{manager}')"),
        ("carts", "customer_id = '{customer}'"), ("cart_items", "customer_id = '{customer}'"),
        ("favourites", "user_id = '{customer}'"), ("customer_stores", "user_id = '{customer}'"),
        ("orders", "store_id = '{store}' OR customer_id = '{customer}'"),
        ("order_lines", "order_id IN " + ORDERS), ("order_events", "order_id IN " + ORDERS),
        ("pickup_tokens", "order_id IN " + ORDERS), ("payments", "order_id IN " + ORDERS),
        ("refunds", "order_id IN " + ORDERS), ("id_checks", "order_id IN " + ORDERS),
        ("receipt_reissues", "order_id IN " + ORDERS), ("coupon_redemptions", "order_id IN " + ORDERS),
        ("pickup_slot_bookings", "store_id = '{store}'"),
    ]

    def snapshot(self):
        """Each table's victim rows as text, by table."""
        ids = {"store": self.store, "product": self.product, "customer": self.customer, "manager": self.manager_id}
        if not hasattr(self, "tables"):
            # Tables a later migration renamed or dropped are left out, with a word, not a failure.
            present = set(psql("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'").split("\n"))
            self.tables = [(t, w) for t, w in self.TABLES if t in present]
            for table, _ in self.TABLES:
                if table not in present:
                    log(f"note: no table {table} to watch (renamed?): update Victims.TABLES")
        parts = []
        for table, where in self.tables:
            parts.append(
                f"SELECT '{table}', coalesce(string_agg(to_jsonb(t)::text, E'\\x1f' ORDER BY to_jsonb(t)::text), '') "
                f"FROM {table} t WHERE {where.format(**ids)}")
        rows = {}
        for record in psql(" UNION ALL ".join(parts), "-F", "\x1e", "-R", "\x1d").strip("\n").split("\x1d"):
            if record:
                table, text = record.split("\x1e", 1)
                rows[table] = text
        return rows

    def stable_snapshot(self):
        """The rows once they stop changing (events are numbered just after they commit)."""
        last = self.snapshot()
        for _ in range(20):
            time.sleep(0.25)
            now = self.snapshot()
            if now == last:
                return now
            last = now
        return last

    @staticmethod
    def differences(before, after):
        """Per table: which rows went, came or changed (a lone changed row: its changed columns)."""
        changed = []
        for table in before:
            if before[table] == after.get(table):
                continue
            old = set(before[table].split("\x1f")) - {""}
            new = set(after.get(table, "").split("\x1f")) - {""}
            gone, came = sorted(old - new), sorted(new - old)
            if len(gone) == 1 and len(came) == 1:
                a, b = json.loads(gone[0]), json.loads(came[0])
                columns = ", ".join(f"{k}: {short(json.dumps(a.get(k)), 40)} -> {short(json.dumps(b.get(k)), 40)}"
                                    for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k))
                changed.append(f"{table} row changed ({columns})")
            else:
                example = short(came[0] if came else gone[0], 160)
                changed.append(f"{table}: {len(gone)} rows gone or changed, {len(came)} new or changed (e.g. {example})")
        return changed


# ---------------------------------------------------------------------------------------------
# Pages: links and forms, as a browser without script sees them.
# ---------------------------------------------------------------------------------------------

@dataclass
class Form:
    method: str
    action: str  # path?query
    fields: list  # (name, value) as the browser would send them, in order
    names: list  # every field name, sent by default or not (unchecked boxes, radios, disabled)
    submitter: tuple | None
    source: "Source"
    signature: tuple = ()
    label: str | None = None  # the form's id or its button's (#tap-A, #scan-form), for the reports

    def where(self, action):
        return f"{action} (#{self.label})" if self.label else action

    def kind(self):
        for pattern, kind in MATERIAL_KINDS:
            if re.search(pattern, self.action.split("?")[0]):
                return kind
        return None


@dataclass
class Source:
    """Where a form is found: a page, or the answer to a desk scan (a POST)."""
    method: str
    path: str
    fields: list = field(default_factory=list)


class PageParser(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links, self.forms = [], []
        self.form = None
        self.select = None
        self.option = None
        self.textarea = None

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "a" and "href" in a:
            self.links.append(a["href"])
        elif tag == "form":
            self.form = {"method": a.get("method", "get").upper(), "action": a.get("action"), "inputs": [], "submitters": [],
                         "id": a.get("id")}
            self.forms.append(self.form)
        elif self.form is None:
            return
        elif tag == "input":
            kind = a.get("type", "text").lower()
            name = a.get("name")
            if kind in ("submit", "image"):
                if name:
                    self.form["submitters"].append((name, a.get("value", "")))
            elif name and kind not in ("button", "reset", "file"):
                self.form["inputs"].append({"name": name, "type": kind, "value": a.get("value", "on" if kind in ("checkbox", "radio") else ""),
                                            "checked": "checked" in a, "disabled": "disabled" in a})
        elif tag == "button":
            if a.get("type", "submit").lower() == "submit":
                if a.get("name"):
                    self.form["submitters"].append((a["name"], a.get("value", "")))
                # What the failures call the form: its id, else its (first) button's.
                self.form["id"] = self.form["id"] or a.get("id")
        elif tag == "select" and a.get("name"):
            self.select = {"name": a["name"], "type": "select", "options": [], "disabled": "disabled" in a}
            self.form["inputs"].append(self.select)
        elif tag == "option" and self.select is not None:
            self.option = {"value": a.get("value"), "text": "", "selected": "selected" in a, "disabled": "disabled" in a}
            self.select["options"].append(self.option)
        elif tag == "textarea" and a.get("name"):
            self.textarea = {"name": a["name"], "type": "textarea", "value": "", "disabled": "disabled" in a}
            self.form["inputs"].append(self.textarea)

    def handle_endtag(self, tag):
        if tag == "form":
            self.form = None
        elif tag == "select":
            self.select = None
        elif tag == "option":
            self.option = None
        elif tag == "textarea":
            self.textarea = None

    def handle_data(self, data):
        if self.textarea is not None:
            self.textarea["value"] += data
        elif self.option is not None:
            self.option["text"] += data


def same_origin_path(href, page_path, base):
    url = urllib.parse.urljoin(base + page_path, href)
    parsed = urllib.parse.urlsplit(url)
    if f"{parsed.scheme}://{parsed.netloc}" != base:
        return None
    return parsed.path + (f"?{parsed.query}" if parsed.query else "")


# Pages visited again after the crawl with material that changes which forms they show.
LATE_SOURCES = [("customer", "cart_coupon", "/shop/cart"), ("manager", "blocked", "/console/moderation"),
                ("admin", "blocked", "/console/moderation")]

# Which material a form is about, by its action: made again when a post has used it up.
MATERIAL_KINDS = [
    (r"^/console/pick-lists/[^/]+/(picks|substitutions|complete)$", "pick"),
    (r"^/shop/cart/coupon/remove$", "cart_coupon"),
    (r"^/shop/(checkout|cart/)", "cart"),
    (r"^/orders/[^/]+/arrival$", "arrival"),
    (r"^/console/desk/(payments|restricted-lines)$", "desk_unpaid"),
    (r"^/console/desk/collections$", "desk_ready"),
    (r"^/console/desk/substitutions$", "desk_substitution"),
    (r"^/console/orders/[^/]+/transitions$", "board"),
    (r"^/shop/favourites/add$", "favourites_none"),
    (r"^/shop/favourites/remove$", "favourites_some"),
    (r"^/console/moderation/blocks/[^/]+/delete$", "blocked"),
    (r"^/console/moderation/", "report"),
]


def normalise(path):
    """A path's shape: ids and numbers as placeholders (so one product's form stands for all)."""
    path = UUID_RE.sub("{id}", path)
    return re.sub(r"(?<=[/=])\d+(?=$|[/&?])", "{n}", path)


def parse_forms(body, page_path, base, source):
    parser = PageParser()
    try:
        parser.feed(body.decode("utf-8", "replace"))
        parser.close()
    except Exception as error:  # a page the parser cannot read is itself worth knowing about
        log(f"note: could not parse {page_path}: {error}")
    forms = []
    for raw_form in parser.forms:
        action = page_path if not raw_form["action"] else same_origin_path(raw_form["action"], page_path, base)
        if action is None:
            continue
        fields, names, hidden = [], [], set()
        for item in raw_form["inputs"]:
            if item["name"] not in names:
                names.append(item["name"])
            if item["type"] == "hidden":
                hidden.add(item["name"])
            if item.get("disabled"):
                continue
            if item["type"] == "select":
                enabled = [o for o in item["options"] if not o["disabled"]]
                chosen = next((o for o in enabled if o["selected"]), enabled[0] if enabled else None)
                if chosen is not None:
                    fields.append((item["name"], chosen["value"] if chosen["value"] is not None else chosen["text"].strip()))
            elif item["type"] in ("checkbox", "radio"):
                if item["checked"]:
                    fields.append((item["name"], item["value"]))
            else:
                fields.append((item["name"], item["value"]))
        # Each named submit button is a way of sending the form (the news editor's Preview and Save).
        for submitter in raw_form["submitters"] or [None]:
            form = Form(raw_form["method"] if raw_form["method"] in ("GET", "POST") else "GET", action, list(fields),
                        names + ([submitter[0]] if submitter and submitter[0] not in names else []), submitter, source,
                        label=raw_form["id"])
            # Its identity across pages and visits: the action's shape, the fields, and hidden
            # values that are words (`to=cancelled`, `short=true`, `method=card`) rather than ids.
            words = tuple(sorted(f"{n}={v}" for n, v in fields if n in hidden and re.fullmatch(r"[a-z_]{1,20}", v or "")))
            form.signature = (form.method, normalise(action.split("?")[0]), tuple(sorted(form.names)), words, submitter)
            forms.append(form)
    links = [p for p in (same_origin_path(h, page_path, base) for h in parser.links if not h.startswith("#")) if p]
    return forms, links


# ---------------------------------------------------------------------------------------------
# A browser for one role: the session cookie, the Origin header, redirects followed.
# ---------------------------------------------------------------------------------------------

class Browser:
    def __init__(self, fz, role):
        self.fz, self.role = fz, role
        self.cookie = None
        self.csrf = ""  # the session's anti-forgery token (an HMAC of the session: one per session)

    def headers(self, post=False):
        sent = {"Accept": "text/html"}
        if self.cookie:
            sent["Cookie"] = f"fulfilment_session={self.cookie}"
        if post:
            sent["Origin"] = self.fz.origin
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        return sent

    def take_cookie(self, reply):
        if self.role == "nobody" or reply is None or reply.headers is None:
            return
        for cookie in reply.headers.get_all("Set-Cookie") or []:
            found = re.match(r"\s*fulfilment_session=([^;]*)", cookie)
            if found:
                self.cookie = found.group(1) or None

    def request(self, method, path, body=None, field="-", value="-", follow=True, shown=None):
        """Returns (reply, final path): redirects within the service followed as a browser does."""
        reply = self.fz.send(self.role, method, path, body, self.headers(method == "POST"), field, value, shown)
        self.take_cookie(reply)
        hops = 0
        while follow and reply is not None and reply.status in (301, 302, 303, 307) and hops < 5:
            target = same_origin_path(reply.header("Location") or "/", path.split("?")[0], self.fz.base)
            if target is None or SKIP_LINK.search(target):
                break
            path = target
            reply = self.fz.send(self.role, "GET", path, None, self.headers())
            self.take_cookie(reply)
            hops += 1
        return reply, path

    def sign_in(self):
        if self.role == "nobody":
            return True
        email, password = ACCOUNTS[self.role]
        body = f"email={urllib.parse.quote_plus(email)}&password={urllib.parse.quote_plus(password)}".encode()
        reply, _ = self.request("POST", "/signin", body, follow=False)
        return bool(self.cookie) and reply is not None and reply.status in (302, 303)

    def signed_out(self, reply, path):
        """Sent back to sign in: the session has ended."""
        return self.role != "nobody" and reply is not None and path == "/" and b'action="/signin"' in reply.body

    def fetch(self, source):
        if source.method == "POST":
            return self.request("POST", source.path, encode(source.fields))
        return self.request("GET", source.path)


def encode(fields, replace=None, value=None):
    """The urlencoded body (or query) of `fields`, with `replace`'s value swapped for `value`
    (a Value; its `encoded` goes in as it is, None leaves the field out)."""
    parts, done = [], False
    for name, text in fields:
        if name == replace:
            if not done and value.encoded is not None:
                parts.append(urllib.parse.quote_plus(name).encode() + b"=" + value.encoded)
            done = True
            continue
        parts.append(urllib.parse.quote_plus(name).encode() + b"=" + urllib.parse.quote_plus(text or "").encode())
    if replace is not None and not done and value.encoded is not None:
        parts.append(urllib.parse.quote_plus(replace).encode() + b"=" + value.encoded)
    return b"&".join(parts)


# ---------------------------------------------------------------------------------------------
# The run.
# ---------------------------------------------------------------------------------------------

class Run:
    def __init__(self, fz, material, max_pages, form_filter):
        self.fz, self.m = fz, material
        self.max_pages, self.form_filter = max_pages, form_filter
        self.victims = material.victims
        self.baseline = self.victims.stable_snapshot()
        self.victim_changes = 0
        self.forms = 0
        self.fields = 0
        self.skipped = 0
        self.counter = 0
        self.fuzzed = {}  # form signature -> the role that fuzzed it
        self.roles = {}  # role -> (browser, forms, links, pages), from its first round
        self.repeat = os.environ.get("FORM_FUZZ_REPEAT") == "1"

    # Plausible values for fields a page leaves empty, so that the other fields' hostile values
    # get past "this is required" to the code behind it; `n` makes each request's own (an email
    # or a coupon code not taken yet, a sale window not overlapping the last). Never a password
    # for the account's own erasure or a sign-in: wrong ones only count against the address.
    def plausible(self, name, form, n):
        if form.action.startswith("/account/erase") or (form.action == "/signin" and name == "password"):
            return None
        return {
            "name": "Form Fuzz", "email": f"form-fuzz-{n}@example.test", "password": "form-fuzz-password-1",
            "passwordConfirmation": "form-fuzz-password-1", "code": f"FZ{n:05d}", "description": "fuzz",
            "percentOff": "10", "price": "1.00", "startsAt": self.later(2 * n), "endsAt": self.later(2 * n + 1),
            "title": "Form fuzz", "bodyMarkdown": "Fuzz", "bay": "7", "vehicle": "Blue car", "reason": "form fuzz",
            "substituteBarcode": self.m.substitutes[0].get("barcode"), "aisleCode": "1", "shelf": "A",
            "redemptionLimit": "5", "perCustomerLimit": "1",
        }.get(name)

    @staticmethod
    def later(days):
        """A datetime-local value (UTC) `days` (and a day) from now: no sale the run makes changes
        a price it sees (a sale starts within two years: wraps before)."""
        return time.strftime("%Y-%m-%dT%H:%M", time.gmtime(time.time() + (1 + days % 700) * 86400))

    def filled(self, form):
        self.counter += 1
        return [(n, v if v else (self.plausible(n, form, self.counter) or v)) for n, v in form.fields] + (
            [form.submitter] if form.submitter else [])

    def crawl(self, browser):
        """Same-origin pages reachable from the role's start pages (and desk scans), bounded:
        at most `max_pages`, at most three pages of one shape."""
        queue = [Source("GET", p) for p in START_PAGES[browser.role]]
        if browser.role in ("staff", "manager"):
            queue += [Source("POST", "/console/desk/scan", [("_csrf", ""), ("token", t)]) for t in self.m.tokens.values()]
        seen, shapes, forms, links = set(), {}, {}, set()
        while queue and len(seen) < self.max_pages:
            source = queue.pop(0)
            key = (source.method, source.path, tuple(source.fields))
            shape = normalise(source.path.split("?")[0]) + "?" + ",".join(sorted(urllib.parse.parse_qs(source.path.partition("?")[2])))
            if key in seen or shapes.get(shape, 0) >= 3:
                continue
            seen.add(key)
            shapes[shape] = shapes.get(shape, 0) + 1
            if source.method == "POST":
                source.fields = [("_csrf", browser.csrf)] + source.fields[1:]
            reply, final = browser.fetch(source)
            if reply is None or "html" not in (reply.header("Content-Type") or ""):
                continue
            if browser.signed_out(reply, final) and source.path != "/":
                log(f"note: [{browser.role}] signed out at {source.path}; signing in again")
                browser.sign_in()
                continue
            page = Source("GET", final) if source.method == "GET" else source
            found, hrefs = parse_forms(reply.body, final, self.fz.base, page)
            for form in found:
                csrf = dict(form.fields).get("_csrf")
                if csrf:
                    browser.csrf = csrf
                forms.setdefault(form.signature, form)
            for href in hrefs:
                if SKIP_LINK.search(href):
                    continue
                # The chain's admin keeps every store, the victim's too: not crawled into, so the
                # victim stays a store nobody fuzzed has reason to change.
                if browser.role == "admin" and self.victims.store in href:
                    continue
                if "?" in href:
                    links.add(href)
                queue.append(Source("GET", href))
        # Forms a page shows only in another state: the cart's "Remove coupon" once a coupon is on it.
        for role, kind, path in LATE_SOURCES:
            if role == browser.role:
                self.m.replenish(kind)
                reply, final = browser.fetch(Source("GET", path))
                if reply is not None:
                    for form in parse_forms(reply.body, final, self.fz.base, Source("GET", final))[0]:
                        forms.setdefault(form.signature, form)
        pages = sorted({p for method, p, _ in seen if method == "GET"})
        return list(forms.values()), sorted(links), pages

    def live_source(self, form, browser):
        """Where the form is now: the current pick list, order or desk scan for its material."""
        kind = form.kind()
        if kind == "pick" and self.m.pick_list:
            return Source("GET", f"/console/pick-lists/{self.m.pick_list}/pick")
        if kind == "arrival" and self.m.arrival_order:
            return Source("GET", f"/orders/{self.m.arrival_order}")
        if kind in self.m.tokens:
            return Source("POST", "/console/desk/scan", [("_csrf", browser.csrf), ("token", self.m.tokens[kind])])
        return form.source

    def find_again(self, form, browser):
        """The form as its page draws it now (hidden values change as picks are made), making its
        material again once if it is gone. None when it cannot be found."""
        for attempt in range(2):
            source = self.live_source(form, browser)
            reply, final = browser.fetch(source)
            if browser.signed_out(reply, final):
                log(f"note: [{browser.role}] session ended; signing in again")
                if not browser.sign_in():
                    return None
                reply, final = browser.fetch(source)
            if reply is not None and "html" in (reply.header("Content-Type") or ""):
                found, _ = parse_forms(reply.body, final, self.fz.base, source)
                for candidate in found:
                    if candidate.signature == form.signature:
                        return candidate
            kind = form.kind()
            if DEBUG:
                log(f"   not found on {source.path}: {form.signature}; there: {[c.signature for c in found] if reply else None}")
            if attempt == 0 and kind:
                try:
                    self.m.replenish(kind)
                except SetupError as error:
                    log(f"note: could not make {kind} material again: {error}")
                    return None
            else:
                return None
        return None

    def after_post(self, browser, form):
        if browser.role == "customer":
            self.m.cart_dirty = True
        # Choosing another store is the customer's right; the run goes on shopping at the demo store.
        if form.action == "/shop/store":
            self.m.fill_cart()

    def fuzz_form(self, browser, form, values, first):
        path_ids = UUID_RE.search(form.action.split("?")[0])
        targets = list(form.names) + (["(path id)"] if path_ids else [])
        # Material a form is about is made afresh first (the forms fuzzed before may have used it:
        # the board's forms pack and cancel orders that were on the pick list), and the form read
        # from it.
        current, stale = form, False
        if form.method == "POST" and form.kind():
            try:
                self.m.replenish(form.kind())
                stale = True
            except SetupError as error:
                log(f"note: could not make {form.kind()} material: {error}")
        for target in targets:
            for value in values + (inner_values(dict(form.fields).get(target) or "") if first else []):
                if self.fz.out_of_time():
                    return False
                if target == "(path id)" and (value.encoded is None or value.label in ("100kB", "60kB")):
                    continue
                if target == "(path id)" and value.label.startswith("victim") and browser.role == "admin" \
                        and ADMIN_CHAIN_WIDE.match(form.action):
                    continue
                if form.method == "POST" and stale:
                    current = self.find_again(form, browser)
                    if current is None:
                        self.skipped += 1
                        log(f"note: [{browser.role}] {form.method} {normalise(form.action)} is gone from its page; "
                            f"the rest of its fields not fuzzed")
                        return True
                fields = self.filled(current)
                action = current.action
                if target == "(path id)":
                    # The id in the form's action as drawn now (a new pick list after material was made).
                    action = UUID_RE.sub(value.encoded.decode("latin-1"), action, count=1)
                    body = encode(fields)
                else:
                    body = encode(fields, target, value)
                if form.method == "POST":
                    reply, _ = browser.request("POST", action, body, target, value.describe(), follow=False,
                                               shown=form.where(action))
                    if browser.role != "nobody" and reply is not None and reply.status in (302, 303) \
                            and reply.header("Location") == "/":
                        # Sent to sign in: the session has ended (this post ended it?). In again.
                        log(f"note: [{browser.role}] {form.method} {normalise(action)} {target}={value.label} ended the session")
                        if not browser.sign_in():
                            self.fz.fail(browser.role, "POST", "/signin", "-", "-", "could not sign in again")
                            return False
                    # A post that did something may have changed what the page shows: read it again.
                    stale = reply is None or reply.status < 400 or reply.status >= 500
                    if reply is not None and reply.status < 400:
                        self.after_post(browser, form)
                else:
                    path, _, query = action.partition("?")
                    reply, _ = browser.request("GET", f"{path}?{body.decode('latin-1')}", None, target, value.describe(),
                                               follow=False, shown=form.where(path))
                    if target == "(path id)" and value.label.startswith("victim") and reply is not None and reply.status == 200:
                        self.fz.fail(browser.role, "GET", action, target, value.describe(), "another tenant's page answered 200")
        return True

    def fuzz_links(self, browser, links, values, first):
        """The query parameters of crawled links (`?stop=`, `?cursor=`, `?q=`), one at a time."""
        done = set()
        for link in links:
            path, _, query = link.partition("?")
            pairs = urllib.parse.parse_qsl(query, keep_blank_values=True)
            for name, original in pairs:
                key = (normalise(path), name)
                if key in done:
                    continue
                done.add(key)
                self.fields += first
                for value in values + (inner_values(original) if first else []):
                    if self.fz.out_of_time():
                        return
                    browser.request("GET", f"{path}?{encode(pairs, name, value).decode('latin-1')}", None,
                                    f"?{name}", value.describe(), follow=False, shown=path)

    def extra_links(self, role):
        """Query parameters no link carries but the pages read: a scanned barcode (the shop's
        script sends it), the notice a redirect names."""
        if role == "customer":
            return [f"/shop?barcode={self.m.substitutes[0].get('barcode')}", "/shop?q=rice&notice=added",
                    "/shop/cart?notice=updated", f"/orders/{self.m.arrival_order}?notice=arrived"]
        if role in ("staff", "manager"):
            return [f"/console/pick-lists/{self.m.pick_list}/pick?stop=1"]
        return []

    def fuzz_page_ids(self, browser, pages, values):
        """The id in the path of each kind of page, as other tenants' ids: a 404, never their page."""
        done = set()
        for page in pages:
            path = page.split("?")[0]
            found = UUID_RE.search(path)
            if not found or normalise(path) in done:
                continue
            done.add(normalise(path))
            for value in values:
                if not value.is_id or self.fz.out_of_time():
                    continue
                if value.label.startswith("victim") and browser.role == "admin" and ADMIN_CHAIN_WIDE.match(path):
                    continue
                target = path.replace(found.group(0), urllib.parse.quote(value.shown, safe=""), 1)
                reply, _ = browser.request("GET", target, None, "(path id)", value.describe(), follow=False)
                if value.label.startswith("victim") and reply is not None and reply.status == 200:
                    self.fz.fail(browser.role, "GET", target, "(path id)", value.describe(), "another tenant's page answered 200")

    def check_victims(self, role, what):
        now = self.victims.snapshot()
        if now != self.baseline:
            now = self.victims.stable_snapshot()
        changed = self.victims.differences(self.baseline, now)
        if changed:
            self.victim_changes += 1
            self.fz.fail(role, what[0], what[1], "-", "-", "VICTIM CHANGED: " + "; ".join(changed))
            self.baseline = now

    def run_role(self, role, values, round_number):
        """One round of `values` for the role's forms, links and pages; the first signs in and
        crawls."""
        started, requests, failures = time.time(), self.fz.requests, len(self.fz.failures)
        first = role not in self.roles
        if first:
            browser = Browser(self.fz, role)
            if not browser.sign_in():
                self.fz.fail(role, "POST", "/signin", "-", "-", "could not sign in")
                self.roles[role] = None
                return
            forms, links, visited = self.crawl(browser)
            forms = [f for f in forms if not SKIP_FORM.search(f.action.split("?")[0])
                     and (not self.form_filter or re.search(self.form_filter, f.action))]
            forms.sort(key=lambda f: (f.action.split("?")[0], str(f.signature)))
            # A manager's desk, board and pick mode are the staff's forms, the same code behind them:
            # fuzzed once, as staff (FORM_FUZZ_REPEAT=1: as both). Every other role's forms are its
            # own: "My data" is everyone's, but what an erasure refuses depends on who asks.
            shared = [f for f in forms if role == "manager" and self.fuzzed.get(f.signature) == "staff" and not self.repeat]
            forms = [f for f in forms if f not in shared]
            for form in forms:
                self.fuzzed.setdefault(form.signature, role)
            self.forms += len(forms)
            self.fields += sum(len(f.names) + bool(UUID_RE.search(f.action)) for f in forms)
            self.roles[role] = (browser, forms, links, visited)
            note = f" (and {len(shared)} fuzzed as staff)" if shared else ""
            found = f"{len(visited)} pages, {len(forms)} forms, {sum(len(f.names) for f in forms)} fields{note}; "
        elif self.roles[role] is None:
            return
        else:
            found = ""
        browser, forms, links, visited = self.roles[role]
        for index, form in enumerate(forms):
            before = len(self.fz.failures)
            finished = self.fuzz_form(browser, form, values, first)
            if form.method == "POST" or len(self.fz.failures) > before:
                self.check_victims(role, (form.method, normalise(form.action)))
            if not finished:
                left = forms[index:]
                if self.fz.out_of_time():
                    log(f"note: time budget spent: {len(left)} {role} forms not (fully) fuzzed in round {round_number}: "
                        + ", ".join(sorted({normalise(f.action) for f in left}))[:400])
                break
        if not self.fz.out_of_time():
            # FORM_FUZZ_FORMS picks links and pages by their paths too.
            wanted = lambda path: not self.form_filter or re.search(self.form_filter, path)
            self.fuzz_links(browser, [link for link in links + self.extra_links(role) if wanted(link)], values, first)
            self.fuzz_page_ids(browser, [page for page in visited if wanted(page)], values)
            self.check_victims(role, ("GET", "(links)"))
        log(f"== {role}: {found}round {round_number} ({len(values)} values): {self.fz.requests - requests} requests, "
            f"{len(self.fz.failures) - failures} failures, {time.time() - started:.0f} s")
        if DEBUG:
            log(f"   material made so far: {self.m.made}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--keys-dir", required=True)
    parser.add_argument("--pid-file", required=True)
    parser.add_argument("--reports", required=True)
    args = parser.parse_args()
    started = time.time()
    roles = os.environ.get("FORM_FUZZ_ROLES", "customer staff manager admin nobody").split()
    open(os.path.join(args.reports, "failures.txt"), "w").close()
    server = Server(args.bin, args.port, args.keys_dir, args.pid_file, os.path.join(args.reports, "serve.log"))
    server.start()
    fz = Fuzzer(server, args.reports, float(os.environ.get("FORM_FUZZ_BUDGET_SECONDS", "270")))
    try:
        material = Material(fz, args.bin)
        try:
            material.setup()
        except SetupError as error:
            log(f"form-fuzz: setup failed: {error}")
            return 1
        values = hostile_values(material.victims)
        wanted = [v for v in os.environ.get("FORM_FUZZ_VALUES", "").replace(",", " ").split()]
        if wanted:
            values = [v for v in values if v.label in wanted]
        log(f"form-fuzz: setup done in {time.time() - started:.0f} s ({fz.requests} requests, {material.orders_made} orders); "
            f"{len(values)} values per field")
        run = Run(fz, material, int(os.environ.get("FORM_FUZZ_MAX_PAGES", "150")), os.environ.get("FORM_FUZZ_FORMS"))
        rounds = [r for r in ([v for v in values if v.label in FIRST_ROUND], [v for v in values if v.label not in FIRST_ROUND]) if r]
        for number, round_values in enumerate(rounds, 1):
            for index, role in enumerate(roles):
                if fz.out_of_time():
                    log(f"note: time budget (FORM_FUZZ_BUDGET_SECONDS) spent: round {number} not run as {' '.join(roles[index:])}")
                    break
                run.run_role(role, round_values, number)
    finally:
        server.stop()
    crashes = sum("CRASH" in f.what for f in fz.failures)
    if run.skipped:
        log(f"note: {run.skipped} forms were gone from their pages before all their fields were fuzzed")
    if fz.dropped:
        log(f"note: {fz.dropped} requests had their connection closed without an answer (the service stayed healthy)")
    log(f"form fuzzing: {fz.requests} requests, {run.forms} forms, {run.fields} fields, {len(fz.failures)} failures "
        f"({crashes} crashes, {run.victim_changes} victim changes, {server.restarts} restarts) in {time.time() - started:.0f} s"
        + (f"; details in {args.reports}" if fz.failures else ""))
    return 1 if fz.failures else 0


if __name__ == "__main__":
    sys.exit(main())
