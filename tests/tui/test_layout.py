"""Layout from 80x24 up: no stale rows after a resize, the placeholder shown whole, the class list reachable
when narrow, and a board whose title counts what is on it."""

from __future__ import annotations

import pytest

from maic_tui.tui.widgets.board_pane import BoardPane
from maic_tui.tui.widgets.composer import Composer
from maic_tui.tui.widgets.message_view import MessageView
from tests.tui.helpers import demo_app, finish_turn, ready, say, wait_for


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


async def test_at_80_columns_an_empty_board_gives_its_room_to_the_conversation() -> None:
    from maic_tui.classroom.loader import load_classroom_text
    from tests.test_classroom import MINIMAL

    app = demo_app(load_classroom_text(MINIMAL, "chat.toml"))  # no scenes: the side shows only the board
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await pilot.pause(0.2)
        side, center = app.query_one("#side"), app.query_one("#center")
        assert not side.display and center.size.width >= 60  # not 40 beside an empty 30-column pane
        await pilot.press("f2")  # the trace lives there: the pane comes back
        await pilot.pause(0.2)
        assert side.display
        await pilot.resize_terminal(150, 44)
        await pilot.press("f2")
        await pilot.pause(0.2)
        assert side.display  # wide enough: the pane keeps its place


async def test_the_options_of_a_pause_line_up() -> None:
    from maic_tui.classroom.lesson_steps import Phase

    app = demo_app("python-loops", lesson=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        lesson = app.room.turns.lesson
        for _ in range(100):
            await pilot.pause(0.1)
            if lesson is not None and lesson.phase == Phase.WAITING and app.query(".cue-option"):
                break
        buttons = list(app.query(".cue-option"))
        assert len(buttons) == 2 and len({button.region.x for button in buttons}) == 1
        for number, button in enumerate(buttons, 1):
            label = str(button.label)
            assert label.startswith(f"{number}· ")
            assert button.size.width <= len(label) + 2  # not centred in a wider button: the numbers line up


async def test_f1_at_80_columns_keeps_every_key_on_one_line() -> None:
    from textual.widgets._markdown import MarkdownTableCellContents

    app = demo_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await pilot.press("f1")
        await pilot.pause(0.5)
        cells = [cell for cell in app.screen.query(MarkdownTableCellContents) if cell.has_class("cell")]
        keys = [cell for cell in cells if cell.name and cell.name.endswith(".1")]
        assert len(keys) > 10
        wrapped = [str(cell.render()) for cell in keys if cell.content_size.width < len(str(cell.render()))
                   and "Ctrl+C (class silent)" not in str(cell.render())]
        assert wrapped == []  # "@ + name, Tab" wrapped over three lines before


async def test_the_maximised_board_steps_back_through_the_boards_cleared_earlier() -> None:
    app = demo_app("water-cycle")
    async with app.run_test(size=(120, 36)) as pilot:
        await ready(pilot)
        board = app.room.view.board
        for content in ("first board", "second board"):
            assert board.apply("wb_draw_text", {"content": content, "x": 40, "y": 40, "width": 300,
                                                "height": 60}).ok
            assert board.apply("wb_clear", {}).ok
        assert board.apply("wb_draw_text", {"content": "the board of now", "x": 40, "y": 40, "width": 300,
                                            "height": 60}).ok
        app.room.view.board_version += 1
        app.room.view.board_changes += 1
        await pilot.pause(0.2)
        pane = app.query_one(BoardPane)
        await pilot.press("f4")
        await pilot.pause(0.2)
        assert pane.has_focus and len(board.history) == 2, (pane.has_focus, len(board.history))
        assert "← 2 earlier boards" in str(pane.border_title)
        await pilot.press("left")
        await pilot.pause(0.1)
        assert "Earlier board 2 of 2" in str(pane.border_title) and "second board" in _drawn(pane)
        await pilot.press("left", "left")  # stops at the first
        await pilot.pause(0.1)
        assert "Earlier board 1 of 2" in str(pane.border_title) and "first board" in _drawn(pane)
        await pilot.press("right", "right")
        await pilot.pause(0.1)
        assert pane.looking_back is None and "the board of now" in _drawn(pane)
        await pilot.press("left")
        await pilot.pause(0.1)
        assert pane.looking_back == 1
        await pilot.press("escape")  # leaving the maximised board goes back to now
        await wait_for(pilot, lambda: app.screen.maximized is None)
        assert pane.looking_back is None and str(pane.border_title) == "Whiteboard · 1 element"


def _drawn(pane: BoardPane) -> str:
    return "\n".join(line.plain for line in pane.shown_lines())


async def test_a_tall_pane_keeps_the_scenes_drawings_in_sight_below_the_slide() -> None:
    app = demo_app("derivatives")
    async with app.run_test(size=(150, 44)) as pilot:
        await ready(pilot)
        board = app.room.view.board
        assert board.apply("wb_draw_text", {"content": "rise over run", "x": 40, "y": 40, "width": 300,
                                            "height": 60}).ok
        assert board.apply("wb_close", {}).ok  # closed to point at the slide, as the lecture does
        app.room.view.board_version += 1
        await pilot.pause(0.2)
        pane = app.query_one(BoardPane)
        drawn = _drawn(pane)
        assert not pane.showing_board and "Derivatives: the slope of" in drawn
        assert "─ whiteboard · 1 element (F3)" in drawn and "rise over run" in drawn
        await pilot.resize_terminal(80, 24)  # too short for both: the slide alone
        await pilot.pause(0.3)
        assert "whiteboard ·" not in _drawn(pane)
