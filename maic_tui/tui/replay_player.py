"""Plays a recorded log in the app: records reach the view with their original spacing (divided by the
speed, long pauses shortened), exactly as live events do, so the widgets cannot tell the difference."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from maic_tui.events import AgentEndEvent
from maic_tui.session.replay import Rebuilt
from maic_tui.whiteboard import Whiteboard

if TYPE_CHECKING:
    from maic_tui.session.assembly import Replay
    from maic_tui.tui.app import ClassroomApp

LONGEST_PAUSE = 2.0  # seconds: the learner thinking for a minute is not worth watching


async def play(app: ClassroomApp, replay: Replay) -> None:
    speed = replay.speed
    rebuilt = Rebuilt(app.view, Whiteboard())
    previous = replay.records[0].t if replay.records else 0.0
    app.replaying = True
    try:
        for item in replay.records:
            pause = min(LONGEST_PAUSE, max(0.0, item.t - previous) / speed)
            previous = item.t
            if pause > 0:
                await asyncio.sleep(pause)
            rebuilt.apply(item.record)
            if isinstance(item.record, AgentEndEvent):
                app.flush()
        rebuilt.close_open_turn()
    finally:
        app.replaying = False
        app.flush()
        app.replay_finished()
