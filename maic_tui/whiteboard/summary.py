"""One-line element summaries for prompts, code lines listed with their ids."""

from __future__ import annotations

from collections.abc import Sequence

from maic_tui.whiteboard.elements import CodeElement, Element, clip

# Agents edit code by line id, so they need to see (nearly) every line, unlike upstream's first ten.
MAX_CODE_LINES = 40

__all__ = ["MAX_CODE_LINES", "board_summary", "clip", "element_summary"]


def element_summary(element: Element) -> str:
    text = f"[id:{element.id}] {element.describe()}{element.placed()}"
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
