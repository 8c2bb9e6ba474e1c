"""Command palette entries (Ctrl+P) for the classroom app."""

from __future__ import annotations

import sqlite3
from abc import abstractmethod
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Literal, Protocol, cast

from rich.align import Align
from rich.text import Text
from textual.app import App
from textual.command import CommandList, CommandPalette, DiscoveryHit, Hit, Hits, Provider, ProviderSource
from textual.content import Content
from textual.fuzzy import Matcher
from textual.widgets.option_list import Option

from maic_tui.classroom import sample_names
from maic_tui.i18n import ENGLISH, LANGUAGES, N_, _, interface_language, ngettext
from maic_tui.llm.spec import shown_model
from maic_tui.text_safety import one_line
from maic_tui.tui.keys import key_for
from maic_tui.tui.plain import LABEL_CHARS, as_markup
from maic_tui.tui.role_names import role_name

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
    (N_("Toggle board / slide"), "toggle_board", N_("Show the whiteboard or the current slide")),
    (N_("Trace inspector"), "toggle_trace", N_("Every director decision of the session; Enter opens one")),
    (N_("Step mode"), "step_mode", N_("The class waits before each director decision; you pick who speaks")),
    (N_("Maximise the whiteboard"), "maximize_board", N_("Esc restores the layout")),
    (N_("Next scene"), "next_scene", ""),
    (N_("Previous scene"), "previous_scene", ""),
    (N_("Interrupt the class"), "interrupt", N_("Stop the agent speaking now")),
    (N_("Full transcript"), "full_transcript", N_("Everything said so far, as selectable text")),
    (N_("Talk statistics"), "talk_stats", N_("Who talks how much in this session, how its turns end")),
    (N_("Copy last message"), "copy_last", N_("Copy the latest agent message to the clipboard")),
    (N_("New classroom…"), "new_classroom", N_("Generate a class on any topic with the model, then open it")),
]


def with_key(help_text: str, action: str) -> str:
    """The help line with the key that does the same in the room: "Esc restores the layout (F4)"."""
    key = key_for(action)
    return f"{help_text} ({key})" if help_text and key else help_text or key


class PaletteCommands(ListedCommands):
    def entries(self) -> list[Entry]:
        app, room = self.app, cast("Room", self.screen)
        found: list[Entry] = [
            (_("Switch theme"), partial(app.run_action, "change_theme"),
             _("Pick a colour theme (for this tab)") if app.is_web else _("Pick a colour theme (saved in your config "
                                                                          "file)")),
            (_("Quit"), partial(app.run_action, "quit"),
             _("Leave the class ({key}); the session stays recorded").format(key=key_for("quit"))),
        ]
        if room.is_open:
            # A browser tab: nothing that writes the server's files or reads other learners' sessions.
            found += [(_(name), partial(room.run_action, action), with_key(_(help_text), action))
                      for name, action, help_text in ROOM_ACTIONS if not (app.is_web and action == "new_classroom")]
        found.append((_("Help"), partial(room.run_action, "help"), with_key(_("Keys and how the classroom works"),
                                                                             "help")))
        if not room.is_open:  # the shell before the classroom has loaded: nothing about the room yet
            return self._plain(found)
        found += language_entries(app)
        for index, scene in enumerate(room.classroom.scenes):
            found.append((_("Go to scene {number}: {title}").format(number=index + 1, title=scene.title),
                          partial(room.go_to_scene, index), _("Show this slide")))
        for agent in room.classroom.agents:
            found.append((_("Persona: {name}").format(name=agent.name), partial(room.show_persona, agent.id),
                          _("{role} · what this agent is like and may do").format(role=role_name(agent.role))))
        found += class_controls(room)
        for summary in [] if app.is_web else self._recent_sessions(room):
            turns = ngettext("{count} turn", "{count} turns", summary.turns).format(count=summary.turns)
            if summary.lesson:
                turns += f" · {summary.lesson}"
            found.append((_("Resume session {id}: {title}").format(id=summary.id, title=summary.title),
                          partial(room.resume_session, summary.id),
                          f"{turns} · {shown_model(summary.model)} · "
                          + _("last: {message}").format(message=one_line(summary.last_message, 40) or "—")))
        for name in sample_names():
            found.append((_("Switch classroom: {name}").format(name=name), partial(room.switch_classroom, name),
                          _("Open a bundled sample classroom")))
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

        return ([(name, partial(choose, name), _("a maic-tui theme (whiteboard colours included)")) for name in ours]
                + [(_("{name} (Textual built-in)").format(name=name), partial(choose, name),
                    _("a Textual theme; the board follows it"))
                   for name in builtin])


def language_entries(app: App[object]) -> list[Entry]:
    """The interface in each other language, named in its own (saved like the theme, but not from a browser tab)."""
    saved = _("saved in your config file") if not app.is_web else _("for this tab")
    # "Language" in English too: someone who cannot read the interface's language still finds the way back.
    also = "" if interface_language() == ENGLISH else " · Language"
    return [(_("Language: {language}").format(language=name) + also, partial(app.run_action, f"language('{code}')"),
             _("The interface in {language} ({saved})").format(language=name, saved=saved))
            for code, name in LANGUAGES.items() if code != interface_language()]


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
            found.append((_("Unmute: {name}").format(name=agent.name), partial(room.control_class, muted - {agent.id}),
                          _("Let this agent speak again from the next turn")))
        else:
            found.append((_("Mute: {name}").format(name=agent.name), partial(room.control_class, muted | {agent.id}),
                          _("The director stops picking this agent (its lines in the lesson are skipped)")))
    others = frozenset(agent.id for agent in classroom.agents if agent.id != lead.id)
    if others and not others <= muted:
        found.append((_("Solo: only {name} speaks").format(name=lead.name), partial(room.control_class, others),
                      _("Mute everyone else; “Everyone speaks again” undoes it")))
    if muted:
        found.append((_("Everyone speaks again"), partial(room.control_class, frozenset()), _("Unmute every agent")))
    top = classroom.limits.max_agent_turns
    for count in range(1, top):
        found.append((_("Agents per turn: {count}").format(count=count), partial(room.control_class, None, count),
                      ngettext("At most {count} agent turn for each of your messages (the classroom allows {top})",
                               "At most {count} agent turns for each of your messages (the classroom allows {top})",
                               count).format(count=count, top=top)))
    if view.max_agents is not None:
        found.append((_("Agents per turn: as the classroom says ({top})").format(top=top),
                      partial(room.control_class, None, None), _("Back to the classroom's own limit")))
    return found


class Palette(CommandPalette):
    """Textual's palette, its own words in the interface's language: the search field's placeholder (a parameter)
    and "No matches found" (written in a private method, with no setting)."""

    def __init__(self, providers: ProviderSource | None = None, *, placeholder: str | None = None,
                 id: str | None = None) -> None:
        super().__init__(providers, placeholder=placeholder or _("Search for commands…"), id=id)

    # Textual has no hook for this line: the override copies Textual 8's own method (the same timer, option id
    # and flag) with the words translated. tests/tui/test_palette_words.py fails when Textual's method changes.
    def _start_no_matches_countdown(self, search_value: str) -> None:
        self._stop_no_matches_countdown()

        def show_no_matches() -> None:
            if search_value:  # an empty search is discovery: nothing to say there
                self.query_one(CommandList).add_option(
                    Option(Align.center(Text(_("No matches found"), style="not bold")), disabled=True,
                           id=self._NO_MATCHES))
                self._list_visible = True
            else:
                self._list_visible = False

        self._no_matches_timer = self.set_timer(self._NO_MATCHES_COUNTDOWN, show_no_matches)
