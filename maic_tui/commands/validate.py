"""``maic-tui validate``: kept apart from the other verbs so it starts without the model libraries."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from maic_tui.bad_input import describe_path
from maic_tui.classroom import ClassroomError, check_file, load_classroom
from maic_tui.classroom.demo_checks import unanswerable
from maic_tui.classroom.loader import Problem
from maic_tui.classroom.voices import Provider, voice_problems
from maic_tui.i18n import _
from maic_tui.paths import SAMPLES_DIR, resolve
from maic_tui.text_safety import one_line


def validate_files(paths: Sequence[str], out: TextIO, err: TextIO, voice: Provider | None = None) -> int:
    """Print "ok" per valid file and one line per problem otherwise, in the interface's language; exit status 2 if
    any is invalid. With ``voice``, a voice that provider cannot speak is a problem too."""
    status = 0
    for name in paths:
        path = resolve(name)  # a path, or a bundled sample's name
        if path.parent == SAMPLES_DIR and not path.exists():
            try:
                load_classroom(name)
            except ClassroomError as exc:  # neither a file nor a sample: says which samples there are
                status = 2
                err.write(f"{exc}\n")
                continue
        classroom, problems = check_file(path)
        if classroom is not None and voice is not None:
            problems = [Problem(describe_path(name), where, message)
                        for where, message in voice_problems(classroom.agents, voice)]
            classroom = None if problems else classroom
        if classroom is not None:
            out.write(_("{file}: ok").format(file=describe_path(name)) + "\n")
            for warning in unanswerable(classroom):  # valid, but the demo reads those replies less well
                err.write(_("{file}: warning: {warning}").format(file=describe_path(name),
                                                                 warning=one_line(warning, 400)) + "\n")
            continue
        status = 2
        for problem in problems:
            err.write(f"{problem}\n")
    return status
