"""``maic-tui run`` and ``maic-tui demo``: learner turns played headless through the turn driver, printed as JSON
records (one per line) or as a readable transcript; recorded like any session."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, TextIO

from maic_tui import paths
from maic_tui.bad_input import BadInput
from maic_tui.classroom import load_classroom
from maic_tui.classroom.models import Classroom
from maic_tui.commands.printer import TranscriptPrinter
from maic_tui.i18n import _, ngettext
from maic_tui.learning.delivery import at_session_end
from maic_tui.learning.learner import learner_name
from maic_tui.live.assembly import SessionRecipe, build_session
from maic_tui.live.driver import TurnDriver
from maic_tui.live.session import ClassroomSession
from maic_tui.live.voice import make_speaker
from maic_tui.llm import ModelOptions
from maic_tui.log.records import InterruptRecord, LearnerRecord, Record, StepRecord, record_json
from maic_tui.orchestration.routing.director_answer import END, USER
from maic_tui.orchestration.routing.manual import QueuedPicks
from maic_tui.room.replay import Recorded, open_recorded
from maic_tui.settings import resolve_settings
from maic_tui.speech.choice import VoiceSettings
from maic_tui.speech.speaker import Speaker
from maic_tui.stop_signals import StopSignals
from maic_tui.text_safety import one_line

OPENING_MESSAGE = "Hello!"
NOT_PRINTED = (LearnerRecord, StepRecord, InterruptRecord)  # the learner's own input and the log's bookkeeping


def json_lines(out: TextIO) -> Callable[[Record], None]:
    """Each record printed as one line of wire JSON, but for the learner's own input and the log's bookkeeping."""

    def show(record: Record) -> None:
        if not isinstance(record, NOT_PRINTED):
            out.write(record_json(record) + "\n")
            out.flush()

    return show


def transcript(printer: TranscriptPrinter, nickname: str) -> Callable[[Record], None]:
    """Each record as the readable transcript prints it."""

    def show(record: Record) -> None:
        if isinstance(record, LearnerRecord):
            printer.learner(nickname, record.data.text)
        elif not isinstance(record, NOT_PRINTED):
            printer.event(record)  # type: ignore[arg-type]  # a live turn's records are events

    return show


def headless_driver(session: ClassroomSession, show: Callable[[Record], None], lesson: bool = False) -> TurnDriver:
    """The turn driver for a command: every record it plays goes to ``show``."""
    driver = TurnDriver(session.classroom)
    driver.attach(session, with_lesson=lesson)
    driver.on_record = show
    driver.on_problem = lambda line: print(f"maic-tui: {one_line(line, 300)}", file=sys.stderr)  # e.g. h out of range
    return driver


async def until_stopped(driver: TurnDriver, stop: StopSignals, playing: Awaitable[None]) -> None:
    """``playing``, which a stop signal ends as an interruption (also one that came before it started)."""
    stop.on_stop(asyncio.get_running_loop(), driver.stop)
    if stop.stopping:
        driver.stop()
    try:
        await playing
    finally:
        stop.on_stop(None, None)


async def _play(driver: TurnDriver, messages: Sequence[str], stop: StopSignals) -> None:
    for message in [driver.read(message) for message in messages]:  # a bad @name fails before anything is printed
        driver.submit(message)
    await until_stopped(driver, stop, driver.play())


def run_turns(classroom_name: str | None, messages: Sequence[str], flags: dict[str, Any], seed: int, pace: float,
              out: TextIO, data_dir: str | None = None, stop: StopSignals | None = None,
              lesson: bool = False, resume: str | None = None, picks: Sequence[str] = (),
              voice: VoiceSettings | None = None, learner: str | None = None, role: str | None = None) -> int:
    """``maic-tui run``: play the learner's messages as turns (with ``lesson``, the lesson first, the messages
    answering where it waits), one JSON record per line; recorded. ``resume``: go on with a recorded session;
    ``picks``: who speaks at each director decision, in order (step mode, headless)."""
    spec, options = resolve_settings(flags)
    options = options.model_copy(update={"seed": seed, "pace": pace})
    if resume is not None:
        recorded = open_recorded(paths.data_dir(data_dir), resume)
        picked = checked_picks(recorded.classroom, picks)  # before a log is opened: a bad pick records nothing
        session = _resumed_session(recorded, flags.get("model"), options, data_dir)
    else:
        classroom = load_classroom(classroom_name or "")
        picked = checked_picks(classroom, picks)
        session = recorded_session(classroom_name or "", classroom, spec, options, data_dir, learner_name(learner))
    session.role = role
    stop = stop or StopSignals()
    speaker = make_speaker(session.classroom, voice, options, _notice) if voice is not None else None
    driver = headless_driver(session, json_lines(out), lesson=lesson)
    driver.speak_with(speaker, stops_on_message=False)  # every utterance is kept: the answers come in at once
    queue = QueuedPicks(picked) if picked else None
    if queue is not None:
        session.context.picker = queue  # in place of the driver's step mode, which needs a screen
    if lesson:
        from maic_tui.commands.run_lesson import play_lesson

        lesson_played = until_stopped(driver, stop, play_lesson(driver, messages, stop))
        code = _finish(session, _spoken(speaker, stop, lesson_played), stop)
    else:
        code = _finish(session, _spoken(speaker, stop, _play(driver, messages, stop)), stop)
    if queue is not None and queue.left:  # said, not an error: the turns played as they were recorded
        print(ngettext("maic-tui: warning: {count} --pick value not used (no decision was left for {picks})",
                       "maic-tui: warning: {count} --pick values not used (no decision was left for {picks})",
                       len(queue.left)).format(count=len(queue.left),
                                               picks=", ".join(one_line(pick, 40) for pick in queue.left)),
              file=sys.stderr)
    return code


def _notice(line: str) -> None:
    print(f"maic-tui: {line}", file=sys.stderr)


async def _spoken(speaker: Speaker | None, stop: StopSignals, playing: Awaitable[None]) -> None:
    """The turns, then what the voice still has to say (not after a stop: that silences it)."""
    try:
        await playing
        if speaker is not None and not stop.stopping:
            await until_quiet(speaker, stop)
    finally:
        if speaker is not None:
            await speaker.close()


async def until_quiet(speaker: Speaker, stop: StopSignals) -> None:
    draining = asyncio.ensure_future(speaker.drain())

    def cancel() -> None:
        draining.cancel()

    stop.on_stop(asyncio.get_running_loop(), cancel)
    try:
        await draining
    except asyncio.CancelledError:
        speaker.interrupt()
    finally:
        stop.on_stop(None, None)


def recorded_session(classroom_name: str, classroom: Classroom, spec: str, options: ModelOptions,
                      data_dir: str | None, learner: str | None = None, simulated: bool = False) -> ClassroomSession:
    recipe = SessionRecipe(spec, options, data_dir=paths.data_dir(data_dir), classroom_name=classroom_name,
                           learner=learner, simulated=simulated)
    session = build_session(classroom, recipe)
    problem = session.recording_problem()  # an unwritable data directory must not stop the turns
    if problem is not None:
        print(_("maic-tui: warning: {problem}").format(problem=problem), file=sys.stderr)
    return session


def _resumed_session(recorded: Recorded, model: str | None, options: ModelOptions,
                      data_dir: str | None) -> ClassroomSession:
    folder = paths.data_dir(data_dir)
    for line in recorded.skipped:
        print(_("maic-tui: warning: {problem}").format(problem=line), file=sys.stderr)
    recipe = SessionRecipe(model or recorded.info.model, options, data_dir=folder, resume=recorded)
    return build_session(recorded.classroom, recipe)


def checked_picks(classroom: Classroom, picks: Sequence[str]) -> list[str]:
    """``--pick`` values as the director's choices: an agent id of the class, USER or END (any case for those)."""
    ids = [agent.id for agent in classroom.agents]
    checked = []
    for pick in picks:
        value = pick.upper() if pick.upper() in (USER, END) else pick
        if value not in (*ids, USER, END):
            raise BadInput(_("--pick {pick}: not in this class; choose one of {ids}, USER or END").format(
                pick=one_line(pick, 40), ids=", ".join(ids)))
        checked.append(value)
    return checked


def _finish(session: ClassroomSession, playing: Coroutine[Any, Any, None], stop: StopSignals) -> int:
    try:
        asyncio.run(playing)
    finally:
        session.close()
        problem = session.recording_problem()
        if problem is not None:
            print(_("maic-tui: warning: {problem}").format(problem=problem), file=sys.stderr)
        elif session.log is not None and session.log.stored:
            sent = at_session_end(session.log.store.folder, session.log.session_id,  # with [records] auto = true
                                  stopped=lambda: stop.stopping)  # a signal ends the sending: the queue keeps it
            if sent is not None:
                print(f"maic-tui: {sent}", file=sys.stderr)
    return stop.exit_code or 0  # the shell's codes: 130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP


def run_demo(classroom_name: str, as_json: bool, pace: float, out: TextIO, data_dir: str | None = None,
             stop: StopSignals | None = None) -> int:
    """``maic-tui demo``: the demo model answering the classroom's example questions, headless; recorded."""
    classroom = load_classroom(classroom_name)
    session = recorded_session(classroom_name, classroom, "demo", ModelOptions(pace=0.0 if as_json else pace),
                                data_dir)
    messages = ([OPENING_MESSAGE] if classroom.demo.opening else []) + [a.question for a in classroom.demo.answers]
    printer = None if as_json else TranscriptPrinter(out)
    if printer is not None:
        out.write(f"{classroom.title}\n{classroom.description}\n".rstrip() + "\n")
    show = json_lines(out) if printer is None else transcript(printer, classroom.learner.nickname)
    stop = stop or StopSignals()
    code = _finish(session, _play(headless_driver(session, show), messages, stop), stop)
    if printer is not None:
        printer.board(session.board.summary(), session.board.conflicts())
    return code
