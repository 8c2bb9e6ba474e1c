"""Text laid out by its cells (maic_tui/text_cells.py): CJK takes two cells, combining marks none, and no line is
wider than its width or cuts through a grapheme, on the board, the slide, the quiz sheet and tables."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len, split_graphemes

from maic_tui.scenes.quiz.model import QuizScene
from maic_tui.scenes.slide.model import SlideScene
from maic_tui.text_cells import cut, pad, shorten, wrap
from maic_tui.text_safety import one_line
from maic_tui.whiteboard import Whiteboard
from maic_tui.whiteboard.render import BoardPalette, render_board, render_slide
from maic_tui.whiteboard.render.canvas import Canvas

DARK = BoardPalette("#1f2335", "#e6e9f5", "#2a3050", True)
# Pieces of the world's text: Latin, CJK and its punctuation, kana, Hangul, Arabic, Cyrillic, a combining acute,
# emoji (one with a skin tone, one joined by ZWJ), full-width letters.
PIECES = ["a", "Z", "7", " ", " ", "导", "数", "变", "化", "率", "。", "，", "（", "）", "か", "ナ", "한",
          "م", "ر", "ح", "ب", "ا", "ж", "e\u0301", "👍", "👍🏽", "👩\u200d🏫", "Ｂ", "１", "-", "."]
TEXTS = st.lists(st.sampled_from(PIECES), max_size=80).map("".join)
WIDTHS = st.integers(min_value=1, max_value=40)


def clusters(text: str) -> list[str]:
    return [text[start:end] for start, end, _ in split_graphemes(text)[0]]


def whole_graphemes_of(part: str, text: str) -> bool:
    """``part``'s graphemes are a run of ``text``'s: nothing of a grapheme was cut off."""
    mine, theirs = clusters(part), clusters(text)
    return any(theirs[i:i + len(mine)] == mine for i in range(len(theirs) - len(mine) + 1))


@settings(max_examples=300, deadline=None)
@given(TEXTS, WIDTHS)
def test_a_wrapped_line_is_never_wider_than_its_width_and_keeps_whole_graphemes(text: str, width: int) -> None:
    lines = wrap(text, width)
    assert all(cell_len(line) <= width for line in lines)
    if width >= 2:  # every grapheme fits: nothing is lost, only spaces at the breaks
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")
        assert all(whole_graphemes_of(word, text) for line in lines for word in line.split(" "))


@settings(max_examples=300, deadline=None)
@given(TEXTS, st.integers(min_value=0, max_value=40))
def test_cut_shorten_and_pad_measure_cells_and_never_split_a_grapheme(text: str, width: int) -> None:
    head = cut(text, width)
    assert cell_len(head) <= width and text.startswith(head) and whole_graphemes_of(head, text)
    short = shorten(text, width)
    assert cell_len(short) <= width
    assert short == text or short == "" == cut(text, width) or (
        short.endswith("…") and whole_graphemes_of(short[:-1], text))
    assert cell_len(pad(text, width)) == width
    assert cell_len(one_line(text, width)) <= width


def test_chinese_wraps_between_characters_never_before_closing_punctuation() -> None:
    lines = wrap("导数描述函数在某一点的变化率，也就是切线的斜率。", 20)
    assert lines == ["导数描述函数在某一点", "的变化率，也就是切线", "的斜率。"]
    assert wrap("导数导数导数导数导数，好", 20) == ["导数导数导数导数导", "数，好"]  # "，" never opens a line
    assert wrap("Slope 斜率 of a line", 9) == ["Slope 斜", "率 of a", "line"]


def test_arabic_words_are_kept_whole_and_in_their_order() -> None:
    text = "المشتقة تصف معدل تغير الدالة عند نقطة"
    lines = wrap(text, 12)
    assert " ".join(lines) == text  # logical order, never reversed
    assert all(word in text.split() for line in lines for word in line.split())


def test_a_combining_mark_stays_on_its_letter_and_takes_no_cell() -> None:
    canvas = Canvas(6, 1)
    canvas.write(0, 0, "cafe\u0301!")
    line = canvas.lines()[0]
    assert line.plain == "cafe\u0301! " and line.cell_len == 6
    assert cut("cafe\u0301", 4) == "cafe\u0301"


@settings(max_examples=150, deadline=None)
@given(TEXTS, st.integers(min_value=0, max_value=9))
def test_the_canvas_keeps_its_width_and_never_shows_half_a_wide_character(text: str, x: int) -> None:
    canvas = Canvas(10, 2)
    canvas.write(x, 0, text)
    canvas.write(x // 2, 1, text, right=7)
    for line in canvas.lines():
        assert line.cell_len == 10
        assert all(whole_graphemes_of(piece, text) for piece in line.plain.split(" ") if piece and piece != "…")


@settings(max_examples=100, deadline=None)
@given(TEXTS, TEXTS, st.integers(min_value=8, max_value=60))
def test_a_slide_in_any_script_is_never_wider_than_its_pane(title: str, body: str, cols: int) -> None:
    title, body = title.strip() or "x", body.strip() or "y"
    scene = SlideScene.model_validate({"id": "s", "title": "t", "elements": [
        {"type": "title", "id": "t", "text": title or "x"},
        {"type": "bullets", "id": "b", "items": [body or "y", title or "z"]},
        {"type": "table", "id": "tb", "rows": [[title or "x", body or "y"], ["1", "2"]]},
    ]})
    assert all(line.cell_len <= cols for line in render_slide(scene, cols, 40, DARK))


def test_a_chinese_slide_is_wrapped_not_cut() -> None:
    scene = SlideScene.model_validate({"id": "s", "title": "导数", "elements": [
        {"type": "title", "id": "t", "text": "导数：变化的速度"},
        {"type": "text", "id": "p", "text": "导数描述函数在某一点的变化率，也就是切线的斜率。"}]})
    lines = [line.plain.strip() for line in render_slide(scene, 24, 20, DARK)]
    assert "━" * 16 in "".join(lines)  # the title's rule is as wide as the title, in cells
    assert lines[3:6] == ["导数描述函数在某一点的", "变化率，也就是切线的斜", "率。"]  # wrapped by cells …
    assert "导数描述函数在某一点的变化率，也就是切线的斜率。" in "".join(lines).replace("━", "")  # … and whole
    assert not any(line.endswith("…") for line in lines)


def test_a_chinese_quiz_sheet_fits_a_narrow_pane() -> None:
    quiz = QuizScene.model_validate({"id": "q", "type": "quiz", "title": "测验", "questions": [
        {"id": "q1", "type": "single", "question": "x⁴ 的导数是什么？请选择一个正确的答案。",
         "options": [{"value": "A", "label": "4x³，把指数拿下来再减一"}, {"value": "B", "label": "x³"}],
         "answer": ["A"]}]})
    lines = render_slide(quiz, 20, 40, DARK)
    assert all(line.cell_len <= 20 for line in lines)
    assert "把指数拿下来再减一" in "".join(line.plain.strip() for line in lines)


@settings(max_examples=60, deadline=None)
@given(TEXTS, st.integers(min_value=20, max_value=120))
def test_a_board_in_any_script_keeps_its_lines_exactly_the_pane_width(text: str, cols: int) -> None:
    board = Whiteboard()
    board.apply("wb_draw_text", {"content": text or "x", "x": 40, "y": 40, "width": 400, "height": 200})
    board.apply("wb_draw_table", {"x": 500, "y": 300, "width": 400, "height": 150,
                                  "data": [[text or "x", "b"], ["c", text or "d"]]})
    rows = max(cols * 563 // 2000, 4)
    assert all(line.cell_len == cols for line in render_board(board.elements, cols, rows, DARK))


def test_a_chart_with_chinese_labels_keeps_its_frame_straight() -> None:
    board = Whiteboard()
    board.apply("wb_draw_chart", {"chartType": "line", "x": 60, "y": 200, "width": 520, "height": 300, "data": {
        "labels": ["0秒", "1秒", "2秒", "3秒"], "legends": ["位置 x^3", "速度 3x^2"],
        "series": [[0, 1, 8, 27], [0, 3, 12, 27]]}})
    lines = [line.plain for line in render_board(board.elements, 120, 33, DARK)]
    framed = [line.rstrip() for line in lines if line.rstrip().endswith(("│", "┐", "┘"))]
    assert len(framed) >= 10 and len({cell_len(line) for line in framed}) == 1  # the right edge in one column
    assert any("位置 x^3" in line for line in framed)  # the words of a label keep their space


def test_chinese_speech_in_the_transcript_never_opens_a_line_with_closing_punctuation() -> None:
    from maic_tui.tui.widgets.message_view import speech_text

    said = "今天分三步：曲线的斜率，定义它的极限，还有求导的捷径。直线的斜率很简单：纵向变化除以横向变化。"
    for width in range(12, 70):
        lines = speech_text(said, width, True).plain.split("\n")
        assert "".join(line.rstrip() for line in lines) == said
        assert all(cell_len(line.rstrip()) <= width for line in lines)
        assert not any(line[:1] in "。，：" for line in lines), (width, lines)
