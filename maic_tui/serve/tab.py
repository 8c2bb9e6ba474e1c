"""One browser tab's class: the app in its own process, spoken to over pipes in textual-serve's packet format
(a type byte, a 4-byte length, the payload: ``D`` terminal data, ``M`` JSON meta, ``P`` packed data).

The process is started directly (no shell) in a session of its own, so that it and anything it starts can be
ended as a group. It ends when its tab goes: its input is closed (the app notices and quits as Ctrl+Q does,
closing its records), then SIGTERM after a grace period, then SIGKILL; it also ends by itself if the server dies
without a word (its input pipe closes). The terminal size a tab asks for is kept within bounds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

MAX_COLUMNS, MAX_ROWS = 320, 120  # a 4K screen at a small font; beyond this a tab only burns memory
MIN_COLUMNS, MIN_ROWS = 20, 8
START_SECONDS = 60.0  # the app's first line, after its imports
QUIT_SECONDS = 5.0  # to close its records and leave once its input is closed
TERM_SECONDS = 3.0  # after SIGTERM, before SIGKILL
MAX_PACKET = 16 * 2**20  # one screen update; a capped screen needs far less
READY = b"__GANGLION__\n"  # what a Textual app under the web driver writes first


def clamp_size(width: object, height: object) -> tuple[int, int]:
    """A terminal size within bounds; anything that is not a number is the classic 80x24."""

    def number(value: object, default: int) -> int:
        try:
            return int(str(value))
        except ValueError:
            return default

    return (max(MIN_COLUMNS, min(MAX_COLUMNS, number(width, 80))),
            max(MIN_ROWS, min(MAX_ROWS, number(height, 24))))


def packet(kind: bytes, payload: bytes) -> bytes:
    return kind + len(payload).to_bytes(4, "big") + payload


class TabApp:
    """The app process behind one tab. ``on_screen`` gets each screen update, ``on_exit`` is called once when the
    app says it is leaving or its output ends."""

    def __init__(self, argv: Sequence[str], env: Mapping[str, str], on_screen: Callable[[bytes], Awaitable[None]],
                 on_exit: Callable[[], Awaitable[None]]) -> None:
        self.argv, self.env = list(argv), dict(env)
        self.on_screen, self.on_exit = on_screen, on_exit
        self.process: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None
        self._errors: asyncio.Task[None] | None = None
        self.errors = b""  # the end of what the app wrote on stderr, for the server's log if it fails

    async def start(self, width: int, height: int) -> bool:
        """Start the app at this size; False when it did not come up."""
        env = self.env | {"COLUMNS": str(width), "ROWS": str(height)}
        self.process = await asyncio.create_subprocess_exec(
            *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=env, start_new_session=True)
        self._errors = asyncio.create_task(self._keep_errors())
        assert self.process.stdout is not None
        try:
            async with asyncio.timeout(START_SECONDS):
                for _ in range(10):  # the app may print a few lines before it starts drawing
                    line = await self.process.stdout.readline()
                    if not line or line == READY:
                        break
        except TimeoutError:
            line = b""
        if line != READY:
            return False
        self._reader = asyncio.create_task(self._read())
        return True

    async def _keep_errors(self) -> None:
        assert self.process is not None and self.process.stderr is not None
        while chunk := await self.process.stderr.read(4096):
            self.errors = (self.errors + chunk)[-4096:]

    async def _read(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        stdout = self.process.stdout
        try:
            while True:
                kind = await stdout.readexactly(1)
                size = int.from_bytes(await stdout.readexactly(4), "big")
                if size > MAX_PACKET:
                    break  # not an app we know: stop listening to it
                payload = await stdout.readexactly(size)
                if kind == b"D":
                    await self.on_screen(payload)
                elif kind == b"M" and _meta_type(payload) == "exit":
                    break
                # Other meta (open a URL, deliver a file) and packed data are not passed on: a tab only shows
                # the class.
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            await self.on_exit()

    async def send_keys(self, text: str) -> None:
        await self._send(packet(b"D", text.encode("utf-8", "replace")))

    async def resize(self, width: object, height: object) -> None:
        columns, rows = clamp_size(width, height)
        await self.meta({"type": "resize", "width": columns, "height": rows})

    async def meta(self, data: dict[str, Any]) -> None:
        await self._send(packet(b"M", json.dumps(data).encode()))

    async def _send(self, data: bytes) -> None:
        stdin = self.process.stdin if self.process is not None else None
        if stdin is None or stdin.is_closing():
            return
        with contextlib.suppress(ConnectionError, RuntimeError):
            stdin.write(data)
            await stdin.drain()

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.returncode is None

    async def stop(self) -> int | None:
        """End the app: its input closed (it closes its records and quits), then SIGTERM, then SIGKILL, each to
        its whole process group. Returns its exit status."""
        process = self.process
        if process is None:
            return None
        if process.stdin is not None:
            process.stdin.close()
        for then_signal, wait in ((signal.SIGTERM, QUIT_SECONDS), (signal.SIGKILL, TERM_SECONDS), (None, 5.0)):
            try:
                async with asyncio.timeout(wait):
                    await process.wait()
                break
            except TimeoutError:
                if then_signal is not None:  # to its whole group: anything it started goes too
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.killpg(process.pid, then_signal)
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        return process.returncode


def _meta_type(payload: bytes) -> str:
    try:
        data = json.loads(payload)
    except ValueError:
        return ""
    return str(data.get("type", "")) if isinstance(data, dict) else ""
