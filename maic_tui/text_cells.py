"""Text measured as a terminal shows it: in cells, never in characters.

A CJK character takes two cells, a combining mark or a zero-width joiner none, an emoji two; the unit of text
is a grapheme (a base with its marks, an emoji sequence), which is never split. Rich (and so Textual) measures
the same way, so a line laid out here is exactly as wide on screen as we counted. Every layout of display text
(the board, the slide, columns of a table, the lesson line) cuts, pads and wraps through these functions.

Wrapping: spaces are where Latin, Cyrillic or Arabic text breaks, and its words are never broken unless one is
longer than a line; text written without spaces (Chinese, Japanese) may break between any two of its wide
characters, but not before closing punctuation ("，", "。", "）") nor after opening punctuation ("（", "「").
Text keeps its logical order: the terminal shapes and orders right-to-left scripts, we never reverse them.
"""

from __future__ import annotations

from rich.cells import cell_len, split_graphemes

__all__ = ["cell_len", "cut", "graphemes", "joined_closely", "pad", "shorten", "wrap"]

ELLIPSIS = "…"
# Kinsoku, simplified: these never start a line (closing punctuation) or end one (opening punctuation).
_NO_START = set("，。、．・：；！？）」』】〕》〉〗〙〛｝］’”％‰ー々〻"
                "ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮ,.!?;:)]}")
_NO_END = set("（「『【〔《〈〖〘〚｛［‘“")


def graphemes(text: str) -> list[tuple[str, int]]:
    """The text's graphemes, each with the cells it takes."""
    spans, _ = split_graphemes(text)
    return [(text[start:end], cells) for start, end, cells in spans]


def cut(text: str, width: int) -> str:
    """The longest start of ``text`` that fits in ``width`` cells, ending on a whole grapheme (no padding)."""
    if cell_len(text) <= width:
        return text
    used, end = 0, 0
    for start, stop, cells in split_graphemes(text)[0]:
        if used + cells > width:
            return text[:start]
        used, end = used + cells, stop
    return text[:end]


def shorten(text: str, width: int) -> str:
    """``text`` if it fits in ``width`` cells, else cut to leave room for a closing "…"."""
    if cell_len(text) <= width:
        return text
    return cut(text, width - 1).rstrip() + ELLIPSIS if width > 0 else ""


def pad(text: str, width: int, fill: str = " ") -> str:
    """Exactly ``width`` cells: shortened with "…" if too long, else filled on the right with ``fill`` (one cell)."""
    shown = shorten(text, width)
    return shown + fill * (width - cell_len(shown))


def joined_closely(before: str, after: str) -> bool:
    """Two pieces of speech that join without a space: text that ends and text that starts with a wide
    character (Chinese, Japanese: "…切线。" then "取两个点"); Latin text between them keeps its spaces."""
    return bool(before) and bool(after) and cell_len(before[-1]) == 2 and cell_len(after[0]) == 2


def _pieces(paragraph: str) -> list[str]:
    """Units a line may break between: a run of narrow non-space text, one wide grapheme, or a space."""
    pieces: list[str] = []
    for grapheme, cells in graphemes(paragraph):
        if grapheme.isspace():
            pieces.append(" ")
        elif not pieces or pieces[-1] == " ":
            pieces.append(grapheme)
        elif grapheme in _NO_START or pieces[-1][-1] in _NO_END:
            pieces[-1] += grapheme
        elif cells == 2 or cell_len(pieces[-1][-1]) == 2:
            pieces.append(grapheme)
        else:
            pieces[-1] += grapheme
    return pieces


def wrap(text: str, width: int) -> list[str]:
    """Lines of at most ``width`` cells, paragraphs kept; a word longer than a line is cut between graphemes."""
    if width <= 0:
        return []
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for piece in _pieces(paragraph):
            if piece == " ":
                line += " " if line and not line.endswith(" ") else ""
                continue
            if cell_len(line) + cell_len(piece) <= width:
                line += piece
                continue
            if line.strip():
                lines.append(line.rstrip())
            line = ""
            while cell_len(piece) > width:
                head = cut(piece, width)
                if not head:  # a wide grapheme on a one-cell line: shown as "…" rather than overflowing
                    head, piece = ELLIPSIS, piece[len(graphemes(piece)[0][0]):]
                else:
                    piece = piece[len(head):]
                lines.append(head)
            line = piece
        lines.append(line.rstrip())
    return lines
