"""A grid of terminal cells to draw a board or slide into, with a braille layer for sub-cell lines.

Each cell holds one grapheme (a character with its combining marks, an emoji sequence; wide ones take two
cells) and a Rich style. Braille dots give
2 x 4 "pixels" per cell, enough for circles, triangles and slanted lines to read as such.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.cells import cell_len
from rich.console import Console
from rich.style import Style
from rich.text import Text

from maic_tui.text_cells import graphemes
from maic_tui.text_safety import terminal_safe

_WIDE_TAIL = ""  # the second cell of a wide character
_BRAILLE_BASE = 0x2800
# Dot bit for (column, row) inside a braille cell, per the Unicode braille pattern layout.
_BRAILLE_BITS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))
_CONSOLE = Console(width=400, color_system="truecolor", force_terminal=True, legacy_windows=False)


BLOCKED = -1  # ``put``'s answer for a cell that another element's text owns
FREE = -1  # no element owns the cell


class Canvas:
    """Cells can be owned: while an element that ``claims`` is drawn, every cell it writes becomes its own,
    and no other element writes there afterwards (text, formulas, code, tables and charts are never drawn
    over; lines and shapes pass under them). A text cut short by an owned cell ends in "…"."""

    def __init__(self, cols: int, rows: int, base: Style | None = None) -> None:
        self.cols = max(0, cols)
        self.rows = max(0, rows)
        self.base = base or Style()
        self._chars = [[" "] * self.cols for _ in range(self.rows)]
        self._styles: list[list[Style | None]] = [[None] * self.cols for _ in range(self.rows)]
        self._owners = [[FREE] * self.cols for _ in range(self.rows)]
        self._drawing = FREE  # the element being drawn
        self._claims = False
        self.drawn: set[int] = set()  # the elements that got at least one cell
        self.cut: set[int] = set()  # the elements cut short (by another's cells, or too big for their box)

    def begin(self, element: int, claims: bool) -> None:
        self._drawing, self._claims = element, claims

    def shortened(self) -> None:
        """The element being drawn did not fit its box whole (a table's cells or rows, a code's lines)."""
        self.cut.add(self._drawing)

    def owned_by_other(self, x: int, y: int) -> bool:
        owner = self._owners[y][x]
        return owner not in (FREE, self._drawing)

    # --- cells -------------------------------------------------------------------------------------

    def inside(self, x: int, y: int) -> bool:
        return 0 <= x < self.cols and 0 <= y < self.rows

    def char_at(self, x: int, y: int) -> str:
        return self._chars[y][x] if self.inside(x, y) else ""

    def put(self, x: int, y: int, char: str, style: Style | None = None, right: int | None = None) -> int:
        """Write one grapheme at (x, y), clipped at column ``right``; returns the cells it took (0 if clipped).
        A wide grapheme that would not fit whole is not written: nothing is cut through a double-width one."""
        limit = self.cols if right is None else min(right, self.cols)
        width = cell_len(char)
        if not (0 <= y < self.rows and x >= 0 and x + max(width, 1) <= limit):
            return 0
        if any(self.owned_by_other(x + k, y) for k in range(max(width, 1))):
            if self._claims:
                self.cut.add(self._drawing)
            return BLOCKED
        if self._claims:
            for k in range(max(width, 1)):
                self._owners[y][x + k] = self._drawing
        self.drawn.add(self._drawing)
        self._clear_wide(x, y)
        self._chars[y][x] = char
        self._styles[y][x] = style
        if width == 2:
            self._clear_wide(x + 1, y)
            self._chars[y][x + 1] = _WIDE_TAIL
            self._styles[y][x + 1] = style
        return max(width, 1)

    def _clear_wide(self, x: int, y: int) -> None:
        """Overwriting half of a wide character blanks its other half."""
        row = self._chars[y]
        if row[x] == _WIDE_TAIL and x > 0:
            row[x - 1] = " "
        elif x + 1 < self.cols and row[x + 1] == _WIDE_TAIL:
            row[x + 1] = " "

    def write(self, x: int, y: int, text: str, style: Style | None = None, right: int | None = None) -> int:
        """Write untrusted text on one row (escape sequences and controls stripped); returns the columns used."""
        column = x
        for char, cells in graphemes(terminal_safe(text).replace("\n", " ").replace("\t", " ")):
            if cells == 0:
                continue  # a mark with nothing to sit on takes no cell
            taken = self.put(column, y, char, style, right)
            if taken == BLOCKED:
                self._mark_cut(x, column, y, style)
            if taken <= 0:
                break
            column += taken
        return column - x

    def _mark_cut(self, start: int, column: int, y: int, style: Style | None) -> None:
        """The last own cell before another element's text shows that this line goes on."""
        if column > start:
            self._clear_wide(column - 1, y)
            self._chars[y][column - 1] = "…"
            self._styles[y][column - 1] = style

    def blit(self, x: int, y: int, lines: Iterable[Text], right: int | None = None, bottom: int | None = None) -> None:
        """Copy styled Rich text lines (already safe) onto the canvas, clipped to ``right`` / ``bottom``."""
        last = self.rows if bottom is None else min(bottom, self.rows)
        for offset, line in enumerate(lines):
            row = y + offset
            if row >= last:
                break
            column = x
            for segment in line.render(_CONSOLE):
                for char, cells in graphemes(segment.text):
                    if char == "\n" or cells == 0:
                        continue
                    taken = self.put(column, row, char, segment.style, right)
                    if taken == BLOCKED:
                        self._mark_cut(x, column, row, segment.style)
                    if taken <= 0:
                        break
                    column += taken
                else:
                    continue
                break

    def fill(self, x: int, y: int, width: int, height: int, char: str = " ", style: Style | None = None) -> None:
        for row in range(max(0, y), min(self.rows, y + height)):
            for column in range(max(0, x), min(self.cols, x + width)):
                self.put(column, row, char, style)

    # --- braille "pixels": 2 per cell across, 4 down ------------------------------------------------

    def dot(self, px: int, py: int, style: Style | None = None) -> None:
        x, y = px // 2, py // 4
        if not self.inside(x, y) or px < 0 or py < 0:
            return
        bit = _BRAILLE_BITS[py % 4][px % 2]
        current = self._chars[y][x]
        bits = ord(current) - _BRAILLE_BASE if len(current) == 1 and 0x2800 <= ord(current) <= 0x28FF else 0
        self.put(x, y, chr(_BRAILLE_BASE | bits | bit), style)

    # --- output --------------------------------------------------------------------------------------

    def lines(self) -> list[Text]:
        """One Rich ``Text`` per row, exactly ``cols`` cells wide, with the base style under everything."""
        result: list[Text] = []
        for chars, styles in zip(self._chars, self._styles, strict=True):
            line = Text(style=self.base, no_wrap=True, end="")
            run: list[str] = []
            run_style: Style | None = None
            for char, style in zip(chars, styles, strict=True):
                if char == _WIDE_TAIL:
                    continue
                if style is not run_style and run:
                    line.append("".join(run), run_style)
                    run = []
                run_style = style
                run.append(char)
            if run:
                line.append("".join(run), run_style)
            result.append(line)
        return result

    def plain(self) -> str:
        return "\n".join(line.plain.rstrip() for line in self.lines())
