"""The queue of statements waiting for the LRS, on disk (``records/outbox/SESSION.json`` in the data directory), so
that a session's records survive an LRS that was away, or a machine that was offline, until the next start.

A session's file is written whole before anything is sent and removed only once the LRS took every statement in
it; writing a session again replaces its file (the ids are stable, so nothing is sent twice that the LRS keeps
twice).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from maic_tui.files import write_atomically
from maic_tui.i18n import _
from maic_tui.learning.export import records_folder, statements_json
from maic_tui.learning.lrs import Lrs, LrsError
from maic_tui.learning.statements import Statement
from maic_tui.text_safety import one_line

OUTBOX = "outbox"
MAX_QUEUED_BYTES = 64 * 1024 * 1024  # one session's statements: far above any lesson's


@dataclass
class Flushed:
    sessions: int = 0  # sessions whose statements the LRS now has
    statements: int = 0
    waiting: int = 0  # sessions still queued
    problem: str | None = None  # why the rest wait (the LRS's one line)
    unreadable: list[str] = field(default_factory=list)  # queue files that are not statements (kept, named)


class Outbox:
    def __init__(self, data_dir: Path) -> None:
        self.folder = records_folder(data_dir) / OUTBOX

    def put(self, session_id: str, found: list[Statement]) -> Path:
        self.folder.mkdir(parents=True, exist_ok=True)
        target = self.folder / f"{file_name(session_id)}.json"
        write_atomically(target, statements_json(found), mode=0o600)  # records about a person
        return target

    def pending(self) -> list[Path]:
        if not self.folder.is_dir():
            return []
        return sorted(path for path in self.folder.glob("*.json") if path.is_file() and not path.is_symlink())

    def flush(self, lrs: Lrs, progress: Callable[[int, int], None] | None = None) -> Flushed:
        """Send every queued session, oldest name first; stop at the first failure (the LRS is away)."""
        flushed = Flushed()
        queued = self.pending()
        for n, path in enumerate(queued):
            try:
                if path.stat().st_size > MAX_QUEUED_BYTES:
                    raise ValueError(_("too large"))
                found = json.loads(path.read_text(encoding="utf-8"))
                if not isinstance(found, list) or not all(isinstance(item, dict) for item in found):
                    raise ValueError(_("not a list of statements"))
            except (OSError, ValueError) as exc:
                flushed.unreadable.append(_("{path}: {problem}; left as it is").format(
                    path=one_line(str(path), 200), problem=one_line(str(exc), 120)))
                continue
            try:
                lrs.send(found, progress)
            except LrsError as exc:
                flushed.problem = str(exc)
                flushed.waiting = len(queued) - n
                return flushed
            path.unlink(missing_ok=True)
            flushed.sessions += 1
            flushed.statements += len(found)
        return flushed


def file_name(session_id: str) -> str:
    """A session id as a file name (ids are ours, but a database can hold anything)."""
    name = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in session_id)[:120]
    return name or "session"
