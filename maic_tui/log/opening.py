"""Starting a recorded session, and reopening one: the glue between the store, the writer and replay."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from maic_tui.classroom.loader import load_classroom_text
from maic_tui.classroom.models import Classroom
from maic_tui.llm import ModelOptions
from maic_tui.log.records import SessionInfo, Timed
from maic_tui.log.replay import Rebuilt, rebuild
from maic_tui.log.store import LogStore, new_session_id
from maic_tui.log.writer import LogWriter
from maic_tui.paths import resolve


@dataclass
class Recorded:
    """A session read back from the database, rebuilt up to its last record."""

    info: SessionInfo
    classroom: Classroom
    records: list[Timed]
    rebuilt: Rebuilt
    skipped: list[str] = field(default_factory=list)  # one line per unreadable record left out

    def closed_records(self) -> list[Timed]:
        """The log with the records that close a turn it left open (a crash), as exports and replays show it."""
        last = self.records[-1].t if self.records else 0.0
        return self.records + [Timed(last, record) for record in self.rebuilt.repairs]


def start_log(data_dir: Path, classroom_name: str, classroom: Classroom, model: str,
                    options: ModelOptions, classroom_text: str | None = None) -> LogWriter:
    """A new session in the database; the classroom file is kept as it is now."""
    text = classroom_text if classroom_text is not None else resolve(classroom_name).read_text(encoding="utf-8")
    info = SessionInfo(id=new_session_id(), classroom=classroom_name, title=classroom.title, model=model,
                       started=time.time(), classroom_toml=text)
    return LogWriter(LogStore(data_dir), info, secrets=options.secrets())


def open_recorded(data_dir: Path, id_or_prefix: str) -> Recorded:
    """A recorded session, rebuilt; a turn the log left open (a crash) is closed as interrupted."""
    info, records, skipped = LogStore(data_dir).load(id_or_prefix)
    classroom = load_classroom_text(info.classroom_toml, f"session {info.id}")
    return Recorded(info, classroom, records, rebuild(classroom, [item.record for item in records]), skipped)


def continue_log(data_dir: Path, recorded: Recorded, options: ModelOptions) -> LogWriter:
    return LogWriter(LogStore(data_dir), recorded.info, resume=True, secrets=options.secrets())
