"""Open the classroom app: the classroom file and settings are checked by the app after its first frame."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from maic_tui.paths import resolve
from maic_tui.session.config import read_setting
from maic_tui.tui.session_loader import SessionRecipe

if TYPE_CHECKING:
    from maic_tui.classroom.models import Classroom


def run_app(classroom_name: str, flags: dict[str, Any], seed: int, pace: float | None, theme: str | None) -> int:
    """Run the app; a broken classroom file or config is raised here, after the terminal is restored.

    What can be checked cheaply is checked before any screen: that the classroom file exists and that the
    config file parses. Validating the classroom needs pydantic, so the app does it after its first frame.
    """
    if not resolve(classroom_name).is_file():
        from maic_tui.classroom import load_classroom

        load_classroom(classroom_name)  # raises the loader's own one-line error for the missing file
    read_setting("theme")  # a config file that does not parse fails here, before the terminal is taken
    from maic_tui.tui.app import ClassroomApp  # Textual loads only when the app is really opened

    def open_classroom() -> tuple[Classroom, SessionRecipe]:
        from maic_tui.classroom import load_classroom
        from maic_tui.session.config import resolve_settings

        classroom = load_classroom(classroom_name)
        spec, options = resolve_settings(flags)
        options = options.model_copy(update={"seed": seed} | ({} if pace is None else {"pace": pace}))
        return classroom, SessionRecipe(spec, options)

    app = ClassroomApp(opener=open_classroom, opening=classroom_name, theme=theme)
    app.run()
    if app.startup_error is not None:
        raise app.startup_error
    return 0 if app.return_code is None else app.return_code
