"""Text-like elements laid out in a cell box: wrapped text, formulas, tables and code with line ids."""

from __future__ import annotations

from functools import lru_cache

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from maic_tui import text_cells
from maic_tui.text_safety import terminal_safe
from maic_tui.whiteboard.elements import CodeElement, TableElement


def wrap(text: str, width: int) -> list[str]:
    """Untrusted text wrapped to ``width`` cells (words longer than a line are cut), paragraphs kept."""
    return text_cells.wrap(terminal_safe(text).replace("\t", " "), width)


def fit(lines: list[str], width: int, height: int) -> list[str]:
    """At most ``height`` lines; a cut is shown with an ellipsis rather than silently dropped."""
    if height <= 0:
        return []
    if len(lines) <= height:
        return lines
    kept = lines[:height]
    last = kept[-1]
    kept[-1] = (text_cells.cut(last, width - 1).rstrip() + "…") if width > 1 else "…"
    return kept


def table_lines(table: TableElement, width: int, height: int, border: Style, header: Style,
                body: Style) -> list[Text]:
    """A grid with box-drawing rules: full grid when there is room, else cells separated by │ only."""
    cols = table.cols
    if cols == 0 or width < 2 * cols + 1 or height < 1:
        return [Text("▦ table", style=body, no_wrap=True)] if width >= 7 and height >= 1 else []
    cells = [[" ".join(terminal_safe(cell).split()) for cell in row] for row in table.cells]
    inner = width - (cols + 1)
    natural = [max(cell_len(row[c]) for row in cells) for c in range(cols)]
    widths = _share(natural, inner)
    framed = height >= 2 * table.rows + 1
    lines: list[Text] = []

    def rule(left: str, mid: str, right: str) -> Text:
        return Text(left + mid.join("─" * w for w in widths) + right, style=border, no_wrap=True)

    if framed:
        lines.append(rule("┌", "┬", "┐"))
    for index, row in enumerate(cells):
        line = Text("│", style=border, no_wrap=True)
        for cell, cell_width in zip(row, widths, strict=True):
            line.append(text_cells.pad(cell, cell_width), header if index == 0 else body)
            line.append("│", border)
        lines.append(line)
        if framed and index == 0 and table.rows > 1:
            lines.append(rule("├", "┼", "┤"))
    if framed:
        lines.append(rule("└", "┴", "┘"))
    if len(lines) > height:
        lines = [*lines[:height - 1], Text("│ …", style=border, no_wrap=True)]
    return lines


def _share(natural: list[int], room: int) -> list[int]:
    """Column widths: natural widths if they fit, else room shared in proportion (at least 1 each)."""
    if sum(natural) <= room:
        extra = room - sum(natural)
        widths = [w + extra // len(natural) for w in natural]
        widths[-1] += room - sum(widths)
        return widths
    total = sum(natural) or 1
    widths = [max(1, room * w // total) for w in natural]
    while sum(widths) > room:
        widths[widths.index(max(widths))] -= 1
    widths[-1] += room - sum(widths)
    return widths


@lru_cache(maxsize=128)
def _highlighted(code: str, language: str, dark: bool) -> tuple[Text, ...]:
    from rich.syntax import Syntax  # pygments loads with the first code block

    theme = "monokai" if dark else "default"
    try:
        text = Syntax(code, language or "text", theme=theme).highlight(code)
    except Exception:  # an unknown language name: plain text
        text = Text(code)
    text.remove_suffix("\n")
    return tuple(text.split("\n", allow_blank=True))


def code_lines(code: CodeElement, width: int, height: int, dark: bool, gutter: Style,
               title: Style) -> list[Text]:
    """A title line (file name or language) and each code line with its id, highlighted; a line wider than the box
    ends in "…", as any text cut short does."""
    if width < 6 or height < 1:
        return []
    safe = "\n".join(terminal_safe(line.content).replace("\t", "    ") for line in code.lines)
    highlighted = _highlighted(safe, code.language, dark) if code.lines else ()
    label = terminal_safe(code.file_name or code.language or "code")
    lines = [Text(f"⌨ {label}", style=title, no_wrap=True)]
    id_width = max((len(line.id) for line in code.lines), default=2)
    for line, text in zip(code.lines, highlighted, strict=False):
        row = Text(f"{line.id:>{id_width}} ", style=gutter, no_wrap=True)
        row.append_text(text)
        row.truncate(width, overflow="ellipsis")
        lines.append(row)
    if len(lines) > height:
        lines = [*lines[:height - 1], Text(f"{'…':>{id_width}} {len(lines) - height + 1} more lines", style=gutter)]
    return lines
