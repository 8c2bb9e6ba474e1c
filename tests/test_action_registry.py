"""Each action's schema is the one source of what its parameters are: the prompt's documentation, the
chips and the ledger lines come from it, and a model that follows the documentation is never rejected."""

from __future__ import annotations

import re

import pytest

from maic_tui.actions import ACTION_SCHEMAS, ALL_ACTIONS, InvalidAction, action_chip, action_summary, parse_params
from maic_tui.actions.docs import action_doc, describe_actions, required_params
from maic_tui.whiteboard import Whiteboard

# A plausible value for every parameter a schema may call required, by its wire name.
VALUES = {"content": "hi", "x": 100, "y": 100, "shape": "circle", "chartType": "bar", "latex": "x^2",
          "language": "python", "code": "print(1)", "startX": 10, "startY": 10, "endX": 200, "endY": 200,
          "elementId": "e1", "operation": "delete_lines", "target": "h", "state": {"h": 1}}
DATA = {"wb_draw_chart": {"labels": ["a", "b"], "series": [[1, 2]]}, "wb_draw_table": [["h1", "h2"], ["1", "2"]]}


def _required_only(name: str) -> dict[str, object]:
    keys = required_params(ACTION_SCHEMAS[name])
    return {key: DATA[name] if key == "data" else VALUES[key] for key in keys}


def _documented_required(name: str) -> list[str]:
    """The top-level parameters the prompt's line presents without a "?"."""
    body = action_doc(name).split("params {", 1)[1][:-1]
    depth, top = 0, []
    for char in body:
        depth += (char in "{[" and 1) or 0
        depth -= (char in "}]" and 1) or 0
        top.append(char if depth == 0 else " ")
    return re.findall(r'"(\w+)": ', "".join(top))


@pytest.mark.parametrize("name", ALL_ACTIONS)
def test_every_action_accepts_exactly_what_its_documentation_calls_required(name: str) -> None:
    documented = _documented_required(name)
    assert documented == required_params(ACTION_SCHEMAS[name])
    parse_params(name, _required_only(name))  # what the documentation asks for is enough
    for key in documented:  # and each of it is needed
        short = {k: v for k, v in _required_only(name).items() if k != key}
        with pytest.raises(InvalidAction, match=f"invalid_params: {key}"):
            parse_params(name, short)


@pytest.mark.parametrize("name", ALL_ACTIONS)
def test_the_documentation_names_every_parameter_the_schema_reads(name: str) -> None:
    doc = action_doc(name)
    for key, field in ACTION_SCHEMAS[name].model_fields.items():
        assert f'"{field.alias or key}"' in doc
    assert ACTION_SCHEMAS[name].PURPOSE and ACTION_SCHEMAS[name].CHIP
    assert f"- {name}: {doc}" in describe_actions(ALL_ACTIONS)


@pytest.mark.parametrize(("name", "size"), [("wb_draw_shape", (100, 100)), ("wb_draw_chart", (350, 250)),
                                            ("wb_draw_table", (400, 20 + 40 * 2)), ("wb_draw_text", (400, 100)),
                                            ("wb_draw_latex", (400, 80)), ("wb_draw_code", (500, 300))])
def test_a_draw_without_a_size_gets_its_kinds_default_and_is_placed(name: str, size: tuple[int, int]) -> None:
    board = Whiteboard()
    result = board.apply(name, _required_only(name))
    assert result.ok, result.reason
    (element,) = board.elements
    assert (element.width, element.height) == size
    assert (result.params["width"], result.params["height"]) == size  # the event says what was applied


def test_a_table_grows_with_its_rows_when_no_height_is_given() -> None:
    board = Whiteboard()
    rows = [["n", "n²"], *([str(i), str(i * i)] for i in range(1, 6))]
    assert board.apply("wb_draw_table", {"x": 10, "y": 10, "data": rows}).ok
    assert board.elements[0].height == 20 + 40 * len(rows)


def test_chips_and_ledger_lines_come_from_the_schemas() -> None:
    arrow = {"startX": 0, "startY": 0, "endX": 5, "endY": 5, "points": ["", "arrow"], "elementId": "line_1"}
    assert action_chip("wb_draw_line", arrow) == "✎ arrow [line_1]"
    assert action_summary("wb_draw_line", arrow) == "drew arrow"
    assert action_chip("wb_clear", {}) == ACTION_SCHEMAS["wb_clear"].CHIP
    assert action_summary("wb_draw_shape", {"shape": "circle"}) == "drew shape(circle)"  # a partial record
    assert action_summary("spotlight", {"elementId": "t1"}) is None


def test_every_kind_is_built_and_drawn_through_one_table_each() -> None:
    from maic_tui.whiteboard.board import BUILDERS
    from maic_tui.whiteboard.elements import ELEMENT_TYPES
    from maic_tui.whiteboard.render.board_drawing import DRAWERS

    draws = {ACTION_SCHEMAS[name] for name in ALL_ACTIONS if name.startswith("wb_draw_")}
    assert set(BUILDERS) == draws
    assert set(DRAWERS) == set(ELEMENT_TYPES)
