"""One author at a time on a file: ``edit`` holds a lock beside the file's draft for as long as the editor is open
(a second ``edit`` of the same file is refused, naming the process that holds it), and notes what the file held
when it was opened, so that a draft is never written over a change made meanwhile by anyone else."""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Iterator
from pathlib import Path

from maic_tui.bad_input import BadInput, describe_path


class Busy(BadInput):
    """The file is being edited already; one line naming who holds it."""


@contextlib.contextmanager
def claimed(draft: Path, target: Path) -> Iterator[None]:
    """The lock for editing ``target`` (whose draft is ``draft``), held until the block ends; Busy if another
    process holds it. The lock file keeps the holder's pid, for the line that refuses the next one."""
    try:
        import fcntl
    except ImportError:  # no advisory locks here: the check before writing still keeps every author's work
        yield
        return
    draft.parent.mkdir(parents=True, exist_ok=True)
    lock = draft.with_name(f"{draft.name}.lock")
    fd = os.open(lock, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            who = f"pid {holder}" if holder.isdigit() else "another process"
            raise Busy(f"{describe_path(target)}: already open in another maic-tui edit ({who}); finish that one "
                       "first (nothing was changed)") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode("ascii"), 0)
        yield
    finally:
        os.close(fd)  # closing releases the lock; the file stays (removing it would race the next editor)


def fingerprint(path: Path) -> str | None:
    """What ``path`` holds now (None: it does not exist), to tell later whether someone changed it."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except FileNotFoundError:
        return None
