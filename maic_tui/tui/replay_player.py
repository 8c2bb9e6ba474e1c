"""Plays a recorded log into the room through ``log.playback``: records reach the view model exactly as live events
do, so the widgets cannot tell the difference (the lesson line included); the composer shows the progress."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from maic_tui.i18n import _

if TYPE_CHECKING:
    from maic_tui.log.playback import LogPlayer
    from maic_tui.log.records import Timed
    from maic_tui.room.view import ClassroomView


def progress_line(source: str, player: LogPlayer, playing: bool) -> str:
    progress = player.progress()
    if not playing:
        line = _("Replay of {source}: {progress} · nothing is sent")
    elif player.paused:
        line = _("Replay of {source}: {progress} · Space resumes · nothing is sent")
    else:
        line = _("Replay of {source}: {progress} · Space pauses · nothing is sent")
    return line.format(source=source or _("a recorded session"), progress=progress)


async def play(view: ClassroomView, player: LogPlayer, source: str, flush: Callable[[], None]) -> None:
    # Imported here: this module is part of the app's first frame, the event models are not.
    from maic_tui.events import AgentEndEvent
    from maic_tui.room.replay import Rebuilt
    from maic_tui.whiteboard import Whiteboard

    rebuilt = Rebuilt(view, Whiteboard())
    if view.lesson is not None:
        view.lesson.phase = None  # a log says where the lesson was, not whether it played or waited

    def apply(item: Timed) -> None:
        rebuilt.apply(item.record)
        if isinstance(item.record, AgentEndEvent):
            flush()
        view.replay = progress_line(source, player, playing=True)

    view.replay = progress_line(source, player, playing=True)
    try:
        await player.play(apply)
        rebuilt.close_open_turn()
    finally:
        view.replay = progress_line(source, player, playing=False)
