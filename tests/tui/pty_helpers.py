"""The real app in a pseudo-terminal: what it writes, byte for byte, and how it exits."""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Until:
    """A step that waits (reading what the app writes all along) until ``holds()``; fails the test after ``seconds``."""

    holds: Callable[[], bool]
    what: str
    seconds: float = 20.0


ESCAPES = re.compile(rb"\x1b\[[0-9;?]*[a-zA-Z]")
ROOM_DRAWN = "Director ·".encode()  # the class pane's status line: the room is on screen and takes keys

# keys to type, an action on the process, or a condition to wait for; then a wait
Step = tuple[bytes | Until | Callable[[subprocess.Popen[bytes]], object], float]


def run_in_pty(args: list[str], steps: list[Step], size: tuple[int, int] = (40, 120),
               env: dict[str, str] | None = None, hang_up: bool = False) -> tuple[int | None, bytes]:
    """The app's exit status (None if it did not end within 10 s of the last step) and what it wrote. With
    ``hang_up``, the terminal's side is closed after the steps, as a closed window or a dropped connection does.

    The terminal's side is read at every wait, to the end: an app whose output nobody reads blocks on its next write
    once the pty's buffer is full, and then cannot even quit."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", size[0], size[1], 0, 0))
    # Not COLUMNS and LINES: Textual takes them over the terminal's own size, and pytest-xdist's workers have them
    # (80 x 24), so the app drew for another size than the pty's and the room's status line never showed.
    inherited = {name: value for name, value in os.environ.items() if name not in ("COLUMNS", "LINES")}
    proc = subprocess.Popen([sys.executable, "-m", "maic_tui.cli", *args], stdin=slave, stdout=slave, stderr=slave,
                            env={**inherited, "TERM": "xterm-256color", **(env or {})}, start_new_session=True)
    os.close(slave)
    out = bytearray()

    def pump(seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([master], [], [], 0.05)
            if ready:
                try:
                    out.extend(os.read(master, 65536))
                except OSError:
                    return

    def drawn() -> bool:
        return ROOM_DRAWN in ESCAPES.sub(b"", bytes(out))

    try:
        deadline = time.monotonic() + 30  # a loaded machine takes its time to import and open the classroom
        while not drawn() and proc.poll() is None and time.monotonic() < deadline:
            pump(0.1)
        pump(0.3)  # keys sent while the opening screen still shows would go to it
        for step, wait in steps:
            if isinstance(step, bytes):
                os.write(master, step)
            elif isinstance(step, Until):
                deadline = time.monotonic() + step.seconds
                while not step.holds():
                    assert time.monotonic() < deadline, f"never happened: {step.what}"
                    pump(0.1)
            else:
                step(proc)
            pump(wait)
        if hang_up:
            os.close(master)
            master = -1
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(10)
        else:
            deadline = time.monotonic() + 10
            while proc.poll() is None and time.monotonic() < deadline:
                pump(0.1)
        code = proc.returncode
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
        if master != -1:
            pump(0.2)
            os.close(master)
    return code, bytes(out)
