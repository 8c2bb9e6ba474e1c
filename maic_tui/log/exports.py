"""A recorded session as a JSONL file (the replayable log), and a JSONL log read back from a file. The Markdown
transcript is the view model's (``room/markdown.py``)."""

from __future__ import annotations

from maic_tui.bad_input import read_text_file
from maic_tui.classroom.loader import load_classroom_text
from maic_tui.classroom.models import Classroom
from maic_tui.log.records import SessionInfo, Timed, header_line, read_jsonl, timed_line
from maic_tui.text_safety import one_line


def jsonl(info: SessionInfo, records: list[Timed]) -> str:
    return "\n".join([header_line(info), *(timed_line(item) for item in records)]) + "\n"


def open_log(path: str) -> tuple[SessionInfo, Classroom, list[Timed]]:
    """A JSONL log from a file and the classroom it carries; every problem is one line naming the file."""
    text = read_text_file(path, "session log (JSONL)", limit=64 * 2**20)
    info, records = read_jsonl(text, one_line(path, 200))
    return info, load_classroom_text(info.classroom_toml, f"{path} (its classroom)"), records
