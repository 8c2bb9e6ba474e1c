"""A whiteboard holding every element type, as a fixture for renderer, pane and snapshot tests."""

from __future__ import annotations

from typing import Any

from maic_tui.whiteboard import Whiteboard

EVERY_ELEMENT: list[tuple[str, dict[str, Any]]] = [
    ("wb_draw_text", {"content": "Derivatives", "x": 30, "y": 15, "width": 300, "height": 50, "fontSize": 32}),
    ("wb_draw_text", {"content": "The slope of the tangent line at a point.", "x": 30, "y": 70, "width": 300,
                      "height": 60, "color": "#1f77b4"}),
    ("wb_draw_latex", {"latex": r"f'(x) = \lim_{h \to 0} \frac{f(x+h) - f(x)}{h}", "x": 30, "y": 140,
                       "width": 420, "height": 50}),
    ("wb_draw_shape", {"shape": "rectangle", "x": 480, "y": 20, "width": 120, "height": 90,
                       "fillColor": "#e15759"}),
    ("wb_draw_shape", {"shape": "circle", "x": 630, "y": 20, "width": 120, "height": 110}),
    ("wb_draw_shape", {"shape": "triangle", "x": 780, "y": 20, "width": 150, "height": 110,
                       "fillColor": "#59a14f"}),
    ("wb_draw_line", {"startX": 480, "startY": 160, "endX": 940, "endY": 160, "points": ["", "arrow"]}),
    ("wb_draw_line", {"startX": 480, "startY": 190, "endX": 700, "endY": 260, "style": "dashed",
                      "color": "#e15759"}),
    ("wb_draw_table", {"x": 30, "y": 220, "width": 400, "height": 130,
                       "data": [["x", "f(x) = x²", "f'(x)"], ["1", "1", "2"], ["2", "4", "4"]],
                       "theme": {"color": "#4e79a7"}}),
    ("wb_draw_code", {"language": "python", "fileName": "slope.py", "x": 30, "y": 370, "width": 430,
                      "height": 170, "code": "def slope(f, x, h=1e-6):\n    return (f(x + h) - f(x)) / h\n\n"
                                             "print(slope(lambda x: x * x, 3))"}),
    ("wb_draw_chart", {"chartType": "column", "x": 500, "y": 290, "width": 460, "height": 250,
                       "data": {"labels": ["x=1", "x=2", "x=3"], "legends": ["f", "f'"],
                                "series": [[1, 4, 9], [2, 4, 6]]}}),
]


def every_element_board() -> Whiteboard:
    board = Whiteboard()
    for name, params in EVERY_ELEMENT:
        result = board.apply(name, params)
        assert result.ok, (name, result.reason)
    return board
