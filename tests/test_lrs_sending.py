"""Sending learning records to an LRS: ``export --format xapi --lrs URL``, twice without duplicates; an LRS that is
down, refuses the credentials, fails or hangs is one line and exit 1, and nothing recorded changes; ``[records]
auto`` sends at a session's end and keeps what an absent LRS missed on disk until the next start."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from pathlib import Path

import pytest

from maic_tui.cli import main
from maic_tui.learning.outbox import Outbox
from maic_tui.log.store import DB_NAME
from tests.fake_lrs import PASSWORD, USER, fake_lrs
from tests.records_helpers import exported, played


@pytest.fixture
def credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MAIC_LRS_USER", USER)
    monkeypatch.setenv("MAIC_LRS_PASSWORD", PASSWORD)


def _rows(data_dir: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(data_dir / DB_NAME) as db:
        return db.execute("SELECT * FROM records ORDER BY session_id, seq").fetchall()


def test_statements_sent_twice_are_stored_once(private_data_dir: Path, capsys: pytest.CaptureFixture[str],
                                              credentials: None) -> None:
    session = played("derivatives", "partly", capsys)
    statements = exported(session, capsys)
    with fake_lrs() as (url, lrs):
        assert main(["export", session, "--format", "xapi", "--lrs", url]) == 0
        out = capsys.readouterr().out
        assert f"{len(statements)} statements sent to LRS" in out and out.count("\n") == 1  # not the JSON
        assert main(["export", session, "--format", "xapi", "--lrs", url]) == 0
        assert f"({len(statements)} it had already)" in capsys.readouterr().out
        assert sorted(lrs.statements) == sorted(s["id"] for s in statements)
        assert list(lrs.statements.values()) == statements  # as sent, in order
        sent = [headers for method, _, headers in lrs.requests if method == "POST"]
        assert all(h["x-experience-api-version"] == "1.0.3" and h["content-type"] == "application/json"
                   for h in sent)


def test_statements_go_in_batches_and_a_batch_the_lrs_partly_has_is_sent_one_by_one(
        private_data_dir: Path, capsys: pytest.CaptureFixture[str], credentials: None) -> None:
    Path(os.environ["MAIC_CONFIG"]).write_text("[records]\nbatch = 4\n", encoding="utf-8")
    session = played("water-cycle", "right", capsys)
    statements = exported(session, capsys)
    with fake_lrs() as (url, lrs):
        from maic_tui.learning.lrs import Lrs

        Lrs(url, (USER, PASSWORD), batch=100).send(statements[:5])  # the LRS has the first five already
        assert main(["export", session, "--format", "xapi", "--lrs", url]) == 0
        captured = capsys.readouterr()
        assert "(5 it had already)" in captured.out and "sent 4 of" in captured.err  # progress per batch
        assert sorted(lrs.statements) == sorted(s["id"] for s in statements)
        assert [n for method, n, _ in lrs.requests if method == "POST"][1:3] == [4, 1]  # 409, then one at a time


@pytest.mark.parametrize("fault", ["down", "refused", "failing", "hanging", "no credentials"])
def test_an_lrs_that_does_not_take_them_is_one_line_and_nothing_recorded_changes(
        fault: str, private_data_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        credentials: None) -> None:
    session = played("derivatives", "right", capsys)
    before = _rows(private_data_dir)
    Path(os.environ["MAIC_CONFIG"]).write_text("[records]\ntimeout = 0.5\n", encoding="utf-8")
    with fake_lrs() as (url, lrs):
        if fault == "down":
            url = "http://127.0.0.1:9/xAPI/"  # the discard port: nothing listens
        elif fault == "refused":
            monkeypatch.setenv("MAIC_LRS_PASSWORD", "wrong-password")
        elif fault == "failing":
            lrs.fail_with = 503
        elif fault == "hanging":
            lrs.hang = 2.0
        else:
            monkeypatch.delenv("MAIC_LRS_USER")
        assert main(["export", session, "--format", "xapi", "--lrs", url]) == 1
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err and "LRS http://127.0.0.1:" in err
        expected = {"down": "cannot reach it", "refused": "refused the credentials (401)",
                    "failing": "answered 503 (the store fell over)", "hanging": "no answer within 0.5 s",
                    "no credentials": "refused the credentials (401)"}[fault]
        assert expected in err
        assert PASSWORD not in err and "wrong-password" not in err
        assert lrs.statements == {}
    assert _rows(private_data_dir) == before
    assert Outbox(private_data_dir).pending() == []  # a command run by hand says so; it queues nothing


@pytest.mark.parametrize("url", ["ftp://lrs.example.org/", "https://maic:pw@lrs.example.org/xAPI/", "lrs"])
def test_an_lrs_address_that_cannot_be_used_is_refused_before_any_work(url: str, private_data_dir: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    session = played("derivatives", "right", capsys)
    assert main(["export", session, "--format", "xapi", "--lrs", url]) == 2
    err = capsys.readouterr().err
    assert "--lrs" in err and len(err.strip().splitlines()) == 1 and "pw@" not in err
    assert main(["export", session, "--format", "md", "--lrs", "http://127.0.0.1:9/"]) == 2
    assert "give --format xapi" in capsys.readouterr().err


def test_auto_sends_at_the_end_and_an_absent_lrs_gets_them_at_the_next_start(
        private_data_dir: Path, capsys: pytest.CaptureFixture[str], credentials: None) -> None:
    config = Path(os.environ["MAIC_CONFIG"])
    with fake_lrs() as (url, lrs):
        config.write_text(f'[records]\nlrs = "{url}"\nauto = true\n', encoding="utf-8")
        first = played("derivatives", "right", capsys)
        assert len(lrs.statements) == len(exported(first, capsys))
    # the LRS is away now: the next session's statements wait on disk, and the run says so
    config.write_text('[records]\nlrs = "http://127.0.0.1:9/xAPI/"\nauto = true\ntimeout = 1\n', encoding="utf-8")
    assert main(["run", "derivatives", "--say", "hello"]) == 0
    err = capsys.readouterr().err
    assert "cannot reach it" in err and "wait and go on the next start" in err
    waiting = Outbox(private_data_dir).pending()
    assert len(waiting) == 1 and stat.S_IMODE(waiting[0].stat().st_mode) == 0o600
    queued = json.loads(waiting[0].read_text(encoding="utf-8"))
    with fake_lrs() as (url, lrs):
        config.write_text(f'[records]\nlrs = "{url}"\nauto = true\n', encoding="utf-8")
        assert main(["run", "derivatives", "--say", "and again"]) == 0
        assert "learning records of 2 sessions" in capsys.readouterr().err
        assert {s["id"] for s in queued} <= set(lrs.statements)
    assert Outbox(private_data_dir).pending() == []


def test_without_auto_nothing_is_sent_or_queued(private_data_dir: Path, capsys: pytest.CaptureFixture[str],
                                               credentials: None) -> None:
    with fake_lrs() as (url, lrs):
        Path(os.environ["MAIC_CONFIG"]).write_text(f'[records]\nlrs = "{url}"\n', encoding="utf-8")
        played("derivatives", "right", capsys)
        assert lrs.requests == [] and Outbox(private_data_dir).pending() == []
