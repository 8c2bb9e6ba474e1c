"""One-line element summaries for prompts (reference C.6 style), code lines listed with their ids."""

from __future__ import annotations

from collections.abc import Sequence

from maic_tui.whiteboard.elements import (
    ChartElement,
    CodeElement,
    Element,
    LatexElement,
    LineElement,
    ShapeElement,
    TableElement,
    TextElement,
)

# Agents edit code by line id, so they need to see (nearly) every line, unlike upstream's first ten.
MAX_CODE_LINES = 40


def clip(text: str, limit: int) -> str:
    """Whitespace folded to single spaces, cut at ``limit`` characters with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit] + "…"


def _n(value: float) -> str:
    return str(round(value))


def element_summary(element: Element) -> str:
    head = f"[id:{element.id}] "
    if isinstance(element, LineElement):
        kind = "arrow" if element.is_arrow else "line"
        return (
            f"{head}{kind} ({_n(element.start_x)},{_n(element.start_y)}) → "
            f"({_n(element.end_x)},{_n(element.end_y)})"
        )
    match element:
        case TextElement():
            kind = f'text: "{clip(element.content, 60)}"'
        case ShapeElement():
            kind = f"shape({element.shape})"
        case ChartElement():
            kind = f"chart[{element.chart_type}]: labels=[{', '.join(element.labels[:4])}]"
        case TableElement():
            kind = f"table: {element.rows}x{element.cols}"
        case LatexElement():
            kind = f'latex: "{clip(element.latex, 40)}"'
        case CodeElement():
            name = f' "{element.file_name}"' if element.file_name else ""
            count = len(element.lines)
            kind = f"code{name} ({element.language}, {count} line{'' if count == 1 else 's'})"
    where = (
        f" at ({_n(element.left)},{_n(element.top)}) size {_n(element.width)}x{_n(element.height)}"
    )
    text = head + kind + where
    if isinstance(element, CodeElement):
        shown = element.lines[:MAX_CODE_LINES]
        text += "".join(f"\n    {line.id}: {line.content}" for line in shown)
        if len(element.lines) > len(shown):
            text += f"\n    … and {len(element.lines) - len(shown)} more lines"
    return text


def board_summary(elements: Sequence[Element]) -> str:
    if not elements:
        return "(empty)"
    return "\n".join(element_summary(element) for element in elements)
