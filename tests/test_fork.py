"""`maic-tui fork ID --turn N`: a new session with the records before that learner turn (transcript, board, lesson
place as they were), its header saying where it came from; it goes on with `run --resume` and exports as any other."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from maic_tui.cli import main
from maic_tui.log.store import DB_NAME
from maic_tui.room.replay import open_recorded
from tests.session_helpers import transcript


def _out(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _session(tmp_path: Path, capsys: pytest.CaptureFixture[str], *said: str) -> str:
    data = str(tmp_path)
    says = [arg for text in said for arg in ("--say", text)]
    assert _out(capsys, "run", "derivatives", *says, "--pace", "0", "--data-dir", data)[0] == 0
    return _out(capsys, "sessions", "--data-dir", data)[1].splitlines()[1].split()[0]


def test_a_fork_holds_the_turns_before_the_cut_and_goes_on_from_there(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = str(tmp_path)
    original = _session(tmp_path, capsys, "What is a derivative?", "Can you show me on the board?", "why?")
    code, out, err = _out(capsys, "fork", original, "--turn", "3", "--data-dir", data)
    forked = out.strip()
    assert code == 0 and forked != original and f"maic-tui --resume {forked}" in err
    before, after = open_recorded(tmp_path, original), open_recorded(tmp_path, forked)
    assert after.info.forked_from is not None and after.info.forked_from.model_dump() == {"id": original, "turn": 3}
    kept = transcript(after.rebuilt.view)
    assert kept == transcript(before.rebuilt.view)[:len(kept)]
    assert [t for t in kept if t[0] == "learner"] == [("learner", "What is a derivative?"),
                                                      ("learner", "Can you show me on the board?")]
    board = list(after.rebuilt.board.elements)
    assert board and board == _board_after_two_turns(tmp_path, capsys)
    # It goes on headless, numbered after what it kept, and its export says where it came from.
    assert _out(capsys, "run", "--resume", forked, "--say", "What is a tangent?", "--pace", "0",
                "--data-dir", data)[0] == 0
    again = open_recorded(tmp_path, forked)
    assert [t[1] for t in transcript(again.rebuilt.view) if t[0] == "learner"][-1] == "What is a tangent?"
    header = json.loads(_out(capsys, "export", forked, "--format", "jsonl", "--data-dir", data)[1].splitlines()[0])
    assert header["data"]["forkedFrom"] == {"id": original, "turn": 3}
    header = json.loads(_out(capsys, "export", original, "--format", "jsonl", "--data-dir", data)[1].splitlines()[0])
    assert "forkedFrom" not in header["data"]


def _board_after_two_turns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[object]:
    """The board of a fresh session that said only the first two messages (the demo is deterministic)."""
    other = tmp_path / "other"
    other.mkdir()
    session = _session(other, capsys, "What is a derivative?", "Can you show me on the board?")
    return list(open_recorded(other, session).rebuilt.board.elements)


def test_a_turn_that_is_not_there_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    original = _session(tmp_path, capsys, "What is a derivative?")
    code, out, err = _out(capsys, "fork", original, "--turn", "2", "--data-dir", str(tmp_path))
    assert code == 2 and out == ""
    assert err.strip() == f"maic-tui: session {original} has learner turns 1 to 1; --turn 2 is not one"
    assert len(_out(capsys, "sessions", "--data-dir", str(tmp_path))[1].splitlines()) == 2  # nothing was added


def test_a_database_from_before_forks_is_upgraded(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with sqlite3.connect(tmp_path / DB_NAME) as db:  # the layout sessions were recorded in before
        db.execute("CREATE TABLE sessions (id TEXT PRIMARY KEY, classroom TEXT NOT NULL, title TEXT NOT NULL, "
                   "model TEXT NOT NULL, started REAL NOT NULL, classroom_toml TEXT NOT NULL)")
        db.execute("CREATE TABLE records (session_id TEXT NOT NULL REFERENCES sessions(id), seq INTEGER NOT NULL, "
                   "t REAL NOT NULL, type TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (session_id, seq))")
    original = _session(tmp_path, capsys, "What is a derivative?", "why?")
    assert _out(capsys, "fork", original, "--turn", "2", "--data-dir", str(tmp_path))[0] == 0
    assert len(_out(capsys, "sessions", "--data-dir", str(tmp_path))[1].splitlines()) == 3


def test_a_replayed_log_forks_into_the_session_store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from maic_tui.log.fork import fork_from

    original = _session(tmp_path, capsys, "What is a derivative?", "why?")
    log = tmp_path / "shared.jsonl"
    assert _out(capsys, "export", original, "--format", "jsonl", "-o", str(log), "--data-dir", str(tmp_path))[0] == 0
    elsewhere = tmp_path / "tester"
    forked = fork_from(elsewhere, 2, log_path=str(log))
    again = open_recorded(elsewhere, forked.id)
    assert again.info.forked_from is not None and again.info.forked_from.id == original
    assert [t[1] for t in transcript(again.rebuilt.view) if t[0] == "learner"] == ["What is a derivative?"]
