"""Helpers for the Pilot tests: apps on the demo or a script model, and waiting for them."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from maic_tui.classroom import load_classroom
from maic_tui.classroom.models import Classroom
from maic_tui.live.assembly import SessionRecipe
from maic_tui.llm.options import ModelOptions
from maic_tui.tui.app import ClassroomApp


def demo_app(classroom: str | Classroom = "derivatives", pace: float = 0.0, theme: str | None = None,
             lesson: bool = False) -> ClassroomApp:
    """The app on the demo model; Q&A only unless ``lesson`` (the lesson's own tests start it)."""
    room = load_classroom(classroom) if isinstance(classroom, str) else classroom
    return ClassroomApp(room, SessionRecipe("demo", ModelOptions(pace=pace), lesson=lesson), theme=theme)


def recorded_app(data_dir: Path, classroom: str = "derivatives", lesson: bool = False) -> ClassroomApp:
    """The app on the demo model, its session recorded in ``data_dir``."""
    return ClassroomApp(load_classroom(classroom), SessionRecipe("demo", ModelOptions(pace=0.0), data_dir=data_dir,
                                                                 classroom_name=classroom, lesson=lesson))


def script_app(tmp_path: Path, script: dict[str, Any], classroom: Classroom, theme: str | None = None,
               lesson: bool = False) -> ClassroomApp:
    path = tmp_path / "script.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    return ClassroomApp(classroom, SessionRecipe(f"script:{path}", ModelOptions(), lesson=lesson), theme=theme)


async def wait_for(pilot: Pilot[Any], condition: Callable[[], object], timeout: float = 10.0) -> None:
    async def poll() -> None:
        while not condition():
            await pilot.pause(0.02)

    await asyncio.wait_for(poll(), timeout)


async def ready(pilot: Pilot[Any]) -> ClassroomApp:
    app = pilot.app
    assert isinstance(app, ClassroomApp)
    await wait_for(pilot, lambda: app.room.session is not None)
    await pilot.pause()
    return app


async def say(pilot: Pilot[Any], text: str) -> None:
    await pilot.press(*text)
    await pilot.press("enter")


async def finish_turn(pilot: Pilot[Any]) -> ClassroomApp:
    app = pilot.app
    assert isinstance(app, ClassroomApp)
    await wait_for(pilot, lambda: not app.room.turn_running and app.room.view.last_done is not None)
    await pilot.pause(0.1)
    return app
