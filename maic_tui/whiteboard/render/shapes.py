"""Outlines on a canvas: box-drawing rectangles, braille ellipses, triangles and (dashed, arrowed) lines."""

from __future__ import annotations

import math

from rich.style import Style

from maic_tui.whiteboard.render.canvas import Canvas

# Arrow heads by direction, counter-clockwise from east in 45-degree steps (screen y grows downwards).
_ARROWS = "→↗↑↖←↙↓↘"
_DASH_ON, _DASH_PERIOD = 4, 7  # dashed lines: 4 dots drawn out of every 7


def rectangle(canvas: Canvas, x: int, y: int, width: int, height: int, style: Style | None) -> None:
    if width <= 0 or height <= 0:
        return
    if width == 1 or height == 1:
        canvas.fill(x, y, width, height, "■" if width == height == 1 else "█", style)
        return
    right, bottom = x + width - 1, y + height - 1
    for column in range(x + 1, right):
        canvas.put(column, y, "─", style)
        canvas.put(column, bottom, "─", style)
    for row in range(y + 1, bottom):
        canvas.put(x, row, "│", style)
        canvas.put(right, row, "│", style)
    for cx, cy, corner in ((x, y, "╭"), (right, y, "╮"), (x, bottom, "╰"), (right, bottom, "╯")):
        canvas.put(cx, cy, corner, style)


def segment(canvas: Canvas, x0: float, y0: float, x1: float, y1: float, style: Style | None,
            dashed: bool = False) -> None:
    """A line between two points in braille-dot coordinates."""
    steps = max(1, math.ceil(max(abs(x1 - x0), abs(y1 - y0))))
    for i in range(steps + 1):
        if dashed and i % _DASH_PERIOD >= _DASH_ON:
            continue
        t = i / steps
        canvas.dot(round(x0 + (x1 - x0) * t), round(y0 + (y1 - y0) * t), style)


def ellipse(canvas: Canvas, x: int, y: int, width: int, height: int, style: Style | None) -> None:
    """An ellipse outline inscribed in the cell box, drawn in braille dots."""
    cells_x, cells_y = width, height * 2  # radii in dots: a cell is 2 dots wide and 4 tall
    cx, cy = x * 2 + cells_x - 0.5, y * 4 + cells_y - 0.5
    rx, ry = max(cells_x - 0.5, 0.5), max(cells_y - 0.5, 0.5)
    points = max(24, int(4 * (rx + ry)))
    for i in range(points):
        angle = 2 * math.pi * i / points
        canvas.dot(round(cx + rx * math.cos(angle)), round(cy + ry * math.sin(angle)), style)


def triangle(canvas: Canvas, x: int, y: int, width: int, height: int, style: Style | None) -> None:
    """An isosceles triangle outline, apex at the top centre of the box."""
    left, right = x * 2, (x + width) * 2 - 1
    top, bottom = y * 4, (y + height) * 4 - 1
    apex = (left + right) / 2
    segment(canvas, apex, top, left, bottom, style)
    segment(canvas, apex, top, right, bottom, style)
    segment(canvas, left, bottom, right, bottom, style)


def arrow_head(canvas: Canvas, from_x: float, from_y: float, to_x: float, to_y: float,
               style: Style | None) -> None:
    """An arrow glyph in the cell holding the dot (to_x, to_y), pointing away from (from_x, from_y)."""
    # Dots are 2 across and 4 down per cell; compare directions in cell units.
    dx, dy = (to_x - from_x) / 2, (to_y - from_y) / 4
    if dx == 0 and dy == 0:
        return
    octant = round(math.atan2(-dy, dx) / (math.pi / 4)) % 8
    column = min(int(to_x // 2), canvas.cols - 1)
    row = min(int(to_y // 4), canvas.rows - 1)
    canvas.put(max(column, 0), max(row, 0), _ARROWS[octant], style)
