"""Command palette entries (Ctrl+P) for the classroom app."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.fuzzy import Matcher

from maic_tui.classroom import sample_names
from maic_tui.llm.spec import shown_model
from maic_tui.text_safety import one_line
from maic_tui.tui.plain import LABEL_CHARS, as_markup

if TYPE_CHECKING:
    from maic_tui.log.store import SessionSummary
    from maic_tui.tui.app import ClassroomApp

RECENT_SESSIONS = 10


Entry = tuple[str, Callable[[], object], str]  # name, what it runs, help line (all plain text)


class ListedCommands(Provider):
    """A fixed list of entries, found by fuzzy search and highlighted without reading markup."""

    def entries(self) -> Sequence[Entry]:
        raise NotImplementedError

    async def discover(self) -> Hits:
        for name, callback, help_text in self.entries():
            yield DiscoveryHit(Content(name), callback, text=name, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, callback, help_text in self.entries():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, highlight(matcher, name), callback, text=name, help=help_text)


class PaletteCommands(ListedCommands):
    def entries(self) -> list[Entry]:
        app = cast("ClassroomApp", self.app)
        found: list[Entry] = [
            ("Switch theme", app.action_change_theme,
             "Pick a colour theme" + (" (for this tab)" if app.is_web else " (saved in your config file)")),
            ("Quit", app.action_quit, "Leave the class (Ctrl+Q); the session stays recorded"),
            ("Toggle board / slide", app.action_toggle_board, "Show the whiteboard or the current slide (F3)"),
            ("Toggle trace panel", app.action_toggle_trace, "The director's decisions this turn (F2)"),
            ("Maximise the whiteboard", app.action_maximize_board, "Esc restores the layout (F4)"),
            ("Next scene", app.action_next_scene, "F6"),
            ("Previous scene", app.action_previous_scene, "F5"),
            ("Interrupt the class", app.action_interrupt, "Stop the agent speaking now (Esc)"),
            ("Full transcript", app.action_full_transcript, "Everything said so far, as selectable text"),
            ("Copy last message", app.action_copy_last, "Copy the latest agent message to the clipboard"),
            ("New classroom…", app.action_new_classroom, "Generate a class on any topic with the model, then open it"),
            ("Help", app.action_help, "Keys and how the classroom works (F1)"),
        ]
        if app.is_web:  # a browser tab: nothing that writes the server's files or reads other learners' sessions
            found = [entry for entry in found if entry[1] != app.action_new_classroom]
        if not app.is_open:  # the shell before the classroom has loaded: nothing about the room yet
            return [found[0], found[1], found[-1]]
        for index, scene in enumerate(app.classroom.scenes):
            found.append((f"Go to scene {index + 1}: {scene.title}", partial(app.go_to_scene, index),
                          "Show this slide"))
        for agent in app.classroom.agents:
            found.append((f"Persona: {agent.name}", partial(app.show_persona, agent.id),
                          f"{agent.role} · what this agent is like and may do"))
        for summary in self._recent_sessions(app):
            turns = f"{summary.turns} turn{'' if summary.turns == 1 else 's'}"
            found.append((f"Resume session {summary.id}: {summary.title}", partial(app.resume_session, summary.id),
                          f"{turns} · {shown_model(summary.model)} · last: "
                          f"{one_line(summary.last_message, 40) or '—'}"))
        for name in sample_names():
            found.append((f"Switch classroom: {name}", partial(app.switch_classroom, name),
                          "Open a bundled sample classroom"))
        # Names and help quote classroom files and recorded learner messages: shown literally, never as markup.
        return [(one_line(name, LABEL_CHARS), callback, as_markup(help_text)) for name, callback, help_text in found]

    @staticmethod
    def _recent_sessions(app: ClassroomApp) -> list[SessionSummary]:
        if app.recipe.data_dir is None or app.is_web:
            return []
        from maic_tui.log.store import LogStore, StoreError

        try:
            sessions = LogStore(app.recipe.data_dir).sessions()
        except (StoreError, sqlite3.Error):
            return []
        current = app.session.log.session_id if app.session and app.session.log else None
        return [s for s in sessions if s.id != current][:RECENT_SESSIONS]


class ThemeCommands(ListedCommands):
    """The themes: the project's own first, then Textual's built-in ones, marked as such."""

    def entries(self) -> Sequence[Entry]:
        app = cast("ClassroomApp", self.app)
        ours = sorted(app.theme_specs)
        builtin = sorted(name for name in app.available_themes if name not in app.theme_specs)

        def choose(name: str) -> None:
            app.theme = name

        return ([(name, partial(choose, name), "a maic-tui theme (whiteboard colours included)") for name in ours]
                + [(f"{name} (Textual built-in)", partial(choose, name), "a Textual theme; the board follows it")
                   for name in builtin])


def highlight(matcher: Matcher, candidate: str) -> Content:
    """The candidate with the matched letters marked; ``Matcher.highlight`` would parse it as markup."""
    content = Content(candidate)
    _, offsets = matcher.fuzzy_search.match(matcher.query, candidate)
    for offset in offsets:
        if not candidate[offset].isspace():
            content = content.stylize(matcher.match_style, offset, offset + 1)
    return content
