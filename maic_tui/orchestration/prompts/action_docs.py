"""One line per action for the agent prompt: what it is for and the parameters it takes (reference C.5,
without upstream's contradiction about closing the board)."""

from __future__ import annotations

from collections.abc import Sequence

ACTION_DOCS: dict[str, str] = {
    "spotlight": 'focus the class on one slide element, dimming the rest (1-2 per answer at most). '
                 'params {"elementId": str, "dimOpacity"?: 0..1}',
    "laser": 'point at one slide element. params {"elementId": str, "color"?: str}',
    "wb_open": "open the whiteboard (drawing opens it too). params {}",
    "wb_close": "close the whiteboard and show the slide again; do not close it just because you finished. "
                "params {}",
    "wb_draw_text": 'short plain text (no LaTeX). params {"content": str, "x": num, "y": num, "width"?: 400, '
                    '"height"?: 100, "fontSize"?: 18, "color"?: str, "elementId"?: str}',
    "wb_draw_shape": 'a shape. params {"shape": "rectangle"|"circle"|"triangle", "x", "y", "width"?: 100, '
                     '"height"?: 100, "fillColor"?: str, "elementId"?: str}',
    "wb_draw_chart": 'a chart. params {"chartType": "bar"|"column"|"line"|"pie"|"ring"|"area"|"radar"|"scatter", '
                     '"x", "y", "width"?: 350, "height"?: 250, "data": {"labels": [str], "legends": [str], '
                     '"series": [[num]]}, "themeColors"?: [str], "elementId"?: str}',
    "wb_draw_latex": 'a formula. params {"latex": str (double every backslash in JSON: "\\\\frac"), "x", "y", '
                     '"width"?: 400, "height"?: 80, "color"?: str, "elementId"?: str}',
    "wb_draw_table": 'a table of plain-text cells. params {"data": [[str]] (first row = header), "x", "y", '
                     '"width"?: 400, "height"?: rows*40+20, "elementId"?: str}',
    "wb_draw_line": 'a line or arrow; "width" is the stroke thickness. params {"startX", "startY", "endX", '
                    '"endY", "color"?: str, "width"?: 2, "style"?: "solid"|"dashed", '
                    '"points"?: ["", "arrow"], "elementId"?: str}',
    "wb_draw_code": 'a code block; its lines get ids L1, L2, ... params {"language": str, "code": str, "x", "y", '
                    '"width"?: 500, "height"?: 300, "fileName"?: str, "elementId"?: str}',
    "wb_edit_code": 'change a code block by line id (see the board state). params {"elementId": str, '
                    '"operation": "insert_after"|"insert_before"|"delete_lines"|"replace_lines", '
                    '"lineId"?: str, "lineIds"?: [str], "content"?: str}',
    "wb_clear": "remove everything from the board (only when it is full or the topic changes). params {}",
    "wb_delete": 'remove one element by id (prefer this to clearing). params {"elementId": str}',
}


def describe_actions(names: Sequence[str]) -> str:
    return "\n".join(f"- {name}: {ACTION_DOCS[name]}" for name in names if name in ACTION_DOCS)
