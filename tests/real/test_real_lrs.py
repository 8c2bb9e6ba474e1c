"""Real tier: a real Learning Record Store on loopback, Ralph (``ralph-malph`` from PyPI, its file-system backend,
in a virtual environment of its own that ``make test-real`` builds). A played lesson's statements are sent, sent
again (nothing duplicated), read back through the LRS's own ``GET statements?registration=…``, and compared.

Ralph 5.1.0's file-system backend creates its statements file with the first write that stores something and
refuses every later one (a 500), so one session's statements go in one batch here, as they do by default."""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from maic_tui.cli import main
from maic_tui.learning.lrs import Lrs
from maic_tui.learning.statements import registration
from tests.records_helpers import exported, played

pytestmark = pytest.mark.real_server

RALPH = Path(__file__).parents[2] / ".venv-ralph" / "bin" / "ralph"
USER, PASSWORD = "maic-tui", "a-real-password-1"
KEPT_BY_THE_LRS = ("stored", "authority", "version")  # what an LRS adds to a statement it stores


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def ralph(tmp_path: Path) -> Iterator[str]:
    assert RALPH.exists(), "make test-real installs Ralph in .venv-ralph"
    env = {**os.environ, "RALPH_APP_DIR": str(tmp_path / "ralph"), "RALPH_RUNSERVER_BACKEND": "fs"}
    subprocess.run([str(RALPH), "auth", "-u", USER, "-p", PASSWORD, "-s", "all", "-M", "mailto:maic-tui@example.org",
                    "-w"], env=env, check=True, capture_output=True)
    (tmp_path / "store").mkdir()
    port = _free_port()
    server = subprocess.Popen([str(RALPH), "runserver", "-b", "fs", "--fs-default-directory-path",
                               str(tmp_path / "store"), "-h", "127.0.0.1", "-p", str(port)],
                              env=env, cwd=tmp_path / "store", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    url = f"http://127.0.0.1:{port}/xAPI/"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                Lrs(url, (USER, PASSWORD), timeout=2).query(limit="1")
                break
            except Exception:
                assert server.poll() is None, "Ralph stopped while starting"
                time.sleep(0.3)
        else:
            pytest.fail("Ralph did not answer within 60 s")
        yield url
    finally:
        os.killpg(server.pid, 15)
        server.wait(10)


def test_a_played_lesson_sent_twice_to_ralph_is_stored_once_as_sent(
        ralph: str, private_data_dir: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    session = played("derivatives", "partly", capsys, "--learner", "Ana")
    statements = exported(session, capsys)
    monkeypatch.setenv("MAIC_LRS_USER", USER)
    monkeypatch.setenv("MAIC_LRS_PASSWORD", PASSWORD)
    assert main(["export", session, "--format", "xapi", "--lrs", ralph]) == 0
    assert f"{len(statements)} statements sent to LRS" in capsys.readouterr().out
    assert main(["export", session, "--format", "xapi", "--lrs", ralph]) == 0  # again: nothing new
    assert f"({len(statements)} it had already)" in capsys.readouterr().out

    stored = Lrs(ralph, (USER, PASSWORD)).query(registration=registration(session), limit="1000")
    assert len(stored) == len(statements)  # nothing duplicated
    by_id = {s["id"]: s for s in stored}
    assert set(by_id) == {s["id"] for s in statements}
    for sent in statements:
        back = {key: value for key, value in by_id[sent["id"]].items() if key not in KEPT_BY_THE_LRS}
        assert back.keys() == sent.keys(), sent["verb"]["id"]
        for key in sent:
            if key == "timestamp":  # an LRS may give the same instant in UTC with other digits
                assert _instant(back[key]) == pytest.approx(_instant(sent[key]), abs=0.001)
            else:
                assert back[key] == sent[key], (sent["verb"]["id"], key)

    monkeypatch.setenv("MAIC_LRS_PASSWORD", "not-the-password")
    assert main(["export", session, "--format", "xapi", "--lrs", ralph]) == 1
    err = capsys.readouterr().err
    assert "refused the credentials (401)" in err and "not-the-password" not in err


def _instant(stamp: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()
