"""The transcript follows new messages: after PageUp and PageDown back to the end, and after a PageDown at the end,
new lines scroll into view again (Textual released the anchor on every page scroll)."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Static

from maic_tui.tui.widgets.transcript import Transcript


class _Room(App[None]):
    def compose(self) -> ComposeResult:
        yield Transcript()


async def _add(transcript: Transcript, start: int, count: int) -> None:
    await transcript.mount_all([Static(f"line {n}") for n in range(start, start + count)])


async def test_paging_back_to_the_end_follows_new_messages_again() -> None:
    app = _Room()
    async with app.run_test(size=(80, 24)) as pilot:
        transcript = app.query_one(Transcript)
        await _add(transcript, 0, 60)
        await pilot.pause()
        assert transcript.scroll_y == transcript.max_scroll_y > 0  # following
        transcript.scroll_page_down()  # PageDown at the end
        await pilot.pause(0.3)
        await _add(transcript, 60, 10)
        await pilot.pause(0.3)
        assert transcript.scroll_y == transcript.max_scroll_y  # still following
        transcript.scroll_page_up()
        await pilot.pause(0.5)
        assert transcript.scroll_y < transcript.max_scroll_y
        for _ in range(3):
            transcript.scroll_page_down()
            await pilot.pause(0.5)
        await _add(transcript, 70, 10)
        await pilot.pause(0.3)
        assert transcript.scroll_y == transcript.max_scroll_y  # back at the end: following again
