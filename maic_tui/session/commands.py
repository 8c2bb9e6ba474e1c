"""What the command-line verbs do; ``cli.py`` only parses arguments and calls these."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from maic_tui.classroom import check_file, load_classroom
from maic_tui.events import to_json
from maic_tui.session.demo_lesson import DemoLesson, demo_script
from maic_tui.session.printer import TranscriptPrinter

DEFAULT_CLASSROOM = "derivatives"


def validate_files(paths: Sequence[str], out: TextIO, err: TextIO) -> int:
    """Print "ok" per valid file and one line per problem otherwise; exit status 2 if any is invalid."""
    status = 0
    for name in paths:
        classroom, problems = check_file(Path(name))
        if classroom is not None:
            out.write(f"{name}: ok\n")
            continue
        status = 2
        for problem in problems:
            err.write(f"{problem}\n")
    return status


def run_demo(classroom_name: str, as_json: bool, pace: float, out: TextIO) -> int:
    """Play the classroom's demo material headless: a readable transcript, or wire events with --json."""
    classroom = load_classroom(classroom_name)
    lesson = DemoLesson(classroom, pace=0.0 if as_json else pace)
    printer = TranscriptPrinter(out)
    if not as_json:
        out.write(f"{classroom.title}\n{classroom.description}\n".rstrip() + "\n")
    for learner_turn in demo_script(classroom):
        if learner_turn.message is not None and not as_json:
            printer.learner(classroom.learner.nickname, learner_turn.message)
        for event in lesson.play(learner_turn):
            if as_json:
                out.write(to_json(event) + "\n")
            else:
                printer.event(event)
    if not as_json:
        printer.board(lesson.board.summary(), lesson.board.conflicts())
    return 0
