"""One HTTP request to a server we do not control (the LRS), bounded as a whole: connecting, the status and every
byte of the body within one deadline (a socket timeout counts each read, so a server that answers a byte every
second would hold a per-read timeout for ever), a body cut off above a size, and a stop (a stop signal) that ends
it at once. The request runs on a thread of its own that the caller waits for; ending it early shuts its socket,
which wakes the thread, and nothing of it is used. Redirects are not followed: the caller decides."""

from __future__ import annotations

import contextlib
import http.client
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit


class CallEnded(Exception):
    """The request did not end in an answer; ``why`` is "deadline", "stopped", "too large" or "failed"."""

    def __init__(self, why: str, detail: str = "") -> None:
        super().__init__(detail or why)
        self.why, self.detail = why, detail


@dataclass(frozen=True, slots=True)
class Answer:
    status: int
    location: str  # a redirect's Location header ("" when none)
    body: bytes  # at most the caller's limit


def call(method: str, url: str, body: bytes | None, headers: dict[str, str], timeout: float, limit: int,
         stopped: Callable[[], bool] = lambda: False) -> Answer:
    """The answer to one request, within ``timeout`` seconds all told; CallEnded otherwise."""
    if stopped():
        raise CallEnded("stopped")
    parts = urlsplit(url)
    kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    connection = kind(parts.hostname or "", parts.port, timeout=timeout)
    found: list[Answer | BaseException] = []
    finished, abandoned = threading.Event(), threading.Event()

    def exchange() -> None:
        try:
            connection.connect()
            if abandoned.is_set():  # the caller gave up while it connected: its shutdown may have come too soon
                raise CallEnded("stopped")
            target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
            connection.request(method, target, body=body, headers=headers)
            answer = connection.getresponse()
            data = answer.read(limit + 1)
            found.append(Answer(answer.status, answer.getheader("Location", "") or "", data))
        except BaseException as exc:  # handed to the caller's thread, which says it
            found.append(exc)
        finally:
            finished.set()

    worker = threading.Thread(target=exchange, name="http-call", daemon=True)
    deadline = time.monotonic() + timeout
    try:
        worker.start()
        while not finished.wait(max(0.0, min(0.05, deadline - time.monotonic()))):
            if stopped():
                raise CallEnded("stopped")
            if time.monotonic() >= deadline:
                raise CallEnded("deadline")
    finally:
        if not finished.is_set():  # wakes the thread out of its read: it ends, and what it got is dropped
            abandoned.set()
            with contextlib.suppress(OSError, AttributeError):
                connection.sock.shutdown(socket.SHUT_RDWR)
        connection.close()
    result = found[0]
    if isinstance(result, TimeoutError):
        raise CallEnded("deadline")
    if isinstance(result, BaseException):
        raise CallEnded("failed", str(result) or type(result).__name__) from None
    if len(result.body) > limit:
        raise CallEnded("too large")
    return result
