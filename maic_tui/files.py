"""Writing files we are asked to write: the target checked before any work is done, the text checked before it
is written, the whole file or nothing (written beside it, then moved into place), and a lock for files that
several processes may rewrite (the config file).

A light module on purpose, for every layer: the config, ``maic-tui new`` and exports use it.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from maic_tui.bad_input import BadInput, describe_path
from maic_tui.i18n import _


class Unwritable(BadInput):
    """A path we cannot or must not write; one line naming it."""


def check_target(path: Path, what: str = "file") -> Path:
    """The path a file will be written to, checked now, before any work: every command that writes a file keeps
    this one rule. The path is absent (a new file in a folder that exists and that we may write) or a regular
    file; a directory, a device, a FIFO or a symbolic link (whatever it points to) is never written. ``what`` is
    one of ``FILE_KINDS``, in English: the line says it in the interface's language."""
    name, what = describe_path(path), _(what)
    if not str(path).strip() or str(path) == ".":
        raise Unwritable(_("the {what}'s path is empty; give a file name").format(what=what))
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise Unwritable(_("{path}: cannot write the {what} there ({reason})").format(
            path=name, what=what, reason=exc.strerror or exc)) from None
    if info is not None:
        if stat.S_ISLNK(info.st_mode):
            raise Unwritable(_("{path}: is a symbolic link; the {what} is written only to a plain file (give the "
                               "path it points to)").format(path=name, what=what))
        if stat.S_ISDIR(info.st_mode):
            raise Unwritable(_("{path}: is a directory; give a file name for the {what}").format(path=name, what=what))
        if not stat.S_ISREG(info.st_mode):
            raise Unwritable(_("{path}: not a regular file (a device or a FIFO); the {what} is never written there")
                             .format(path=name, what=what))
    folder = path.parent if str(path.parent) else Path(".")
    where = describe_path(folder)
    if not folder.is_dir():
        raise Unwritable(_("{path}: the folder {folder} does not exist").format(path=name, folder=where))
    if not os.access(folder, os.W_OK | os.X_OK):
        raise Unwritable(_("{path}: the folder {folder} is not writable").format(path=name, folder=where))
    return path


def encodable(text: str, where: str) -> str:
    """``text`` if it can be written as UTF-8; a lone surrogate (from a model or a file) is one line."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise Unwritable(_("{where}: character {position} cannot be written as UTF-8 ({character})").format(
            where=where, position=exc.start, character=ascii(text[exc.start]))) from None
    return text


def write_atomically(path: Path, text: str, mode: int = 0o644) -> None:
    """The whole file or nothing: written beside the target, then moved over it in one step. A file that is
    replaced keeps its permissions; a new one gets ``mode``."""
    data = encodable(text, describe_path(path)).encode("utf-8")
    with contextlib.suppress(OSError):
        mode = stat.S_IMODE(os.stat(path).st_mode)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """An exclusive lock for rewriting ``path``, held by a lock file beside it, so that two processes that
    read, change and write the same file one after the other never lose each other's change."""
    try:
        import fcntl
    except ImportError:  # no advisory locks here: the atomic write still keeps the file whole
        yield
        return
    lock = path.with_name(f".{path.name}.lock")
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def emit(text: str, target: Path | None, out: TextIO, said: str = "", mode: int = 0o644, count: int = 0) -> None:
    """A command's output: to standard output, or written to ``target`` (checked before the work) and said so in
    the interface's language: ``said``, a translated message with ``{path}`` (and ``{count}``), else ``wrote
    PATH``."""
    if target is None:
        out.write(text)
        return
    write_atomically(target, text, mode)
    out.write((said or _("wrote {path}")).format(path=describe_path(target.resolve()), count=count) + "\n")

