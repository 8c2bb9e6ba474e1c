"""The app records its session, reopens a recorded one as it was, and replays a log."""

from __future__ import annotations

import math
import signal
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from maic_tui.classroom import load_classroom
from maic_tui.cli import main
from maic_tui.events import DoneEvent
from maic_tui.live.assembly import Replay, SessionRecipe
from maic_tui.llm.options import ModelOptions
from maic_tui.log.store import DB_NAME, LogStore
from maic_tui.room.replay import Recorded, open_recorded
from maic_tui.tui.app import ClassroomApp
from maic_tui.tui.palette import PaletteCommands
from maic_tui.tui.widgets.message_view import MessageView
from tests.session_helpers import logged_types, transcript, two_speaker_script, write_script
from tests.tui.helpers import finish_turn, ready, say, wait_for
from tests.tui.pty_helpers import run_in_pty


def recorded_app(data_dir: Path) -> ClassroomApp:
    recipe = SessionRecipe("demo", ModelOptions(pace=0), data_dir=data_dir, classroom_name="derivatives", lesson=False)
    return ClassroomApp(load_classroom("derivatives"), recipe)


async def test_a_recorded_session_reopens_as_it_was_and_goes_on(private_data_dir: Path) -> None:
    app = recorded_app(private_data_dir)
    async with app.run_test(size=(150, 44)) as pilot:
        await ready(pilot)
        await say(pilot, "How do I differentiate x cubed?")
        await finish_turn(pilot)
        before = transcript(app.room.view)
        board = list(app.room.view.board.elements)
        app.close_session()
    session_id = LogStore(private_data_dir).sessions()[0].id

    again = recorded_app(private_data_dir)
    async with again.run_test(size=(150, 44)) as pilot:
        await ready(pilot)
        commands = [str(hit.text) async for hit in PaletteCommands(again.screen).discover()]
        assert any(c.startswith(f"Resume session {session_id}") for c in commands)
        await again.room.resume_session(session_id)
        await ready(pilot)
        assert transcript(again.room.view) == before and list(again.room.view.board.elements) == board
        assert len(again.screen.query(MessageView)) == sum(1 for e in before if e[0] == "agent")
        assert again.room.session is not None and again.room.session.log is not None
        assert again.room.session.log.session_id == session_id
        await say(pilot, "Why do derivatives matter in real life?")
        await finish_turn(pilot)
        again.close_session()
    assert [s.id for s in LogStore(private_data_dir).sessions()] == [session_id]  # the unused one left no row
    recorded = open_recorded(private_data_dir, session_id)
    assert [item.record.type for item in recorded.records].count("learner") == 2
    assert transcript(recorded.rebuilt.view)[:len(before)] == before


async def record_one_turn(data_dir: Path) -> Recorded:
    app = recorded_app(data_dir)
    async with app.run_test() as pilot:
        await ready(pilot)
        await say(pilot, "How do I differentiate x cubed?")
        await finish_turn(pilot)
        app.close_session()
    return open_recorded(data_dir, LogStore(data_dir).sessions()[0].id)


async def test_a_replay_plays_the_log_into_the_room_and_sends_nothing(private_data_dir: Path) -> None:
    recorded = await record_one_turn(private_data_dir)

    replaying = ClassroomApp(recorded.classroom, SessionRecipe(replay=Replay(recorded.records, math.inf, "x.jsonl")))
    async with replaying.run_test(size=(150, 44)) as pilot:
        await wait_for(pilot, lambda: any("End of the replay" in getattr(e, "text", "")
                                          for e in replaying.room.view.entries))
        assert transcript(replaying.room.view) == transcript(recorded.rebuilt.view)
        assert list(replaying.room.view.board.elements) == list(recorded.rebuilt.view.board.elements)
        await say(pilot, "Hello?")
        await pilot.pause()
        assert replaying.room.session is None and transcript(replaying.room.view) == transcript(recorded.rebuilt.view)
        assert "nothing is sent" in str(replaying.screen.query_one("Composer").placeholder)


async def test_a_replay_shows_its_progress_pauses_with_space_and_offers_no_stop(private_data_dir: Path) -> None:
    recorded = await record_one_turn(private_data_dir)
    spaced = [replace(item, t=index * 0.05) for index, item in enumerate(recorded.records)]  # a paced recording
    replaying = ClassroomApp(recorded.classroom, SessionRecipe(replay=Replay(spaced, 1.0, "x.jsonl")))
    async with replaying.run_test(size=(150, 44)) as pilot:
        await wait_for(pilot, lambda: replaying.room.log_player is not None and replaying.room.log_player.played > 2)
        shown = {b.binding.action for b in replaying.screen.active_bindings.values() if b.binding.show}
        assert "pause_replay" in shown and "interrupt" not in shown
        await pilot.press("space")
        player = replaying.room.log_player
        assert player is not None and player.paused
        held = player.played
        await pilot.pause(0.6)
        assert player.played == held  # paused: nothing more arrives
        placeholder = str(replaying.query_one("Composer").placeholder)  # type: ignore[attr-defined]
        assert f"paused · {held}/{player.total} records" in placeholder and "Space resumes" in placeholder
        await pilot.press("space")
        await wait_for(pilot, lambda: any("End of the replay" in getattr(e, "text", "")
                                          for e in replaying.room.view.entries))
        assert player.played == player.total
        assert f"finished · {player.total}/{player.total}" in str(replaying.query_one("Composer").placeholder)  # type: ignore[attr-defined]


def test_resume_and_a_classroom_together_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["derivatives", "--resume", "x"]) == 2
    assert "not both" in capsys.readouterr().err


def test_resuming_an_unknown_session_exits_2_after_the_shell(monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    run = ClassroomApp.run
    monkeypatch.setattr(ClassroomApp, "run", lambda self: run(self, headless=True))
    assert main(["--resume", "no-such-session"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no-such-session" in err


async def test_an_unusable_data_directory_is_a_warning_and_the_class_goes_on(tmp_path: Path) -> None:
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x", encoding="utf-8")
    app = recorded_app(not_a_folder)
    async with app.run_test() as pilot:
        await ready(pilot)
        assert any("not recorded" in str(n.message) for n in app._notifications)
        await say(pilot, "What is a derivative?")
        await finish_turn(pilot)
        assert app.room.view.last_done is not None and app.room.view.last_done.end_reason == "cue_user"


async def test_quitting_mid_turn_closes_the_turn_in_the_log(private_data_dir: Path) -> None:
    recipe = SessionRecipe("demo", ModelOptions(pace=40), data_dir=private_data_dir, classroom_name="derivatives",
                           lesson=False)
    app = ClassroomApp(load_classroom("derivatives"), recipe)
    async with app.run_test() as pilot:
        await ready(pilot)
        await say(pilot, "What is a derivative?")
        await wait_for(pilot, lambda: any(e.text for e in app.room.view.entries if hasattr(e, "parts")))
        await app.action_quit()
    app.close_session()
    recorded = open_recorded(private_data_dir, LogStore(private_data_dir).sessions()[0].id)
    types = [item.record.type for item in recorded.records]
    assert recorded.rebuilt.repairs == []  # closed by the engine itself, not patched up afterwards
    assert types[-2:] == ["agent_end", "done"] and "interrupt" in types
    last = recorded.records[-1].record
    assert isinstance(last, DoneEvent) and last.data.end_reason == "interrupted"
    assert transcript(recorded.rebuilt.view)[-1][-1] == "interrupted"


@pytest.mark.parametrize(("number", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_sigterm_and_sighup_quit_the_app_like_ctrl_q(tmp_path: Path, private_data_dir: Path, number: int,
                                                     code: int) -> None:
    spec = write_script(tmp_path, two_speaker_script(slow_chunks=200, delay_ms=30))
    exit_code, _ = run_in_pty(["derivatives", "--model", spec, "--no-lesson"], [(b"How?\r", 2.5),
                                                                  (lambda proc: proc.send_signal(number), 3)])
    assert exit_code == code
    kinds = logged_types(private_data_dir)
    assert "text_delta" in kinds and "interrupt" in kinds and kinds[-2:] == ["agent_end", "done"]
    with sqlite3.connect(private_data_dir / DB_NAME) as db:
        (last,) = db.execute("SELECT body FROM records ORDER BY seq DESC LIMIT 1").fetchone()
    assert '"endReason":"interrupted"' in last


def test_on_leaving_the_app_says_the_session_id_and_how_to_go_on(private_data_dir: Path) -> None:
    code, written = run_in_pty(["water-cycle", "--no-lesson", "--pace", "0"], [(b"What is rain?\r", 4),
                                                                                (b"\x11", 0.5)])
    assert code == 0
    session = LogStore(private_data_dir).sessions()[0].id
    assert f"Session {session} recorded · go on with: maic-tui --resume {session}".encode() in written
    code, written = run_in_pty(["water-cycle", "--no-lesson"], [(b"\x11", 0.5)])  # nothing said: nothing kept
    assert code == 0 and b"recorded" not in written and len(LogStore(private_data_dir).sessions()) == 1


async def test_a_screenshot_without_a_downloads_folder_goes_to_the_data_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from maic_tui.tui.app import ClassroomApp

    monkeypatch.setenv("XDG_DOWNLOAD_DIR", str(tmp_path / "no-such-downloads"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    recipe = SessionRecipe("demo", ModelOptions(pace=0), data_dir=tmp_path / "data", lesson=False)
    app = ClassroomApp(load_classroom("water-cycle"), recipe)
    async with app.run_test(size=(100, 30)) as pilot:
        await ready(pilot)
        app.action_screenshot()
        await wait_for(pilot, lambda: any((tmp_path / "data" / "screenshots").glob("*.svg")))
        # The app says where it went once the writing thread is done (and the thread must end inside the test).
        await wait_for(pilot, lambda: any("Saved screenshot" in n.message for n in app._notifications))
    shots = list((tmp_path / "data" / "screenshots").glob("*.svg"))
    assert len(shots) == 1 and shots[0].read_text(encoding="utf-8").startswith("<svg")
