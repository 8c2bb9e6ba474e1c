"""Open the classroom app: load the classroom and settings, run the app, return an exit code."""

from __future__ import annotations

from typing import Any

from maic_tui.classroom import load_classroom
from maic_tui.session.config import resolve_settings
from maic_tui.tui.session_loader import SessionRecipe


def run_app(classroom_name: str, flags: dict[str, Any], seed: int, pace: float, theme: str | None) -> int:
    classroom = load_classroom(classroom_name)
    spec, options = resolve_settings(flags)
    options = options.model_copy(update={"seed": seed, "pace": pace})
    from maic_tui.tui.app import ClassroomApp  # Textual loads only when the app is really opened

    app = ClassroomApp(classroom, SessionRecipe(spec, options), theme=theme)
    app.run()
    return 0 if app.return_code is None else app.return_code
