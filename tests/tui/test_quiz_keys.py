"""Keys as a terminal sends them at a quiz question: a letter and Enter arrive together (one read), while the option
list has the focus; the letter is the answer sent, not the highlighted option."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from maic_tui.log.store import DB_NAME
from tests.tui.pty_helpers import Until, run_in_pty

F6 = b"\x1b[17~"  # xterm's F6: the next scene
CTRL_Q = b"\x11"
QUIZ_SCENE = 3  # derivatives' fourth scene


def _recorded(data_dir: Path, kind: str) -> list[dict[str, Any]]:
    """The data of every record of ``kind`` the app has written so far."""
    if not (data_dir / DB_NAME).exists():
        return []
    with sqlite3.connect(data_dir / DB_NAME) as db:
        rows = db.execute("SELECT body FROM records WHERE type = ? ORDER BY seq", (kind,)).fetchall()
    return [json.loads(row[0])["data"] for row in rows]


def _quiz_answers(data_dir: Path) -> list[str]:
    return [data["answer"] for data in _recorded(data_dir, "quiz_result")]


def _scenes_reached(data_dir: Path) -> list[int]:
    return [data["scene"] for data in _recorded(data_dir, "step")]


def test_a_letter_and_enter_in_one_burst_answer_with_that_letter(private_data_dir: Path) -> None:
    at_the_quiz = Until(lambda: QUIZ_SCENE in _scenes_reached(private_data_dir), "the quiz scene reached")
    graded = Until(lambda: bool(_quiz_answers(private_data_dir)), "the answer graded")
    code, _ = run_in_pty(["derivatives", "--pace", "0"], [(F6, 0.5), (F6, 0.5), (F6, 0.5), (at_the_quiz, 1.5),
                                                           (b"b\r", 0.1), (graded, 0.5), (CTRL_Q, 0.1)])
    assert code == 0
    assert _quiz_answers(private_data_dir) == ["B) x^3"]  # the typed letter; A) 4x^3 was highlighted

