"""A tiny OpenAI-compatible speech server on 127.0.0.1 for tests: ``POST /v1/audio/speech`` answers a WAV whose
length grows with the text (a tone per voice), or fails as asked: a status, a stall, something not audio."""

from __future__ import annotations

import io
import json
import math
import threading
import time
import wave
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

RATE = 16_000


def tone(text: str, voice: str) -> bytes:
    """0.05 s per character, at a pitch of the voice's own."""
    pitch = 200 + (sum(map(ord, voice)) % 20) * 20
    frames = int(RATE * 0.05 * max(1, len(text)))
    out = io.BytesIO()
    with wave.open(out, "wb") as writer:
        writer.setnchannels(1)
        writer.setsampwidth(2)
        writer.setframerate(RATE)
        writer.writeframes(b"".join(int(8000 * math.sin(2 * math.pi * pitch * n / RATE)).to_bytes(2, "little",
                                                                                                   signed=True)
                                    for n in range(frames)))
    return out.getvalue()


@dataclass
class SpeechServer:
    url: str = ""
    requests: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    status: int = 200
    stall: float = 0.0  # seconds before each answer
    body: bytes | None = None  # answered instead of a WAV


@contextmanager
def fake_speech() -> Iterator[SpeechServer]:
    state = SpeechServer()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            request = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
            state.requests.append(request)
            state.headers.append(dict(self.headers))
            if state.stall:
                time.sleep(state.stall)
            if state.status != 200:
                payload = json.dumps({"error": {"message": "speech failed"}}).encode()
            else:
                payload = state.body if state.body is not None else tone(request.get("input", ""),
                                                                         request.get("voice", ""))
            self.send_response(state.status)
            self.send_header("content-type", "audio/wav" if state.status == 200 else "application/json")
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            with suppress(BrokenPipeError, ConnectionResetError):
                self.wfile.write(payload)

    class Quiet(ThreadingHTTPServer):
        daemon_threads = True

        def handle_error(self, request: Any, client_address: Any) -> None:
            pass

    httpd = Quiet(("127.0.0.1", 0), Handler)
    state.url = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield state
    finally:
        httpd.shutdown()
        httpd.server_close()
