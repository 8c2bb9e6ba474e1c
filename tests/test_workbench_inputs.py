"""The workbench commands under bad input (issue 40): counts with an upper bound, long runs that stop at once with an
honest summary (and, for eval, a partial report), one rule for every output path, nothing printed raw, and the
consistency points (skipped records warned about, ids never empty, unused picks said, one rule for --speed, read-only
commands that change nothing they refuse, global options before the command)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from maic_tui.cli import main
from maic_tui.evaluation import runner
from maic_tui.evaluation.stopping import interruptible
from maic_tui.llm import ModelOptions
from maic_tui.log.store import DB_NAME, LogStore

MAIC = [sys.executable, "-m", "maic_tui"]


def one_line_error(capsys: pytest.CaptureFixture[str], code: int, *words: str) -> str:
    err = capsys.readouterr().err
    assert code == 2, err
    lines = [line for line in err.splitlines() if line and not line.startswith("usage:")]
    assert len(lines) == 1, err
    assert "internal error" not in err and "Traceback" not in err
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


# --- bounds -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("argv", "words"), [
    (["simulate", "derivatives", "--sessions", "99999999999999999999"], "must be from 1 to 1,000,000"),
    (["simulate", "derivatives", "--turns", "1001"], "must be from 1 to 1,000"),
    (["simulate", "derivatives", "--concurrency", "65"], "must be from 1 to 64"),
    (["eval", "greeting", "--repeat", "10001"], "must be from 1 to 10,000"),
    (["trace", "x", "--turn", "0"], "must be from 1"),
    (["run", "derivatives", "--say", "hi", "--timeout", "nan"], "not a finite number"),
    (["run", "derivatives", "--say", "hi", "--pace", "inf"], "not a finite number"),
    (["serve", "--port", "70000"], "must be from 0 to 65535"),
])
def test_every_count_has_an_upper_bound(argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    one_line_error(capsys, main(argv), words)


@pytest.mark.parametrize("speed", ["0", "-1", "0.0", "1001"])
def test_replay_speed_has_one_rule(speed: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one_line_error(capsys, main(["replay", str(tmp_path / "x.jsonl"), f"--speed={speed}"]),
                   "must be more than 0 and at most 1000")


@pytest.mark.parametrize("speed", ["nan", "inf", "-inf"])
def test_replay_speed_must_be_finite(speed: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one_line_error(capsys, main(["replay", str(tmp_path / "x.jsonl"), f"--speed={speed}"]), "not a finite number")


# --- long runs stop at once ------------------------------------------------------------------------------------


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) / 1024


def _recorded(folder: Path) -> int:
    if not (folder / DB_NAME).exists():
        return 0
    try:
        with sqlite3.connect(folder / DB_NAME) as db:
            return int(db.execute("SELECT COUNT(*) FROM sessions").fetchone()[0])
    except sqlite3.OperationalError:  # being created by the simulation right now
        return 0


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_million_sessions_stay_small_and_stop_within_a_second(signum: int, tmp_path: Path) -> None:
    process = subprocess.Popen([*MAIC, "simulate", "derivatives", "--sessions", str(10**6), "--turns", "1",
                                "--data-dir", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    try:
        deadline, peak = time.monotonic() + 60, 0.0
        while _recorded(tmp_path) < 3:  # sessions are being played, one after another
            assert process.poll() is None and time.monotonic() < deadline, process.stderr.read()  # type: ignore[union-attr]
            peak = max(peak, _rss_mb(process.pid))
            time.sleep(0.05)
        for _ in range(20):
            peak = max(peak, _rss_mb(process.pid))
            time.sleep(0.05)
        sent = time.monotonic()
        process.send_signal(signum)
        out, err = process.communicate(timeout=10)
        stopped_in = time.monotonic() - sent
    finally:
        process.kill()
    assert peak < 200, f"resident memory {peak:.0f} MB"
    assert stopped_in < 1.0, f"stopped in {stopped_in:.2f} s"
    assert process.returncode == 128 + signum
    played = _recorded(tmp_path)
    assert err.strip().splitlines()[-1] == f"maic-tui: {played} of 1000000 sessions, stopped"
    assert f"{played} session{'s' if played != 1 else ''}, " in out  # the statistics count what was played


def _ctrl_c_as_in_a_terminal() -> None:
    """A suite started as a background job ignores Ctrl-C, and so would its children (Python then leaves SIGINT
    ignored): the eval is started as from a terminal, where Ctrl-C interrupts it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_an_interrupted_eval_writes_its_partial_report(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    process = subprocess.Popen([*MAIC, "eval", "greeting", "goodbye", "--repeat", "400", "--report", str(report)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                               preexec_fn=_ctrl_c_as_in_a_terminal)
    try:
        assert process.stderr is not None
        for line in process.stderr:  # one progress line a run, as it starts
            if line.startswith("[5/"):
                break
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 130
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["partial"] is True and data["ok"] is False and data["runs"] == 800
    assert 4 <= data["runsPlayed"] < 800
    played = sum(e["runs"] for s in data["scenarios"] for e in s["expectations"][:1])
    assert played == data["runsPlayed"]  # the report holds exactly the runs it says were played
    assert f"maic-tui: eval stopped after {data['runsPlayed']} of 800 runs; partial report: {report}" in err
    assert f"stopped after {data['runsPlayed']} of 800 runs: " in out and "does not pass the eval" in out
    assert main(["eval", "--compare", str(report), str(report)]) == 0  # a partial report still compares



@pytest.fixture
def ctrl_c_raises() -> Iterator[None]:
    """Ctrl-C as Python sets it up in a terminal, whatever the suite was started from."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize("concurrency", [1, 3])
def test_ctrl_c_stops_the_runs_even_where_a_run_absorbs_the_cancellation(
        ctrl_c_raises: None, monkeypatch: pytest.MonkeyPatch, concurrency: int) -> None:
    """A stop signal cancels the run being played and nothing is raised inside its event loop (that once left a
    task the loop's clean-up waited for forever): a run that absorbs the cancellation is let finish, a second
    Ctrl-C while it closes cuts nothing, and the eval still stops there without tallying it."""
    closed: list[object] = []

    async def a_run_that_absorbs_the_cancellation(run: runner.ScenarioRun, index: int, options: ModelOptions,
                                                  alone: bool = True) -> runner._Played:
        if index == 2:
            await asyncio.sleep(0.01)  # the runs before it are over
            try:
                signal.raise_signal(signal.SIGINT)
                await asyncio.sleep(5)
            except asyncio.CancelledError:
                pass
            finally:
                signal.raise_signal(signal.SIGINT)
                await asyncio.sleep(0.01)
                closed.append(index)
        else:
            await asyncio.sleep(0.05 if index > 2 else 0)
        return runner._Played(turns=1)

    monkeypatch.setattr(runner, "_play_once", a_run_that_absorbs_the_cancellation)
    runs = [runner.prepare("greeting", None)]
    with interruptible() as stop:
        runner.run_scenarios(runs, 10, ModelOptions(), concurrency=concurrency, stop=stop)
        closed.append("played on")
    assert stop.exit_code == 130 and closed == [2]
    assert runs[0].played == 2  # the runs before it; the one cut short is not tallied
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back as it was

# --- output paths ------------------------------------------------------------------------------------------


def _one_session(capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["run", "derivatives", "--say", "What is a derivative?"]) == 0
    capsys.readouterr()
    return next(iter(LogStore(Path(os.environ["MAIC_DATA_DIR"])).sessions())).id


def _bad_targets(tmp_path: Path) -> list[tuple[str, str]]:
    (tmp_path / "real.md").write_text("keep", encoding="utf-8")
    (tmp_path / "link.md").symlink_to(tmp_path / "real.md")
    (tmp_path / "full").symlink_to("/dev/full")
    return [(str(tmp_path), "is a directory"), ("/dev/full", "not a regular file"),
            (str(tmp_path / "nope" / "x.md"), "does not exist"), ("", "path is empty"),
            (str(tmp_path / "link.md"), "is a symbolic link"), (str(tmp_path / "full"), "is a symbolic link")]


def test_export_checks_its_output_path_first(private_data_dir: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    session = _one_session(capsys)
    for target, words in _bad_targets(tmp_path):
        for fmt in ("md", "jsonl"):
            one_line_error(capsys, main(["export", session, "--format", fmt, "-o", target]), words)
    assert (tmp_path / "real.md").read_text(encoding="utf-8") == "keep"  # never written through the link
    assert main(["export", session, "-o", str(tmp_path / "out.md")]) == 0
    assert "wrote" in capsys.readouterr().out and (tmp_path / "out.md").read_text(encoding="utf-8").startswith("# ")


def test_eval_checks_its_report_path_before_any_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for target, words in _bad_targets(tmp_path):
        started = time.monotonic()
        error = one_line_error(capsys, main(["eval", "greeting", "--repeat", "50", "--report", target]), words)
        assert not error.startswith("[") and time.monotonic() - started < 5  # no run was played


# --- nothing printed raw ---------------------------------------------------------------------------------------


HOSTILE = "a\x1b[31mred\x1b]8;;http://evil.example\x07link\x1b]8;;\x07\u202eevil\x9b2J"


def _report(rate: float, expectation: str = "no_error") -> str:
    return json.dumps({"scenarios": [{"scenario": "s" + HOSTILE, "expectations": [
        {"turn": 1, "expectation": expectation, "rate": rate}]}]})  # NaN and infinities as JSON's readers take them


def test_compare_shows_a_hostile_report_inert(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(_report(1.0, HOSTILE), encoding="utf-8")
    new.write_text(_report(0.5, HOSTILE), encoding="utf-8")
    assert main(["eval", "--compare", str(old), str(new)]) == 1
    out = capsys.readouterr().out
    assert "worse" in out and "redlink" in out
    for raw in ("\x1b", "\x07", "\u202e", "\x9b"):
        assert raw not in out


@pytest.mark.parametrize("content", ["[]", "null", "3", '"report"', _report(float("-inf")), _report(1.5),
                                     _report(float("nan"))])
def test_compare_refuses_what_is_not_a_report_in_one_line(content: str, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="utf-8")
    line = one_line_error(capsys, main(["eval", "--compare", str(bad), str(bad)]), "not a maic-tui eval report")
    assert "inf%" not in line and "\x1b" not in line


# --- consistency -----------------------------------------------------------------------------------------------


def test_trace_and_stats_warn_about_skipped_records_and_count_a_session_once(
        private_data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    session = _one_session(capsys)
    with sqlite3.connect(private_data_dir / DB_NAME) as db:
        db.execute("UPDATE records SET body = '{\"type\": \"text_delta\", \"data\": {}}' WHERE seq = 5")
    for argv in (["trace", session], ["stats", session]):
        assert main(argv) == 0
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "warning:" in err and "record 5 skipped" in err
    assert main(["stats", session, "--json"]) == 0
    once = json.loads(capsys.readouterr().out)
    assert main(["stats", session, session[:10], "--json"]) == 0
    twice = capsys.readouterr()
    assert json.loads(twice.out) == once and once["sessions"] == 1
    assert "counted once" in twice.err


@pytest.mark.parametrize("argv", [["export", ""], ["trace", ""], ["stats", ""], ["fork", "", "--turn", "1"],
                                  ["run", "--resume", "", "--say", "hi"], ["export", "  "]])
def test_an_empty_id_names_no_session(argv: list[str], private_data_dir: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    _one_session(capsys)
    one_line_error(capsys, main(argv), "the session id is empty")


def test_picks_no_decision_was_left_for_are_said(private_data_dir: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "derivatives", "--say", "What is a derivative?", "--pick", "juno", "--pick", "END",
                 "--pick", "theo", "--pick", "USER"]) == 0
    err = capsys.readouterr().err
    assert err.strip() == "maic-tui: warning: 2 --pick values not used (no decision was left for theo, USER)"
    assert main(["run", "derivatives", "--say", "What is a derivative?", "--pick", "juno", "--pick", "END"]) == 0
    assert capsys.readouterr().err == ""


def test_a_read_only_command_leaves_a_foreign_database_as_it_was(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / DB_NAME
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE sessions (name TEXT)")
    before = path.read_bytes()
    for argv in (["sessions"], ["export", "x"], ["stats", "x"], ["trace", "x"]):
        one_line_error(capsys, main([*argv, "--data-dir", str(tmp_path)]), "not a maic-tui session database")
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [DB_NAME]  # no -wal, no -shm
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"


def test_global_options_may_come_before_the_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--data-dir", str(tmp_path), "run", "derivatives", "--say", "hi"]) == 0
    capsys.readouterr()
    assert main(["--data-dir", str(tmp_path), "sessions"]) == 0
    listing = capsys.readouterr().out
    assert "derivatives" in listing and "hi" in listing
    assert main([f"--data-dir={tmp_path}", "sessions"]) == 0
    assert capsys.readouterr().out == listing
    one_line_error(capsys, main(["--data-dir", str(tmp_path), "validate", "x.toml"]), "unrecognized arguments")
