#!/usr/bin/env python3
"""An upstream server for the proxy's and the gate's tests, from Python's standard library.

It prints its port on the first line of stdout, then serves until killed:
  /echo            any method: the request as JSON (method, target, headers, body length, sha256)
  /chunked?parts=N a chunked answer of N parts
  /big?bytes=N     N bytes of answer
  /slow?ms=N       answers after N ms
  /ws              a WebSocket upgrade (101), then every frame echoed back
  /api/v1/runners/... a small PeerTube runner API: jobs/request answers --jobs FILE,
                   accept answers the job with a token (":PORT/" in either becomes the port), files/... answers --file-bytes bytes,
                   success/error/abort read their body and answer 204; /_seen lists the calls;
                   --jobs-text FILE answers jobs/request with FILE's bytes as they are.
Options: --tls CERT KEY serves https, and /echo names the protocol and suite (tls_version,
tls_cipher); --client-ca CERT then asks every client for a certificate signed by CERT, refuses
those without one, and /echo names its common name (client_common_name); --tls-only VERSION
speaks that version alone (TLSv1_1, TLSv1_2) and --tls-suites LIST offers only those suites of
TLS 1.2 and older, at OpenSSL's lowest security level, as an old or misconfigured server would.
"""
import base64, hashlib, json, re, socketserver, ssl, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit, parse_qs

ARGS = sys.argv[1:]


def option(name, default=None, count=1):
    if name in ARGS:
        i = ARGS.index(name)
        return ARGS[i + 1] if count == 1 else ARGS[i + 1 : i + 1 + count]
    return default


JOBS = json.load(open(option("--jobs"))) if option("--jobs") else {"availableJobs": []}
JOBS_TEXT = open(option("--jobs-text"), "rb").read() if option("--jobs-text") else None
FILE_BYTES = int(option("--file-bytes", "0"))
SEEN = []
LOCK = threading.Lock()
JOB_TOKEN = "ptrjt-00000000-secret-job-token"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def read_body(self):
        digest, length = hashlib.sha256(), 0
        body = bytearray()
        if "chunked" in self.headers.get("Transfer-Encoding", ""):
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    break
                data = self.rfile.read(size)
                self.rfile.readline()
                digest.update(data)
                length += len(data)
                if len(body) < 65536:
                    body += data
        else:
            left = int(self.headers.get("Content-Length", "0"))
            while left > 0:
                data = self.rfile.read(min(left, 1 << 20))
                if not data:
                    break
                left -= len(data)
                digest.update(data)
                length += len(data)
                if len(body) < 65536:
                    body += data
        return bytes(body), length, digest.hexdigest()

    def answer(self, status, body=b"", content_type="application/json", headers=()):
        self.send_response(status)
        if status not in (204, 304):
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        if status not in (204, 304) and self.command != "HEAD":
            self.wfile.write(body)

    def handle_any(self):
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        if url.path == "/ws" and self.headers.get("Upgrade", "").lower() == "websocket":
            return self.websocket()
        body, length, sha = self.read_body()
        with LOCK:
            SEEN.append(
                {
                    "method": self.command,
                    "path": url.path,
                    "body": body.decode("utf-8", "replace"),
                    "headers": {k.lower(): v for k, v in self.headers.items()},
                }
            )
        if url.path == "/echo":
            echo = {
                "method": self.command,
                "target": self.path,
                "headers": [[k, v] for k, v in self.headers.items()],
                "body": body.decode("latin-1"),
                "body_length": length,
                "body_sha256": sha,
            }
            if hasattr(self.connection, "version"):
                echo["tls_version"] = self.connection.version()
                echo["tls_cipher"] = self.connection.cipher()[0]
            if hasattr(self.connection, "getpeercert") and self.connection.getpeercert():
                subject = dict(part[0] for part in self.connection.getpeercert()["subject"])
                echo["client_common_name"] = subject.get("commonName", "")
            return self.answer(200, json.dumps(echo).encode())
        if url.path == "/chunked":
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for i in range(int(query.get("parts", ["3"])[0])):
                part = ("part %d;" % i).encode()
                self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
            self.wfile.write(b"0\r\n\r\n")
            return
        if url.path == "/big":
            return self.answer(200, b"x" * int(query["bytes"][0]), "application/octet-stream")
        if url.path == "/slow":
            time.sleep(int(query["ms"][0]) / 1000)
            return self.answer(200, b"slow\n", "text/plain")
        if url.path == "/_seen":
            with LOCK:
                return self.answer(200, json.dumps(SEEN).encode())
        if url.path == "/api/v1/runners/jobs/request":
            if JOBS_TEXT is not None:
                return self.answer(200, JOBS_TEXT)
            return self.answer(200, json.dumps(JOBS).replace(":PORT/", ":%d/" % PORT).encode())
        match = re.fullmatch(
            r"/api/v1/runners/jobs/([0-9a-f-]{36})/(accept|success|error|abort|update)", url.path
        )
        if match:
            uuid, call = match.groups()
            if call != "accept":
                return self.answer(204)
            for job in JOBS["availableJobs"]:
                if job["uuid"] == uuid:
                    accepted = dict(job, jobToken=JOB_TOKEN, state={"id": 2, "label": "Processing"})
                    text = json.dumps({"job": accepted}).replace(":PORT/", ":%d/" % PORT)
                    return self.answer(200, text.encode())
            return self.answer(404, b'{"error":"unknown job"}')
        if re.fullmatch(r"/api/v1/runners/jobs/[0-9a-f-]{36}/files/.+", url.path):
            return self.answer(200, b"v" * FILE_BYTES, "video/mp4")
        return self.answer(404, b'{"error":"not found"}')

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = handle_any

    def websocket(self):
        key = self.headers["Sec-WebSocket-Key"]
        accept = base64.b64encode(
            hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()
        )
        self.send_response(101)
        self.send_header("Upgrade", "websocket")
        self.send_header("Connection", "Upgrade")
        self.send_header("Sec-WebSocket-Accept", accept.decode())
        self.end_headers()
        self.wfile.flush()
        read = self.rfile.read
        while True:
            head = read(2)
            if len(head) < 2:
                return
            opcode, length = head[0] & 15, head[1] & 127
            if length == 126:
                length = int.from_bytes(read(2), "big")
            elif length == 127:
                length = int.from_bytes(read(8), "big")
            mask = read(4) if head[1] & 128 else b"\0\0\0\0"
            payload = bytes(b ^ mask[i % 4] for i, b in enumerate(read(length)))
            if opcode == 8:
                return
            out = bytes([0x80 | opcode])
            out += (
                bytes([len(payload)])
                if len(payload) < 126
                else bytes([126]) + len(payload).to_bytes(2, "big")
            )
            self.wfile.write(out + payload)
            self.wfile.flush()


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


server = Server(("127.0.0.1", 0), Handler)
tls = option("--tls", count=2)
if tls:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(tls[0], tls[1])
    if option("--tls-only"):
        context.set_ciphers((option("--tls-suites") or "DEFAULT") + ":@SECLEVEL=0")
        version = getattr(ssl.TLSVersion, option("--tls-only"))
        context.minimum_version = context.maximum_version = version
    if option("--client-ca"):
        context.verify_mode = ssl.CERT_REQUIRED
        context.load_verify_locations(option("--client-ca"))
    server.socket = context.wrap_socket(server.socket, server_side=True)
PORT = server.server_address[1]
print(PORT, flush=True)
server.serve_forever()
