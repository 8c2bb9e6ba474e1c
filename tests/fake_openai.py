"""A tiny OpenAI-compatible chat server on 127.0.0.1 for tests: scripted replies, failures on demand."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    text: str = ""
    status: int = 200  # anything else answers with an error body
    drop_after: int | None = None  # close the connection after this many content chunks
    stall: float = 0.0  # seconds to wait before answering
    raw: bytes | None = None  # sent as the stream's body instead of chunks of ``text`` (bad bytes, bad JSON)
    forever: bool = False  # after ``text``, keep streaming spaces until the client hangs up
    role: str | None = "assistant"  # ``delta.role`` of the chunks (None: none carries one)
    role_once: bool = False  # only the first chunk carries the role, as some servers do
    headers: dict[str, str] = field(default_factory=dict)  # extra response headers (Retry-After)
    finish: str | None = None  # a last chunk with this finish_reason ("length": the token cap was reached)
    chunk_size: int = 5  # characters of ``text`` per chunk (a huge size: the whole answer in one chunk)
    usage: tuple[int, int, int] | None = None  # prompt, completion, cached tokens: sent last if the client asks


@dataclass
class FakeServer:
    replies: list[Reply] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)
    arrived: list[float] = field(default_factory=list)  # time.monotonic() of each request, in order
    headers: list[dict[str, str]] = field(default_factory=list)
    url: str = ""
    hung_up: int = 0  # streams the client closed before their end
    models: list[str] | None = field(default_factory=lambda: ["fake-model"])  # GET /models (None: 404)
    answer: Callable[[dict[str, Any]], Reply] | None = None  # a reply made from the request, once ``replies`` ran out
    in_flight: int = 0  # requests being answered now
    most_in_flight: int = 0  # the most answered at once
    lock: threading.Lock = field(default_factory=threading.Lock)


def _chunk(content: str, role: str | None = "assistant") -> bytes:
    delta = {"role": role, "content": content} if role is not None else {"content": content}
    body = {"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": "fake",
            "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
    return f"data: {json.dumps(body)}\n\n".encode()


def _handler(server: FakeServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            server.headers.append(dict(self.headers))
            if server.models is None or not self.path.endswith("/models"):
                self.send_response(404)
                self.send_header("content-length", "0")
                self.end_headers()
                return
            payload = json.dumps({"object": "list", "data": [{"id": m, "object": "model"} for m in server.models]})
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload.encode())

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
            with server.lock:
                server.requests.append(body)
                server.arrived.append(time.monotonic())
            server.headers.append(dict(self.headers))
            with server.lock:
                server.in_flight += 1
                server.most_in_flight = max(server.most_in_flight, server.in_flight)
            try:
                self._answer(body)
            finally:
                with server.lock:
                    server.in_flight -= 1

        def _answer(self, body: dict[str, Any]) -> None:
            if server.replies:
                reply = server.replies.pop(0)
            elif server.answer is not None:
                reply = server.answer(body)
            else:
                reply = Reply(status=500, text="no reply left")
            if reply.stall:
                time.sleep(reply.stall)
            if reply.status != 200:
                payload = json.dumps({"error": {"message": reply.text or "failed", "type": "x"}}).encode()
                self.send_response(reply.status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)
                return
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("transfer-encoding", "chunked")
            self.end_headers()
            try:
                self._stream(reply, bool((body.get("stream_options") or {}).get("include_usage")))
            except (BrokenPipeError, ConnectionResetError):
                server.hung_up += 1  # the client stopped reading: what a capped or timed-out call does

        def _stream(self, reply: Reply, include_usage: bool = False) -> None:
            if reply.raw is not None:
                self._send(reply.raw)
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()
                return
            size = reply.chunk_size
            pieces = [reply.text[i : i + size] for i in range(0, len(reply.text), size)]
            for index, piece in enumerate(pieces):
                if reply.drop_after is not None and index >= reply.drop_after:
                    self.wfile.flush()  # the connection dies without the closing chunk
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                self._send(_chunk(piece, reply.role if index == 0 or not reply.role_once else None))
            started = time.monotonic()
            while reply.forever and time.monotonic() - started < 120:  # bounded, so a test can never hang
                self._send(_chunk("    ", None if reply.role_once else reply.role))
                time.sleep(0.002)
            if reply.finish is not None:
                body = {"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": "fake",
                        "choices": [{"index": 0, "delta": {}, "finish_reason": reply.finish}]}
                self._send(f"data: {json.dumps(body)}\n\n".encode())
            if include_usage and reply.usage is not None:  # as OpenAI sends it: a last chunk with no choices
                prompt, completion, cached = reply.usage
                usage = {"prompt_tokens": prompt, "completion_tokens": completion,
                         "total_tokens": prompt + completion, "prompt_tokens_details": {"cached_tokens": cached}}
                body = {"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": "fake", "choices": [],
                        "usage": usage}
                self._send(f"data: {json.dumps(body)}\n\n".encode())
            self._send(b"data: [DONE]\n\n")
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()

        def _send(self, data: bytes) -> None:
            self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
            self.wfile.flush()

    return Handler


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client hanging up mid-stream is what several tests do on purpose


@contextmanager
def fake_openai(*replies: Reply) -> Iterator[FakeServer]:
    state = FakeServer(list(replies))
    httpd = _QuietServer(("127.0.0.1", 0), _handler(state))
    state.url = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        httpd.shutdown()
        httpd.server_close()


def closed_port_url() -> str:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"
