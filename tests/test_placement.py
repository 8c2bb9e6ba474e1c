"""A drawing asked for a taken spot goes to the nearest free place (Q&A does not draw over the lecture), and the
event carries where it went, so the view and a replay draw the same board."""

from __future__ import annotations

import asyncio
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from maic_tui.events import ActionEvent
from maic_tui.whiteboard import Whiteboard
from maic_tui.whiteboard.conflicts import find_conflicts
from maic_tui.whiteboard.placement import placed
from tests.engine_helpers import classroom, pick, play, script_session

TEXT = {"content": "slope = rise / run", "x": 100, "y": 100, "width": 300, "height": 80}


def _board() -> Whiteboard:
    board = Whiteboard()
    assert board.apply("wb_draw_text", {**TEXT, "elementId": "lecture"}).ok
    return board


def test_a_free_spot_is_kept_and_a_taken_one_moves_to_the_nearest_free_place() -> None:
    board = _board()
    free = {**TEXT, "y": 300}
    assert placed(free, board.elements) == free
    moved = placed({**TEXT, "x": 120, "y": 110}, board.elements)
    assert (moved["x"], moved["y"]) != (120, 110) and moved["width"] == 300
    assert board.apply("wb_draw_text", moved).ok and not find_conflicts(board.elements)
    assert abs(moved["x"] - 120) + abs(moved["y"] - 110) < 300  # near where it was asked for, not anywhere


def test_redrawing_an_element_in_its_own_place_is_not_moved_and_no_box_is_left_alone() -> None:
    board = _board()
    assert placed({**TEXT, "elementId": "lecture"}, board.elements)["x"] == 100
    line = {"startX": 0, "startY": 0, "endX": 500, "endY": 500}
    assert placed(line, board.elements) == line


@given(st.lists(st.tuples(st.integers(0, 900), st.integers(0, 500)), min_size=1, max_size=8))
def test_placed_drawings_never_overlap_while_there_is_room(spots: list[tuple[int, int]]) -> None:
    board = Whiteboard()
    for x, y in spots:
        params = placed({"content": "x", "x": x, "y": y, "width": 100, "height": 50}, board.elements)
        assert board.apply("wb_draw_text", params).ok
    assert not [c for c in find_conflicts(board.elements) if c.startswith("OVERLAP")]


def test_an_agent_drawing_over_the_board_is_moved_in_its_event(tmp_path: Path) -> None:
    from tests.engine_helpers import act, items, say

    room = classroom()
    lead = room.lead()
    assert lead is not None
    first = items(say("Here."), act("wb_draw_text", **TEXT))
    second = items(say("And here."), act("wb_draw_text", **{**TEXT, "content": "q&a note"}))
    script = {"director": [pick(lead.id), pick("USER"), pick(lead.id), pick("USER")],
              "agents": {lead.id: [first, second]}}
    session = script_session(tmp_path, script, room)
    asyncio.run(play(session, "draw"))
    events = asyncio.run(play(session, "again"))
    drawn = next(e for e in events if isinstance(e, ActionEvent))
    assert (drawn.data.params["x"], drawn.data.params["y"]) != (100, 100)
    assert not find_conflicts(session.board.elements)
