"""Real servers for tests, each a child process: a real Chroma server (`chroma run`, from the chromadb wheel) and
a real llama.cpp OpenAI-compatible server (`python -m llama_cpp.server`, llama-cpp-python's `server` extra).

A ServerProcess listens on a free loopback port, is ready when an HTTP probe answers 200 (bounded wait), writes
its output to a log file, and is stopped with SIGTERM then SIGKILL, always waited on. Fixtures register it on
their pytest node (`register`); conftest.py adds its log to the report of a failing test.
"""
from __future__ import annotations

import http.client
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

HOST = "127.0.0.1"
LOG_TAIL_CHARS = 6000


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def answers(url: str, timeout: float = 2.0) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status == 200
    except (OSError, http.client.HTTPException):  # refused, reset, timed out, HTTP error statuses
        return False


class ServerProcess:
    def __init__(self, name: str, command: Callable[[int], list[str]], ready_path: str, log_path: Path, *,
                 port: int | None = None, ready_timeout: float = 60.0, env: dict[str, str] | None = None):
        """command(port) -> argv; ready when GET http://127.0.0.1:<port><ready_path> answers 200."""
        self.name = name
        self.command = command
        self.ready_path = ready_path
        self.log_path = log_path
        self.port = port or free_port()
        self.ready_timeout = ready_timeout
        self.env = env
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def start(self) -> ServerProcess:
        """Start it (again: same port, log appended) and wait until it answers."""
        assert self.proc is None or self.proc.poll() is not None, f"{self.name} is already running"
        with open(self.log_path, "a") as log:
            log.write(f"\n=== start: {' '.join(self.command(self.port))}\n")
            log.flush()
            self.proc = subprocess.Popen(self.command(self.port), stdout=log, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, env=self.env, start_new_session=True)
        deadline = time.monotonic() + self.ready_timeout
        while not answers(self.url + self.ready_path):
            if self.proc.poll() is not None:
                pytest.fail(f"{self.name} exited ({self.proc.returncode}) before it was ready; its log:\n"
                            f"{self.log_tail()}", pytrace=False)
            if time.monotonic() > deadline:
                self.stop()
                pytest.fail(f"{self.name} was not ready within {self.ready_timeout:g} s; its log:\n"
                            f"{self.log_tail()}", pytrace=False)
            time.sleep(0.2)
        return self

    def stop(self, timeout: float = 20.0) -> None:
        """SIGTERM, wait; SIGKILL if it is still there; always reaped."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=timeout)

    def log_tail(self, chars: int = LOG_TAIL_CHARS) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError as exc:
            return f"(no log: {exc})"
        return text if len(text) <= chars else "...\n" + text[-chars:]


def register(request, server: ServerProcess) -> None:
    """Show this server's log in the report when the test (or any test using the fixture's scope) fails."""
    servers = getattr(request.node, "real_servers", None)
    if servers is None:
        servers = request.node.real_servers = []
    servers.append(server)


def chroma_binary() -> str:
    beside = Path(sys.executable).parent / "chroma"  # the venv's console script
    found = str(beside) if beside.exists() else shutil.which("chroma")
    assert found, "no `chroma` command: it ships in the chromadb wheel, so the install is broken"
    return found


def chroma_server(data_dir: Path, log_path: Path, *, port: int | None = None) -> ServerProcess:
    binary = chroma_binary()
    return ServerProcess("chroma server", lambda p: [binary, "run", "--path", str(data_dir), "--host", HOST,
                                                     "--port", str(p)],
                         "/api/v2/heartbeat", log_path, port=port, ready_timeout=60.0)


def llama_cpp_server(model: Path, log_path: Path, *, threads: int, n_ctx: int = 4096) -> ServerProcess:
    def command(port: int) -> list[str]:
        return [sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--host", HOST, "--port", str(port),
                "--n_ctx", str(n_ctx), "--n_threads", str(threads), "--n_threads_batch", str(threads)]
    # Loading 1 GB and warming up on a busy 2-core machine: minutes at worst.
    return ServerProcess("llama.cpp server", command, "/v1/models", log_path, ready_timeout=300.0,
                         env={**os.environ, "OMP_NUM_THREADS": str(threads)})


class TokenProxy:
    """A reverse proxy that lets through only requests bearing `Authorization: Bearer <token>` (or X-Chroma-Token)
    and answers the rest 403, as the token-checking proxy Chroma's docs put in front of a 1.x server does."""

    def __init__(self, upstream_port: int, token: str):
        self.upstream_port = upstream_port
        self.token = token
        self._httpd = ThreadingHTTPServer((HOST, 0), self._handler())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)

    @property
    def port(self) -> int:
        return self._httpd.server_address[1]

    def __enter__(self) -> TokenProxy:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def _handler(self):
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def _forward(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                offered = {self.headers.get("Authorization", ""), "Bearer " + self.headers.get("X-Chroma-Token", "")}
                if f"Bearer {proxy.token}" not in offered:
                    self._reply(403, {"Content-Type": "text/plain"}, b"RBAC: access denied")
                    return
                upstream = http.client.HTTPConnection(HOST, proxy.upstream_port, timeout=30)
                try:
                    headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
                    upstream.request(self.command, self.path, body=body or None, headers=headers)
                    response = upstream.getresponse()
                    data = response.read()
                    kept = {k: v for k, v in response.getheaders()
                            if k.lower() not in ("connection", "transfer-encoding", "content-length")}
                    self._reply(response.status, kept, data)
                finally:
                    upstream.close()

            def _reply(self, status: int, headers: dict[str, str], data: bytes) -> None:
                self.send_response(status)
                for key, value in headers.items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _forward

        return Handler
