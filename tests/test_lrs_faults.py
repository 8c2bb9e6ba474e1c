"""A hostile LRS (issue 54): an answer that trickles a byte at a time is cut at the whole request's deadline, and
a stop signal ends a send at once with the outbox keeping the records; an answer above the cap is one line; an
error that echoes the credentials shows no part of the password, wherever the line is cut."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from maic_tui.cli import main
from maic_tui.learning.lrs import Lrs, LrsError
from maic_tui.learning.outbox import Outbox
from tests.fake_lrs import PASSWORD, USER, fake_lrs
from tests.records_helpers import played


@pytest.fixture
def credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MAIC_LRS_USER", USER)
    monkeypatch.setenv("MAIC_LRS_PASSWORD", PASSWORD)


def test_an_answer_that_trickles_is_cut_at_the_deadline_of_the_whole_request(
        capsys: pytest.CaptureFixture[str], credentials: None) -> None:
    session = played("derivatives", "right", capsys)
    Path(os.environ["MAIC_CONFIG"]).write_text("[records]\ntimeout = 1\n", encoding="utf-8")
    with fake_lrs() as (url, lrs):
        lrs.trickle = 0.3  # a byte well within any per-read timeout, for 300 s
        started = time.monotonic()
        assert main(["export", session, "--format", "xapi", "--lrs", url]) == 1
        took = time.monotonic() - started
    err = capsys.readouterr().err
    assert "no answer within 1 s" in err and len(err.strip().splitlines()) == 1 and took < 3


def test_a_stop_signal_ends_a_send_at_once_and_the_outbox_keeps_it(private_data_dir: Path,
                                                                    credentials: None) -> None:
    with fake_lrs() as (url, lrs):
        lrs.trickle = 2.0  # as in the report: 200, then a byte every 2 s
        Path(os.environ["MAIC_CONFIG"]).write_text(f'[records]\nlrs = "{url}"\nauto = true\ntimeout = 600\n',
                                                   encoding="utf-8")
        run = subprocess.Popen([sys.executable, "-m", "maic_tui", "run", "derivatives", "--say", "hello"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=os.environ.copy())
        try:
            deadline = time.monotonic() + 60
            while not lrs.requests and time.monotonic() < deadline:
                time.sleep(0.05)
            assert lrs.requests, "the run never sent its records"
            time.sleep(0.3)  # the answer has begun to trickle
            run.send_signal(signal.SIGTERM)
            stopped = time.monotonic()
            _, err = run.communicate(timeout=10)
            took = time.monotonic() - stopped
        finally:
            if run.poll() is None:
                run.kill()
    assert run.returncode == 128 + signal.SIGTERM and took < 2, (took, err)
    assert "sending stopped (a stop signal)" in err and "wait and go on the next start" in err
    assert len(Outbox(private_data_dir).pending()) == 1


def test_an_answer_above_the_cap_is_one_line() -> None:
    with fake_lrs() as (url, lrs):
        lrs.huge = (64 << 20) + 10
        with pytest.raises(LrsError, match="answered more than 64 MB; nothing of it was used"):
            Lrs(url, (USER, PASSWORD), timeout=30).send([{"id": "1"}])


@pytest.mark.parametrize("padding", [0, 40, 125, 140, 280])
def test_an_error_echoing_the_credentials_shows_no_part_of_the_password(padding: int) -> None:
    password = "Hunter2-Supersecret-99"
    with fake_lrs() as (url, lrs):
        lrs.echo_after = padding
        with pytest.raises(LrsError) as failed:
            Lrs(url, ("maic", password), timeout=5).send([{"id": "1"}])
    line = str(failed.value)
    assert "answered 500" in line and "\n" not in line
    assert not any(password[:n] in line for n in range(6, len(password) + 1)), line
