"""Pure in-memory whiteboard: element models, the action reducer, conflicts, summaries and history."""

from maic_tui.whiteboard.board import ApplyResult, Whiteboard
from maic_tui.whiteboard.elements import CANVAS_HEIGHT, CANVAS_WIDTH, Element

__all__ = ["CANVAS_HEIGHT", "CANVAS_WIDTH", "ApplyResult", "Element", "Whiteboard"]
