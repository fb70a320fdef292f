"""A tiny OpenAI-compatible server for tests: stdlib http.server on 127.0.0.1, a random port, its own thread.

It answers POST .../chat/completions from a script of replies (completions, HTTP errors, delays, raw bodies,
and transport faults: a body cut short of its Content-Length, or a connection closed without any response) and
GET .../models with a fixed list, and records every request so tests can assert on what the client sent.
"""
from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Reply:
    text: str = ""
    status: int = 200
    delay: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    usage: tuple[int, int] | None = (11, 7)  # (prompt, completion); None sends no usage field
    raw_body: str | None = None              # sent verbatim instead of a completion / error object
    cached_tokens: int | None = None         # usage.prompt_tokens_details.cached_tokens, as caching servers send
    fault: str | None = None                 # "truncate": headers promise more body than is sent, then close;
    #                                          "drop": close the connection without sending any response
    finish_reason: str = "stop"              # "length": the server stopped the reply on its max_tokens


FAULTS = ("truncate", "drop")


def completion(text: str, **kwargs) -> Reply:
    return Reply(text=text, **kwargs)


def error(status: int, message: str = "scripted error", **kwargs) -> Reply:
    return Reply(status=status, text=message, **kwargs)


def truncated(**kwargs) -> Reply:
    """A 200 whose body stops short of its Content-Length, then the connection closes."""
    return Reply(text="never finished", fault="truncate", **kwargs)


def dropped(**kwargs) -> Reply:
    """The connection closes after the request is read, without any response."""
    return Reply(fault="drop", **kwargs)


@dataclass
class Request:
    method: str
    path: str
    headers: dict[str, str]  # keys lower-cased
    body: dict | None
    at: float  # time.monotonic() on arrival


class FakeOpenAIServer:
    def __init__(self, script: list[Reply] | None = None, models: tuple[str, ...] = ("fake-model",), *,
                 responder=None):
        """script: replies in order; or responder(request body) -> Reply, for a model that reacts to prompts."""
        self.script = list(script or [])
        self.responder = responder
        self.models = models
        self.requests: list[Request] = []
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._httpd.daemon_threads = True  # a handler still sleeping on a slow reply must not block shutdown
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def chat_requests(self) -> list[Request]:
        return [r for r in self.requests if r.path.endswith("/chat/completions")]

    def __enter__(self) -> "FakeOpenAIServer":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._closing.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def _next_reply(self) -> Reply:
        with self._lock:
            if self.script:
                return self.script.pop(0)
        return error(500, "test server script exhausted")

    def _handler_class(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:  # keep test output clean
                pass

            def _record(self, body: dict | None) -> None:
                with server._lock:
                    server.requests.append(Request(self.command, self.path,
                                                   {k.lower(): v for k, v in self.headers.items()}, body,
                                                   time.monotonic()))

            def _send(self, status: int, payload: str, headers: dict[str, str] | None = None) -> None:
                data = payload.encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for key, value in (headers or {}).items():
                        self.send_header(key, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout test)

            def _truncate(self, payload: str) -> None:
                data = payload.encode()
                self.close_connection = True
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data) + 1000))  # a promise never kept
                    self.end_headers()
                    self.wfile.write(data[: len(data) // 2])
                    self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def do_GET(self) -> None:
                self._record(None)
                if self.path.endswith("/models"):
                    data = [{"id": m, "object": "model", "created": 0, "owned_by": "test"} for m in server.models]
                    self._send(200, json.dumps({"object": "list", "data": data}))
                else:
                    self._send(404, json.dumps({"error": {"message": f"no route {self.path}"}}))

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw or b"null")
                except json.JSONDecodeError:
                    body = None
                self._record(body)
                if not self.path.endswith("/chat/completions"):
                    self._send(404, json.dumps({"error": {"message": f"no route {self.path}"}}))
                    return
                reply = server.responder(body) if server.responder else server._next_reply()
                if reply.delay:
                    server._closing.wait(reply.delay)
                if reply.fault is not None and reply.fault not in FAULTS:
                    raise ValueError(f"unknown fault {reply.fault!r}: use one of {FAULTS}")
                if reply.fault == "drop":
                    self.close_connection = True  # the server closes the socket; nothing was written
                elif reply.fault == "truncate":
                    self._truncate(json.dumps(_completion_body(reply, (body or {}).get("model", ""))))
                elif reply.raw_body is not None:
                    self._send(reply.status, reply.raw_body, reply.headers)
                elif reply.status != 200:
                    payload = {"error": {"message": reply.text, "type": "test_error", "code": reply.status}}
                    self._send(reply.status, json.dumps(payload), reply.headers)
                else:
                    self._send(200, json.dumps(_completion_body(reply, (body or {}).get("model", ""))),
                               reply.headers)

        return Handler


def _completion_body(reply: Reply, model: str) -> dict:
    body = {
        "id": "chatcmpl-test", "object": "chat.completion", "created": 0, "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": reply.text},
                     "finish_reason": reply.finish_reason}],
    }
    if reply.usage is not None:
        prompt, completion_tokens = reply.usage
        body["usage"] = {"prompt_tokens": prompt, "completion_tokens": completion_tokens,
                         "total_tokens": prompt + completion_tokens}
        if reply.cached_tokens is not None:
            body["usage"]["prompt_tokens_details"] = {"cached_tokens": reply.cached_tokens}
    return body
