"""What the command-line verbs do; ``cli.py`` only parses arguments and calls these."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Coroutine, Sequence
from typing import Any, TextIO

from maic_tui import paths
from maic_tui.classroom import load_classroom
from maic_tui.classroom.models import Classroom
from maic_tui.commands.printer import TranscriptPrinter
from maic_tui.events import to_json
from maic_tui.live.assembly import SessionRecipe, build_session
from maic_tui.live.session import ClassroomSession
from maic_tui.llm import ModelOptions
from maic_tui.settings import resolve_settings
from maic_tui.stop_signals import StopSignals

OPENING_MESSAGE = "Hello!"


async def _play(session: ClassroomSession, messages: Sequence[str], out: TextIO,
                printer: TranscriptPrinter | None, stop: StopSignals) -> None:
    for message in messages:
        session.check_message(message)  # a bad @name fails before anything is printed
    # A stop signal interrupts the running turn cleanly (done with endReason "interrupted"), then we stop.
    stop.on_stop(asyncio.get_running_loop(), session.interrupt)
    try:
        for message in messages:
            if printer is not None:
                printer.learner(session.classroom.learner.nickname, message)
            turn = session.turn(message)
            if stop.stopping:  # it came while the session was being built: this turn ends at once
                session.interrupt()
            try:
                async for event in turn:
                    if printer is None:
                        out.write(to_json(event) + "\n")
                        out.flush()
                    else:
                        printer.event(event)
            except BrokenPipeError:  # the reader went away (`| head`): stop the graph cleanly, then leave
                session.interrupt()
                await turn.aclose()
                raise
            if stop.stopping:
                break
    finally:
        stop.on_stop(None, None)


def run_turns(classroom_name: str, messages: Sequence[str], flags: dict[str, Any], seed: int, pace: float,
              out: TextIO, data_dir: str | None = None, stop: StopSignals | None = None,
              lesson: bool = False) -> int:
    """``maic-tui run``: play the learner's messages as turns (with ``lesson``, the lesson first, the messages
    answering where it waits), one JSON record per line; recorded."""
    classroom = load_classroom(classroom_name)
    spec, options = resolve_settings(flags)
    options = options.model_copy(update={"seed": seed, "pace": pace})
    session = _recorded_session(classroom_name, classroom, spec, options, data_dir)
    stop = stop or StopSignals()
    if lesson:
        from maic_tui.commands.run_lesson import play_lesson

        return _finish(session, play_lesson(session, messages, out, stop), stop)
    return _play_recorded(session, messages, out, None, stop)


def _recorded_session(classroom_name: str, classroom: Classroom, spec: str, options: ModelOptions,
                      data_dir: str | None) -> ClassroomSession:
    recipe = SessionRecipe(spec, options, data_dir=paths.data_dir(data_dir), classroom_name=classroom_name)
    session = build_session(classroom, recipe)
    problem = session.recording_problem()  # an unwritable data directory must not stop the turns
    if problem is not None:
        print(f"maic-tui: warning: {problem}", file=sys.stderr)
    return session


def _play_recorded(session: ClassroomSession, messages: Sequence[str], out: TextIO,
                   printer: TranscriptPrinter | None, stop: StopSignals) -> int:
    return _finish(session, _play(session, messages, out, printer, stop), stop)


def _finish(session: ClassroomSession, playing: Coroutine[Any, Any, None], stop: StopSignals) -> int:
    try:
        asyncio.run(playing)
    finally:
        session.close()
        problem = session.recording_problem()
        if problem is not None:
            print(f"maic-tui: warning: {problem}", file=sys.stderr)
    return stop.exit_code or 0  # the shell's codes: 130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP


def run_demo(classroom_name: str, as_json: bool, pace: float, out: TextIO, data_dir: str | None = None,
             stop: StopSignals | None = None) -> int:
    """``maic-tui demo``: the demo model answering the classroom's example questions, headless; recorded."""
    classroom = load_classroom(classroom_name)
    session = _recorded_session(classroom_name, classroom, "demo", ModelOptions(pace=0.0 if as_json else pace),
                                data_dir)
    messages = ([OPENING_MESSAGE] if classroom.demo.opening else []) + [a.question for a in classroom.demo.answers]
    printer = None if as_json else TranscriptPrinter(out)
    if printer is not None:
        out.write(f"{classroom.title}\n{classroom.description}\n".rstrip() + "\n")
    code = _play_recorded(session, messages, out, printer, stop or StopSignals())
    if printer is not None:
        printer.board(session.board.summary(), session.board.conflicts())
    return code
