"""At any pane size, no element is drawn over another's text: text, formulas, code, tables and charts keep
their cells (a cut ends in "…"), code and formulas take free room to be shown whole, small charts list their
values within their box, and the pane's title counts what can be seen."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.cells import cell_len

from maic_tui.whiteboard import Whiteboard
from maic_tui.whiteboard.render import draw_board, fitted_size
from maic_tui.whiteboard.render.board_drawing import CLAIMS
from maic_tui.whiteboard.render.canvas import BLOCKED, Canvas
from maic_tui.whiteboard.render.charts import chart_lines
from tests.board_samples import EVERY_ELEMENT
from tests.test_board_render import DARK, plain

PANES = [(38, 20), (61, 40), (96, 54), (160, 90)]  # the board at 80x24, 150x44, 220x60 and maximised

_place = st.fixed_dictionaries({"x": st.integers(0, 900), "y": st.integers(0, 500),
                                "width": st.integers(40, 600), "height": st.integers(20, 300)})
_words = st.text(alphabet="abcdefgh ", min_size=1, max_size=60).filter(str.strip)
_actions = st.one_of(
    st.tuples(st.just("wb_draw_text"), st.builds(lambda p, c: {**p, "content": c}, _place, _words)),
    st.tuples(st.just("wb_draw_latex"), st.builds(lambda p, c: {**p, "latex": c}, _place, _words)),
    st.tuples(st.just("wb_draw_code"), st.builds(lambda p, c: {**p, "code": c, "language": "python"}, _place,
                                                 _words)),
    st.tuples(st.just("wb_draw_shape"), st.builds(lambda p: {**p, "shape": "rectangle"}, _place)),
    st.tuples(st.just("wb_draw_line"), st.builds(lambda p: {"startX": p["x"], "startY": p["y"],
                                                            "endX": p["width"], "endY": p["height"]}, _place)),
    st.tuples(st.just("wb_draw_table"), st.builds(lambda p: {**p, "data": [["a", "b"], ["1", "2"]]}, _place)),
)


def _writes(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int, int, bool]]:
    """Every cell written while drawing: (x, y, element, claims)."""
    seen: list[tuple[int, int, int, bool]] = []
    original = Canvas.put

    def put(self: Canvas, x: int, y: int, char: str, style: Any = None, right: int | None = None) -> int:
        taken = original(self, x, y, char, style, right)
        if taken > 0:
            seen.append((x, y, self._drawing, self._claims))
        return taken

    monkeypatch.setattr(Canvas, "put", put)
    return seen


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(actions=st.lists(_actions, min_size=2, max_size=7), pane=st.sampled_from(PANES))
def test_no_element_ever_writes_over_another_elements_text(monkeypatch: pytest.MonkeyPatch,
                                                          actions: list[tuple[str, dict[str, Any]]],
                                                          pane: tuple[int, int]) -> None:
    board = Whiteboard()
    for name, params in actions:
        board.apply(name, params)
    seen = _writes(monkeypatch)
    cols, rows = fitted_size(*pane)
    draw_board(board.elements, cols, rows, DARK)
    owner: dict[tuple[int, int], int] = {}
    for x, y, element, claims in seen:
        assert owner.get((x, y), element) == element, ("overwrote", (x, y), owner[(x, y)], element)
        if claims:
            owner[(x, y)] = element


@pytest.mark.parametrize("pane", PANES)
def test_overlapping_text_is_cut_with_a_mark_never_mixed(pane: tuple[int, int]) -> None:
    board = Whiteboard()  # the formula runs into the text drawn before it, on the same row
    board.apply("wb_draw_text", {"content": "alpha alpha", "x": 500, "y": 40, "width": 400, "height": 60})
    board.apply("wb_draw_latex", {"latex": "z" * 80, "x": 40, "y": 40, "width": 900, "height": 60})
    drawn = draw_board(board.elements, *fitted_size(*pane), DARK)
    text = plain(drawn.lines)
    assert "alpha" in text and "zz" in text
    for line in text.splitlines():
        for word in re.split(r"[\s…]+", line):  # a word is one element's: never letters of both
            assert not (set(word) & set("alph") and "z" in word), line
    assert drawn.cut >= 1 and "…" in text and drawn.visible == 2


@pytest.mark.parametrize("pane", PANES[1:])
def test_code_takes_free_room_to_the_right_to_be_shown_whole(pane: tuple[int, int]) -> None:
    board = Whiteboard()
    line = "squares = [n * n for n in range(1, 6)]"
    board.apply("wb_draw_code", {"code": line, "language": "python", "x": 40, "y": 200, "width": 200, "height": 80})
    board.apply("wb_draw_line", {"startX": 500, "startY": 50, "endX": 500, "endY": 230})  # lines do not block
    assert line in plain(draw_board(board.elements, *fitted_size(*pane), DARK).lines)


@pytest.mark.parametrize(("cols", "rows"), [(19, 5), (12, 8), (30, 4)])
def test_a_chart_too_small_to_plot_lists_its_values_within_its_width(cols: int, rows: int) -> None:
    board = Whiteboard()
    board.apply("wb_draw_chart", {"chartType": "line", "x": 0, "y": 0, "width": 300, "height": 100,
                                  "data": {"labels": ["0s", "1s", "2s"], "legends": ["position (m)", "speed (m/s)"],
                                           "series": [[0, 1, 4], [0, 2, 4]]}})
    lines = chart_lines(board.elements[0], cols, rows, ("#ffffff", "#ff0000"))  # type: ignore[arg-type]
    assert all(line.cell_len <= cols for line in lines if "■" not in line.plain or cell_len(line.plain) <= cols)
    values = [line.plain for line in lines if ":" in line.plain]
    assert [v.split(":")[0] for v in values] == ["0s", "1s", "2s"] and all(len(v) <= cols for v in values)


def test_every_kind_that_holds_text_claims_its_cells() -> None:
    kinds = {name.removeprefix("wb_draw_") for name, _ in EVERY_ELEMENT}
    assert kinds - {"shape", "line"} == CLAIMS
    assert BLOCKED < 0
