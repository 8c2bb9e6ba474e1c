"""Drawing row by row (issue 51's redraw while a message streams): a streaming message and a worked simulation draw
again only the rows that changed; a message drawn so is still selected by its rows and columns; the app keeps
its long-lived objects out of the collector's full passes and draws at up to 120 frames a second."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

from textual.geometry import Offset
from textual.selection import Selection

from maic_tui.scenes.live_state import SceneChange
from maic_tui.tui.widgets.board_pane import BoardPane
from maic_tui.tui.widgets.message_view import MessageView
from tests.engine_helpers import classroom, pick, text
from tests.tui.helpers import demo_app, ready, script_app, wait_for
from tests.tui.helpers import say as send

SECANT = 3
PARAGRAPHS = "\n\n".join(f"Paragraph {n}: the secant turns into the tangent as h shrinks." for n in range(10))


async def test_a_streaming_message_draws_again_only_the_rows_that_changed(tmp_path: Path) -> None:
    script = {"chunk_size": 3, "director": [pick("teacher"), pick("USER")],
              "agents": {"teacher": [{"text": text(PARAGRAPHS), "delay_ms": 15}]}}
    app = script_app(tmp_path, script, classroom())
    async with app.run_test(size=(110, 70)) as pilot:
        await ready(pilot)
        await send(pilot, "Tell me")
        await wait_for(pilot, lambda: "Paragraph 5" in "".join(v.rendered for v in app.query(MessageView)))
        await pilot.pause(0.05)
        view = app.query_one(MessageView)
        rows = view.rows
        last_blank = max(y for y, row in enumerate(rows.rows) if not row.plain)
        before = [rows.drawn(y) for y in range(last_blank)]
        assert all(before), "every row of the message is on screen, so drawn"
        shown = len(view.rendered)
        await wait_for(pilot, lambda: len(view.rendered) > shown + 20)  # the last paragraph grew
        await pilot.pause(0.05)
        assert view.entry.streaming
        # The finished paragraphs were not drawn again: the very same strips.
        assert all(rows.drawn(y) is before[y] for y in range(last_blank))


async def test_a_message_drawn_row_by_row_is_selected_by_its_rows_and_columns(tmp_path: Path) -> None:
    script = {"director": [pick("teacher"), pick("USER")], "agents": {"teacher": [{"text": text(PARAGRAPHS)}]}}
    app = script_app(tmp_path, script, classroom())
    async with app.run_test(size=(110, 70)) as pilot:
        await ready(pilot)
        await send(pilot, "Tell me")
        await wait_for(pilot, lambda: any(v.current and "Paragraph 9" in v.rendered and not v.entry.streaming
                                          for v in app.query(MessageView)))
        await pilot.pause(0.05)
        view = app.query_one(MessageView)
        region = view.content_region
        row = next(y for y, line in enumerate(view.rows.rows) if line.plain.startswith("Paragraph 2"))
        widget, offset = app.screen.get_widget_and_offset_at(region.x + 4, region.y + row)
        assert widget is view and offset == Offset(4, row)  # where a mouse selection starts
        app.screen.selections = {view: Selection(Offset(0, row), Offset(11, row))}
        await pilot.pause(0.05)
        assert app.screen.get_selected_text() == "Paragraph 2"


async def test_a_variable_changed_draws_again_only_the_panes_rows_that_changed() -> None:
    app = demo_app()
    async with app.run_test(size=(150, 44)) as pilot:
        await ready(pilot)
        app.room.go_to_scene(SECANT)
        pane = app.query_one(BoardPane)
        await wait_for(pilot, lambda: "gap h" in "".join(line.plain for line in pane.shown_lines()))
        await pilot.pause(0.05)
        rows = pane.rows
        before_text = [line.plain for line in rows.rows]
        before = [rows.drawn(y) for y in range(len(rows))]
        app.room.the_class.work(SECANT, SceneChange("set", "h", 0.4))
        await wait_for(pilot, lambda: [line.plain for line in rows.rows] != before_text)
        await pilot.pause(0.05)
        after_text = [line.plain for line in rows.rows]
        kept = [y for y in range(len(rows)) if after_text[y] == before_text[y] and before[y] is not None]
        redrawn = [y for y in range(len(rows)) if after_text[y] != before_text[y]]
        assert kept and redrawn
        assert all(rows.drawn(y) is before[y] for y in kept)  # the slide above the plot was not drawn again
        assert all(rows.drawn(y) is not before[y] for y in redrawn)


async def test_what_the_app_built_is_kept_out_of_the_collectors_full_passes_once_the_class_is_ready() -> None:
    gc.unfreeze()  # an app of an earlier test may have frozen them already
    assert gc.get_freeze_count() == 0
    app = demo_app()
    async with app.run_test() as pilot:
        await ready(pilot)
        await pilot.pause(0.05)
        assert gc.get_freeze_count() > 0


def _frame_rate(environment: dict[str, str]) -> str:
    code = "import maic_tui.tui, textual.constants as c; print(c.MAX_FPS)"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env=environment).stdout.strip()


def test_the_app_draws_at_up_to_120_frames_a_second_unless_the_user_said_otherwise() -> None:
    environment = {k: v for k, v in os.environ.items() if k != "TEXTUAL_FPS"}
    assert _frame_rate(environment) == "120"
    assert _frame_rate({**environment, "TEXTUAL_FPS": "30"}) == "30"
