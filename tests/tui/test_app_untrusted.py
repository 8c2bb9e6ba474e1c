"""The app's chrome shows untrusted text literally: header, roster, persona card, cue prompt and options,
board and slide titles, notifications, the palette (which crashed on ``[link=…]``), the full transcript and
the trace panel. The last test reads the raw bytes the real app writes to a terminal (a pty)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from textual.command import CommandPalette
from textual.content import Content
from textual.pilot import Pilot

from maic_tui.classroom import load_classroom
from maic_tui.live.assembly import SessionRecipe
from maic_tui.live.session import ClassroomSession
from maic_tui.llm.options import ModelOptions
from maic_tui.log.log_start import start_log
from maic_tui.text_safety import one_line
from maic_tui.tui.app import ClassroomApp
from maic_tui.tui.plain import as_markup
from maic_tui.tui.widgets.board_pane import BoardPane
from tests.engine_helpers import classroom, learner_turn
from tests.hostile import LINK, MARKUP, assert_inert, assert_inert_bytes, hostile_classroom, hostile_script
from tests.tui.helpers import finish_turn, ready, say, wait_for
from tests.tui.pty_helpers import run_in_pty


def _screen_text(app: ClassroomApp) -> str:
    svg = app.export_screenshot()
    return "".join(html.unescape(part) for part in re.findall(r"<text[^>]*>(.*?)</text>", svg)).replace("\xa0", " ")


def _hostile_app(folder: Path, data_dir: Path | None = None) -> ClassroomApp:
    room = load_classroom(hostile_classroom(folder))
    recipe = SessionRecipe(f"script:{hostile_script(folder)}", ModelOptions(), data_dir=data_dir,
                           classroom_name=str(folder / "hostile.toml"))
    return ClassroomApp(room, recipe)


async def _palette(pilot: Pilot[Any], query: str) -> str:
    app = pilot.app
    await pilot.press("ctrl+p")
    await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
    await pilot.press(*query)
    await pilot.pause(0.6)
    text = _screen_text(app)  # type: ignore[arg-type]
    await pilot.press("escape")
    await wait_for(pilot, lambda: not isinstance(app.screen, CommandPalette))
    return text


async def test_every_surface_of_the_room_shows_hostile_text_literally(tmp_path: Path) -> None:
    app = _hostile_app(tmp_path)
    async with app.run_test(size=(160, 50)) as pilot:
        await ready(pilot)
        await say(pilot, "first?")
        await finish_turn(pilot)
        await pilot.pause(0.3)
        room = _screen_text(app)
        assert_inert(room)
        assert MARKUP in room  # the roster's teacher, the transcript and the cue options, literally
        assert app.room.view.cue is not None and MARKUP in app.room.view.cue.options  # type: ignore[operator]
        app.notify(MARKUP + "\x1b]0;PWNED-TITLE\x07")  # even our own notifications are plain
        await pilot.press("f2")  # the trace panel quotes the director's raw answer
        await pilot.press("f3")  # the slide: its title holds [link=…]
        await pilot.pause(0.3)
        assert LINK in str(app.query_one(BoardPane).border_title) or "link=" in _screen_text(app)
        assert_inert(_screen_text(app))
        for query in ("Persona", "scene"):
            listed = await _palette(pilot, query)
            assert_inert(listed)
        assert "link=https://evil.example" in listed or "[link=" in listed
        app.room.show_persona("a1")
        await pilot.pause(0.3)
        card = _screen_text(app)
        assert_inert(card)
        assert LINK in card
        await pilot.press("escape")
        app.room.action_full_transcript()
        await pilot.pause(0.3)
        assert_inert(_screen_text(app))
        await pilot.press("escape")
        assert app.is_running


async def test_the_palette_lists_a_recorded_session_whose_last_message_holds_a_link(tmp_path: Path) -> None:
    data = tmp_path / "data"
    room = load_classroom("derivatives")
    log = start_log(data, "derivatives", room, "demo", ModelOptions(pace=0))
    session = ClassroomSession(room, "demo", ModelOptions(pace=0), log=log)
    async for _ in learner_turn(session, f"What is a derivative? {LINK}"):
        pass
    session.close()
    app = ClassroomApp(room, SessionRecipe("demo", ModelOptions(pace=0), data_dir=data, classroom_name="derivatives"))
    async with app.run_test(size=(150, 44)) as pilot:
        await ready(pilot)
        listed = await _palette(pilot, "resume")
        assert "Resume session" in listed and "[link=" in listed
        assert app.is_running


def test_the_bytes_written_to_a_real_terminal_hold_no_hostile_sequence(tmp_path: Path) -> None:
    room, script = hostile_classroom(tmp_path), hostile_script(tmp_path)
    code, written = run_in_pty([str(room), "--model", f"script:{script}", "--data-dir", str(tmp_path / "data")],
                                [(b"first?\r", 3), (b"\x10", 1.5), (b"Persona", 1.5), (b"\x1b", 1), (b"\x11", 3)])
    assert code == 0
    assert len(written) > 10_000  # the room was drawn
    assert_inert_bytes(written)
    assert MARKUP.encode() in written and b"[link=https://evil.example]x[/link]" in written


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_markup_only_apis_get_text_that_reads_literally(text: str) -> None:
    assert Content.from_markup(as_markup(text, None)).plain == one_line(text)


async def test_a_key_streamed_in_pieces_never_shows_in_the_app(tmp_path: Path) -> None:
    key = "sk-test-SECRET-0123456789"
    speech = json.dumps([{"type": "text", "content": f"The key is {key}, keep it safe."}])
    script = {"chunk_size": 3, "director": [json.dumps({"next_agent": "teacher"}), '{"next_agent": "USER"}'],
              "agents": {"teacher": [speech]}}
    path = tmp_path / "script.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    app = ClassroomApp(classroom(), SessionRecipe(f"script:{path}", ModelOptions(api_key=key)))
    async with app.run_test(size=(150, 44)) as pilot:
        await ready(pilot)
        await say(pilot, "What is it?")
        await finish_turn(pilot)
        await pilot.press("f2")
        await pilot.pause(0.3)
        screen = _screen_text(app)
        assert "The key is ***" in screen and key not in screen and key[:8] not in screen
        assert key not in json.dumps([t.model_dump() for t in app.room.view.trace])


async def test_a_notification_never_shows_the_key() -> None:
    key = "sk-test-SECRET-0123456789"
    app = ClassroomApp(classroom(), SessionRecipe("demo", ModelOptions(api_key=key)))
    async with app.run_test(size=(150, 44)) as pilot:
        await ready(pilot)
        app.notify(f"the server said: bad key {key}", title=f"about {key}")
        await pilot.pause(0.3)
        shown = [(n.message, n.title) for n in app._notifications]
        assert ("the server said: bad key ***", "about ***") in shown
        assert key not in _screen_text(app)
