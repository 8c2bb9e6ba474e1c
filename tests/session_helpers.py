"""Helpers for the persistence tests: script models on the `derivatives` sample, and transcripts to compare."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from maic_tui.log.store import DB_NAME
from maic_tui.room.view import AgentMessage, ClassroomView, LearnerMessage
from tests.engine_helpers import act, items, pick, say

TABLE = act("wb_draw_table", x=60, y=60, width=300, height=120, data=[["f", "f'"], ["x^2", "2x"]])
NOTE = act("wb_draw_text", content="slope = rise / run", x=500, y=60, width=300, height=60)


def two_speaker_script(slow_chunks: int = 0, delay_ms: int = 0) -> dict[str, Any]:
    """Reyes draws a table and speaks; Marcus writes a note, then speaks (slowly, when asked to)."""
    marcus_text = items(NOTE, say("Noting it down " + "and more " * max(slow_chunks, 1)))
    marcus: dict[str, Any] = {"text": marcus_text}
    if delay_ms:
        marcus = {"chunks": [marcus_text[i:i + 4] for i in range(0, len(marcus_text), 4)], "delay_ms": delay_ms}
    return {
        "chunk_size": 4,
        "director": [pick("reyes"), pick("marcus"), pick("USER"), pick("reyes"), pick("USER")],
        "agents": {"reyes": [items(say("Use the power rule."), TABLE, say("Three x squared.")),
                             items(say("Welcome back."))],
                   "marcus": [marcus]},
    }


def write_script(folder: Path, script: dict[str, Any]) -> str:
    path = folder / "script.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    return f"script:{path}"


def transcript(view: ClassroomView) -> list[tuple[str, ...]]:
    """What a reader sees: who said what, with chips, and the interrupted marks."""
    out: list[tuple[str, ...]] = []
    for entry in view.entries:
        if isinstance(entry, LearnerMessage):
            out.append(("learner", entry.text))
        elif isinstance(entry, AgentMessage):
            chips = tuple(p.text for p in entry.parts if p.kind == "chip")
            out.append(("agent", entry.agent_id, entry.text, *chips, "interrupted" if entry.interrupted else ""))
    return out


def record_types(data_dir: Path) -> list[str]:
    with sqlite3.connect(data_dir / DB_NAME) as db:
        return [row[0] for row in db.execute("SELECT type FROM records ORDER BY session_id, seq")]


def logged_types(data_dir: Path) -> list[str]:
    """Each recorded record's type, as a reader of the log sees them (a run of speech is its pieces), session after
    session; empty while nothing is recorded."""
    from maic_tui.log.store import LogStore

    if not (data_dir / DB_NAME).exists():
        return []
    store = LogStore(data_dir)
    try:
        sessions = sorted(store.sessions(), key=lambda s: (s.started, s.id))
    except Exception:  # the database is still being created by the process under test
        return []
    return [item.record.type for s in sessions for item in store.load(s.id)[1]]

