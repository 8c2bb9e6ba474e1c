"""Where the learner types: Enter sends, Alt+Enter (or Shift+Enter, Ctrl+J) starts a new line, ``@``
completes agent names. A cue's options appear as buttons above it."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from maic_tui.text_safety import one_line
from maic_tui.tui.messages import SendRequested
from maic_tui.tui.plain import plain

if TYPE_CHECKING:
    from maic_tui.classroom.models import Agent

NEWLINE_KEYS = ("alt+enter", "shift+enter", "ctrl+j")
DEFAULT_PLACEHOLDER = "Ask the class…  (Enter sends · Alt+Enter new line · @ picks who answers)"
_MENTION = re.compile(r"(?:^|\s)@([^\s@]*)$")


def mention_candidates(agents: Sequence[Agent], prefix: str) -> list[Agent]:
    """Agents whose name (any word of it) or id starts with what was typed after ``@``."""
    wanted = prefix.casefold()
    return [a for a in agents
            if a.id.casefold().startswith(wanted) or any(w.startswith(wanted) for w in a.name.casefold().split())
            or a.name.casefold().startswith(wanted)]


class MentionList(OptionList):
    """The ``@`` completion list shown above the composer."""


class Composer(TextArea):
    def __init__(self, agents: Sequence[Agent]) -> None:
        super().__init__(id="composer", soft_wrap=True, show_line_numbers=False, tab_behavior="focus",
                         placeholder=DEFAULT_PLACEHOLDER, compact=True)
        self.agents = list(agents)
        self._matches: list[Agent] = []

    @property
    def popup(self) -> MentionList:
        return self.screen.query_one(MentionList)

    def on_key(self, event: events.Key) -> None:
        """Enter sends, the newline keys insert a line, and the @-list takes Tab, Enter, arrows and Esc.

        A public handler of this subclass runs before TextArea's own (which would insert a line for Enter),
        and in order with the typed characters. (Priority bindings would not: they run when the key
        arrives, before the characters typed just before it have reached the text, so "hi⏎" pasted by a
        terminal in one burst would send an empty message.)"""
        action = self._key_action(event.key)
        if action is None:
            return
        event.prevent_default()
        event.stop()
        action()

    def _key_action(self, key: str) -> Callable[[], None] | None:
        if self._matches:
            popup = self.popup
            completion: dict[str, Callable[[], None]] = {
                "tab": self._complete, "enter": self._complete, "down": popup.action_cursor_down,
                "up": popup.action_cursor_up, "escape": lambda: self._show_matches([])}
            if key in completion:
                return completion[key]
        if key == "enter":
            return self._submit
        if key in NEWLINE_KEYS:
            return self._newline
        return None

    def _newline(self) -> None:
        self.insert("\n")

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        row, column = self.cursor_location
        before = self.document.get_line(row)[:column]
        match = _MENTION.search(before)
        self._show_matches(mention_candidates(self.agents, match.group(1)) if match else [])

    def _show_matches(self, matches: list[Agent]) -> None:
        self._matches = matches
        popup = self.popup
        popup.clear_options()
        popup.add_options(Option(plain(f"{a.avatar} {a.name} · {a.role}"), id=a.id) for a in matches)
        popup.display = bool(matches)
        if matches:
            popup.highlighted = 0

    def _complete(self) -> None:
        index = self.popup.highlighted or 0
        agent = self._matches[min(index, len(self._matches) - 1)]
        row, column = self.cursor_location
        before = self.document.get_line(row)[:column]
        typed = len(before) - before.rindex("@")
        self.replace(f"@{agent.name} ", (row, column - typed), (row, column))
        self._show_matches([])

    def _submit(self) -> None:
        text = self.text.strip()
        if text:
            self.clear()
            self.post_message(SendRequested(text))


class CueBar(Horizontal):
    """The options of a ``cue_user`` as buttons (Alt+1 … Alt+4)."""

    def __init__(self) -> None:
        super().__init__(id="cue-bar")
        self.options: list[str] = []

    def show(self, options: Sequence[str]) -> None:
        self.options = list(options)[:4]
        self.remove_children()
        buttons = [Button(plain(f"{n}· {option}", 64), name=str(n), classes="cue-option", compact=True)
                   for n, option in enumerate(self.options, start=1)]
        self.mount_all(buttons)
        self.display = bool(buttons)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.choose(int(event.button.name or 0))

    def choose(self, number: int) -> bool:
        if not 1 <= number <= len(self.options):
            return False
        self.post_message(SendRequested(self.options[number - 1]))
        return True


class ComposerBox(Vertical):
    """Queue line, completion list, cue options and the composer, stacked."""

    def __init__(self, agents: Sequence[Agent]) -> None:
        super().__init__(id="composer-box")
        self.agents = agents

    def compose(self) -> ComposeResult:
        yield Static(Text(""), id="queue")
        yield MentionList(id="mentions")
        yield CueBar()
        yield Composer(self.agents)

    def on_mount(self) -> None:
        for selector in ("#queue", "#mentions", "#cue-bar"):
            self.query_one(selector).display = False

    def show_queue(self, queued: Sequence[str]) -> None:
        queue = self.query_one("#queue", Static)
        if queued:
            more = f" (+{len(queued) - 1} more)" if len(queued) > 1 else ""
            queue.update(plain(f"⏳ queued: {one_line(queued[0], 60)}{more} — sent when the class finishes; "
                               "Esc interrupts", None))
        queue.display = bool(queued)
