"""Step mode's keys as a real terminal sends them (a pty): Ctrl+T, then the card's own keys."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from maic_tui.log.store import DB_NAME
from tests.tui.pty_helpers import Until, run_in_pty

CTRL_Q = b"\x11"
CTRL_T = b"\x14"


def _decisions(data_dir: Path) -> list[list[tuple[str, str]]]:
    if not (data_dir / DB_NAME).exists():
        return []
    with sqlite3.connect(data_dir / DB_NAME) as db:
        rows = db.execute("SELECT body FROM records WHERE type = 'done' ORDER BY seq").fetchall()
    return [[(r["path"], r["final"]) for r in json.loads(row[0])["data"]["directorTrace"]] for row in rows]


def test_step_mode_keys_as_a_terminal_sends_them(private_data_dir: Path) -> None:
    """Ctrl+T, then at the card: a (the proposal), 3 (the third agent), then e (the end), typed into a real pty."""
    code, _ = run_in_pty(["derivatives", "--no-lesson", "--pace", "0"],
                         [(CTRL_T, 0.5), (b"What is a derivative?\r", 1.5), (b"a", 1.0), (b"3", 2.0), (b"e", 0.5),
                          (Until(lambda: bool(_decisions(private_data_dir)), "the turn finished"), 0.5), (CTRL_Q, 0.1)])
    assert code == 0
    assert _decisions(private_data_dir) == [[("manual", "juno"), ("manual", "END")]]
