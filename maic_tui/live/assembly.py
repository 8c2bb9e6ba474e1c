"""Assembling a session from a recipe: the one place a session and its log writer are put together, for the
app (which builds it in a worker thread, so its first frame never waits for LangGraph) and for ``run`` and
``demo`` alike.

A session is live (recorded when the recipe names a data directory), resumed from a recorded one, or not
there at all when the app replays a log.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from maic_tui.classroom.models import Classroom
    from maic_tui.live.session import ClassroomSession
    from maic_tui.llm import ModelOptions
    from maic_tui.log.records import Timed
    from maic_tui.orchestration.graph.state import TurnSettings
    from maic_tui.room.replay import Recorded
    from maic_tui.speech.choice import VoiceSettings


@dataclass(frozen=True)
class Replay:
    """A recorded log played back at ``speed`` (gaps between records divided by it; inf = at once)."""

    records: list[Timed]
    speed: float = 1.0
    source: str = ""


@dataclass(frozen=True)
class SessionRecipe:
    """Everything needed to build a session except the classroom (which the app may switch)."""

    model: str = "demo"
    options: ModelOptions | None = None
    settings: TurnSettings | None = None  # limits for routing QA
    data_dir: Path | None = None  # record the session there (None: not recorded)
    classroom_name: str = ""  # as the learner named it, for the record
    resume: Recorded | None = None  # continue this recorded session
    replay: Replay | None = None  # no session: play this log
    lesson: bool = True  # the app plays the classroom's lesson when it opens (False: Q&A only)
    voice: VoiceSettings | None = None  # each agent speaks aloud (None: text only)
    learner: str | None = None  # who the learning records are about (None: the classroom's learner)
    simulated: bool = False  # a simulated learner plays it (maic-tui simulate): recorded as such
    role: str | None = None  # the learner's role in a project, given beforehand (--role)


def build_session(classroom: Classroom, recipe: SessionRecipe) -> ClassroomSession:
    from maic_tui.live.session import ClassroomSession
    from maic_tui.llm import ModelOptions
    from maic_tui.log.log_start import continue_log, start_log
    from maic_tui.log.store import StoreError

    options = recipe.options or ModelOptions()
    log, problem = None, None
    try:
        if recipe.data_dir is not None and recipe.resume is not None:
            log = continue_log(recipe.data_dir, recipe.resume.info, options)
        elif recipe.data_dir is not None:
            log = start_log(recipe.data_dir, recipe.classroom_name, classroom, recipe.model, options,
                            learner=recipe.learner, simulated=recipe.simulated)
    except (StoreError, OSError) as exc:  # an unwritable data directory must not stop the class
        problem = str(exc)
    session = ClassroomSession(classroom, recipe.model, options, recipe.settings, log=log,
                               data_dir=recipe.data_dir)
    session.role = recipe.role
    if problem is not None:
        session.not_recorded(problem)
    if recipe.resume is not None:
        session.restore(recipe.resume.rebuilt)
    return session
