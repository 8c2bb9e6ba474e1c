"""The director's decisions of the current turn, step by step, for routing QA."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import DataTable

from maic_tui.events import TraceRecord
from maic_tui.text_safety import terminal_safe

RAW_CHARS = 80
COLUMNS = ("#", "path", "final", "ms", "guards", "candidates", "raw / reason")


def _guards(record: TraceRecord) -> Text:
    text = Text()
    for verdict in record.guards:
        text.append("✓" if verdict.passed else "✗", style="green" if verdict.passed else "bold red")
        text.append(f"{verdict.rule} ")
    return text


def _raw(record: TraceRecord) -> Text:
    raw = " ".join(terminal_safe(record.raw or "").split())
    if len(raw) > RAW_CHARS:
        raw = raw[:RAW_CHARS - 1] + "…"
    text = Text(raw)
    if record.reason:
        text.append(("  — " if raw else "") + terminal_safe(record.reason), style="italic")
    for warning in record.action_warnings:
        text.append(f"  ⚠ {terminal_safe(warning)}", style="yellow")
    return text


class TracePanel(DataTable[Text], can_focus=False):
    def __init__(self) -> None:
        super().__init__(id="trace", zebra_stripes=True, cursor_type="row")
        self._records: list[TraceRecord] = []
        self.add_columns(*COLUMNS)

    def on_mount(self) -> None:
        self.border_title = "Director trace"

    def show(self, records: list[TraceRecord]) -> None:
        if records == self._records:
            return
        self._records = list(records)
        self.clear()
        for record in records:
            self.add_row(Text(str(record.step)), Text(record.path), Text(terminal_safe(record.final), style="bold"),
                         Text(f"{record.latency_ms:.0f}"), _guards(record),
                         Text(", ".join(terminal_safe(c) for c in record.candidates)), _raw(record))
