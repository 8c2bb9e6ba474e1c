"""Forking a session before one of its learner turns (ARCHITECTURE.md, *The routing workbench*): a new recorded
session holding every record before that turn, so the transcript, the board, the scene and the lesson's place are
as they were, and it goes on from there with ``--resume``. Its header says where it came from."""

from __future__ import annotations

import time
from pathlib import Path

from maic_tui.bad_input import BadInput
from maic_tui.i18n import _
from maic_tui.log.records import ForkedFrom, LearnerRecord, SessionInfo, Timed
from maic_tui.log.store import LogStore, new_session_id
from maic_tui.text_safety import one_line


def learner_turns(records: list[Timed]) -> list[int]:
    """Where each learner turn starts: the index of its ``learner`` record."""
    return [index for index, item in enumerate(records) if isinstance(item.record, LearnerRecord)]


def before_turn(info: SessionInfo, records: list[Timed], turn: int) -> list[Timed]:
    """The records before learner turn ``turn`` (1 is the first)."""
    starts = learner_turns(records)
    if not starts:
        raise BadInput(_("session {id} has no learner turns to fork from").format(id=one_line(info.id)))
    if not 1 <= turn <= len(starts):
        raise BadInput(_("session {id} has learner turns 1 to {count}; --turn {turn} is not one").format(
            id=one_line(info.id), count=len(starts), turn=turn))
    return records[:starts[turn - 1]]


def fork(data_dir: Path, info: SessionInfo, records: list[Timed], turn: int) -> SessionInfo:
    """Record the fork in ``data_dir`` and return its header."""
    kept = before_turn(info, records, turn)
    # Started as long before now as its records took, so what is said next is timed after them.
    started = time.time() - (kept[-1].t if kept else 0.0)
    forked = info.model_copy(update={"id": new_session_id(), "started": started,
                                     "forked_from": ForkedFrom(id=info.id, turn=turn)})
    LogStore(data_dir).add(forked, kept)
    return forked


def fork_from(data_dir: Path, turn: int, session_id: str | None = None, log_path: str | None = None) -> SessionInfo:
    """Fork a recorded session (by id) or a JSONL log (a replay), into ``data_dir``."""
    from maic_tui.log.exports import open_log

    if log_path is not None:
        info, _classroom, records = open_log(log_path)
    elif session_id is not None:
        info, records, _skipped = LogStore(data_dir).load(session_id)
    else:
        raise BadInput(_("this session is not recorded, so there is nothing to fork"))
    return fork(data_dir, info, records, turn)
