"""A recorded session as text: Markdown (speakers, chips, the quiz score, the final board drawn as text) and
JSONL (the replayable log); a JSONL log read back from a file."""

from __future__ import annotations

import time
from collections.abc import Sequence

from maic_tui.bad_input import read_text_file
from maic_tui.classroom.loader import load_classroom_text
from maic_tui.classroom.models import Classroom
from maic_tui.log.records import QuizResultData, SessionInfo, Timed, header_line, read_jsonl, timed_line
from maic_tui.room.view import AgentMessage, ClassroomView, LearnerMessage, SystemNote, quiz_line
from maic_tui.text_safety import one_line, terminal_safe
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
        out += [f"- {_md(quiz_line(result))}" for result in results] + [""]
    out += ["## Final whiteboard", "", "```text", board_text(view.board), "```", ""]
    return "\n".join(out)


def _md(text: str) -> str:
    """Plain text that stays plain in Markdown (no accidental emphasis, links or HTML)."""
    return terminal_safe(text).replace("\\", "\\\\").replace("<", "&lt;").replace("`", "'")


def jsonl(info: SessionInfo, records: list[Timed]) -> str:
    return "\n".join([header_line(info), *(timed_line(item) for item in records)]) + "\n"


def open_log(path: str) -> tuple[SessionInfo, Classroom, list[Timed]]:
    """A JSONL log from a file and the classroom it carries; every problem is one line naming the file."""
    text = read_text_file(path, "session log (JSONL)", limit=64 * 2**20)
    info, records = read_jsonl(text, one_line(path, 200))
    return info, load_classroom_text(info.classroom_toml, f"{path} (its classroom)"), records
