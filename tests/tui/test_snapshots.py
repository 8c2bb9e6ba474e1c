"""Snapshot tests (pytest-textual-snapshot): the main screen mid-turn, and a board with every element type.

Update after an intended visual change with ``pytest tests/tui/test_snapshots.py --snapshot-update`` and
look at the SVGs before committing them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from maic_tui.events import ActionData, ActionEvent
from maic_tui.tui.app import ClassroomApp
from maic_tui.tui.widgets.board_pane import BoardPane
from maic_tui.tui.widgets.composer import Composer
from tests.board_samples import EVERY_ELEMENT, every_element_board
from tests.engine_helpers import act, classroom, items, pick, say
from tests.tui.helpers import ready, script_app, wait_for
from tests.tui.helpers import say as send


def _mid_turn_app(tmp_path: Path) -> ClassroomApp:
    teacher = items(act("wb_open"), act("wb_draw_latex", latex=r"f'(x) = \lim_{h \to 0} \frac{f(x+h)-f(x)}{h}",
                                        x=60, y=60, width=600, height=80),
                    say("The derivative is the **slope** of the tangent line."),
                    act("wb_draw_shape", shape="circle", x=700, y=250, width=200, height=200),
                    say("Shrink *h* and the secant turns into the tangent."))
    # Kim's answer never arrives while the snapshot is taken: the turn is caught in the middle.
    script = {"director": [pick("teacher"), pick("kim")],
              "agents": {"teacher": [teacher], "kim": [{"text": items(say("Wait, why")), "delay_ms": 600000}]}}
    return script_app(tmp_path, script, classroom(), theme="chalkboard")


@pytest.mark.parametrize("size", [(80, 24), (130, 36), (200, 50)], ids=["80x24", "130x36", "200x50"])
def test_main_screen_mid_turn(snap_compare: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    app = _mid_turn_app(tmp_path)

    async def run_before(pilot: Pilot[Any]) -> None:
        await ready(pilot)
        app.query_one(Composer).cursor_blink = False  # a blinking cursor would make the picture flaky
        await send(pilot, "What is a derivative?")
        await wait_for(pilot, lambda: app.room.view.status.get("kim") == "speaking")
        await pilot.pause(0.3)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_board_with_every_element_type(snap_compare: Any, tmp_path: Path) -> None:
    app = script_app(tmp_path, {"director": [], "agents": {}}, classroom(), theme="midnight")
    board = every_element_board()

    async def run_before(pilot: Pilot[Any]) -> None:
        await ready(pilot)
        # Replay the actions as events, the way the engine delivers them (ids already assigned).
        for number, (name, params) in enumerate(EVERY_ELEMENT, start=1):
            applied = {**params, "elementId": board.elements[number - 1].id}
            app.room.view.apply(ActionEvent(data=ActionData(action_id=f"a{number}", action_name=name, params=applied,
                                                       agent_id="teacher", message_id="m0")))
        app.room.flush()
        app.room.action_maximize_board()
        await pilot.pause(0.3)
        assert len(app.room.view.board.elements) == len(EVERY_ELEMENT)
        assert app.query_one(BoardPane).showing_board

    assert snap_compare(app, terminal_size=(150, 48), run_before=run_before)
