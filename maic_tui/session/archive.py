"""Recorded sessions as text: the list, Markdown and JSONL exports, and the headless replay."""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from maic_tui.bad_input import read_text_file
from maic_tui.classroom.loader import load_classroom_text
from maic_tui.classroom.models import Classroom
from maic_tui.llm.spec import shown_model
from maic_tui.paths import data_dir
from maic_tui.session.classroom_view import AgentMessage, ClassroomView, LearnerMessage, SystemNote, quiz_line
from maic_tui.session.log_records import (
    LearnerRecord,
    LessonEndRecord,
    QuizResultData,
    QuizResultRecord,
    SessionInfo,
    Timed,
    header_line,
    read_jsonl,
    timed_line,
)
from maic_tui.session.printer import TranscriptPrinter
from maic_tui.session.recording import open_recorded
from maic_tui.session.replay import rebuild
from maic_tui.session.store import SessionStore
from maic_tui.text_safety import one_line, terminal_safe
from maic_tui.whiteboard import Whiteboard
from maic_tui.whiteboard.render import BoardPalette, fitted_size, render_board

BOARD_COLUMNS = 96  # the board drawn as text in exports and the headless replay
_PLAIN = BoardPalette(background="#ffffff", ink="#000000", grid="#cccccc", dark=False)


def list_sessions(folder: str | None, out: TextIO) -> int:
    store = SessionStore(data_dir(folder))
    sessions = store.sessions()
    if not sessions:
        out.write(f"No sessions recorded yet in {one_line(str(store.path.parent))}.\n")
        return 0
    rows = [("ID", "CLASSROOM", "MODEL", "STARTED", "TURNS", "LAST MESSAGE")]
    for s in sessions:  # the model column tells a demo (the offline demo model) from a real class
        rows.append((one_line(s.id, 40), one_line(s.classroom, 40), one_line(shown_model(s.model), 30),
                     time.strftime("%Y-%m-%d %H:%M", time.localtime(s.started)), str(s.turns),
                     one_line(s.last_message, 50)))
    last = len(rows[0]) - 1
    widths = [max(len(row[i]) for row in rows) for i in range(last)]
    for row in rows:
        out.write("  ".join(cell.ljust(widths[i]) if i < last else cell for i, cell in enumerate(row)).rstrip()
                  + "\n")
    return 0


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
            out += [f"> {'⚠' if entry.level == 'error' else 'ℹ'} {_md(entry.text)}", ""]
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


def export(session: str, fmt: str, folder: str | None, output: str | None, out: TextIO,
           err: TextIO | None = None) -> int:
    recorded = open_recorded(data_dir(folder), session)
    for line in recorded.skipped:
        (err or sys.stderr).write(f"maic-tui: warning: {line}\n")
    if fmt == "jsonl":
        text = jsonl(recorded.info, recorded.closed_records())
    else:
        text = markdown(recorded.info, recorded.rebuilt.view, recorded.rebuilt.quiz_results)
    if output is None:
        out.write(text)
    else:
        Path(output).write_text(text, encoding="utf-8")
        out.write(f"wrote {Path(output).resolve()}\n")
    return 0


def open_log(path: str) -> tuple[SessionInfo, Classroom, list[Timed]]:
    """A JSONL log from a file and the classroom it carries; every problem is one line naming the file."""
    text = read_text_file(path, "session log (JSONL)", limit=64 * 2**20)
    info, records = read_jsonl(text, one_line(path, 200))
    return info, load_classroom_text(info.classroom_toml, f"{path} (its classroom)"), records


def replay_headless(path: str, out: TextIO) -> int:
    """The rebuilt transcript and board, printed as the headless demo prints a live one."""
    info, classroom, records = open_log(path)
    printer = TranscriptPrinter(out)
    out.write(f"{one_line(info.title)} · session {one_line(info.id)} · {len(records)} records\n")
    for item in records:
        if isinstance(item.record, LearnerRecord):
            printer.learner(classroom.learner.nickname, item.record.data.text)
        elif isinstance(item.record, QuizResultRecord):
            out.write(f"    {terminal_safe(quiz_line(item.record.data))}\n")
        elif isinstance(item.record, LessonEndRecord):
            end = item.record.data
            out.write(f"\n── Lesson over: score {end.score}/{end.max_score} over {end.scenes} scenes ──\n")
        elif item.record.type not in ("interrupt", "scene", "step"):
            printer.event(item.record)  # type: ignore[arg-type]
    rebuilt = rebuild(classroom, [item.record for item in records])
    printer.board("", [])
    out.write(board_text(rebuilt.view.board) + "\n")
    return 0
