"""Where the learner types: Enter sends, Ctrl+J starts a new line (Shift+Enter and Alt+Enter too, where a
terminal tells them from Enter), ``@`` completes agent names, PageUp/PageDown scroll the conversation. A
cue's options appear as buttons above it; Tab reaches them."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.geometry import Size
from textual.widgets import Button, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from maic_tui.i18n import N_, _
from maic_tui.text_safety import one_line
from maic_tui.tui.messages import ScrollRequested, SendRequested
from maic_tui.tui.plain import plain

if TYPE_CHECKING:
    from maic_tui.classroom.models import Agent

NEWLINE_KEYS = ("ctrl+j", "shift+enter", "alt+enter")  # only Ctrl+J arrives apart from Enter everywhere
DEFAULT_PLACEHOLDER = N_("Ask the class…  (Enter sends · Ctrl+J new line · @name picks who answers)")
SCROLL_KEYS = {"pageup": -1, "pagedown": 1}
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
                         placeholder=_(DEFAULT_PLACEHOLDER), compact=True)
        self.agents = list(agents)
        self._matches: list[Agent] = []

    @property
    def popup(self) -> MentionList:
        return self.screen.query_one(MentionList)

    async def on_key(self, event: events.Key) -> None:
        """Enter sends, the newline keys insert a line, and the @-list takes Tab, Enter, arrows and Esc;
        TextArea's own editing keys (Backspace, Ctrl+U, Ctrl+W, …) run here too.

        All in order with the typed characters. A public handler of this subclass runs before TextArea's own
        (which would insert a line for Enter). Bindings would not keep the order: a priority binding runs
        when its key arrives, before the characters typed just before it have reached the text, and a
        widget's ordinary binding runs only once the key has bubbled up to the app, after the characters
        typed just after it. So in a burst (a paste, tmux, fast typing) "hi⏎" sent an empty message and
        "Ctrl+U, new text, ⏎" sent the old text and then deleted the new."""
        action = self._key_action(event.key)
        if action is not None:
            event.prevent_default()
            event.stop()
            action()
            return
        # The composer's own bindings (TextArea's), run now rather than after bubbling.
        own = [b for b in self._bindings.key_to_bindings.get(event.key, ()) if not b.priority]
        if own:
            event.prevent_default()
            event.stop()
            await self.run_action(own[0].action)

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
        if key in SCROLL_KEYS:
            return lambda: self._scroll(SCROLL_KEYS[key])
        return None

    def _scroll(self, pages: int) -> None:
        self.post_message(ScrollRequested(pages))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """Tall enough for the whole placeholder while the composer is empty (TextArea counts text only)."""
        height = super().get_content_height(container, viewport, width)
        if not self.text and self.placeholder:
            return max(height, len(Content.from_text(self.placeholder).wrap(max(width, 1))))
        return height

    def watch_placeholder(self) -> None:
        self.refresh(layout=True)

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
        """The text stays until the app accepts it (``sent``): a refused message is not lost. A number alone
        ("2", "the second one") while the cue's numbered suggestions show sends that suggestion, as picking it."""
        from maic_tui.classroom.answer_reading import place_named

        text = self.text.strip()
        cue = next(iter(self.screen.query(CueBar)), None) if self.is_attached else None
        place = place_named(text, letters=False) if cue is not None and cue.display and cue.options else None
        if cue is not None and place is not None and cue.choose(place + 1):
            self.clear()
            return
        if text:
            self.post_message(SendRequested(text, typed=True))

    def sent(self, text: str) -> None:
        if self.text.strip() == text:
            self.clear()
            self.refresh(layout=True)


class CueBar(Horizontal):
    """The options of a ``cue_user`` as buttons: Tab from the composer, then Enter (Alt+1 … Alt+4 where
    the terminal sends them)."""

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
        """A click or Enter on an option sends that option, and typing goes on in the composer."""
        event.stop()
        self.choose(int(event.button.name or 0))
        self.screen.query_one(Composer).focus()

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
        from maic_tui.tui.scene_widgets import scene_widgets
        from maic_tui.tui.widgets.lesson_panel import LessonLine

        yield LessonLine()
        yield from scene_widgets()
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
            more = _(" (+{count} more)").format(count=len(queued) - 1) if len(queued) > 1 else ""
            queue.update(plain("⏳ " + _("queued: {message}{more} — sent once the agent speaking now has finished; Esc "
                                        "interrupts").format(message=one_line(queued[0], 60), more=more), None))
        queue.display = bool(queued)
