#!/usr/bin/env python3
"""A hostile stand-in for a public-inbox server, for the tests of what
fixscan does with answers no real public-inbox gives: a mirror gone
wrong, a proxy in the way, an attacker.  Each base URL (the first path
segment) answers every search its own way:

  /broken-gzip/  200, gzip magic followed by garbage
  /truncated/    200, a gzip'd mbox cut in the middle
  /not-mbox/     200, a gzip'd web page
  /bomb/         200, a small gzip stream of a 200 MiB mbox
  /huge/         200, says 100 MiB are coming (Content-Length), sends
                 1 MiB and hangs up
  /error/        500 with a text holding terminal escapes
  /escapes/      404 whose text holds terminal escapes
  /slow/         answers nothing for 30 s (past any timeout given)
  /loop/         redirects to itself
  anything else  404 "No results found"

usage: hostile-httpd.py DIR   serves on 127.0.0.1, a free port; writes
DIR/port once listening and logs each request to DIR/access.log ("POST
/path?query"); exits by itself after 120 s without a request, so that a
test that died leaves nothing running for long.
"""
import gzip
import http.server
import os
import random
import sys
import threading
import time
import zlib

DIR = sys.argv[1]
LOG = open(os.path.join(DIR, "access.log"), "a", buffering=1)
last = [time.time()]

MAIL = (b"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
        b"From: Someone <someone@example.org>\n"
        b"Subject: [PATCH] a mail\n"
        b"Message-Id: <hostile@example.org>\n\n"
        b"Fixes: 1234567890ab (\"x\")\n")


def bomb():
    """gzip of MAIL followed by 200 MiB of zeros, made piece by piece."""
    c = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    out = [c.compress(MAIL)]
    zeros = b"\0" * (1 << 20)
    for _ in range(200):
        out.append(c.compress(zeros))
    out.append(c.flush())
    return b"".join(out)


def huge(handler):
    """Announce 100 MiB, send 1 MiB of gzip'd mbox, hang up."""
    handler.send_response(200)
    handler.send_header("Content-Type", "application/gzip")
    handler.send_header("Content-Length", str(100 << 20))
    handler.end_headers()
    try:
        handler.wfile.write(gzip.compress(MAIL + os.urandom(1 << 20), 1))
    except (BrokenPipeError, ConnectionResetError):
        pass
    handler.close_connection = True


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def send(self, status, ctype, body):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_GET(self):
        self.do_POST()

    def do_POST(self):
        last[0] = time.time()
        LOG.write("%s %s\n" % (self.command, self.path))
        n = int(self.headers.get("Content-Length") or 0)
        if n:
            self.rfile.read(n)
        base = self.path.split("/")[1] if self.path.count("/") > 1 else ""
        gz = "application/gzip"
        if base == "broken-gzip":
            self.send(200, gz, b"\x1f\x8b\x08\x00" + b"garbage" * 100)
        elif base == "truncated":
            whole = gzip.compress(MAIL * 200)
            self.send(200, gz, whole[: len(whole) // 2])
        elif base == "not-mbox":
            self.send(200, gz, gzip.compress(b"<html><body>hello</body></html>\n"))
        elif base == "bomb":
            self.send(200, gz, BOMB)
        elif base == "huge":
            huge(self)
        elif base == "error":
            self.send(500, "text/plain", b"Internal \x1b[31mServer\x07 Error\n")
        elif base == "escapes":
            self.send(404, "text/plain", b"\x1b[2J\x1b[31mgone\x07\n")
        elif base == "slow":
            time.sleep(30)
            self.send(404, "text/plain", b"No results found\n")
        elif base == "loop":
            self.send_response(302)
            self.send_header("Location", self.path)
            self.send_header("Content-Length", "0")
            self.end_headers()
        else:
            self.send(404, "text/plain", b"No results found\n")


BOMB = bomb()


def watchdog(server):
    while time.time() - last[0] < 120:
        time.sleep(1)
    server.shutdown()


class Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass  # a client that hung up on a hostile answer is no news


server = Server(("127.0.0.1", 0), Handler)
server.daemon_threads = True
threading.Thread(target=watchdog, args=(server,), daemon=True).start()
with open(os.path.join(DIR, "port.tmp"), "w") as f:
    f.write("%d\n" % server.server_address[1])
os.rename(os.path.join(DIR, "port.tmp"), os.path.join(DIR, "port"))
server.serve_forever()
