"""The room's keys: its bindings, in the order the footer shows them, and the table the app advertises for F1
help and the README (a test keeps that one equal).

Only combinations every common terminal sends apart from others: tmux, xterm, GNOME Terminal and the Linux
console send Alt+Enter as ESC CR (read as Enter) and Alt+1 as ESC 1, so Ctrl+J and Tab stand in for them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from textual.binding import Binding, BindingType

if TYPE_CHECKING:
    from textual.binding import ActiveBinding

SCENES = Binding.Group("Scene")  # the footer shows "f5 f6 Scene"

# Alt+Enter and Alt+1 are not advertised (above): Tab reaches the options and Ctrl+J makes a new line everywhere.
# Ctrl+C copies a selection, else interrupts a speaking class, else quits; priority, so the composer's own Ctrl+C
# (copy) does not swallow it.
ROOM_BINDINGS: list[BindingType] = [
    Binding("escape", "interrupt", "Stop", key_display="esc/^c"),
    Binding("ctrl+c", "copy_selection", show=False, priority=True),
    Binding("ctrl+c", "stop", show=False, priority=True),
    Binding("ctrl+c", "quit", show=False, priority=True),
    Binding("ctrl+q", "quit", "Quit", priority=True),  # the app's own, declared here for the footer's order
    Binding("space", "pause_replay", "Pause/resume", priority=True),  # only while a replay plays
    Binding("f1", "help", "Help"),
    Binding("f2", "toggle_trace", "Trace"),
    Binding("f3", "toggle_board", "Board"),
    Binding("f4", "maximize_board", "Max"),
    # Priority: the composer (a TextArea) binds F5 and F6 to "select word / line".
    Binding("f5", "previous_scene", "Scene", priority=True, group=SCENES),
    Binding("f6", "next_scene", "Scene", priority=True, group=SCENES),
    # Pause, resume, or back to the lesson after Q&A: the lesson line above the composer says which, so the
    # footer (full at 80 columns) does not repeat it.
    Binding("f7", "lesson", "Lesson", priority=True, show=False),
    Binding("f8", "slower", "Slower", priority=True, show=False),  # the lesson line shows them
    Binding("f9", "faster", "Faster", priority=True, show=False),
    Binding("ctrl+t", "step_mode", "Step mode", priority=True, show=False),  # F8 is the lesson's pace
    Binding("ctrl+o", "toggle_voice", "Voice", priority=True, show=False),  # out loud, or not
    Binding("ctrl+r", "export_records", "Records", priority=True, show=False),  # the lesson line offers it
    *(Binding(f"alt+{n}", f"cue({n})", f"Option {n}", show=False) for n in range(1, 5)),  # kitty, foot
]


def in_declared_order(found: dict[str, ActiveBinding], declared: Sequence[BindingType]) -> dict[str, ActiveBinding]:
    """A screen's active bindings in the order it declares them, whichever widget has focus.

    Textual orders them by where a key was first bound along the focus chain, so a key the composer also binds
    (F5, F6, Ctrl+C) would jump to the front, and the footer would move as focus moves."""
    bindings = [binding for binding in declared if isinstance(binding, Binding)]
    ranks = {(binding.key, binding.action): rank for rank, binding in reversed(list(enumerate(bindings)))}
    order = sorted(found, key=lambda key: ranks.get((key, found[key].binding.action), len(ranks)))
    return {key: found[key] for key in order}


KEYS: list[tuple[str, str]] = [
    ("Enter", "send; while the class speaks, messages wait in a queue: the class lets you in once the agent speaking "
              "now has finished (a lecture stops after its step)"),
    ("Ctrl+J", "new line (Shift+Enter and Alt+Enter too, in terminals that send them apart, such as kitty)"),
    ("`@` + name, Tab", "pick who answers first (completes agent names)"),
    ("Tab, then Enter", "answer with one of the suggested options (or click it); Shift+Tab goes back"),
    ("Esc or Ctrl+C", "interrupt the class (or the lecture): the partial message stays, marked interrupted"),
    ("Ctrl+C (class silent), Ctrl+Q", "quit"),
    ("PageUp / PageDown", "scroll the conversation"),
    ("F1 / F2 / F3 / F4", "help / trace inspector (every director decision; Enter opens one) / whiteboard or slide / "
                          "maximise the whiteboard (Esc restores)"),
    ("F5 / F6", "previous / next scene (in a lesson, it plays that scene)"),
    ("F7", "lesson: pause / resume, go on after a pause, a discussion or Q&A (typing “continue” does too); "
           "after the lesson, retry the questions you missed"),
    ("F8 / F9", "lesson pace: slower / faster (250 words a minute to start; below 100, step by step: F7 plays "
                "each next step)"),
    ("↑↓, Space, Enter", "a quiz question's options: move, mark several, answer; or type the answer (b, 2,3,4, "
                         "A and C)"),
    ("Ctrl+T", "step mode: the class waits before each director decision; 1-9 picks an agent, u the learner, e the "
               "end, a asks the director, Enter lets it decide"),
    ("Ctrl+O", "mute / unmute the class's voice (with --voice; the roster shows who speaks aloud)"),
    ("Ctrl+R", "write your learning records (xAPI statements) beside the session, and send them to the LRS if one "
               "is configured"),
    ("Ctrl+P", "command palette: themes, classrooms, recorded sessions, scenes, personas, full transcript, copy"),
]


def key_table() -> str:
    rows = "\n".join(f"| {key} | {what} |" for key, what in KEYS)
    return f"| Key | What it does |\n|---|---|\n{rows}\n"
