"""The app ends when its terminal goes away (a closed window, a dropped connection, tmux kill-session), idle or
mid-turn, closing its records as Ctrl+Q does; nothing is left running, spinning or deaf to SIGTERM."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from maic_tui.log.store import DB_NAME, LogStore
from maic_tui.room.replay import open_recorded
from tests.session_helpers import logged_types, two_speaker_script, write_script
from tests.tui.pty_helpers import Until, run_in_pty

HANG_UP = 129


def _record_types(data_dir: Path) -> list[str]:
    return logged_types(data_dir)


def _closed_like_ctrl_q(data_dir: Path) -> None:
    kinds = _record_types(data_dir)
    assert "text_delta" in kinds and "interrupt" in kinds and kinds[-2:] == ["agent_end", "done"]
    recorded = open_recorded(data_dir, LogStore(data_dir).sessions()[0].id)
    assert recorded.rebuilt.repairs == []  # closed by the app itself, nothing to patch up


def test_an_idle_app_ends_when_its_terminal_is_closed(private_data_dir: Path) -> None:
    hung_up: list[float] = []  # when the terminal was closed (after the room was drawn)
    code, _ = run_in_pty(["water-cycle", "--no-lesson"], [(lambda _: hung_up.append(time.monotonic()), 0)],
                         hang_up=True)
    assert code == HANG_UP and time.monotonic() - hung_up[0] < 10


def test_an_app_mid_turn_ends_when_its_terminal_is_closed_and_its_turn_is_closed(tmp_path: Path,
                                                                                 private_data_dir: Path) -> None:
    spec = write_script(tmp_path, two_speaker_script(slow_chunks=200, delay_ms=30))

    speaking = Until(lambda: _slow_speaker_speaking(private_data_dir), "the slow speaker speaking", 30)
    code, _ = run_in_pty(["derivatives", "--model", spec, "--no-lesson"], [(b"How?\r", 0.1), (speaking, 0.2)],
                         hang_up=True)
    assert code == HANG_UP
    _closed_like_ctrl_q(private_data_dir)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        return stat.read().split(")")[-1].split()[0] != "Z"  # a zombie has ended, only its parent has not looked


def _slow_speaker_speaking(data_dir: Path) -> bool:
    """The second speaker (the slow one, speaking for seconds) has begun."""
    kinds = _record_types(data_dir) if (data_dir / DB_NAME).exists() else []
    return kinds.count("agent_start") >= 2 and kinds[-1] == "text_delta"


def test_tmux_kill_session_ends_the_app_mid_turn(tmp_path: Path, private_data_dir: Path) -> None:
    assert shutil.which("tmux"), "tmux is not installed (.ci/run installs it)"
    spec = write_script(tmp_path, two_speaker_script(slow_chunks=200, delay_ms=30))
    socket = str(tmp_path / "tmux.sock")
    command = (f"exec {sys.executable} -m maic_tui.cli derivatives --no-lesson --model {spec} "
               f"--data-dir {private_data_dir}")
    tmux = ["tmux", "-S", socket, "-f", "/dev/null"]
    pid = int(subprocess.check_output([*tmux, "new-session", "-d", "-P", "-F", "#{pane_pid}", "-x", "120", "-y", "40",
                                       command], text=True).strip())
    try:
        time.sleep(4)  # the room is drawn
        subprocess.run([*tmux, "send-keys", "-t", "0", "How?", "Enter"], check=True)
        deadline = time.monotonic() + 30
        while not _slow_speaker_speaking(private_data_dir):  # not between two speakers, where no message is open
            assert time.monotonic() < deadline, "the slow speaker never started speaking"
            time.sleep(0.1)
        subprocess.run([*tmux, "kill-session"], check=True)
        deadline = time.monotonic() + 10
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(pid), "the app outlived its tmux session"
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)
        if _alive(pid):
            os.kill(pid, 9)
    _closed_like_ctrl_q(private_data_dir)
