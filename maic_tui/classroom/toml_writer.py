"""A classroom written back as TOML in the samples' style (issue 17, first step: what ``maic-tui new`` writes).

Tables people read first (title, learner, session, agents), then each scene with its script as one inline table
per line, its elements and questions; demo material last. Only what differs from the defaults is written, so a
file says what is particular about its class. Loading what this writes gives the same classroom (tested on every
sample).
"""

from __future__ import annotations

import json
import math
from typing import Any

from maic_tui.classroom.models import Classroom

_BARE_KEY = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


def classroom_toml(classroom: Classroom, comment: str = "") -> str:
    return data_toml(classroom.model_dump(mode="json", exclude_defaults=True, by_alias=True), comment)


def data_toml(data: dict[str, Any], comment: str = "") -> str:
    """The same layout for classroom data that has not been checked yet (a generated draft, to be checked)."""
    data = dict(data)
    out: list[str] = [f"# {line}".rstrip() for line in comment.splitlines()]
    out += [f"{key(name)} = {value(data.pop(name))}"
            for name in ("title", "description", "language", "speech_language") if name in data]
    for table in ("learner", "session", "limits", "routing"):
        if table in data:
            out += ["", f"[{table}]", *_pairs(data.pop(table))]
    for agent in data.pop("agents", []):
        out += ["", "[[agents]]", *_pairs(agent)]
    for scene in data.pop("scenes", []):
        out += _scene(dict(scene))
    demo = data.pop("demo", {})
    if demo:
        out += ["", "# --- demo material for the offline demo model ---"]
        for turn in demo.get("opening", []):
            out += ["", "[[demo.opening]]", *_pairs(turn)]
        for answer in demo.get("answers", []):
            out += ["", "[[demo.answers]]", *_pairs(answer)]
        if demo.get("fallback"):
            out += ["", "[demo.fallback]", *_pairs(demo["fallback"])]
    assert not data, f"fields the writer does not place: {sorted(data)}"
    return "\n".join(out).lstrip("\n") + "\n"


def scene_toml(scene: dict[str, Any]) -> str:
    """One scene as its ``[[scenes]]`` table and sub-tables, as this writer lays a whole file out."""
    return "\n".join(_scene(dict(scene))).lstrip("\n") + "\n"


def _scene(scene: dict[str, Any]) -> list[str]:
    """The scene's table, then each list of tables of its kind (a slide's elements, a quiz's questions) as
    ``[[scenes.<name>]]`` sub-tables; the script stays in the table, one step a line."""
    tables = {name: scene.pop(name) for name, item in list(scene.items())
              if name != "script" and isinstance(item, list) and item and all(isinstance(e, dict) for e in item)}
    lines = ["", "[[scenes]]", *_pairs(scene)]
    for name, items in tables.items():
        for item in items:
            lines += ["", f"[[scenes.{key(name)}]]", *_pairs(item)]
    return lines


def _pairs(table: dict[str, Any]) -> list[str]:
    """``key = value`` lines; a list of tables (a script, a turn's steps) one inline table per line."""
    lines = []
    for name, item in table.items():
        if isinstance(item, list) and item and all(isinstance(entry, dict) for entry in item):
            lines.append(f"{key(name)} = [")
            lines += [f"  {value(entry)}," for entry in item]
            lines.append("]")
        else:
            lines.append(f"{key(name)} = {value(item)}")
    return lines


def key(name: str) -> str:
    return name if name and set(name) <= _BARE_KEY else string(name)


def value(item: Any) -> str:
    if isinstance(item, bool):
        return "true" if item else "false"
    if isinstance(item, int):
        return str(item)
    if isinstance(item, float):
        if not math.isfinite(item):
            raise ValueError(f"not a TOML number: {item}")
        return repr(item)
    if isinstance(item, str):
        return string(item)
    if isinstance(item, list):
        return "[" + ", ".join(value(entry) for entry in item) + "]"
    if isinstance(item, dict):
        return "{ " + ", ".join(f"{key(k)} = {value(v)}" for k, v in item.items()) + " }" if item else "{}"
    raise TypeError(f"no TOML form for {type(item).__name__}")


def string(text: str) -> str:
    """A TOML basic string: JSON's escapes are TOML's, and DEL, which JSON leaves as it is, is escaped too."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")
