"""What the pane shows of a quiz below its elements: its questions, as on a printed sheet."""

from __future__ import annotations

from rich.text import Text

from maic_tui.i18n import _
from maic_tui.scenes.quiz.model import QuizScene
from maic_tui.text_safety import terminal_safe
from maic_tui.whiteboard.render.board_drawing import BoardPalette
from maic_tui.whiteboard.render.content import wrap
from maic_tui.whiteboard.render.slide import INDENT


def lines(scene: QuizScene, width: int, palette: BoardPalette, state: object = None, rows: int = 0) -> list[Text]:
    """A quiz scene's questions, as on a printed sheet: each with its options (the answers stay hidden); a quiz
    has no live state, and its sheet scrolls however many rows it has. The sheet's own words are the interface's
    (the pane shows them); the questions stay as the classroom wrote them."""
    out: list[Text] = []
    for number, question in enumerate(scene.questions, 1):
        for index, line in enumerate(wrap(terminal_safe(question.question), max(width - 3, 1))):
            lead = f"{number}. " if index == 0 else "   "
            out.append(Text(" " * INDENT + lead + line, style=palette.style(bold=True)))
        for letter, option in zip("ABCDEFGHIJ", question.options, strict=False):
            for line in wrap(f"{letter}) {terminal_safe(option.label)}", max(width - 3, 1)):
                out.append(Text(" " * (INDENT + 3) + line, style=palette.style()))
        if question.type == "short_answer":
            for line in wrap(_("(answer in your own words)"), max(width - 3, 1)):
                out.append(Text(" " * (INDENT + 3) + line, style=palette.style(dim=True)))
        out.append(Text(""))
    return out
