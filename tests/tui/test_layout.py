"""Layout from 80x24 up: no stale rows after a resize, the placeholder shown whole, the class list reachable
when narrow, and a board whose title counts what is on it."""

from __future__ import annotations

import pytest

from maic_tui.tui.widgets.board_pane import BoardPane
from maic_tui.tui.widgets.composer import Composer
from maic_tui.tui.widgets.transcript import MessageView
from tests.tui.helpers import demo_app, finish_turn, ready, say


async def test_messages_fit_their_text_after_every_resize() -> None:
    app = demo_app("python-loops")
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await say(pilot, "How does a for loop work?")
        await finish_turn(pilot)
        for size in ((220, 60), (80, 24), (150, 44)):
            await pilot.resize_terminal(*size)
            await pilot.pause(0.3)
            for view in app.query(MessageView):
                lines = str(view.render()).count("\n") + 1
                assert view.size.height == lines, (size, view.size, lines)  # no empty rows left under it


@pytest.mark.parametrize("size", [(80, 24), (150, 44)])
async def test_the_placeholder_is_shown_whole(size: tuple[int, int]) -> None:
    app = demo_app()
    async with app.run_test(size=size) as pilot:
        await ready(pilot)
        composer = app.query_one(Composer)
        placeholder = str(composer.placeholder)
        words = placeholder.split()
        shown = " ".join("".join(seg.text for seg in composer.render_line(y)).strip()
                         for y in range(composer.content_size.height))
        assert composer.content_size.height >= 1
        assert all(word in shown for word in words), (placeholder, shown)


async def test_the_same_answer_twice_leaves_one_copy_on_the_board_and_the_title_counts_it() -> None:
    app = demo_app("python-loops")
    async with app.run_test(size=(150, 44)) as pilot:
        await ready(pilot)
        await say(pilot, "Is there a shorter way to write this loop?")
        await finish_turn(pilot)
        once = len(app.room.view.board.elements)
        await say(pilot, "Is there a shorter way to write this loop?")
        await finish_turn(pilot)
        await pilot.pause(0.3)
        assert once >= 1 and len(app.room.view.board.elements) == once
        title = str(app.query_one(BoardPane).border_title)
        assert title.startswith(f"Whiteboard · {once} element")
