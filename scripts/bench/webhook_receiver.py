"""A webhook receiver for events-bench: answers every POST with 204 at once and counts what it
got (requests, distinct webhook-id values) into a JSON file when it is stopped (SIGTERM)."""
import json
import signal
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

port, out = int(sys.argv[1]), sys.argv[2]
lock = threading.Lock()
seen = {"requests": 0, "ids": set()}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        self.rfile.read(int(self.headers.get("content-length", "0")))
        with lock:
            seen["requests"] += 1
            seen["ids"].add(self.headers.get("webhook-id"))
        self.send_response(204)
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", port), Handler)


def stop(*_):
    with lock:
        json.dump({"requests": seen["requests"], "distinct": len(seen["ids"])}, open(out, "w"))
    threading.Thread(target=server.shutdown).start()


signal.signal(signal.SIGTERM, stop)
server.serve_forever()
