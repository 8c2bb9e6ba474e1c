"""A new session's log, and a recorded session's log continued (its records are read back by
``room/replay.py``'s ``open_recorded``)."""

from __future__ import annotations

import time
from pathlib import Path

from maic_tui.classroom.models import Classroom
from maic_tui.llm import ModelOptions
from maic_tui.log.records import SessionInfo
from maic_tui.log.store import LogStore, new_session_id
from maic_tui.log.writer import LogWriter
from maic_tui.paths import resolve


def start_log(data_dir: Path, classroom_name: str, classroom: Classroom, model: str,
              options: ModelOptions, classroom_text: str | None = None, learner: str | None = None,
              simulated: bool = False) -> LogWriter:
    """A new session in the database; the classroom file is kept as it is now, who the learner is, and whether a
    simulated learner plays it."""
    text = classroom_text if classroom_text is not None else resolve(classroom_name).read_text(encoding="utf-8")
    info = SessionInfo(id=new_session_id(), classroom=classroom_name, title=classroom.title, model=model,
                       started=time.time(), classroom_toml=text, learner=learner, simulated=simulated)
    return LogWriter(LogStore(data_dir), info, secrets=options.secrets())


def continue_log(data_dir: Path, info: SessionInfo, options: ModelOptions) -> LogWriter:
    return LogWriter(LogStore(data_dir), info, resume=True, secrets=options.secrets())
