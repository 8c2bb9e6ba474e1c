"""A recorded session's transcript as Markdown, from its view model: speakers, text and action chips in order, the
quiz's score, and the final board drawn as text (also what the headless replay prints)."""

from __future__ import annotations

import time
from collections.abc import Sequence

from maic_tui.log.records import QuizResultData, SessionInfo
from maic_tui.room.view import AgentMessage, ClassroomView, LearnerMessage, SystemNote, quiz_line
from maic_tui.text_safety import terminal_safe
from maic_tui.whiteboard import Whiteboard
from maic_tui.whiteboard.render import BoardPalette, fitted_size, render_board

BOARD_COLUMNS = 96  # the board drawn as text in exports and the headless replay
_PLAIN = BoardPalette(background="#ffffff", ink="#000000", grid="#cccccc", dark=False)


def board_text(board: Whiteboard, columns: int = BOARD_COLUMNS) -> str:
    """The board drawn to scale as plain text (no colours), or a note that it is empty."""
    if not board.elements:
        return "(the whiteboard is empty)"
    cols, rows = fitted_size(columns, columns)
    lines = render_board(board.elements, cols, rows, _PLAIN)
    return "\n".join(line.plain.rstrip() for line in lines).strip("\n")


def markdown(info: SessionInfo, view: ClassroomView, results: Sequence[QuizResultData] = ()) -> str:
    """Speakers, text and action chips in order, the quiz's score, then the final board drawn as text."""
    started = time.strftime("%Y-%m-%d %H:%M", time.localtime(info.started))
    out = [f"# {_md(info.title)}", "", f"Session `{_md(info.id)}` · classroom `{_md(info.classroom)}` · model "
           f"`{_md(info.model)}` · started {started}", ""]
    for entry in view.entries:
        if isinstance(entry, LearnerMessage):
            out += [f"**🙋 {_md(entry.nickname)}** (learner): {_md(entry.text)}", ""]
        elif isinstance(entry, SystemNote):
            quoted = "  \n> ".join(_md(line) for line in entry.text.splitlines())  # a review keeps its lines
            out += [f"> {'⚠' if entry.level == 'error' else 'ℹ'} {quoted}", ""]
        elif isinstance(entry, AgentMessage):
            out += [f"### {_md(entry.avatar)} {_md(entry.name)}", ""]
            for part in entry.parts:
                text = part.text.strip()
                if text:
                    out += [f"`{text}`" if part.kind == "chip" else text, ""]
            if entry.interrupted:
                out += ["*(interrupted)*", ""]
    if results:
        earned, points = sum(r.earned for r in results), sum(r.points for r in results)
        out += ["## Quiz score", "", f"**{earned} of {points} points** over {len(results)} answered "
                f"question{'s' if len(results) != 1 else ''}.", ""]
        out += [f"- {_md(quiz_line(result, view.classroom.language))}" for result in results] + [""]
    out += ["## Final whiteboard", "", "```text", board_text(view.board), "```", ""]
    return "\n".join(out)


def _md(text: str) -> str:
    """Plain text that stays plain in Markdown (no accidental emphasis, links or HTML)."""
    return terminal_safe(text).replace("\\", "\\\\").replace("<", "&lt;").replace("`", "'")
