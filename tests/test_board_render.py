"""The whiteboard and slides as terminal text: every element type, to scale, untrusted text inert."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from maic_tui.scenes.slide.model import SlideScene
from maic_tui.whiteboard import Whiteboard
from maic_tui.whiteboard.render import BoardPalette, Pointer, fitted_size, render_board, render_slide
from maic_tui.whiteboard.render.canvas import Canvas
from maic_tui.whiteboard.render.latex import to_unicode
from tests.board_samples import every_element_board

DARK = BoardPalette("#1f2335", "#e6e9f5", "#2a3050", True)
LIGHT = BoardPalette("#ffffff", "#1f2328", "#eceae4", False)


def plain(lines: list) -> str:  # type: ignore[type-arg]
    return "\n".join(line.plain for line in lines)


def board_with(*actions: tuple[str, dict]) -> Whiteboard:  # type: ignore[type-arg]
    board = Whiteboard()
    for name, params in actions:
        assert board.apply(name, params).ok
    return board


@pytest.mark.parametrize(("cols", "rows"), [(100, 100), (100, 10), (40, 40), (200, 30)])
def test_the_board_keeps_the_canvas_proportions_inside_the_pane(cols: int, rows: int) -> None:
    width, height = fitted_size(cols, rows)
    assert width <= cols and height <= rows
    # 1000 x 563 units, a cell twice as tall as wide: height ≈ width * 0.2815
    assert abs(height - width * 563 / 2000) <= 1
    assert width == cols or height == rows or abs(height - rows) <= 1


def test_every_element_type_is_drawn_and_lines_are_exactly_the_pane_width() -> None:
    lines = render_board(every_element_board().elements, 120, 34, DARK)
    assert len(lines) == 34 and all(line.cell_len == 120 for line in lines)
    text = plain(lines)
    for expected in ("Derivatives", "tangent", "f'(x) = lim", "╭", "╯",  # text, latex, rectangle
                     "slope.py", "L1", "def slope", "L4",  # code with line ids
                     "f(x) = x²", "┼",  # table
                     "→",  # arrow head
                     "x=1", "x=3", "█"):  # chart
        assert expected in text, expected
    assert any("\u2800" < ch <= "\u28ff" for ch in text)  # braille: circle, triangle, lines


def test_positions_scale_with_the_pane() -> None:
    board = board_with(("wb_draw_text", {"content": "MARK", "x": 500, "y": 281, "width": 200, "height": 60}))
    for cols in (60, 120, 240):
        rows = round(cols * 563 / 2000)
        lines = render_board(board.elements, cols, rows, DARK)
        row = next(i for i, line in enumerate(lines) if "MARK" in line.plain)
        column = lines[row].plain.index("MARK")
        assert column == cols // 2 and abs(row - rows / 2) <= 1


def test_dark_ink_turns_light_on_a_dark_board_and_stays_dark_on_a_light_one() -> None:
    board = board_with(("wb_draw_text", {"content": "ink", "x": 0, "y": 0}))
    for palette, dark in ((DARK, False), (LIGHT, True)):
        line = next(line for line in render_board(board.elements, 80, 22, palette) if "ink" in line.plain)
        style = next(span.style for span in line.spans if line.plain[span.start:span.end].strip() == "ink")
        color = style.color.get_truecolor()  # type: ignore[union-attr]
        assert (sum(color) < 300) == dark


@pytest.mark.parametrize("chart_type", ["bar", "column", "line", "area", "scatter", "pie", "ring", "radar"])
def test_every_chart_type_is_readable(chart_type: str) -> None:
    board = board_with(("wb_draw_chart", {"chartType": chart_type, "x": 0, "y": 0, "width": 1000, "height": 563,
                                          "data": {"labels": ["Mon", "Tue", "Wed"], "legends": ["Sales"],
                                                   "series": [[1, 3, 2]]}}))
    text = plain(render_board(board.elements, 80, 22, DARK))
    assert "Mon" in text and "Wed" in text
    if chart_type in ("pie", "ring"):
        assert "17%" in text and "50%" in text and "33%" in text
    if chart_type == "radar":
        assert "Sales 3" in text


def test_a_tiny_chart_falls_back_to_a_labelled_list() -> None:
    board = board_with(("wb_draw_chart", {"chartType": "line", "x": 0, "y": 0, "width": 100, "height": 60,
                                          "data": {"labels": ["a", "b"], "series": [[1, 2]]}}))
    assert "a" in plain(render_board(board.elements, 100, 28, DARK))


def test_untrusted_text_on_the_board_is_inert() -> None:
    hostile = "[red]x[/] \x1b[2Jgone \x1b]0;pwned\x07 ok"
    board = board_with(("wb_draw_text", {"content": hostile, "x": 0, "y": 0, "width": 900, "height": 100}),
                       ("wb_draw_table", {"x": 0, "y": 200, "width": 900, "height": 200,
                                          "data": [[hostile, "b"], ["c", "d"]]}),
                       ("wb_draw_code", {"language": "text", "code": hostile, "x": 0, "y": 420}))
    text = plain(render_board(board.elements, 160, 45, DARK))
    assert "[red]x[/]" in text and "\x1b" not in text and "pwned" not in text and "2J" not in text


def test_wide_characters_keep_the_grid() -> None:
    canvas = Canvas(10, 1)
    canvas.write(0, 0, "日本語abcdef")
    assert canvas.lines()[0].cell_len == 10
    canvas.write(1, 0, "x")  # overwrites the second half of 日: its first half goes blank
    assert canvas.lines()[0].plain.startswith(" x")


def test_latex_becomes_readable_unicode() -> None:
    assert to_unicode(r"x^{n-1}") == "xⁿ⁻¹"
    assert to_unicode(r"\frac{a+b}{c}") == "(a+b)/c"
    assert to_unicode(r"\sum_{i=1}^{n} i") == "∑ᵢ₌₁ⁿ i"
    assert to_unicode(r"\alpha \leq \infty") == "α≤∞"
    assert to_unicode(r"\int_0^1 x\,dx") == "∫₀¹ x dx"
    assert to_unicode(r"\frac{") == "()/()"  # broken input still gives an answer


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=60))
def test_any_formula_renders_without_control_characters(latex: str) -> None:
    out = to_unicode(latex)
    assert not any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in out)


SCENE = SlideScene.model_validate({"id": "s", "title": "Slopes", "elements": [
    {"type": "title", "id": "t", "text": "Derivatives"},
    {"type": "bullets", "id": "b", "items": ["one", "two"]},
    {"type": "formula", "id": "f", "latex": "x^2"},
    {"type": "image", "id": "i", "alt": "a tangent line"},
    {"type": "table", "id": "tb", "rows": [["x", "y"], ["1", "2"]]},
    {"type": "text", "id": "p", "text": "Closing words"},
]})


def test_a_slide_shows_every_element_type() -> None:
    text = plain(render_slide(SCENE, 60, 40, DARK))
    for expected in ("Derivatives", "• one", "x²", "🖼 a tangent line", "│x", "Closing words"):
        assert expected in text, expected


def test_spotlight_dims_the_other_elements_and_laser_marks_its_target() -> None:
    lines = render_slide(SCENE, 60, 40, DARK, Pointer("spotlight", "b"))
    bullet = next(line for line in lines if "• one" in line.plain)
    title = next(line for line in lines if "Derivatives" in line.plain)
    assert bullet.plain.startswith("▌") and not any(getattr(span.style, "dim", False) for span in bullet.spans)
    assert any(getattr(span.style, "dim", False) for span in title.spans)
    lasered = render_slide(SCENE, 60, 40, DARK, Pointer("laser", "p"))
    assert next(line for line in lasered if "Closing" in line.plain).plain.startswith("➤")


def test_the_pointed_element_stays_in_view_on_a_short_pane() -> None:
    lines = render_slide(SCENE, 60, 4, DARK, Pointer("laser", "p"))
    assert len(lines) <= 4 and any("Closing words" in line.plain for line in lines)


def test_a_table_or_code_too_big_for_its_box_counts_as_cut_and_one_that_fits_does_not() -> None:
    from maic_tui.whiteboard.render import draw_board

    wide = Whiteboard()
    rows = [["a long header cell", "another long header cell"], ["with a long value in it", "and another one"]]
    assert wide.apply("wb_draw_table", {"x": 20, "y": 20, "width": 300, "height": 140, "data": rows}).ok
    code = [f"print('line {n}')" for n in range(30)]
    assert wide.apply("wb_draw_code", {"x": 500, "y": 20, "width": 300, "height": 120, "language": "python",
                                       "code": "\n".join(code)}).ok
    small = draw_board(wide.elements, 60, 18, DARK)
    assert small.cut == 2  # the pane's title then says "some cut: F4 enlarges"
    roomy = Whiteboard()
    assert roomy.apply("wb_draw_table", {"x": 20, "y": 20, "width": 900, "height": 300,
                                         "data": [["f", "f'"], ["x^2", "2x"]]}).ok
    assert draw_board(roomy.elements, 150, 40, DARK).cut == 0


def test_a_quiz_slide_shows_its_questions_and_options_never_the_answers() -> None:
    from maic_tui.classroom.loader import load_classroom

    quiz = next(scene for scene in load_classroom("derivatives").scenes if scene.type == "quiz")
    text = "\n".join(line.plain for line in render_slide(quiz, 60, 40, DARK))
    assert "1. What is the derivative of x^4?" in text and "A) 4x^3" in text and "C) 4x^4" in text
    assert "2. Which of these are rates of change?" in text and "(answer in your own words)" in text
    assert "Bring the 4 down" not in text  # the analysis is told after the answer, not on the slide


def test_a_quiz_slide_wraps_its_questions_within_a_narrow_pane() -> None:
    from maic_tui.classroom.loader import load_classroom

    quiz = next(scene for scene in load_classroom("python-loops").scenes if scene.type == "quiz")
    lines = [line.plain for line in render_slide(quiz, 28, 40, DARK)]
    assert not any(line.endswith("…") for line in lines)  # wrapped, never cut
    assert "comprehension" in " ".join(lines) and "(answer in your own" in " ".join(lines)


def test_a_code_line_wider_than_the_board_ends_in_an_ellipsis_and_counts_as_cut() -> None:
    from maic_tui.whiteboard.render import draw_board

    board = Whiteboard()
    code = 'names = ["Ana", "Ben", "Cleo", "Dev", "Eli"]\nfor name in names:\n    print(name)'
    assert board.apply("wb_draw_code", {"x": 40, "y": 30, "width": 560, "height": 170, "language": "python",
                                        "code": code}).ok
    drawn = draw_board(board.elements, 34, 14, DARK)  # a narrow pane, as at 80x24
    first = next(line.plain.rstrip() for line in drawn.lines if "names =" in line.plain)
    assert first.endswith("…") and drawn.cut == 1  # the pane's title then says "some cut: F4 enlarges"
    assert draw_board(board.elements, 150, 40, DARK).cut == 0
