"""The whiteboard reducer: defaults, ids, code edits (A.5), conflicts (C.8), history (A.7), replay."""

from __future__ import annotations

from typing import Any

import pytest

from maic_tui.whiteboard import Whiteboard
from maic_tui.whiteboard.elements import (
    ChartElement,
    CodeElement,
    LatexElement,
    LineElement,
    ShapeElement,
    TableElement,
    TextElement,
)

TEXT = {"content": "Hello", "x": 10, "y": 20}


def board_with(*actions: tuple[str, dict[str, Any]]) -> Whiteboard:
    board = Whiteboard()
    for name, params in actions:
        result = board.apply(name, params)
        assert result.ok, (name, result.reason)
    return board


# --- defaults and element models --------------------------------------------------------------------


def test_draw_text_defaults_and_auto_open() -> None:
    board = Whiteboard()
    assert not board.is_open
    result = board.apply("wb_draw_text", TEXT)
    assert result.ok and board.is_open
    (element,) = board.elements
    assert isinstance(element, TextElement)
    assert (element.id, element.left, element.top, element.width, element.height) == ("text_1", 10, 20, 400, 100)
    assert (element.font_size, element.color) == (18, "#333333")
    assert result.params["elementId"] == "text_1" and result.params["fontSize"] == 18


@pytest.mark.parametrize(
    ("name", "params", "kind", "checks"),
    [
        ("wb_draw_shape", {"shape": "circle", "x": 1, "y": 2, "width": 3, "height": 4}, ShapeElement,
         {"fill": "#5b9bd5", "shape": "circle"}),
        ("wb_draw_shape", {"shape": "Square", "x": 1, "y": 2, "width": 3, "height": 4}, ShapeElement,
         {"shape": "rectangle"}),
        ("wb_draw_latex", {"latex": "x^2", "x": 0, "y": 0}, LatexElement,
         {"width": 400, "height": 80, "color": "#000000"}),
        ("wb_draw_code", {"language": "py", "code": "a\nb", "x": 0, "y": 0}, CodeElement,
         {"width": 500, "height": 300}),
        ("wb_draw_line", {"startX": 50, "startY": 80, "endX": 10, "endY": 20}, LineElement,
         {"left": 10, "top": 20, "stroke_width": 2, "style": "solid", "color": "#333333", "end_marker": ""}),
        ("wb_draw_table", {"x": 0, "y": 0, "width": 200, "height": 100, "data": [["h1", "h2"], [1, 2.5]]},
         TableElement, {"cells": (("h1", "h2"), ("1", "2.5")), "outline_color": "#eeece1", "theme_color": None}),
        ("wb_draw_chart", {"chartType": "pie", "x": 0, "y": 0, "width": 300, "height": 200,
                           "data": {"labels": ["a", "b"], "series": [[1, 2]]}}, ChartElement,
         {"legends": ("Series 1",), "theme_colors": ("#5b9bd5", "#ed7d31", "#a5a5a5", "#ffc000", "#4472c4")}),
    ],
)
def test_draw_defaults(name: str, params: dict, kind: type, checks: dict) -> None:
    board = board_with((name, params))
    (element,) = board.elements
    assert isinstance(element, kind)
    for attribute, expected in checks.items():
        assert getattr(element, attribute) == expected, attribute


def test_text_that_is_a_formula_becomes_latex() -> None:
    board = board_with(
        ("wb_draw_text", {"content": "$E = mc^2$", "x": 0, "y": 0}),
        ("wb_draw_text", {"content": "\\omega_{out} = \\frac{a}{b}", "x": 0, "y": 100}),
        ("wb_draw_text", {"content": "Files live in C:\\temp\\frac", "x": 0, "y": 200}),
        ("wb_draw_text", {"content": "Prose that mentions \\alpha once is still a sentence here", "x": 0, "y": 300}),
    )
    kinds = [type(e) for e in board.elements]
    assert kinds == [LatexElement, LatexElement, TextElement, TextElement]
    assert board.elements[0].latex == "E = mc^2"  # type: ignore[union-attr]


def test_latex_damaged_by_json_escapes_is_repaired() -> None:
    board = board_with(("wb_draw_latex", {"latex": "\theta + \nabla f + \x0crac{1}{2}", "x": 0, "y": 0}))
    assert board.elements[0].latex == "\\theta + \\nabla f + \\frac{1}{2}"  # type: ignore[union-attr]


# --- rejection --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "params", "reason"),
    [
        ("wb_draw_text", {"x": 1, "y": 2}, "invalid_params: content"),
        ("wb_draw_text", {"content": "a", "x": "left", "y": 2}, "invalid_params: x"),
        ("wb_draw_text", {"content": "a", "x": True, "y": 2}, "invalid_params: x"),
        ("wb_draw_text", {"content": "a", "x": 1, "y": 2, "width": -5}, "invalid_params: width"),
        ("wb_draw_text", {"content": "a", "x": 1, "y": 2, "color": "blurple"}, "invalid_params: color"),
        ("wb_draw_shape", {"shape": "hexagon", "x": 1, "y": 2, "width": 3, "height": 4}, "invalid_params: shape"),
        ("wb_draw_table", {"x": 0, "y": 0, "width": 9, "height": 9, "data": [["a", "b"], ["c"]]},
         "invalid_params: data"),
        ("wb_draw_chart", {"chartType": "bar", "x": 0, "y": 0, "width": 9, "height": 9,
                           "data": {"labels": ["a"], "series": [[1, 2]]}}, "invalid_params: data"),
        ("wb_draw_line", {"startX": 0, "startY": 0, "endX": 1}, "invalid_params: endY"),
        ("wb_draw_text", "not a dict", "invalid_params: params"),
        ("wb_delete", {"elementId": "ghost"}, "element_not_found: ghost"),
        ("wb_edit_code", {"elementId": "ghost", "operation": "delete_lines", "lineIds": ["L1"]},
         "element_not_found: ghost"),
        ("wb_clear", {}, "board_empty"),
        ("wb_fly", {}, "unknown_action: wb_fly"),
        ("spotlight", {"elementId": "x"}, "unknown_action: spotlight"),
    ],
)
def test_invalid_actions_are_rejected_and_change_nothing(name: str, params: Any, reason: str) -> None:
    board = Whiteboard()
    before = board.state()
    result = board.apply(name, params)
    assert not result.ok and result.reason == reason
    assert board.state() == before and not board.is_open


def test_duplicate_element_id_rejected() -> None:
    board = board_with(("wb_draw_text", {**TEXT, "elementId": "t1"}))
    before = board.state()
    result = board.apply("wb_draw_latex", {"latex": "x", "x": 0, "y": 0, "elementId": "t1"})
    assert (result.ok, result.reason) == (False, "element_id_conflict: t1")
    assert board.state() == before


def test_generated_ids_skip_ids_already_taken() -> None:
    board = board_with(
        ("wb_draw_text", {**TEXT, "elementId": "text_1"}),
        ("wb_draw_text", {**TEXT, "content": "Another line"}),
        ("wb_draw_latex", {"latex": "x", "x": 0, "y": 0}),
    )
    assert [e.id for e in board.elements] == ["text_1", "text_2", "latex_1"]


def test_drawing_the_same_element_again_keeps_one_copy_and_a_replay_of_it_agrees() -> None:
    board = Whiteboard()
    first = board.apply("wb_draw_text", TEXT)
    again = board.apply("wb_draw_text", TEXT)
    assert first.ok and again.ok and again.element_id == first.element_id
    assert len(board.elements) == 1
    moved = board.apply("wb_draw_text", {**TEXT, "x": TEXT.get("x", 0) + 200})
    assert moved.ok and len(board.elements) == 2  # same words elsewhere are a new element
    replayed = Whiteboard()
    for result in (first, again, moved):
        assert replayed.apply("wb_draw_text", result.params).ok
    assert replayed.elements == board.elements


def test_delete_open_close() -> None:
    board = board_with(("wb_draw_text", TEXT), ("wb_draw_text", {**TEXT, "content": "Another line"}),
                       ("wb_delete", {"elementId": "text_1"}))
    assert [e.id for e in board.elements] == ["text_2"]
    assert board.apply("wb_close").ok and not board.is_open
    assert board.apply("wb_close").ok  # closing a closed board is harmless
    assert board.apply("wb_open").ok and board.is_open


# --- code edits (OpenMAIC's newer anchoring, fixed) ------------------------------------------------------


def code_board(contents: str) -> Whiteboard:
    return board_with(("wb_draw_code", {"language": "text", "code": contents, "x": 0, "y": 0, "elementId": "c"}))


def lines(board: Whiteboard) -> list[tuple[str, str]]:
    element = board.get("c")
    assert isinstance(element, CodeElement)
    return [(line.id, line.content) for line in element.lines]


def test_code_lines_get_ids_l1_to_ln() -> None:
    board = code_board("A\nB\nC")
    assert lines(board) == [("L1", "A"), ("L2", "B"), ("L3", "C")]
    assert board.apply("wb_draw_code", {"language": "x", "code": "q", "x": 0, "y": 0}).params["lineIds"] == ["L1"]


@pytest.mark.parametrize(
    ("code", "edit", "expected_contents"),
    [
        ("A\nB\nC\nD\nE", {"operation": "replace_lines", "lineIds": ["L4", "L2"], "content": "X"}, "A X C E"),
        ("A\nB", {"operation": "insert_after", "lineId": "L1", "content": "X"}, "A X B"),
        ("A\nB", {"operation": "insert_before", "lineId": "L2", "content": "X"}, "A X B"),
        ("A\nB\nC", {"operation": "delete_lines", "lineIds": ["L2"]}, "A C"),
        ("A\nB\nC", {"operation": "replace_lines", "lineIds": ["L2", "L3"], "content": ""}, "A"),
        ("A\nB\nC", {"operation": "replace_lines", "lineIds": ["L2"], "content": "X\nY\nZ"}, "A X Y Z C"),
    ],
)
def test_code_edit_vectors(code: str, edit: dict, expected_contents: str) -> None:
    board = code_board(code)
    assert board.apply("wb_edit_code", {"elementId": "c", **edit}).ok
    assert " ".join(content for _, content in lines(board)) == expected_contents


def test_replace_reuses_the_replaced_id() -> None:
    board = code_board("A\nB\nC")
    result = board.apply("wb_edit_code", {"elementId": "c", "operation": "replace_lines", "lineIds": ["L2"],
                                          "content": "X"})
    assert lines(board) == [("L1", "A"), ("L2", "X"), ("L3", "C")]
    assert result.params["newLineIds"] == ["L2"]


def test_new_line_ids_are_deterministic_and_never_reused() -> None:
    board = code_board("A\nB")
    board.apply("wb_edit_code", {"elementId": "c", "operation": "insert_after", "lineId": "L2", "content": "C\nD"})
    board.apply("wb_edit_code", {"elementId": "c", "operation": "delete_lines", "lineIds": ["L4"]})
    board.apply("wb_edit_code", {"elementId": "c", "operation": "insert_before", "lineId": "L1", "content": "Z"})
    assert lines(board) == [("L5", "Z"), ("L1", "A"), ("L2", "B"), ("L3", "C")]


@pytest.mark.parametrize(
    ("edit", "reason"),
    [
        ({"operation": "insert_after", "lineId": "NOPE", "content": "X"}, "code_line_not_found: NOPE"),
        ({"operation": "replace_lines", "lineIds": ["NOPE"], "content": "X"}, "code_line_not_found: NOPE"),
        ({"operation": "replace_lines", "lineIds": ["L1", "NOPE"], "content": "X"}, "code_line_not_found: NOPE"),
        ({"operation": "delete_lines", "lineIds": []}, "invalid_params: lineIds"),
        ({"operation": "insert_after", "content": "X"}, "invalid_params: lineId"),
        ({"operation": "insert_after", "lineId": "L1", "content": ""}, "invalid_params: content"),
        ({"operation": "rewrite", "lineIds": ["L1"]}, "invalid_params: operation"),
    ],
)
def test_invalid_code_edits_are_no_ops(edit: dict, reason: str) -> None:
    board = code_board("A\nB")
    before = board.state()
    result = board.apply("wb_edit_code", {"elementId": "c", **edit})
    assert (result.ok, result.reason) == (False, reason)
    assert board.state() == before


def test_edit_code_on_non_code_element() -> None:
    board = board_with(("wb_draw_text", {**TEXT, "elementId": "t"}))
    result = board.apply("wb_edit_code", {"elementId": "t", "operation": "delete_lines", "lineIds": ["L1"]})
    assert result.reason == "not_a_code_element: t"


# --- summary ----------------------------------------------------------------------------------------


def test_summary_lists_elements_and_code_line_ids() -> None:
    assert Whiteboard().summary() == "(empty)"
    board = board_with(
        ("wb_draw_text", {**TEXT, "elementId": "t"}),
        ("wb_draw_code", {"language": "python", "code": "x = 1\nprint(x)", "x": 500, "y": 0, "fileName": "a.py"}),
        ("wb_draw_line", {"startX": 0, "startY": 500, "endX": 100, "endY": 500, "points": ["", "arrow"]}),
    )
    assert board.summary().splitlines() == [
        '[id:t] text: "Hello" at (10,20) size 400x100',
        '[id:code_1] code "a.py" (python, 2 lines) at (500,0) size 500x300',
        "    L1: x = 1",
        "    L2: print(x)",
        "[id:line_1] arrow (0,500) → (100,500)",
    ]
