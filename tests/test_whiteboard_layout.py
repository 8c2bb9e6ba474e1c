"""Conflict detection, snapshot history and deterministic replay."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from maic_tui.whiteboard import Whiteboard
from maic_tui.whiteboard.conflicts import find_conflicts
from maic_tui.whiteboard.elements import LineElement, TableElement, TextElement


def text(left: float, top: float, width: float, height: float, element_id: str = "t1") -> TextElement:
    return TextElement(id=element_id, left=left, top=top, width=width, height=height, content="note")


def line(x1: float, y1: float, x2: float, y2: float) -> LineElement:
    return LineElement(id="ln", left=min(x1, x2), top=min(y1, y2), width=abs(x2 - x1), height=abs(y2 - y1),
                       start_x=x1, start_y=y1, end_x=x2, end_y=y2)


def table(left: float, top: float, width: float, height: float) -> TableElement:
    return TableElement(id="tb", left=left, top=top, width=width, height=height, cells=(("a",),))


def test_no_elements_no_conflicts() -> None:
    assert find_conflicts([]) == []
    assert Whiteboard().conflict_report() == ""


@pytest.mark.parametrize(
    "elements",
    [
        [text(20, 20, 200, 60), text(400, 200, 200, 60, "t2")],
        [text(0, 0, 100, 100), text(100, 0, 100, 100, "t2")],  # touching edges
        [text(100, 100, 200, 60), line(50, 50, 50, 400)],
        [text(0, 0, 100, 100), text(90, 0, 100, 100, "t2")],  # 10 % overlap
        [text(100, 100, 200, 60), line(50, 50, 400, 50)],  # line above
        [text(900, 100, 100, 60)],  # exactly on the right edge
        [text(100, 500, 100, 63)],  # exactly on the bottom edge
    ],
)
def test_clean_layouts(elements: list) -> None:
    assert find_conflicts(elements) == []


def test_contained_box_overlaps_fully() -> None:
    (found,) = find_conflicts([table(0, 0, 500, 400), text(50, 50, 100, 80)])
    assert found.startswith("OVERLAP") and "100%" in found


def test_half_overlap() -> None:
    (found,) = find_conflicts([text(0, 0, 100, 100), text(50, 0, 100, 100, "t2")])
    assert found.startswith("OVERLAP") and "50%" in found and "[t1]" in found and "[t2]" in found


@pytest.mark.parametrize("segment", [line(0, 130, 400, 130), line(50, 50, 200, 130)])
def test_line_crossing_or_ending_inside_a_box(segment: LineElement) -> None:
    (found,) = find_conflicts([text(100, 100, 200, 60), segment])
    assert found.startswith("LINE CROSSES") and "t1" in found


@pytest.mark.parametrize(
    ("element", "expected"),
    [
        (text(900, 100, 200, 60), "right edge by 100px"),
        (text(100, 500, 100, 80), "bottom edge by 17px"),
        (text(-10, 100, 50, 50), "left edge by 10px"),
        (text(10, -4.5, 50, 50), "top edge by 5px"),
    ],
)
def test_out_of_canvas(element: TextElement, expected: str) -> None:
    (found,) = find_conflicts([element])
    assert found.startswith("OUT OF CANVAS") and expected in found


def test_several_conflicts_in_one_block_in_order() -> None:
    board = Whiteboard()
    for params in (
        {"content": "a", "x": 0, "y": 0, "width": 100, "height": 100},
        {"content": "b", "x": 50, "y": 0, "width": 100, "height": 100},
        {"content": "c", "x": 950, "y": 100, "width": 200, "height": 60},
    ):
        assert board.apply("wb_draw_text", params).ok
    kinds = [c.split(":")[0] for c in board.conflicts()]
    assert kinds == ["OVERLAP", "OUT OF CANVAS"]
    report = board.conflict_report()
    assert report.count("\n  - ") == 2 and report.startswith("⚠ Layout Conflicts")


def test_element_missing_size_is_not_a_box() -> None:
    # Upstream skips elements without numeric sizes; here every element has one, and a zero-size line
    # (a point) only counts as a segment, never as a box.
    assert find_conflicts([line(10, 10, 10, 10), text(500, 300, 100, 60)]) == []


# --- history ----------------------------------------------------------------------------------------

TEXT = {"content": "x", "x": 0, "y": 0}


def test_clear_pushes_a_snapshot_and_restore_brings_it_back() -> None:
    board = Whiteboard()
    board.apply("wb_draw_text", TEXT)
    board.apply("wb_draw_latex", {"latex": "y", "x": 0, "y": 200})
    drawn = board.elements
    assert board.apply("wb_clear").ok and board.elements == ()
    assert len(board.history) == 1 and board.history[0].elements == drawn
    board.apply("wb_draw_text", TEXT)
    current = board.elements
    assert board.restore(0).ok and board.elements == drawn
    assert board.history[-1].elements == current  # the replaced content was saved, not lost
    assert not board.restore(5).ok


def test_history_keeps_twenty_and_skips_duplicates() -> None:
    board = Whiteboard()
    for i in range(25):
        board.apply("wb_draw_text", {**TEXT, "content": f"v{i}"})
        board.apply("wb_clear")
    assert len(board.history) == 20
    assert board.history[0].elements[0].content == "v5"  # type: ignore[union-attr]
    board.apply("wb_draw_text", {**TEXT, "content": "v24", "elementId": "text_25"})
    same = Whiteboard()
    assert not same.history.push(0, ())  # empty boards are never stored
    board.history.push(99, board.history[-1].elements)
    assert len(board.history) == 20  # an identical snapshot is not stored twice


# --- replay determinism -----------------------------------------------------------------------------

NUMBER = st.integers(-50, 1100)
ACTION = st.one_of(
    st.tuples(st.just("wb_draw_text"), st.fixed_dictionaries(
        {"content": st.sampled_from(["a", "b", "$x$"]), "x": NUMBER, "y": NUMBER},
        optional={"elementId": st.sampled_from(["t1", "t2", "text_1"])})),
    st.tuples(st.just("wb_draw_code"), st.fixed_dictionaries(
        {"language": st.just("py"), "code": st.sampled_from(["a", "a\nb\nc"]), "x": NUMBER, "y": NUMBER},
        optional={"elementId": st.sampled_from(["c1", "c2"])})),
    st.tuples(st.just("wb_edit_code"), st.fixed_dictionaries(
        {"elementId": st.sampled_from(["c1", "code_1"]),
         "operation": st.sampled_from(["insert_after", "insert_before", "delete_lines", "replace_lines"]),
         "lineId": st.sampled_from(["L1", "L2", "L4"]),
         "lineIds": st.lists(st.sampled_from(["L1", "L2", "L3", "L5"]), max_size=3),
         "content": st.sampled_from(["", "x", "y\nz"])})),
    st.tuples(st.just("wb_delete"), st.fixed_dictionaries({"elementId": st.sampled_from(["t1", "text_1", "c1"])})),
    st.tuples(st.sampled_from(["wb_clear", "wb_open", "wb_close"]), st.just({})),
    st.tuples(st.just("wb_draw_line"), st.fixed_dictionaries(
        {"startX": NUMBER, "startY": NUMBER, "endX": NUMBER, "endY": NUMBER})),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(ACTION, max_size=30))
def test_replaying_the_same_actions_gives_the_same_board(actions: list[tuple[str, dict[str, Any]]]) -> None:
    first, second = Whiteboard(), Whiteboard()
    first_results = [first.apply(name, dict(params)) for name, params in actions]
    second_results = [second.apply(name, dict(params)) for name, params in actions]
    assert first.state() == second.state()
    assert first_results == second_results
    assert len({e.id for e in first.elements}) == len(first.elements)  # ids stay unique
    # Replaying only the accepted actions with the params they were applied with reaches the same board.
    replay = Whiteboard()
    for (name, _), result in zip(actions, first_results, strict=True):
        if result.ok:
            assert replay.apply(name, result.params).ok
    assert replay.state()["elements"] == first.state()["elements"]
