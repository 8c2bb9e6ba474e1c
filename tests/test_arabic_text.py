"""Arabic as it is written (issue 53): shown in logical order, its words never reversed nor broken apart by our
wrapping, its vowel marks on their letters; the bidi controls that could reorder or hide text are removed as
untrusted (text_safety.py), from a classroom file, the board and the slide alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from maic_tui.classroom.loader import load_classroom
from maic_tui.text_cells import wrap
from maic_tui.text_safety import EscapeFilter, terminal_safe
from maic_tui.whiteboard import Whiteboard
from maic_tui.whiteboard.render import BoardPalette, render_board, render_slide

DARK = BoardPalette("#1f2335", "#e6e9f5", "#2a3050", True)
# Every control that overrides or isolates the direction of text, and the marks that steer it.
BIDI = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e",
        "\u200f", "\u061c"]
SENTENCE = "المشتقة هي ميل المماس عند نقطة"  # "the derivative is the slope of the tangent at a point"
VOWELLED = "مَرْحَبًا بِكُمْ"  # with its short vowels (combining marks)


@pytest.mark.parametrize("control", BIDI)
def test_every_bidi_control_is_removed_and_arabic_itself_is_kept(control: str) -> None:
    text = f"{control}{SENTENCE}{control} ‌زی‍"  # ZWNJ and ZWJ stay: Persian and Arabic need them
    assert terminal_safe(text) == f"{SENTENCE} ‌زی‍"
    pieces = EscapeFilter()
    assert "".join(pieces.feed(part) for part in (text[:3], text[3:9], text[9:])) == f"{SENTENCE} ‌زی‍"


def test_wrapping_keeps_arabic_words_whole_and_in_logical_order() -> None:
    for width in range(8, 40):
        lines = wrap(SENTENCE, width)
        assert " ".join(lines) == SENTENCE  # never reversed, never reordered
        assert all(word in SENTENCE.split() for line in lines for word in line.split())  # never broken apart
    assert wrap(VOWELLED, 8) == ["مَرْحَبًا", "بِكُمْ"]  # the vowels stay on their letters and take no cell


def test_an_arabic_classroom_with_overrides_shows_none_of_them(tmp_path: Path) -> None:
    path = tmp_path / "arabic.toml"
    path.write_text(f'''title = "\u202eالمشتقات\u202c"
language = "ar"

[[agents]]
id = "t"
name = "الأستاذة\u2067 سارة\u2069"
role = "teacher"
persona = "معلمة هادئة"
avatar = "🎓"
color = "#3b82f6"

[[scenes]]
id = "s"
title = "الميل"
elements = [{{ type = "title", id = "t", text = "\u202bالمشتقة\u202c: {VOWELLED}" }},
            {{ type = "text", id = "p", text = "{SENTENCE}\u200f" }}]
''', encoding="utf-8")
    room = load_classroom(path)
    assert room.title == "المشتقات" and room.agents[0].name == "الأستاذة سارة"
    lines = [line.plain.strip() for line in render_slide(room.scenes[0], 30, 20, DARK)]
    shown = "\n".join(lines)
    assert not any(control in shown for control in BIDI)
    assert f"المشتقة: {VOWELLED}" in lines and "المشتقة هي ميل المماس" in shown
    assert all(word in shown for word in SENTENCE.split())


def test_arabic_on_the_board_keeps_its_order_its_marks_and_the_pane_width() -> None:
    board = Whiteboard()
    board.apply("wb_draw_text", {"content": f"\u202e{VOWELLED} {SENTENCE}", "x": 40, "y": 40, "width": 900,
                                 "height": 100})
    lines = render_board(board.elements, 120, 33, DARK)
    assert all(line.cell_len == 120 for line in lines)
    text = "\n".join(line.plain for line in lines)
    assert f"{VOWELLED} {SENTENCE}" in text and "\u202e" not in text
