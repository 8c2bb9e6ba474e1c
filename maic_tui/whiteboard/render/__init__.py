"""Terminal rendering of the whiteboard and of slides, as Rich text (no Textual: export uses it too)."""

from maic_tui.whiteboard.render.board_drawing import BoardPalette, DrawnBoard, draw_board, fitted_size, render_board
from maic_tui.whiteboard.render.slide import Pointer, render_slide

__all__ = ["BoardPalette", "DrawnBoard", "Pointer", "draw_board", "fitted_size", "render_board", "render_slide"]
