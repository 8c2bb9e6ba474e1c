"""The room's keys, one list (``KEYS``): each row is what F1 help and the README's key table say, with the bindings
behind it. The room's bindings (and so its footer, in this order) are the rows' bindings; help, the README (a test
keeps it equal) and the palette's key hints are the rows' words.

Only combinations every common terminal sends apart from others: tmux, xterm, GNOME Terminal and the Linux
console send Alt+Enter as ESC CR (read as Enter) and Alt+1 as ESC 1, so Ctrl+J and Tab stand in for them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from textual.binding import Binding, BindingType

from maic_tui.i18n import N_, _

if TYPE_CHECKING:
    from textual.binding import ActiveBinding

SCENES = Binding.Group(N_("Scene"))  # the footer shows "f5 f6 Scene"


@dataclass(frozen=True)
class RoomKey:
    keys: str  # as help names them: "F5 / F6"
    what: str | None  # None: bound, but not advertised (not every terminal sends it apart)
    bindings: tuple[Binding, ...] = ()  # none: a widget handles it (the composer, the quiz) or the app (Ctrl+P)


KEYS: list[RoomKey] = [
    RoomKey(N_("Enter"), N_("send; while the class speaks, messages wait in a queue: the class lets you in once the "
                            "agent speaking now has finished (a lecture stops after its step)")),
    RoomKey(N_("Ctrl+J"), N_("new line (Shift+Enter and Alt+Enter too, in terminals that send them apart, such as "
                             "kitty)")),
    RoomKey(N_("`@` + name, Tab"), N_("pick who answers first (completes agent names)")),
    RoomKey(N_("Tab, then Enter"), N_("answer with one of the suggested options (or click it); Shift+Tab goes back")),
    # Ctrl+C copies a selection, else interrupts a speaking class, else quits; priority, so the composer's own
    # Ctrl+C (copy) does not swallow it.
    RoomKey(N_("Esc or Ctrl+C"), N_("interrupt the class (or the lecture): the partial message stays, marked "
                                    "interrupted"), (
        Binding("escape", "interrupt", N_("Stop"), key_display="esc/^c"),
        Binding("ctrl+c", "copy_selection", show=False, priority=True),
        Binding("ctrl+c", "stop", show=False, priority=True),
    )),
    RoomKey(N_("Ctrl+C (class silent), Ctrl+Q"), N_("quit"), (
        Binding("ctrl+c", "quit", show=False, priority=True),
        Binding("ctrl+q", "quit", N_("Quit"), priority=True),  # the app's own, declared here for the footer's order
    )),
    RoomKey(N_("Space"), N_("in a replay: pause / resume"), (  # the composer is off in a replay
        Binding("space", "pause_replay", N_("Pause/resume"), priority=True),
    )),
    RoomKey(N_("PageUp / PageDown"), N_("scroll the conversation")),
    RoomKey(N_("F1 / F2 / F3 / F4"), N_("help / trace inspector (every director decision; Enter opens one) / "
                                        "whiteboard or slide / maximise the whiteboard (Esc restores)"), (
        Binding("f1", "help", N_("Help")),
        Binding("f2", "toggle_trace", N_("Trace")),
        Binding("f3", "toggle_board", N_("Board")),
        Binding("f4", "maximize_board", N_("Max")),
    )),
    # Priority: the composer (a TextArea) binds F5 and F6 to "select word / line".
    RoomKey(N_("F5 / F6"), N_("previous / next scene (in a lesson, it plays that scene)"), (
        Binding("f5", "previous_scene", N_("Scene"), priority=True, group=SCENES),
        Binding("f6", "next_scene", N_("Scene"), priority=True, group=SCENES),
    )),
    # Pause, resume, or back to the lesson after Q&A: the lesson line above the composer says which, so the
    # footer (full at 80 columns) does not repeat it.
    RoomKey(N_("F7"), N_("lesson: pause / resume, go on after a pause, a discussion or Q&A (typing “continue” does "
                         "too); after the lesson, retry the questions you missed"), (
        Binding("f7", "lesson", N_("Lesson"), priority=True, show=False),
    )),
    RoomKey(N_("F8 / F9"), N_("lesson pace: slower / faster (250 words a minute to start; below 100, step by step: F7 "
                              "plays each next step)"), (
        Binding("f8", "slower", N_("Slower"), priority=True, show=False),  # the lesson line shows them
        Binding("f9", "faster", N_("Faster"), priority=True, show=False),
    )),
    RoomKey(N_("↑↓, Space, Enter"), N_("a quiz question's options: move, mark several, answer; or type the answer "
                                       "(b, 2,3,4, A and C)")),
    RoomKey(N_("↑↓, Enter"), N_("a project's list: pick your role; then submit your work or ask for a hint (or type "
                                "it: “done: my plan …”, “hint”)")),
    RoomKey(N_("Tab ↑↓←→ p"), N_("an interactive scene's widget: Tab reaches it; ↑↓ pick a variable, ←→ (or - +, or a "
                                 "click on ◀ ▶) change it by its step, p the next preset, Enter asks the class; a "
                                 "diagram: → reveals the next node; or type h = 0.1, reveal")),
    RoomKey(N_("Ctrl+T"), N_("step mode: the class waits before each director decision; 1-9 picks an agent, u the "
                             "learner, e the end, a asks the director, Enter lets it decide"), (
        Binding("ctrl+t", "step_mode", N_("Step mode"), priority=True, show=False),  # F8 is the lesson's pace
    )),
    RoomKey(N_("Ctrl+O"), N_("mute / unmute the class's voice (with --voice; the roster shows who speaks aloud)"), (
        Binding("ctrl+o", "toggle_voice", N_("Voice"), priority=True, show=False),
    )),
    RoomKey(N_("Ctrl+R"), N_("write your learning records (xAPI statements) beside the session, and send them to the "
                             "LRS if one is configured"), (
        Binding("ctrl+r", "export_records", N_("Records"), priority=True, show=False),  # the lesson line offers it
    )),
    RoomKey(N_("Ctrl+P"), N_("command palette: themes, classrooms, recorded sessions, scenes, personas, full "
                             "transcript, copy")),
    # Alt+1..4 (kitty, foot) are not advertised (above): Tab reaches the options everywhere.
    RoomKey("Alt+1…4", None, tuple(Binding(f"alt+{n}", f"cue({n})", f"Option {n}", show=False) for n in range(1, 5))),
]

# Textual's own footer entry for Ctrl+P: its word is translated as the room lists its bindings (``translated``).
PALETTE_WORD = N_("palette")

ROOM_BINDINGS: list[BindingType] = [binding for row in KEYS for binding in row.bindings]


def advertised() -> list[RoomKey]:
    return [row for row in KEYS if row.what is not None]


def key_table(translate: Callable[[str], str] = str) -> str:
    """The key table as Markdown: in English for the README, through ``translate`` for F1 help."""
    rows = "\n".join(f"| {translate(row.keys)} | {translate(row.what or '')} |" for row in advertised())
    key, what = translate(N_("Key")), translate(N_("What it does"))
    return f"| {key} | {what} |\n|---|---|\n{rows}\n"


def key_name(key: str) -> str:
    """A binding's key as help names it: ``ctrl+t`` is Ctrl+T, ``f3`` F3, ``escape`` Esc."""
    named = {"escape": "Esc", "space": "Space"}.get(key)
    return named or "+".join(part.capitalize() if len(part) > 1 else part.upper() for part in key.split("+"))


def key_for(action: str) -> str:
    """The advertised key that runs ``action`` in the room, the footer's first ("" when none does)."""
    bindings = sorted((binding for row in advertised() for binding in row.bindings if binding.action == action),
                      key=lambda binding: not binding.show)
    return key_name(bindings[0].key) if bindings else ""


def in_declared_order(found: dict[str, ActiveBinding], declared: Sequence[BindingType]) -> dict[str, ActiveBinding]:
    """A screen's active bindings in the order it declares them, whichever widget has focus.

    Textual orders them by where a key was first bound along the focus chain, so a key the composer also binds
    (F5, F6, Ctrl+C) would jump to the front, and the footer would move as focus moves."""
    bindings = [binding for binding in declared if isinstance(binding, Binding)]
    ranks = {(binding.key, binding.action): rank for rank, binding in reversed(list(enumerate(bindings)))}
    order = sorted(found, key=lambda key: ranks.get((key, found[key].binding.action), len(ranks)))
    return {key: translated(found[key]) for key in order}


def translated(active: ActiveBinding) -> ActiveBinding:
    """A binding as the footer shows it, in the interface's language now (the palette may switch it)."""
    binding = active.binding
    group = binding.group and replace(binding.group, description=_(binding.group.description))
    return active._replace(binding=replace(binding, description=_(binding.description), group=group))
