"""A widget worked while a message streams (issue 51): the learner's changes come first, the transcript catches up
at most eight times a second meanwhile and in full once they stop; a message that grows is laid out once."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from maic_tui.classroom import load_classroom
from maic_tui.scenes.live_state import SceneChange
from maic_tui.tui.widgets.message_view import MessageView
from maic_tui.tui.widgets.room_body import WORKING_FRAME_SECONDS
from maic_tui.tui.widgets.transcript import Transcript
from tests.engine_helpers import classroom, pick, text
from tests.tui.helpers import ready, script_app, wait_for
from tests.tui.helpers import say as send

SECANT = 3
LONG = "\n\n".join(f"Paragraph {n}: the secant turns into the tangent as h shrinks, step by step." for n in range(40))


async def test_the_transcript_waits_its_turn_while_the_learner_works_a_widget_and_catches_up_after(
        tmp_path: Path) -> None:
    script = {"chunk_size": 4, "director": [pick("reyes"), pick("USER")],
              "agents": {"reyes": [{"text": text(LONG), "delay_ms": 5}]}}
    app = script_app(tmp_path, script, load_classroom("derivatives"))
    async with app.run_test(size=(150, 44)) as pilot:
        await ready(pilot)
        app.room.go_to_scene(SECANT)
        await send(pilot, "Tell me about slopes")
        await wait_for(pilot, lambda: any(v.entry.streaming for v in app.query(MessageView)))
        syncs: list[float] = []
        transcript = app.query_one(Transcript)
        original = transcript.sync

        def counted(*args: Any) -> None:
            syncs.append(asyncio.get_running_loop().time())
            original(*args)

        transcript.sync = counted  # type: ignore[method-assign]
        began = asyncio.get_running_loop().time()
        for k in range(30):  # a learner holding an arrow key: a change every 30 ms for about a second
            app.room.the_class.work(SECANT, SceneChange("set", "h", round(0.1 + (k % 10) * 0.1, 2)))
            await pilot.pause(0.03)
        working = asyncio.get_running_loop().time() - began
        during = [t for t in syncs if t <= began + working]
        assert len(during) <= working / WORKING_FRAME_SECONDS + 2, (len(during), working)
        assert app.room.turn_running, "the message streamed all the while"
        await wait_for(pilot, lambda: not app.room.turn_running, timeout=30)
        await pilot.pause(0.3)
        shown = list(app.query(MessageView))
        assert shown and all(v.current for v in shown)  # every word the class said is on screen once they stop
        assert "Paragraph 39" in shown[-1].rendered


async def test_a_message_that_grows_is_laid_out_once_per_growth(tmp_path: Path) -> None:
    script = {"chunk_size": 6, "director": [pick("teacher"), pick("USER")],
              "agents": {"teacher": [{"text": text(LONG), "delay_ms": 20}]}}
    app = script_app(tmp_path, script, classroom())
    async with app.run_test(size=(100, 40)) as pilot:
        await ready(pilot)
        await send(pilot, "Tell me")
        await wait_for(pilot, lambda: any(v.entry.streaming and len(v.rows) > 5 for v in app.query(MessageView)))
        view = next(v for v in app.query(MessageView) if v.entry.streaming)
        layouts = 0
        screen = app.screen
        original = screen._refresh_layout

        def counted(*args: Any, **kwargs: Any) -> None:
            nonlocal layouts
            layouts += 1
            original(*args, **kwargs)

        screen._refresh_layout = counted  # type: ignore[method-assign]
        rows = len(view.rows)
        await wait_for(pilot, lambda: len(view.rows) >= rows + 12)
        grown = len(view.rows) - rows
        assert view.entry.streaming
        # One layout per growth at most (Textual's second one, for the size just found, is gone); frames that
        # only draw the streaming row are no layout at all.
        assert layouts <= grown + 3, (layouts, grown)
