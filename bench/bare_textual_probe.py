"""A bare Textual app (Header, a Static, Footer) reporting its first frame: the floor the app is compared with."""

from __future__ import annotations

import sys
import time

from textual.app import App, ComposeResult
from textual.widgets import Footer, Header, Static


class Bare(App[None]):
    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("hello")
        yield Footer()

    def on_mount(self) -> None:
        self.call_after_refresh(self._report)

    def _report(self) -> None:
        print(f"FRAME {time.time():.6f} -", file=sys.__stdout__, flush=True)
        self.exit()


Bare().run(headless=True)
