"""HTTP bots (SPEC §3): a server started once per game, on loopback."""

import http.client
import os
import signal
import socket
import subprocess
import threading
import time

from .answers import clip, parse_output, safe_repr
from .languages import server_command


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A bot that serves HTTP on loopback, started once per game; each
    message is POSTed to it as botsArena does. What it prints goes to the
    log (it inherits fd 2)."""

    def __init__(self, channel, path, opts):
        self.channel = channel
        self.path = path
        self.opts = opts
        self.port = free_port()
        self.proc = None

    def start(self):
        argv = [a.replace("{port}", str(self.port)) for a in server_command(self.path)]
        env = dict(os.environ, PORT=str(self.port))
        try:
            self.proc = subprocess.Popen(argv, cwd=self.path, env=env, stdin=subprocess.DEVNULL, start_new_session=True)
        except OSError as exc:
            return "error", "cannot start the server: %s" % (exc.strerror or exc)
        # Outside a container, the server's own CPU is what its moves cost.
        meter = self.channel.meter
        meter.watch = self.proc.pid
        while meter.check():
            if self.proc.poll() is not None:
                return "crash", "the server exited with status %d before listening on port %d ($PORT)" % (
                    self.proc.returncode, self.port)
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return None
            except OSError:
                time.sleep(0.02)
        return "timeout", meter.detail("the server used more than %gs of CPU time without listening on port %d ($PORT)" % (
            self.opts.startup, self.port), "the server did not listen on port %d ($PORT)" % self.port)

    def abandon(self):
        if self.proc and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                pass

    def answer(self, rid, text):
        fault, detail = self.timed(text.encode())
        if fault:
            self.channel.fault(rid, fault, detail)
        else:
            self.channel.value(rid, detail)

    def timed(self, body):
        """Posts body in a thread while the meter watches the charge: the
        server's CPU is what the move is charged, not the wait for it."""
        meter = self.channel.meter
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2 * self.opts.move + 1)
        done = []
        worker = threading.Thread(target=lambda: done.append(self.post(conn, body)), daemon=True)
        worker.start()
        while True:
            wait = meter.check()
            if not wait:
                # The bot is restarted after a timeout: the worker ends
                # with the connection.
                try:
                    conn.sock.shutdown(socket.SHUT_RDWR)
                except (AttributeError, OSError):
                    pass
                return "timeout", meter.detail()
            worker.join(wait)
            if done:
                return done[0]

    def post(self, conn, body):
        """POSTs one message; (fault, detail) or (None, JSON text)."""
        try:
            conn.request("POST", "/", body=body, headers={"Content-Type": "application/json"})
            resp = conn.getresponse()
            data = resp.read(self.opts.answer + 1)
        except socket.timeout:
            return "timeout", "no answer within %gs of wall time" % (2 * self.opts.move + 1)
        except (OSError, http.client.HTTPException) as exc:
            if self.proc.poll() is not None:
                return "crash", "the server exited with status %d" % self.proc.returncode
            return "crash", "the server did not answer: %s" % clip(exc, 200)
        finally:
            conn.close()
        if not 200 <= resp.status <= 299:
            detail = "the server answered %d %s" % (resp.status, resp.reason)
            if data:
                detail += ": " + safe_repr(data[:80])
            return "error", detail
        if len(data) > self.opts.answer:
            return "output", "more than %d bytes in the answer's body" % self.opts.answer
        return parse_output(data)
