"""A small Learning Record Store on loopback for the tests: ``POST`` and ``GET statements`` as xAPI 1.0.3 describes
them, Basic auth, and the faults a real one has (down, refusing, failing, hanging) or a hostile one's (an answer
that trickles a byte at a time, an answer of many megabytes, an error that echoes the credentials).

Like Learning Locker, it answers ``409`` to a batch that holds an id it already has, and stores nothing of it."""

from __future__ import annotations

import base64
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

USER, PASSWORD = "maic", "s3cret-password"


@dataclass
class LrsState:
    statements: dict[str, dict[str, Any]] = field(default_factory=dict)
    # each request: its method, how many statements, its headers (by lower-case name)
    requests: list[tuple[str, int, dict[str, str]]] = field(default_factory=list)
    fail_with: int | None = None  # answer every request with this status
    hang: float = 0.0  # seconds to wait before answering
    trickle: float = 0.0  # answer 200 at once, then its body a byte every this many seconds
    huge: int = 0  # answer 200 with a body of this many bytes
    echo_after: int | None = None  # answer 500 echoing the decoded Authorization header after this much padding


class _Handler(BaseHTTPRequestHandler):
    state: LrsState

    def log_message(self, *args: Any) -> None:
        pass

    def _answer(self, status: int, body: Any = None) -> None:
        data = b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("X-Experience-API-Version", "1.0.3")
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _hostile(self) -> bool:
        """Answered as a hostile LRS would, if it is one."""
        if self.state.echo_after is not None:
            sent = base64.b64decode(self.headers.get("Authorization", "Basic ").split()[-1]).decode()
            self._answer(500, {"message": "x" * self.state.echo_after + f" pw={sent} is not welcome"})
        elif self.state.trickle or self.state.huge:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(self.state.huge or 1000))
            self.end_headers()
            with suppress(BrokenPipeError, ConnectionResetError):
                if self.state.huge:
                    self.wfile.write(b"[" + b" " * (self.state.huge - 2) + b"]")
                for _ in range(0 if self.state.huge else 1000):
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    time.sleep(self.state.trickle)
        else:
            return False
        return True

    def _allowed(self) -> bool:
        if self.state.hang:
            time.sleep(self.state.hang)
        if self._hostile():
            return False
        if self.state.fail_with is not None:
            self._answer(self.state.fail_with, {"message": "the store fell over"})
            return False
        token = base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
        if self.headers.get("Authorization") != f"Basic {token}":
            self._answer(401, {"message": "who are you?"})
            return False
        if self.headers.get("X-Experience-API-Version") != "1.0.3":
            self._answer(400, {"message": "X-Experience-API-Version missing"})
            return False
        return True

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"[]")
        batch = body if isinstance(body, list) else [body]
        self.state.requests.append(("POST", len(batch), {k.lower(): v for k, v in self.headers.items()}))
        if not self._allowed():
            return
        if urlsplit(self.path).path != "/xAPI/statements":
            self._answer(404, {"message": "no such resource"})
            return
        ids = [statement["id"] for statement in batch]
        if len(set(ids)) != len(ids):
            self._answer(400, {"message": "the batch repeats an id"})
            return
        if any(i in self.state.statements for i in ids):
            self._answer(409, {"message": "already stored"})
            return
        for statement in batch:
            self.state.statements[statement["id"]] = statement
        self._answer(200, ids)

    def do_GET(self) -> None:
        self.state.requests.append(("GET", 0, {k.lower(): v for k, v in self.headers.items()}))
        if not self._allowed():
            return
        query = parse_qs(urlsplit(self.path).query)
        wanted = query.get("registration", [None])[0]
        found = [s for s in self.state.statements.values()
                 if wanted is None or s.get("context", {}).get("registration") == wanted]
        self._answer(200, {"statements": found, "more": ""})


@contextmanager
def fake_lrs() -> Iterator[tuple[str, LrsState]]:
    """The LRS's endpoint (``http://127.0.0.1:PORT/xAPI/``) and what it holds, while the block runs."""
    state = LrsState()
    handler = type("Handler", (_Handler,), {"state": state})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/xAPI/", state
    finally:
        server.shutdown()
        server.server_close()
