"""Where a new drawing goes when the spot it asks for is taken: the nearest free place on the canvas, so that a
drawing made in Q&A does not land on the lecture's (or any) drawing. The event then carries the new position, so
the app, the log and a replay all see the same board."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from maic_tui.whiteboard.conflicts import OVERLAP_THRESHOLD
from maic_tui.whiteboard.elements import CANVAS_HEIGHT, CANVAS_WIDTH, Element, LineElement

STEP = 20.0  # canvas units between the places tried
Rect = tuple[float, float, float, float]


def _overlap(a: Rect, b: Rect) -> float:
    """The overlap as a share of the smaller rectangle, as the board's conflict check measures it."""
    width, height = min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])
    if width <= 0 or height <= 0:
        return 0.0
    smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return width * height / smaller if smaller > 0 else 0.0


def placed(params: Mapping[str, Any], elements: Sequence[Element]) -> dict[str, Any]:
    """``params`` of a drawing with a box (``x``, ``y``, ``width``, ``height``), moved to the nearest free place
    when its own overlaps another element; unchanged when it is free, has no box, or no place is free."""
    try:
        x, y, width, height = (float(params[key]) for key in ("x", "y", "width", "height"))
    except (KeyError, TypeError, ValueError):
        return dict(params)
    taken = [(e.left, e.top, e.left + e.width, e.top + e.height) for e in elements
             if not isinstance(e, LineElement) and e.id != params.get("elementId")]

    def free(left: float, top: float) -> bool:
        return all(_overlap((left, top, left + width, top + height), rect) < OVERLAP_THRESHOLD for rect in taken)

    if free(x, y) or width > CANVAS_WIDTH or height > CANVAS_HEIGHT:
        return dict(params)
    lefts = [n * STEP for n in range(int((CANVAS_WIDTH - width) // STEP) + 1)]
    tops = [n * STEP for n in range(int((CANVAS_HEIGHT - height) // STEP) + 1)]
    spots = sorted(((left, top) for top in tops for left in lefts), key=lambda s: (s[0] - x) ** 2 + (s[1] - y) ** 2)
    spot = next((s for s in spots if free(*s)), None)
    if spot is None:
        return dict(params)
    return {**params, "x": spot[0], "y": spot[1]}
