"""Layout conflicts on the board: overlaps, lines crossing boxes, content off the canvas."""

from __future__ import annotations

import math
from collections.abc import Sequence

from maic_tui.whiteboard.elements import CANVAS_HEIGHT, CANVAS_WIDTH, Element, LineElement

OVERLAP_THRESHOLD = 0.30

Point = tuple[float, float]
Rect = tuple[float, float, float, float]  # left, top, right, bottom


def _round(value: float) -> int:
    return math.floor(value + 0.5)  # JavaScript's Math.round, which the upstream messages use


def label(element: Element) -> str:
    """Short human label used in conflict lines: kind, a hint of content, and the first 8 id chars."""
    return f"{element.label()} [{element.id[:8]}]"


def _rect(element: Element) -> Rect:
    return (element.left, element.top, element.left + element.width, element.top + element.height)


def _orientation(a: Point, b: Point, c: Point) -> float:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def _properly_cross(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    d1, d2 = _orientation(q1, q2, p1), _orientation(q1, q2, p2)
    d3, d4 = _orientation(p1, p2, q1), _orientation(p1, p2, q2)
    return d1 * d2 < 0 and d3 * d4 < 0


def _inside(point: Point, rect: Rect) -> bool:
    return rect[0] <= point[0] <= rect[2] and rect[1] <= point[1] <= rect[3]


def line_crosses(line: LineElement, rect: Rect) -> bool:
    start, end = (line.start_x, line.start_y), (line.end_x, line.end_y)
    if _inside(start, rect) or _inside(end, rect):
        return True
    left, top, right, bottom = rect
    corners = [(left, top), (right, top), (right, bottom), (left, bottom)]
    return any(_properly_cross(start, end, corners[k], corners[(k + 1) % 4]) for k in range(4))


def find_conflicts(elements: Sequence[Element]) -> list[str]:
    """Conflict lines in the upstream order: all overlaps, then line crossings, then off-canvas parts."""
    boxes = [e for e in elements if not isinstance(e, LineElement)]
    lines = [e for e in elements if isinstance(e, LineElement)]
    found: list[str] = []
    for i, first in enumerate(boxes):
        a = _rect(first)
        for second in boxes[i + 1 :]:
            b = _rect(second)
            overlap_w = min(a[2], b[2]) - max(a[0], b[0])
            overlap_h = min(a[3], b[3]) - max(a[1], b[1])
            if overlap_w <= 0 or overlap_h <= 0:
                continue
            smaller = min(first.width * first.height, second.width * second.height)
            ratio = overlap_w * overlap_h / smaller if smaller > 0 else 0.0
            if ratio >= OVERLAP_THRESHOLD:
                found.append(
                    f"OVERLAP: {label(first)} and {label(second)} overlap by {_round(ratio * 100)}%"
                    " of the smaller element"
                )
    for line in lines:
        for box in boxes:
            if line_crosses(line, _rect(box)):
                found.append(f"LINE CROSSES: {label(line)} crosses {label(box)}")
    for box in boxes:
        left, top, right, bottom = _rect(box)
        parts = []
        if left < 0:
            parts.append(f"left edge by {_round(-left)}px")
        if top < 0:
            parts.append(f"top edge by {_round(-top)}px")
        if right > CANVAS_WIDTH:
            parts.append(f"right edge by {_round(right - CANVAS_WIDTH)}px")
        if bottom > CANVAS_HEIGHT:
            parts.append(f"bottom edge by {_round(bottom - CANVAS_HEIGHT)}px")
        if parts:
            found.append(f"OUT OF CANVAS: {label(box)} crosses the {', '.join(parts)}")
    return found


def conflict_report(elements: Sequence[Element]) -> str:
    """The prompt block for an agent: empty when the layout is clean."""
    found = find_conflicts(elements)
    if not found:
        return ""
    bullets = "\n".join(f"  - {line}" for line in found)
    return (
        "⚠ Layout Conflicts Detected (computed from the current whiteboard)\n"
        f"{bullets}\n"
        "Fix these first: delete one of the overlapping elements (wb_delete), or clear the board (wb_clear) "
        "if there are three or more, before adding anything new."
    )
