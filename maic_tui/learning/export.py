"""A recorded session's statements, read from the session database (``maic-tui export --format xapi``, the app's
"export records", and sending at a session's end)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from maic_tui.classroom.loader import load_classroom_text
from maic_tui.learning.config import learner_config, records_config
from maic_tui.learning.facts import SessionFacts, session_facts
from maic_tui.learning.statements import Statement, statements, the_learner
from maic_tui.log.records import SessionInfo
from maic_tui.log.store import LogStore

RECORDS_DIR = "records"  # in the data directory: the statements written by the app, and the queue to send


@dataclass(frozen=True, slots=True)
class SessionStatements:
    info: SessionInfo
    facts: SessionFacts
    statements: list[Statement]
    skipped: list[str]  # one line per record that could not be read (left out)


def session_statements(data_dir: Path, session: str, learner: str | None = None) -> SessionStatements:
    info, records, skipped = LogStore(data_dir).load(session)
    classroom = load_classroom_text(info.classroom_toml, f"session {info.id}")
    facts = session_facts(classroom, records)
    who = the_learner(info, classroom, learner_config(), learner)
    return SessionStatements(info, facts, statements(info, facts, who, records_config().activity_base), skipped)


def statements_json(found: list[Statement]) -> str:
    return json.dumps(found, ensure_ascii=False, indent=2) + "\n"


def records_folder(data_dir: Path) -> Path:
    return data_dir / RECORDS_DIR
