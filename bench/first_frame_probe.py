"""Run the real app start-up path headless and report when the first frame and the room are on screen.

Used by ``bench/tui_bench.py`` in a fresh process. Prints ``FRAME <unix time> <modules>`` once the first
refresh after mount has happened (with the model libraries loaded by then), then ``ROOM <unix time>`` once
the classroom is mounted and drawn (roster, transcript, board and composer usable), and exits.
"""

from __future__ import annotations

import sys
import time

from maic_tui import cli
from maic_tui.tui import app as app_module

WATCHED = ("langchain_openai", "langgraph", "langchain_core")


class FirstFrameProbe(app_module.ClassroomApp):
    def on_mount(self) -> None:  # Textual calls the app's own on_mount as well (handlers run per class)
        self.call_after_refresh(self._report_frame)

    def _report_frame(self) -> None:
        loaded = ",".join(m for m in WATCHED if m in sys.modules) or "-"
        print(f"FRAME {time.time():.6f} {loaded}", file=sys.__stdout__, flush=True)
        # The room's code loads after the first frame: it is watched for, not patched before it is imported.
        self._watch = self.set_interval(0.002, self._room_entered)

    def _room_entered(self) -> None:
        room = self._room
        if room is not None and room.is_open and room.is_current and room.focused is not None:
            self._watch.stop()
            self.call_after_refresh(self.report_room)

    def report_room(self) -> None:
        print(f"ROOM {time.time():.6f}", file=sys.__stdout__, flush=True)
        self.exit()

    def run(self, *args: object, **kwargs: object) -> None:  # type: ignore[override]
        super().run(headless=True)


app_module.ClassroomApp = FirstFrameProbe  # type: ignore[misc]
cli.main(["derivatives", "--pace", "0"])  # the real command line, as `maic-tui derivatives` runs it
