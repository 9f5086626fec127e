"""A fault proxy between the pool manager and the real PeerTube server.

It forwards every request unchanged (method, path, headers, body) to the server and its answer
back, except while a fault window is open: then it answers the admin API itself, with a 429
whose Retry-After is what is left of the window, or with a 500, as a rate limiter or a failing
server in front of PeerTube would. When the server does not answer (stopped for a restart), it
says 502, as nginx in front of PeerTube does. It counts what arrived in each window, so that a
test can tell whether the client honoured the 429's wait.

    proxy = FaultProxy("http://127.0.0.1:9001")   # serves on proxy.url
    proxy.open_window(429, 10)                      # the next 10 s are answered 429
    ...
    proxy.window_requests(window)                   # what arrived while it was open
"""

import http.client
import http.server
import math
import threading
import time
import urllib.parse

# Hop-by-hop headers are the connection's, not the message's: neither side's is passed on.
HOP_BY_HOP = {
    "connection",
    "keep-alive",
    "proxy-connection",
    "transfer-encoding",
    "te",
    "trailer",
    "upgrade",
    "content-length",
}


class Window:
    """One fault: answer `status` from `start` until `end` (time.time() seconds)."""

    def __init__(self, status, start, end):
        self.status, self.start, self.end = status, start, end
        self.arrivals = []  # (time, method, path) of every request that came while it was open

    def is_open(self, now):
        return self.start <= now < self.end


class FaultProxy:
    def __init__(self, upstream):
        parsed = urllib.parse.urlsplit(upstream)
        self.upstream_host, self.upstream_port = parsed.hostname, parsed.port or 80
        self.lock = threading.Lock()
        self.windows = []
        self.forwarded = 0
        self.unanswered = 0  # requests the server did not answer (502)
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_):
                pass  # every request's path is counted, not printed

            def do_request(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                status, headers, answer = proxy.answer(
                    self.command, self.path, dict(self.headers), body
                )
                self.send_response(status)
                for name, value in headers:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(answer)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(answer)
                self.close_connection = True

            do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_request

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def open_window(self, status, seconds):
        """From now, answers every /api/ request with `status` (429 or 500) for `seconds`."""
        now = time.time()
        window = Window(status, now, now + seconds)
        with self.lock:
            self.windows.append(window)
        return window

    def window_requests(self, window):
        with self.lock:
            return list(window.arrivals)

    def answer(self, method, path, headers, body):
        now = time.time()
        with self.lock:
            window = next((w for w in self.windows if w.is_open(now)), None)
            if window and path.startswith("/api/"):
                window.arrivals.append((now, method, path.split("?")[0]))
        if window and path.startswith("/api/"):
            return self.fault_answer(window, now)
        return self.forward(method, path, headers, body)

    @staticmethod
    def fault_answer(window, now):
        if window.status == 429:
            # PeerTube's own limiter answers a plain-text sentence and the seconds to wait.
            wait = max(1, math.ceil(window.end - now))
            return (
                429,
                [("Retry-After", str(wait)), ("Content-Type", "text/html; charset=utf-8")],
                b"Too many requests, please try again later.",
            )
        return (
            window.status,
            [("Content-Type", "application/json")],
            b'{"type":"about:blank","title":"Internal Server Error","status":500}',
        )

    def forward(self, method, path, headers, body):
        connection = http.client.HTTPConnection(self.upstream_host, self.upstream_port, timeout=60)
        try:
            passed = {k: v for k, v in headers.items() if k.lower() not in HOP_BY_HOP}
            connection.request(method, path, body=body, headers=passed)
            response = connection.getresponse()
            answer = response.read()
            headers = [(k, v) for k, v in response.getheaders() if k.lower() not in HOP_BY_HOP]
            with self.lock:
                self.forwarded += 1
            return response.status, headers, answer
        except OSError as error:
            with self.lock:
                self.unanswered += 1
            return (
                502,
                [("Content-Type", "text/plain")],
                f"the PeerTube server did not answer: {error}".encode(),
            )
        finally:
            connection.close()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
