"""Command palette entries (Ctrl+P) for the classroom app."""

from __future__ import annotations

import sqlite3
from abc import abstractmethod
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Literal, Protocol, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.fuzzy import Matcher

from maic_tui.classroom import sample_names
from maic_tui.llm.spec import shown_model
from maic_tui.text_safety import one_line
from maic_tui.tui.keys import key_for
from maic_tui.tui.plain import LABEL_CHARS, as_markup

if TYPE_CHECKING:
    from maic_tui.classroom.models import Classroom
    from maic_tui.live.assembly import SessionRecipe
    from maic_tui.live.session import ClassroomSession
    from maic_tui.log.store import SessionSummary
    from maic_tui.room.view import ClassroomView

RECENT_SESSIONS = 10


Entry = tuple[str, Callable[[], object], str]  # name, what it runs, help line (all plain text)


class ListedCommands(Provider):
    """A fixed list of entries, found by fuzzy search and highlighted without reading markup."""

    @abstractmethod
    def entries(self) -> Sequence[Entry]: ...

    async def discover(self) -> Hits:
        for name, callback, help_text in self.entries():
            yield DiscoveryHit(Content(name), callback, text=name, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, callback, help_text in self.entries():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, highlight(matcher, name), callback, text=name, help=help_text)


class Room(Protocol):
    """What the palette reads of the room it was opened over (the room's screen, without importing it)."""

    @property
    def is_open(self) -> bool: ...
    @property
    def classroom(self) -> Classroom: ...
    @property
    def recipe(self) -> SessionRecipe: ...
    @property
    def session(self) -> ClassroomSession | None: ...
    @property
    def view(self) -> ClassroomView: ...
    async def run_action(self, action: str) -> bool: ...
    def go_to_scene(self, index: int) -> None: ...
    def show_persona(self, agent_id: str) -> None: ...
    def control_class(self, muted: frozenset[str] | None = None,
                      max_agents: int | Literal["keep"] | None = "keep") -> None: ...
    async def resume_session(self, session_id: str) -> None: ...
    async def switch_classroom(self, name: str) -> None: ...


ROOM_ACTIONS = [  # the room's actions by name, with the palette's words for them (and the key, from keys.py)
    ("Toggle board / slide", "toggle_board", "Show the whiteboard or the current slide"),
    ("Trace inspector", "toggle_trace", "Every director decision of the session; Enter opens one"),
    ("Step mode", "step_mode", "The class waits before each director decision; you pick who speaks"),
    ("Maximise the whiteboard", "maximize_board", "Esc restores the layout"),
    ("Next scene", "next_scene", ""),
    ("Previous scene", "previous_scene", ""),
    ("Interrupt the class", "interrupt", "Stop the agent speaking now"),
    ("Full transcript", "full_transcript", "Everything said so far, as selectable text"),
    ("Talk statistics", "talk_stats", "Who talks how much in this session, how its turns end"),
    ("Copy last message", "copy_last", "Copy the latest agent message to the clipboard"),
    ("New classroom…", "new_classroom", "Generate a class on any topic with the model, then open it"),
]


def with_key(help_text: str, action: str) -> str:
    """The help line with the key that does the same in the room: "Esc restores the layout (F4)"."""
    key = key_for(action)
    return f"{help_text} ({key})" if help_text and key else help_text or key


class PaletteCommands(ListedCommands):
    def entries(self) -> list[Entry]:
        app, room = self.app, cast("Room", self.screen)
        found: list[Entry] = [
            ("Switch theme", partial(app.run_action, "change_theme"),
             "Pick a colour theme" + (" (for this tab)" if app.is_web else " (saved in your config file)")),
            ("Quit", partial(app.run_action, "quit"),
             f"Leave the class ({key_for('quit')}); the session stays recorded"),
        ]
        if room.is_open:
            # A browser tab: nothing that writes the server's files or reads other learners' sessions.
            found += [(name, partial(room.run_action, action), with_key(help_text, action))
                      for name, action, help_text in ROOM_ACTIONS if not (app.is_web and action == "new_classroom")]
        found.append(("Help", partial(room.run_action, "help"), with_key("Keys and how the classroom works", "help")))
        if not room.is_open:  # the shell before the classroom has loaded: nothing about the room yet
            return self._plain(found)
        for index, scene in enumerate(room.classroom.scenes):
            found.append((f"Go to scene {index + 1}: {scene.title}", partial(room.go_to_scene, index),
                          "Show this slide"))
        for agent in room.classroom.agents:
            found.append((f"Persona: {agent.name}", partial(room.show_persona, agent.id),
                          f"{agent.role} · what this agent is like and may do"))
        found += class_controls(room)
        for summary in [] if app.is_web else self._recent_sessions(room):
            turns = f"{summary.turns} turn{'' if summary.turns == 1 else 's'}"
            if summary.lesson:
                turns += f" · {summary.lesson}"
            found.append((f"Resume session {summary.id}: {summary.title}", partial(room.resume_session, summary.id),
                          f"{turns} · {shown_model(summary.model)} · last: "
                          f"{one_line(summary.last_message, 40) or '—'}"))
        for name in sample_names():
            found.append((f"Switch classroom: {name}", partial(room.switch_classroom, name),
                          "Open a bundled sample classroom"))
        return self._plain(found)

    @staticmethod
    def _plain(found: list[Entry]) -> list[Entry]:
        """Names and help quote classroom files and recorded learner messages: shown literally, never as markup."""
        return [(one_line(name, LABEL_CHARS), callback, as_markup(help_text)) for name, callback, help_text in found]

    @staticmethod
    def _recent_sessions(room: Room) -> list[SessionSummary]:
        if room.recipe.data_dir is None:
            return []
        from maic_tui.log.store import LogStore, StoreError

        try:
            sessions = LogStore(room.recipe.data_dir).sessions(limit=RECENT_SESSIONS + 1)  # the current one, too
        except (StoreError, sqlite3.Error):
            return []
        current = room.session.log.session_id if room.session and room.session.log else None
        return [s for s in sessions if s.id != current][:RECENT_SESSIONS]


class ThemeCommands(ListedCommands):
    """The themes: the project's own first, then Textual's built-in ones, marked as such."""

    def entries(self) -> Sequence[Entry]:
        app = self.app
        specs: dict[str, object] = getattr(app, "theme_specs", {})  # the app's own themes (ClassroomApp)
        ours = sorted(specs)
        builtin = sorted(name for name in app.available_themes if name not in specs)

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


def class_controls(room: Room) -> list[Entry]:
    """Who may speak: mute or unmute each agent but the lead, solo (only the lead), everyone, agents per turn."""
    classroom, view = room.classroom, room.view
    lead = classroom.lead() or classroom.agents[0]
    muted = view.muted
    found: list[Entry] = []
    for agent in classroom.agents:
        if agent.id == lead.id:
            continue
        if agent.id in muted:
            found.append((f"Unmute: {agent.name}", partial(room.control_class, muted - {agent.id}),
                          "Let this agent speak again from the next turn"))
        else:
            found.append((f"Mute: {agent.name}", partial(room.control_class, muted | {agent.id}),
                          "The director stops picking this agent (its lines in the lesson are skipped)"))
    others = frozenset(agent.id for agent in classroom.agents if agent.id != lead.id)
    if others and not others <= muted:
        found.append((f"Solo: only {lead.name} speaks", partial(room.control_class, others),
                      "Mute everyone else; “Everyone speaks again” undoes it"))
    if muted:
        found.append(("Everyone speaks again", partial(room.control_class, frozenset()), "Unmute every agent"))
    top = classroom.limits.max_agent_turns
    for count in range(1, top):
        found.append((f"Agents per turn: {count}", partial(room.control_class, None, count),
                      f"At most {count} agent turn{'s' if count != 1 else ''} for each of your messages "
                      f"(the classroom allows {top})"))
    if view.max_agents is not None:
        found.append((f"Agents per turn: as the classroom says ({top})", partial(room.control_class, None, None),
                      "Back to the classroom's own limit"))
    return found
