"""``maic-tui export ID --format svg``: the final screen of a recorded session, as Textual draws it."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TextIO

from maic_tui import paths
from maic_tui.files import check_target, write_atomically
from maic_tui.live.assembly import Replay, SessionRecipe
from maic_tui.room.replay import open_recorded
from maic_tui.tui.app import ClassroomApp
from maic_tui.tui.messages import ReplayFinished

SCREEN_SIZE = (160, 48)
SETTLE_SECONDS = 0.5


class _FinalScreen(ClassroomApp):
    svg = ""

    def on_replay_finished(self, _: ReplayFinished) -> None:
        # The whole log arrived in one go: let the transcript mount and lay out its messages first.
        self.set_timer(SETTLE_SECONDS, lambda: self.call_after_refresh(self._shoot))

    def _shoot(self) -> None:
        self.svg = self.export_screenshot(title=self.room.classroom.title)
        self.exit()


def export_svg(session: str, data_dir: str | None, output: str | None, out: TextIO) -> int:
    given = check_target(Path(output), "SVG file") if output is not None else None  # before any work
    recorded = open_recorded(paths.data_dir(data_dir), session)
    replay = Replay(recorded.closed_records(), math.inf)
    app = _FinalScreen(recorded.classroom, SessionRecipe(recorded.info.model, replay=replay))
    app.run(headless=True, size=SCREEN_SIZE)
    if not app.svg:
        raise RuntimeError("the app closed before its screen could be captured")
    target = given or check_target(Path(f"{recorded.info.id}.svg"), "SVG file")
    write_atomically(target, app.svg)
    out.write(f"wrote {target.resolve()}\n")
    return 0
