"""Open the classroom app: live, resumed from a recorded session, or replaying a log.

The classroom file and settings are checked by the app after its first frame (pydantic and the classroom
schemas are not loaded before it); what can be checked cheaply is checked before any screen.
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from maic_tui import paths
from maic_tui.i18n import _
from maic_tui.live.assembly import Replay, SessionRecipe
from maic_tui.llm.spec import ModelSpec
from maic_tui.settings import read_setting, requested_model

if TYPE_CHECKING:
    from maic_tui.classroom.models import Classroom
    from maic_tui.llm import ModelOptions
    from maic_tui.speech.choice import VoiceSettings
    from maic_tui.tui.app import Opener

def run_app(classroom_name: str, flags: dict[str, Any], seed: int, pace: float | None, theme: str | None,
            data_dir: str | None = None, resume: str | None = None, lesson: bool = True,
            voice: VoiceSettings | None = None, learner: str | None = None, role: str | None = None) -> int:
    """Run the app; a broken classroom file or config is raised here, after the terminal is restored."""
    if voice is not None and voice.provider == "off" and voice.audio_out is not None:
        from maic_tui.live.voice import VoiceError

        raise VoiceError(_("--audio-out needs a voice: --voice espeak (offline) or --voice openai"))
    if resume is None and not paths.resolve(classroom_name).is_file():
        from maic_tui.classroom import load_classroom

        load_classroom(classroom_name)  # raises the loader's own one-line error for the missing file
    read_setting("theme")  # a config file that does not parse fails here, before the terminal is taken
    from maic_tui.learning.learner import learner_name

    learner = learner_name(learner)  # and so does a [learner] table that cannot be used
    if resume is None or flags.get("model"):
        ModelSpec.parse(requested_model(flags)).check()  # an unknown model: one line, no screen
    folder = paths.data_dir(data_dir)

    def open_classroom() -> tuple[Classroom, SessionRecipe]:
        spec, options = _settings(flags, seed, pace)
        if resume is not None:
            from maic_tui.room.replay import open_recorded

            recorded = open_recorded(folder, resume)
            model = flags.get("model") or recorded.info.model  # go on with the recorded model unless told
            return recorded.classroom, SessionRecipe(model, options, data_dir=folder, resume=recorded, voice=voice)
        from maic_tui.classroom import load_classroom

        classroom = load_classroom(classroom_name)
        return classroom, SessionRecipe(spec, options, data_dir=folder, classroom_name=classroom_name, lesson=lesson,
                                        voice=voice, learner=learner, role=role)

    return _run(open_classroom, resume or classroom_name, theme)

def _settings(flags: dict[str, Any], seed: int, pace: float | None) -> tuple[str, ModelOptions]:
    from maic_tui.settings import resolve_settings

    spec, options = resolve_settings(flags)
    return spec, options.model_copy(update={"seed": seed} | ({} if pace is None else {"pace": pace}))

def run_replay(log_path: str, speed: float, theme: str | None) -> int:
    """``maic-tui replay FILE.jsonl``: the log played in the app; nothing is recorded or sent."""
    if not Path(log_path).is_file():
        from maic_tui.log.exports import open_log

        open_log(log_path)  # raises its one-line error
    read_setting("theme")

    def open_replay() -> tuple[Classroom, SessionRecipe]:
        from maic_tui.log.exports import open_log

        info, classroom, records = open_log(log_path)
        return classroom, SessionRecipe(info.model, replay=Replay(records, speed, Path(log_path).name))

    return _run(open_replay, Path(log_path).name, theme)

def _run(opener: Opener, opening: str, theme: str | None) -> int:
    from maic_tui.tui.app import ClassroomApp  # Textual loads only when the app is really opened

    app = ClassroomApp(opener=opener, opening=opening, theme=theme)
    try:
        app.run()
    finally:
        app.close_session()
    if app.startup_error is not None:
        raise app.startup_error
    session = app.room.last_recorded
    if session is not None and not app.is_web:
        with contextlib.suppress(OSError):  # the terminal may be gone (a closed window)
            print(_("Session {session} recorded · go on with: maic-tui --resume {session}").format(session=session),
                  flush=True)
        from maic_tui.learning.delivery import at_session_end

        sent = at_session_end(app.room.recipe.data_dir or paths.data_dir(None), session)  # [records] auto = true
        if sent is not None:
            with contextlib.suppress(OSError):
                print(f"maic-tui: {sent}", file=sys.stderr, flush=True)
    return 0 if app.return_code is None else app.return_code
