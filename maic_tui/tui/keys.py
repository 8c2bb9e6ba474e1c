"""The keys the app advertises, for F1 help and the README's table (a test keeps that one equal).

Only combinations every common terminal sends apart from others: tmux, xterm, GNOME Terminal and the Linux
console send Alt+Enter as ESC CR (read as Enter) and Alt+1 as ESC 1, so Ctrl+J and Tab stand in for them.
"""

from __future__ import annotations

KEYS: list[tuple[str, str]] = [
    ("Enter", "send; while the class speaks, messages wait in a queue (a lecture stops after its step)"),
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
    ("Ctrl+P", "command palette: themes, classrooms, recorded sessions, scenes, personas, full transcript, copy"),
]


def key_table() -> str:
    rows = "\n".join(f"| {key} | {what} |" for key, what in KEYS)
    return f"| Key | What it does |\n|---|---|\n{rows}\n"
