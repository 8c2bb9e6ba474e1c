"""Short summaries of whiteboard actions, for the director's "who already spoke" list (reference C.12,
with the shape named from the parameter that holds it)."""

from __future__ import annotations

from typing import Any

from maic_tui.whiteboard.summary import clip


def action_summary(name: str, params: dict[str, Any]) -> str | None:
    match name:
        case "wb_draw_text":
            return f'drew text "{clip(str(params.get("content", "")), 30)}"'
        case "wb_draw_shape":
            return f"drew shape({params.get('shape', 'rectangle')})"
        case "wb_draw_chart":
            labels = (params.get("data") or {}).get("labels") or []
            return f"drew chart({params.get('chartType', '?')}, labels: [{', '.join(map(str, labels[:4]))}])"
        case "wb_draw_latex":
            return f'drew formula "{clip(str(params.get("latex", "")), 30)}"'
        case "wb_draw_table":
            data = params.get("data") or [[]]
            return f"drew table({len(data)}x{len(data[0]) if data else 0})"
        case "wb_draw_line":
            return "drew arrow" if "arrow" in (params.get("points") or ()) else "drew line"
        case "wb_draw_code":
            return f'drew code block "{params.get("fileName") or "untitled"}" ({params.get("language", "?")})'
        case "wb_edit_code":
            return f"edited code ({params.get('operation', '?')})"
        case "wb_clear":
            return "CLEARED the whiteboard"
        case "wb_delete":
            return f'deleted element "{params.get("elementId", "?")}"'
    return None
