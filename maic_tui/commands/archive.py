"""``maic-tui sessions``, ``export`` and ``replay --headless``: recorded sessions listed, written out, printed."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TextIO

from maic_tui.commands.printer import TranscriptPrinter
from maic_tui.files import check_target, emit
from maic_tui.i18n import _, ngettext
from maic_tui.llm.spec import shown_model
from maic_tui.log.exports import jsonl, open_log
from maic_tui.log.records import ClassControlRecord, LearnerRecord, LessonEndRecord, QuizResultRecord
from maic_tui.log.store import LogStore
from maic_tui.paths import data_dir
from maic_tui.room.markdown import board_text, markdown
from maic_tui.room.replay import open_recorded, rebuild
from maic_tui.room.view import control_line, lesson_end_line, quiz_line
from maic_tui.text_cells import cell_len, pad
from maic_tui.text_safety import one_line, terminal_safe


def list_sessions(folder: str | None, out: TextIO) -> int:
    store = LogStore(data_dir(folder))
    sessions = store.sessions()
    if not sessions:
        out.write(_("No sessions recorded yet in {folder}.").format(folder=one_line(str(store.path.parent))) + "\n")
        return 0
    # the headers are the interface's words (a person reads this table; `report --format csv` is the one to parse)
    rows = [(_("ID"), _("CLASSROOM"), _("MODEL"), _("STARTED"), _("TURNS"), _("LESSON"), _("LAST MESSAGE"))]
    for s in sessions:  # the model column tells a demo (the offline demo model) from a real class
        rows.append((one_line(s.id, 40), one_line(s.classroom, 40), one_line(shown_model(s.model), 30),
                     time.strftime("%Y-%m-%d %H:%M", time.localtime(s.started)), str(s.turns), s.lesson or "—",
                     one_line(s.last_message, 50)))
    last = len(rows[0]) - 1
    widths = [max(cell_len(row[i]) for row in rows) for i in range(last)]  # in cells, as a terminal shows them
    for row in rows:
        out.write("  ".join(pad(cell, widths[i]) if i < last else cell for i, cell in enumerate(row)).rstrip()
                  + "\n")
    return 0


def export(session: str, fmt: str, folder: str | None, output: str | None, out: TextIO,
           err: TextIO | None = None) -> int:
    target = check_target(Path(output), "export") if output is not None else None  # before any work
    recorded = open_recorded(data_dir(folder), session)
    warn_skipped(recorded.skipped, err)
    if fmt == "jsonl":
        text = jsonl(recorded.info, recorded.closed_records())
    else:
        text = markdown(recorded.info, recorded.rebuilt.view, recorded.rebuilt.quiz_results)
    emit(text, target, out)
    return 0


def warn_skipped(skipped: list[str], err: TextIO | None = None) -> None:
    """One warning per record of a session that could not be read (and was left out)."""
    for line in skipped:
        (err or sys.stderr).write(_("maic-tui: warning: {problem}").format(problem=line) + "\n")


def replay_headless(path: str, out: TextIO) -> int:
    """The rebuilt transcript and board, printed as the headless demo prints a live one."""
    info, classroom, records = open_log(path)
    printer = TranscriptPrinter(out)
    out.write(ngettext("{title} · session {id} · {count} records", "{title} · session {id} · {count} records",
                       len(records)).format(title=one_line(info.title), id=one_line(info.id), count=len(records))
              + "\n")
    for item in records:
        if isinstance(item.record, LearnerRecord):
            printer.learner(classroom.learner.nickname, item.record.data.text)
        elif isinstance(item.record, QuizResultRecord):
            out.write(f"    {terminal_safe(quiz_line(item.record.data, classroom.language))}\n")
        elif isinstance(item.record, LessonEndRecord):
            first, *review = lesson_end_line(item.record.data, classroom.language).splitlines()
            out.write(f"\n── {first.rstrip('.')} ──\n" + "".join(f"    {terminal_safe(line)}\n" for line in review))
        elif isinstance(item.record, ClassControlRecord):
            out.write(f"    {terminal_safe(control_line(classroom, item.record.data))}\n")
        elif item.record.type not in ("interrupt", "scene", "step"):
            printer.event(item.record)  # type: ignore[arg-type]
    rebuilt = rebuild(classroom, [item.record for item in records])
    printer.board("", [])
    out.write(board_text(rebuilt.view.board) + "\n")
    return 0


def fork_session(session: str, turn: int, folder: str | None, out: TextIO) -> int:
    """``maic-tui fork ID --turn N``: a new session holding the records before learner turn N; prints its id."""
    from maic_tui.log.fork import fork
    from maic_tui.log.store import LogStore

    where = data_dir(folder)
    info, records, skipped = LogStore(where).load(session)
    for line in skipped:
        sys.stderr.write(_("maic-tui: warning: {problem}").format(problem=line) + "\n")
    forked = fork(where, info, records, turn)
    out.write(f"{forked.id}\n")
    sys.stderr.write(_("forked {session} before turn {turn}: go on with maic-tui --resume {id} "
                       "(or maic-tui run --resume {id} --say TEXT)").format(session=one_line(info.id), turn=turn,
                                                                           id=forked.id) + "\n")
    return 0
