"""The real app in a pseudo-terminal: what it writes, byte for byte, and how it exits."""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable

Step = tuple[bytes | Callable[[subprocess.Popen[bytes]], object], float]  # keys to type (or an action), then a wait


def run_in_pty(args: list[str], steps: list[Step], size: tuple[int, int] = (40, 120),
               env: dict[str, str] | None = None, hang_up: bool = False) -> tuple[int | None, bytes]:
    """The app's exit status (None if it did not end within 10 s of the last step) and what it wrote. With
    ``hang_up``, the terminal's side is closed after the steps, as a closed window or a dropped connection does."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", size[0], size[1], 0, 0))
    proc = subprocess.Popen([sys.executable, "-m", "maic_tui.cli", *args], stdin=slave, stdout=slave, stderr=slave,
                            env={**os.environ, "TERM": "xterm-256color", **(env or {})}, start_new_session=True)
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

    try:
        pump(4)  # the room is drawn
        for step, wait in steps:
            if isinstance(step, bytes):
                os.write(master, step)
            else:
                step(proc)
            pump(wait)
        if hang_up:
            os.close(master)
            master = -1
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(10)
        code = proc.returncode
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
        if master != -1:
            pump(0.2)
            os.close(master)
    return code, bytes(out)
