"""The same hostile strings for every surface: markup, links, OSC 0/8/52, CSI, C1, bidi and zero width, a 10 kB
line. ``assert_inert`` checks text or bytes that reached a terminal or a widget."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

MARKUP = "[bold red]PM[/]"
LINK = "[link=https://evil.example]x[/link] what"
HOSTILE = [
    MARKUP,
    LINK,
    "\x1b]0;PWNED-TITLE\x07after-title",
    "\x1b]8;;https://evil.example\x07click\x1b]8;;\x07",
    "\x1b]52;c;ZXZpbA==\x07clip",
    "\x1b[2J\x1b[31mred\x1b[0m",
    "\x9b2J c1 \x9d0;c1-title\x9c done",
    "zero\u200bwidth \u202eesrever\u202c",
    "bell\x07 nul\x00 del\x7f",
]
LONG = "L" * 10_000
# What must never reach a terminal (the text around them may).
FORBIDDEN_TEXT = ["\x1b", "\x07", "\x00", "\x7f", "\x9b", "\x9c", "\x9d", "\u200b", "\u202e", "\u202c"]
# As bytes on a terminal: the sequences themselves (their words may show, quoted as text, e.g. in a trace's raw
# JSON, where ``\u001b`` is six harmless characters).
FORBIDDEN_BYTES = [b"\x1b]0;", b"\x1b]52;", b"\x1b]8;;https://evil", b"\x1b[2J", b"\x1b[31m",
                   b"\xc2\x9b", b"\xc2\x9c", b"\xc2\x9d", b"\xe2\x80\xae", b"\xe2\x80\x8b", b"\x00"]


def assert_inert(text: str) -> None:
    found = [repr(c) for c in FORBIDDEN_TEXT if c in text]
    assert not found, f"raw control text reached the output: {found}"


def assert_inert_bytes(data: bytes) -> None:
    found = [payload for payload in FORBIDDEN_BYTES if payload in data]
    assert not found, f"hostile bytes reached the terminal: {found}"


def hostile(index: int) -> str:
    return HOSTILE[index % len(HOSTILE)]


def toml_string(text: str) -> str:
    """A TOML basic string holding ``text`` exactly (JSON escapes are valid TOML escapes for these)."""
    return json.dumps(text)


def hostile_classroom(folder: Path) -> Path:
    """A valid classroom whose every free-text field holds hostile text."""
    q = toml_string
    agents = []
    for number, (role, text) in enumerate([("teacher", MARKUP), ("assistant", LINK), ("student", HOSTILE[2])]):
        agents.append(f"""
[[agents]]
id = "a{number}"
name = {q(text + " " + str(number))}
role = "{role}"
persona = {q(" ".join(HOSTILE) + " " + LONG)}
avatar = "A"
color = "#3366ff"
""")
    text = f"""
title = {q(HOSTILE[2] + " " + MARKUP + " " + HOSTILE[6])}
description = {q(" ".join(HOSTILE))}

[learner]
nickname = {q(HOSTILE[4] + "Sam")}
{''.join(agents)}
[[scenes]]
id = "s1"
title = {q(LINK + " " + HOSTILE[5])}

[[scenes.elements]]
type = "text"
id = "t1"
text = {q(" ".join(HOSTILE))}

[[demo.answers]]
id = "q1"
question = {q(HOSTILE[3] + " first?")}
keywords = ["first"]

[[demo.answers.turns]]
agent = "a0"
steps = [{{ say = {q(" ".join(HOSTILE))} }}]

[[demo.answers]]
id = "q2"
question = {q(LINK + " second?")}
keywords = ["second"]

[[demo.answers.turns]]
agent = "a0"
steps = [{{ say = "fine" }}]
"""
    path = folder / "hostile.toml"
    path.write_text(text, encoding="utf-8")
    return path


def hostile_script(folder: Path) -> Path:
    """Director and agents answer with hostile text: speech, a board text, a cue prompt and options."""
    speech = [{"type": "text", "content": " ".join(HOSTILE)},
              {"type": "action", "name": "wb_draw_text", "params": {"content": " ".join(HOSTILE), "x": 10, "y": 10,
                                                                    "width": 400, "height": 80}},
              {"type": "text", "content": LONG}]
    cue: dict[str, Any] = {"next_agent": "USER", "prompt": " ".join(HOSTILE[:6]),
                           "options": [HOSTILE[0], HOSTILE[1][:40], HOSTILE[4], HOSTILE[6]]}
    director = [json.dumps({"next_agent": "a0"}), json.dumps(cue)] * 3
    script = {"director": director, "agents": {"a0": [json.dumps(speech)] * 3}}
    path = folder / "hostile-script.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    return path
