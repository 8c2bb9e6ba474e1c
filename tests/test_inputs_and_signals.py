"""Hostile inputs and stop signals: deep nesting, devices, FIFOs and huge files are one line and exit 2;
foreign or corrupt session databases are one line and the rest still works; SIGTERM, SIGHUP and SIGINT (also
early, also twice) close the turn with ``done`` and its records, and the exit status names the signal."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from maic_tui.bad_input import MAX_FILE_BYTES
from maic_tui.cli import main
from maic_tui.log.store import DB_NAME, LogStore
from tests.session_helpers import logged_types, two_speaker_script, write_script

MAIC = [sys.executable, "-m", "maic_tui.cli"]


def _one_line_error(capsys: pytest.CaptureFixture[str], code: int, *words: str) -> None:
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert err.count("\n") == 1 and "Traceback" not in err and "Error" not in err, err
    assert all(word in err for word in words), err


def test_deeply_nested_toml_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deep = tmp_path / "deep.toml"
    deep.write_text("title = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    _one_line_error(capsys, main(["validate", str(deep)]), "nested too deeply")


def test_a_device_a_fifo_and_a_huge_file_are_refused_at_once(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    _one_line_error(capsys, main(["validate", "/dev/zero"]), "not a regular file")
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    started = time.monotonic()
    _one_line_error(capsys, main(["run", str(fifo), "--say", "hi"]), "not a regular file")
    assert time.monotonic() - started < 5
    huge = tmp_path / "huge.toml"
    with huge.open("wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)
    _one_line_error(capsys, main(["validate", str(huge)]), "too large")
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"title = \"\xff\"\n")
    _one_line_error(capsys, main(["validate", str(bad)]), "not UTF-8")


def test_broken_json_logs_and_scripts_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "deep.jsonl"
    log.write_text("[" * 100_000 + "\n", encoding="utf-8")
    _one_line_error(capsys, main(["replay", str(log), "--headless"]), "nested too deeply")
    script = tmp_path / "script.json"
    script.write_text('{"director": [', encoding="utf-8")
    _one_line_error(capsys, main(["run", "derivatives", "--model", f"script:{script}", "--say", "hi"]),
                    "not valid JSON")


def test_a_database_of_another_schema_is_one_clear_line(private_data_dir: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    with sqlite3.connect(private_data_dir / DB_NAME) as db:
        db.execute("CREATE TABLE sessions (name TEXT)")
    _one_line_error(capsys, main(["sessions"]), "not a maic-tui session database", "--data-dir")
    assert main(["run", "derivatives", "--say", "hi"]) == 0  # the class still runs, unrecorded, with a warning
    out, err = capsys.readouterr()
    assert '"done"' in out and "not recorded" in err and err.count("\n") == 1


def test_a_corrupt_record_is_skipped_and_the_rest_still_replays(private_data_dir: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    for question in ("What is a derivative?", "How do I differentiate x cubed?"):
        assert main(["run", "derivatives", "--say", question]) == 0
    capsys.readouterr()
    older, newer = sorted(LogStore(private_data_dir).sessions(), key=lambda s: s.started)
    with sqlite3.connect(private_data_dir / DB_NAME) as db:
        db.execute("UPDATE records SET body = '{not json' WHERE session_id = ? AND type = 'learner'", (newer.id,))
        db.execute("UPDATE records SET body = '{\"type\": \"text_delta\", \"data\": {}}' WHERE session_id = ? "
                   "AND seq = 5", (older.id,))
    assert main(["sessions"]) == 0
    listing, _ = capsys.readouterr()
    assert older.id in listing and newer.id in listing and "(unreadable record)" in listing
    assert main(["export", older.id, "--format", "md"]) == 0
    markdown, err = capsys.readouterr()
    assert "record 5 skipped" in err and err.count("\n") == 1 and "Prof. Ada Reyes" in markdown


def _records(db: Path) -> list[str]:
    return logged_types(db.parent)


def _start_slow_run(tmp_path: Path, *extra: str) -> subprocess.Popen[str]:
    spec = write_script(tmp_path, two_speaker_script(slow_chunks=200, delay_ms=30))
    return subprocess.Popen([*MAIC, "run", "derivatives", "--model", spec, "--say", "How?", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_for_speech(child: subprocess.Popen[str], db: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if "text_delta" in _records_or_empty(db):
            return
        time.sleep(0.05)
    child.kill()
    pytest.fail("the child never started speaking")


def _records_or_empty(db: Path) -> list[str]:
    try:
        return _records(db)
    except sqlite3.OperationalError:
        return []


@pytest.mark.parametrize(("number", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129), (signal.SIGINT, 130)])
def test_a_stop_signal_mid_turn_closes_the_turn(tmp_path: Path, private_data_dir: Path, number: int,
                                               code: int) -> None:
    child = _start_slow_run(tmp_path)
    _wait_for_speech(child, private_data_dir / DB_NAME)
    child.send_signal(number)
    out, err = child.communicate(timeout=30)
    assert child.returncode == code, err
    last = json.loads(out.splitlines()[-1])
    assert last["type"] == "done" and last["data"]["endReason"] == "interrupted"
    kinds = _records(private_data_dir / DB_NAME)
    assert "interrupt" in kinds and kinds[-2:] == ["agent_end", "done"]


def test_a_second_sigint_while_closing_still_closes_cleanly(tmp_path: Path, private_data_dir: Path) -> None:
    child = _start_slow_run(tmp_path)
    _wait_for_speech(child, private_data_dir / DB_NAME)
    child.send_signal(signal.SIGINT)
    time.sleep(0.05)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=30)
    assert child.returncode == 130 and "Traceback" not in err, err
    assert json.loads(out.splitlines()[-1])["data"]["endReason"] == "interrupted"
    assert _records(private_data_dir / DB_NAME)[-1] == "done"


def _catches_sigterm(pid: int) -> bool:
    """Whether the process has its own SIGTERM handler yet (our stop handlers are in place)."""
    status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    caught = int(next(line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:")), 16)
    return bool(caught & (1 << (signal.SIGTERM - 1)))


def test_a_sigint_before_the_first_event_still_prints_done(tmp_path: Path, private_data_dir: Path) -> None:
    child = _start_slow_run(tmp_path)
    deadline = time.monotonic() + 30
    while not _catches_sigterm(child.pid) and time.monotonic() < deadline:
        time.sleep(0.002)
    # Now the models and the graph are still loading: long before the first event.
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert child.returncode == 130, err
    events = [json.loads(line) for line in out.splitlines()]
    assert [e["type"] for e in events].count("done") == 1
    assert events[-1]["type"] == "done" and events[-1]["data"]["endReason"] == "interrupted"
    assert _records(private_data_dir / DB_NAME)[:2] == ["learner", "interrupt"]
