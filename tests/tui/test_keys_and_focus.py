"""Keys and focus a terminal user can trust: keys go to the composer whenever no other view is open, Enter
sends only what the composer holds, every advertised key arrives as itself from the bytes real terminals
send, Ctrl+C interrupts or quits, and a refused message stays where it was typed."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual._xterm_parser import XTermParser
from textual.events import Key
from textual.widgets import Button

from maic_tui.room.view import LearnerMessage
from maic_tui.tui.app import ClassroomApp
from maic_tui.tui.keys import KEYS, advertised
from maic_tui.tui.widgets.composer import Composer
from maic_tui.tui.widgets.roster import AgentList
from tests.engine_helpers import classroom, pick, text
from tests.tui.helpers import demo_app, finish_turn, ready, script_app, wait_for

# What each terminal sends for the keys the app advertises (xterm, GNOME Terminal/VTE, tmux, the Linux
# console, kitty without its keyboard protocol), and a few it cannot tell apart.
TERMINALS = ("xterm", "gnome", "tmux", "linux", "kitty")
SENT: dict[str, dict[str, str]] = {
    "enter": dict.fromkeys(TERMINALS, "\r"),
    "ctrl+j": dict.fromkeys(TERMINALS, "\n"),
    "tab": dict.fromkeys(TERMINALS, "\t"),
    "shift+tab": dict.fromkeys(TERMINALS, "\x1b[Z"),
    "escape": dict.fromkeys(TERMINALS, "\x1b"),
    "ctrl+c": dict.fromkeys(TERMINALS, "\x03"),
    "ctrl+q": dict.fromkeys(TERMINALS, "\x11"),
    "ctrl+p": dict.fromkeys(TERMINALS, "\x10"),
    "ctrl+t": dict.fromkeys(TERMINALS, "\x14"),  # step mode
    "ctrl+o": dict.fromkeys(TERMINALS, "\x0f"),  # the voice, muted or not
    "ctrl+r": dict.fromkeys(TERMINALS, "\x12"),  # the learning records
    "pageup": dict.fromkeys(TERMINALS, "\x1b[5~"),
    "pagedown": dict.fromkeys(TERMINALS, "\x1b[6~"),
    **{f"f{n}": {**dict.fromkeys(TERMINALS, seq), "linux": linux}
       for n, seq, linux in [(1, "\x1bOP", "\x1b[[A"), (2, "\x1bOQ", "\x1b[[B"), (3, "\x1bOR", "\x1b[[C"),
                             (4, "\x1bOS", "\x1b[[D"), (5, "\x1b[15~", "\x1b[[E"), (6, "\x1b[17~", "\x1b[17~"),
                             (7, "\x1b[18~", "\x1b[18~"), (8, "\x1b[19~", "\x1b[19~"), (9, "\x1b[20~", "\x1b[20~")]},
}
ADVERTISED_NAMES = {"Enter": "enter", "Ctrl+J": "ctrl+j", "Tab": "tab", "Shift+Tab": "shift+tab", "Esc": "escape",
                    "Ctrl+C": "ctrl+c", "Ctrl+Q": "ctrl+q", "Ctrl+P": "ctrl+p", "Ctrl+T": "ctrl+t", "Ctrl+O": "ctrl+o",
                    "Ctrl+R": "ctrl+r", "PageUp": "pageup",
                    "PageDown": "pagedown", **{f"F{n}": f"f{n}" for n in range(1, 10)}}


def parse(data: str) -> list[str]:
    parser = XTermParser()
    return [event.key for event in [*parser.feed(data), *parser.feed("")] if isinstance(event, Key)]


@pytest.mark.parametrize("key", sorted(SENT))
def test_every_terminal_sends_each_advertised_key_apart(key: str) -> None:
    for terminal, data in SENT[key].items():
        assert parse(data) == [key], (terminal, data)


def test_the_keys_advertised_in_help_are_only_keys_every_terminal_sends() -> None:
    import re

    named = set()
    for keys in (row.keys for row in advertised()):
        named |= set(re.findall(r"Ctrl\+[A-Z]|Shift\+Tab|F\d|PageUp|PageDown|Enter|Tab|Esc", keys))
    assert {"Ctrl+J", "Ctrl+C", "Ctrl+Q", "Tab", "Esc", "F1", "F6"} <= named
    assert {ADVERTISED_NAMES[name] for name in named} <= set(SENT)
    assert not any("Alt" in row.keys for row in advertised())  # ESC CR and ESC 1 are not Alt+Enter and Alt+1 there
    assert parse("\x1b\r") == ["enter"] and parse("\x1b1") != ["alt+1"]


def test_the_readme_shows_the_same_keys_as_help() -> None:
    from maic_tui.tui.keys import key_table

    assert key_table() in (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")


def test_one_list_of_keys_drives_the_bindings_the_footer_help_and_the_readme() -> None:
    import re

    from maic_tui.tui.keys import ROOM_BINDINGS, key_name
    from maic_tui.tui.screens.help import help_text
    from maic_tui.tui.screens.room import RoomScreen

    assert RoomScreen.BINDINGS == ROOM_BINDINGS == [binding for row in KEYS for binding in row.bindings]
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    readme_rows = [line for line in readme.splitlines() if line.startswith("| ") and " | " in line[2:]]
    for row in advertised():
        line = f"| {row.keys} | {row.what} |"
        assert line in readme_rows and line in help_text()
        # Each binding's key is named in its own row, and each function or Ctrl key the row names is bound there
        # (keys a widget or the app handles live in rows without bindings).
        bound = {key_name(binding.key) for binding in row.bindings}
        assert bound <= set(re.findall(r"Ctrl\+[A-Z]|F\d+|Esc|Space", row.keys)), row.keys
        if row.bindings:
            assert set(re.findall(r"Ctrl\+[A-Z]|F\d+|Esc", row.keys)) <= bound, row.keys
    # The footer shows only keys the table explains; the README's key table has no row the list lacks.
    footer = {binding.key for binding in ROOM_BINDINGS if binding.show}
    assert footer <= {binding.key for row in advertised() for binding in row.bindings}
    table = readme[readme.index("| Key | What it does |"):].split("\n\n")[0].splitlines()[2:]
    assert table == [f"| {row.keys} | {row.what} |" for row in advertised()]


async def feed(app: ClassroomApp, data: str) -> None:
    """Bytes as a terminal sends them, through Textual's own input parser, into the app."""
    parser = XTermParser()
    for event in [*parser.feed(data), *parser.feed("")]:
        app.post_message(event)


async def test_typed_bytes_make_lines_with_ctrl_j_and_enter_sends_them() -> None:
    app = demo_app()
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        await feed(app, "first\nsecond")
        await pilot.pause(0.1)
        assert app.query_one(Composer).text == "first\nsecond"
        await feed(app, "\r")
        await finish_turn(pilot)
        assert [e.text for e in app.room.view.entries if isinstance(e, LearnerMessage)] == ["first\nsecond"]


@pytest.mark.parametrize("opener", ["f1", "f4", "ctrl+p", "click_agent", "click_option", "f2"])
async def test_after_any_view_closes_typing_goes_to_the_composer_and_enter_sends_only_that(opener: str) -> None:
    app = demo_app("python-loops")
    async with app.run_test(size=(150, 44)) as pilot:
        await ready(pilot)
        composer = app.query_one(Composer)
        options = list(app.query(Button))
        assert options  # the welcome's suggested questions
        if opener == "click_agent":
            await pilot.click(AgentList, offset=(4, 0))
        elif opener == "click_option":
            await pilot.click(options[2])
            await wait_for(pilot, lambda: app.room.turn_running or app.room.view.last_done is not None)
            await finish_turn(pilot)
        else:
            await pilot.press(opener)
        await pilot.pause(0.1)
        if opener != "click_option":  # Esc closes a view, and gives the keys back from the trace inspector
            await pilot.press("escape")
        await pilot.pause(0.2)
        assert app.screen.focused is composer, opener
        await pilot.press(*"my own question")
        assert composer.text == "my own question"
        before = [e.text for e in app.room.view.entries if isinstance(e, LearnerMessage)]
        await pilot.press("enter")
        await wait_for(pilot, lambda: len([e for e in app.room.view.entries if isinstance(e, LearnerMessage)])
                       > len(before))
        sent = [e.text for e in app.room.view.entries if isinstance(e, LearnerMessage)]
        assert sent[len(before):] == ["my own question"]


async def test_tab_cycles_the_composer_and_the_options_only_and_enter_picks_one() -> None:
    app = demo_app("python-loops")
    async with app.run_test(size=(150, 44)) as pilot:
        await ready(pilot)
        options = list(app.query(Button))
        stops = []
        for _ in range(len(options) + 2):
            await pilot.press("tab")
            stops.append(app.screen.focused)
        assert stops == [*options, app.query_one(Composer), options[0]]
        await pilot.press("enter")  # picks the first option, and the keys come back to the composer
        await wait_for(pilot, lambda: any(isinstance(e, LearnerMessage) for e in app.room.view.entries))
        assert next(e.text for e in app.room.view.entries if isinstance(e, LearnerMessage)) in str(options[0].label)
        assert app.screen.focused is app.query_one(Composer)


async def test_ctrl_c_interrupts_a_speaking_class_and_quits_a_silent_one(tmp_path: Path) -> None:
    script = {"chunk_size": 3, "director": [pick("teacher"), pick("USER")],
              "agents": {"teacher": [{"text": text("One two three four five " * 40), "delay_ms": 30}]}}
    app = script_app(tmp_path, script, classroom())
    async with app.run_test() as pilot:
        await ready(pilot)
        footer_actions = {b.binding.action: b.binding.key for b in app.screen.active_bindings.values()
                          if b.binding.show}
        assert footer_actions["quit"] == "ctrl+q" and "interrupt" in footer_actions
        await pilot.press(*"Explain", "enter")
        room = app.room
        await wait_for(pilot, lambda: room.turns.can_interrupt() and room.view.status.get("teacher") == "speaking")
        await feed(app, "\x03")
        await finish_turn(pilot)
        assert app.room.view.last_done is not None and app.room.view.last_done.end_reason == "interrupted"
        assert app.is_running
        await feed(app, "\x03")
        await pilot.pause(0.3)
    assert app.return_code == 0 and not app.is_running


async def test_an_unknown_name_keeps_the_message_and_names_the_agents_as_listed() -> None:
    app = demo_app()
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        await pilot.press(*"@Bob hello", "enter")
        await pilot.pause(0.2)
        assert app.query_one(Composer).text == "@Bob hello"
        assert not any(isinstance(e, LearnerMessage) for e in app.room.view.entries)
        shown = [n.message for n in app._notifications]
        assert any("@Bob" in line and "@" + app.room.classroom.agents[0].name in line for line in shown), shown


async def test_the_footer_keeps_its_order_whichever_widget_has_focus() -> None:
    app = demo_app("python-loops")
    async with app.run_test(size=(150, 44)) as pilot:
        await ready(pilot)

        def shown() -> list[str]:
            return [b.binding.action for b in app.screen.active_bindings.values() if b.binding.show]

        with_composer = shown()
        await pilot.press("tab")
        assert isinstance(app.screen.focused, Button)
        assert shown() == with_composer
        assert with_composer.index("interrupt") < with_composer.index("quit") < with_composer.index("help")


@pytest.mark.parametrize(("burst", "sent"), [
    ("\x15What is a derivative?\r", "What is a derivative?"),  # Ctrl+U, then new text, then Enter
    ("slopf\x7fe\r", "slope"),  # Backspace
    ("one two\x17three\r", "one three"),  # Ctrl+W deletes the word before the cursor
])
async def test_editing_keys_in_a_burst_apply_in_order_with_the_typed_text(burst: str, sent: str) -> None:
    app = demo_app()
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        await feed(app, "@Bob hello\r")  # refused: it stays, and the burst below edits it
        await pilot.pause(0.3)
        assert app.query_one(Composer).text == "@Bob hello"
        await feed(app, "\x15" + burst)
        await wait_for(pilot, lambda: any(isinstance(e, LearnerMessage) for e in app.room.view.entries))
        assert [e.text for e in app.room.view.entries if isinstance(e, LearnerMessage)] == [sent]
        assert app.query_one(Composer).text == ""
