"""Which editor to open and how: ``$VISUAL``, else ``$EDITOR``, else the first of the usual ones found. The
variable may hold arguments (``code --wait``) and is run by the shell, as git runs it."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from maic_tui.bad_input import BadInput

FALLBACKS = ("sensible-editor", "editor", "nano", "vi")


class NoEditor(BadInput):
    """Nothing to edit with; one line saying how to name one."""


def editor_command(env: Mapping[str, str] | None = None) -> str:
    env = os.environ if env is None else env
    for name in ("VISUAL", "EDITOR"):
        if env.get(name, "").strip():
            return env[name].strip()
    found = next((name for name in FALLBACKS if shutil.which(name, path=env.get("PATH"))), None)
    if found is None:
        raise NoEditor("no editor found: set VISUAL or EDITOR (for example EDITOR=nano, or EDITOR=\"code --wait\")")
    return found


def open_in_editor(command: str, path: Path) -> int:
    """The editor's exit status (128 + N when a signal N ended it). While it runs, Ctrl-C is the editor's: this
    process ignores SIGINT and SIGQUIT, as git does, so an editor that reads ^C as a key keeps its draft."""
    if os.name == "nt":  # no POSIX shell: the words of the command, then the file
        import shlex

        argv = [*shlex.split(command, posix=False), str(path)]
    else:
        argv = ["/bin/sh", "-c", f'{command} "$@"', command, str(path)]
    try:
        with _signals_ignored():
            finished = subprocess.run(argv, check=False)
    except OSError as exc:
        raise NoEditor(f"cannot start the editor {command!r}: {exc.strerror or exc}") from None
    code = finished.returncode
    return 128 - code if code < 0 else code


@contextmanager
def _signals_ignored() -> Iterator[None]:
    names = [getattr(signal, name) for name in ("SIGINT", "SIGQUIT") if hasattr(signal, name)]
    previous = {}
    try:
        for number in names:
            previous[number] = signal.signal(number, signal.SIG_IGN)
    except ValueError:  # not the main thread: nothing to change
        pass
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
