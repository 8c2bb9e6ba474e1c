"""A tiny OpenAI-compatible speech server on 127.0.0.1 for tests: ``POST /v1/audio/speech`` answers a WAV whose
length grows with the text (a tone per voice), or fails as asked: a status, a stall, something not audio, a WAV
of a rate of its own, a huge one (streamed, with or without its length), a body that trickles in a byte at a
time, an error that echoes the request's Authorization header."""

from __future__ import annotations

import io
import json
import math
import struct
import threading
import time
import wave
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

RATE = 16_000


def tone(text: str, voice: str, rate: int = RATE) -> bytes:
    """0.05 s per character, at a pitch of the voice's own."""
    pitch = 200 + (sum(map(ord, voice)) % 20) * 20
    frames = int(rate * 0.05 * max(1, len(text)))
    out = io.BytesIO()
    with wave.open(out, "wb") as writer:
        writer.setnchannels(1)
        writer.setsampwidth(2)
        writer.setframerate(rate)
        writer.writeframes(b"".join(int(8000 * math.sin(2 * math.pi * pitch * n / rate)).to_bytes(2, "little",
                                                                                                   signed=True)
                                    for n in range(frames)))
    return out.getvalue()


def wav_header(rate: int, data_bytes: int, channels: int = 1, bits: int = 16) -> bytes:
    """A PCM WAV header saying what the caller likes (a rate of 1 Hz, a data chunk of 400 MB)."""
    fmt = struct.pack("<HHIIHH", 1, channels, rate, rate * channels * bits // 8 & 0xFFFFFFFF,
                      channels * bits // 8, bits)
    return (b"RIFF" + struct.pack("<I", (36 + data_bytes) & 0xFFFFFFFF) + b"WAVEfmt " + struct.pack("<I", 16) + fmt
            + b"data" + struct.pack("<I", data_bytes & 0xFFFFFFFF))


@dataclass
class SpeechServer:
    url: str = ""
    requests: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    status: int = 200
    stall: float = 0.0  # seconds before each answer
    body: bytes | None = None  # answered instead of a WAV
    rates: list[int] = field(default_factory=list)  # each answer's rate, in turn (then RATE)
    huge: int = 0  # answer a valid WAV of this many bytes of silence, streamed
    send_length: bool = True  # say the answer's content-length
    trickle: float = 0.0  # seconds between the bytes of an answer
    echo_after: int | None = None  # a 500 whose message echoes the Authorization header after this much padding


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
            if state.echo_after is not None:
                message = "x" * state.echo_after + f" key={self.headers.get('Authorization')} was refused"
                self._send(500, json.dumps({"error": {"message": message}}).encode())
            elif state.huge:
                self._send(200, wav_header(RATE, state.huge), state.huge)
            elif state.status != 200:
                self._send(state.status, json.dumps({"error": {"message": "speech failed"}}).encode())
            else:
                rate = state.rates.pop(0) if state.rates else RATE
                self._send(200, state.body if state.body is not None else tone(request.get("input", ""),
                                                                               request.get("voice", ""), rate))

        def _send(self, status: int, payload: bytes, zeros: int = 0) -> None:
            """``payload`` then ``zeros`` bytes of silence, a megabyte at a time (or a byte at a time, trickling)."""
            self.send_response(status)
            self.send_header("content-type", "audio/wav" if status == 200 else "application/json")
            if state.send_length:
                self.send_header("content-length", str(len(payload) + zeros))
            self.end_headers()
            with suppress(BrokenPipeError, ConnectionResetError):
                if state.trickle:
                    for byte in payload:
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                        time.sleep(state.trickle)
                    return
                self.wfile.write(payload)
                for start in range(0, zeros, 1 << 20):
                    self.wfile.write(bytes(min(1 << 20, zeros - start)))

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
