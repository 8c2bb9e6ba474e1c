"""A classroom file with schema errors, checked as far as it can be: every agent and scene that is valid on its own
is kept (the invalid ones left out), so the checks across the classroom (ids, agents of steps, elements pointed
at) run in the same pass and ``validate`` reports every problem of a file in one run, not in rounds."""

from __future__ import annotations

import re
from typing import Any

from pydantic import TypeAdapter, ValidationError

from maic_tui.classroom.models import Agent, Classroom, Demo, Scene
from maic_tui.i18n import N_
from maic_tui.i18n.said import said

_LISTS: dict[str, TypeAdapter[Any]] = {"agents": TypeAdapter(Agent), "scenes": TypeAdapter(Scene)}
_INDEXED = re.compile(r"^(agents|scenes)\[(\d+)\]")


def partial_classroom(data: dict[str, Any]) -> tuple[Classroom | None, dict[str, list[int]], set[str]]:
    """The classroom made of its valid parts (None when not even that is possible), where each kept list item came
    from (``{"scenes": [0, 2]}``: the second kept scene is the file's third), and the ids of left-out agents."""
    kept: dict[str, Any] = {}
    origin: dict[str, list[int]] = {}
    broken_agents: set[str] = set()
    for key, adapter in _LISTS.items():
        items = data.get(key)
        if not isinstance(items, list):
            continue
        kept[key], origin[key] = [], []
        for number, item in enumerate(items):
            try:
                kept[key].append(adapter.validate_python(item))
                origin[key].append(number)
            except ValidationError:
                if key == "agents" and isinstance(item, dict) and isinstance(item.get("id"), str):
                    broken_agents.add(item["id"])
    if not kept.get("agents") and not broken_agents:
        return None, origin, broken_agents
    try:
        demo = Demo.model_validate(data.get("demo", {}))
    except ValidationError:
        demo = Demo()
    rest = {key: value for key, value in data.items() if key not in (*_LISTS, "demo")}
    try:
        base = Classroom.model_validate({**rest, "agents": [{"id": "placeholder", "name": "placeholder"}]})
    except ValidationError:
        base = Classroom.model_construct(title="", agents=[])
    return base.model_copy(update={"agents": [], **kept, "demo": demo}), origin, broken_agents


def file_path(path: str, origin: dict[str, list[int]]) -> str:
    """A path in the partial classroom as a path in the file (``scenes[1]`` of the kept scenes is the file's
    ``scenes[2]`` when one before it was left out)."""
    match = _INDEXED.match(path)
    if match is None:
        return path
    key, index = match.group(1), int(match.group(2))
    numbers = origin.get(key, [])
    return f"{key}[{numbers[index] if index < len(numbers) else index}]" + path[match.end():]


def left_out_duplicates(data: dict[str, Any], origin: dict[str, list[int]]) -> list[tuple[str, str]]:
    """Duplicate agent and scene ids where a left-out entry is one of the two (the checks on the kept parts
    cannot see those)."""
    found: list[tuple[str, str]] = []
    for key, message in (("agents", N_("duplicate agent id {id} (already used by {other})")),
                         ("scenes", N_("duplicate scene id {id} (already used by {other})"))):
        items = data.get(key)
        if not isinstance(items, list):
            continue
        kept, first = set(origin.get(key, [])), dict[str, int]()
        for number, item in enumerate(items):
            ident = item.get("id") if isinstance(item, dict) else None
            if not isinstance(ident, str):
                continue
            if ident not in first:
                first[ident] = number
            elif not (number in kept and first[ident] in kept):
                found.append((f"{key}[{number}].id", said(message, id=repr(ident), other=f"{key}[{first[ident]}]")))
    return found
