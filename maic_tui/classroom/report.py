"""A classroom file's problems as a person wants to read them: each root cause once, its echoes folded into it,
and one problem that repeats across many places on one line.

Problems are ``(path, message)`` pairs (``scenes[2].script[14].agent``, ``'okafor' is not an agent …``). An
agent entry that is broken (left out of the checks) is named by every step that speaks as it: those lines are
its consequences, counted on the entry's own first problem (``agents[0].id: required field is missing (38
places name 'reyes')``). The same message at many places of one shape is one line
(``scenes[2].script[14, 15, 19, 20, 21, 22 and 3 more].agent: …``; places that differ in more than one index
are listed one after the other)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from maic_tui.i18n import N_, ngettext
from maic_tui.i18n.said import Said, joined, said, shown

Found = tuple[str, str]  # (path in the file, what is wrong)

_UNKNOWN_AGENT = re.compile(r"^'(.+)' is not an agent of this classroom$")
_PART = re.compile(r"\[(\d+)\]|\.?([^.\[]+)")
_LISTED = 6  # places named in a grouped line before "and N more"
_INDEX = re.compile(r"^agents\[(\d+)\]")


def not_an_agent(agent: str) -> Said:
    """The problem of a place that names ``agent``, which the classroom has not (``unknown_agent`` reads it)."""
    return said(N_("{agent} is not an agent of this classroom"), agent=repr(agent))


def unknown_agent(message: str) -> str | None:
    """The agent id a cross-check names as unknown, if this is such a problem."""
    match = _UNKNOWN_AGENT.match(message)
    return match.group(1) if match else None


def fold_broken_agents(schema: Sequence[Found], cross: Iterable[Found], agents: Any,
                       kept_ids: set[str]) -> tuple[list[Found], list[Found]]:
    """The schema's problems with the places that name a left-out agent counted on that agent's first problem,
    and the cross-checks that remain.

    An entry is known to be the agent a place names when its ``id`` says so, or, for an entry whose id is
    missing or broken, when its name holds the id (``Prof. Ada Reyes`` is ``reyes``) or it is the only such
    entry and only one unknown id is named."""
    entries = agents if isinstance(agents, list) else []
    broken = {int(m.group(1)) for path, _ in schema if (m := _INDEX.match(path))}
    by_id: dict[str, int] = {}
    anonymous: list[int] = []
    for number in sorted(broken):
        entry = entries[number] if number < len(entries) else None
        ident = entry.get("id") if isinstance(entry, dict) else None
        if isinstance(ident, str) and ident not in kept_ids:
            by_id.setdefault(ident, number)
        elif not isinstance(ident, str):
            anonymous.append(number)
    rest: list[Found] = []
    named: dict[str, list[Found]] = {}
    for path, message in cross:
        agent = unknown_agent(message)
        if agent is not None and agent not in kept_ids:
            named.setdefault(agent, []).append((path, message))
        else:
            rest.append((path, message))
    owner = dict(by_id)
    unmatched = [agent for agent in named if agent not in owner]
    for agent in unmatched:
        matches = [n for n in anonymous if agent.lower() in _words(entries[n])]
        if len(matches) == 1:
            owner[agent] = matches[0]
    still = [agent for agent in named if agent not in owner]
    free = [n for n in anonymous if n not in owner.values()]
    if len(still) == 1 and len(free) == 1:
        owner[still[0]] = free[0]
    counts: dict[int, list[str]] = {}
    for agent, places in named.items():
        if agent in owner:
            counts.setdefault(owner[agent], []).append(_places(agent, len(places)))
        else:
            rest += places
    folded: list[Found] = []
    seen: set[int] = set()
    for path, message in schema:
        match = _INDEX.match(path)
        number = int(match.group(1)) if match else -1
        if number in counts and number not in seen:
            seen.add(number)
            message = said(N_("{problem} ({places})"), problem=message, places=joined(counts[number], "; "))
        folded.append((path, message))
    return folded, rest


def _places(agent: str, count: int) -> Said:
    english = f"{count} place{'s' if count != 1 else ''} name{'s' if count == 1 else ''} {agent!r}"
    return Said(english, ngettext("{count} place names {agent}", "{count} places name {agent}", count)
                .format(count=count, agent=repr(agent)))


def _words(entry: Any) -> set[str]:
    name = entry.get("name") if isinstance(entry, dict) else None
    return set(re.findall(r"\w+", name.lower())) if isinstance(name, str) else set()


def grouped(problems: Iterable[Found]) -> list[Found]:
    """The same message at places of one shape (only their indices differ) as one line, in the order of the
    first place; a problem found once is as it was."""
    groups: dict[tuple[str, tuple[str | None, ...]], list[list[str | int]]] = {}
    for path, message in problems:
        parts = _parts(path)
        shape = tuple(None if isinstance(p, int) else p for p in parts)
        members = groups.setdefault((message, shape), [])
        if parts not in members:  # the same problem at the same place is said once
            members.append(parts)
    return [(_listed(_collapse(members), True), message) for (message, _), members in groups.items()]


def _listed(items: Sequence[str], places: bool) -> str:
    """``a``, ``a and b``, ``a, b, c and 4 more`` (``places``: ``and 4 more places``), shown with the interface's
    words between the items."""
    listed = list(items[:_LISTED])
    more = len(items) - len(listed)
    if more and places:
        return said(N_("{listed} and {count} more places"), listed=joined(listed, ", "), count=more)
    if more:
        return said(N_("{listed} and {count} more"), listed=joined(listed, ", "), count=more)
    if len(listed) > 1:
        return said(N_("{listed} and {last}"), listed=joined(listed[:-1], ", "), last=listed[-1])
    return listed[0]


def _parts(path: str) -> list[str | int]:
    return [int(index) if index else name for index, name in _PART.findall(path)]


def _collapse(members: list[list[str | int]]) -> list[str]:
    """Paths of one shape as few paths as can say them exactly: where only one index differs, its values are
    listed in its brackets; otherwise split by the first index that differs."""
    if len(members) == 1:
        return [_path(members[0])]
    varying = [i for i, part in enumerate(members[0]) if any(m[i] != part for m in members)]
    first = varying[0]
    if len(varying) == 1:
        listed = _listed([str(m[first]) for m in members], False)
        head, tail = _path(members[0][:first]), _path(members[0][first + 1:], nested=True)
        return [Said(f"{head}[{listed}]{tail}", f"{head}[{shown(listed)}]{tail}")]
    split: dict[str | int, list[list[str | int]]] = {}
    for member in members:
        split.setdefault(member[first], []).append(member)
    return [path for subgroup in split.values() for path in _collapse(subgroup)]


def _path(parts: Sequence[str | int], nested: bool = False) -> str:
    path = ""
    for part in parts:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path += f".{part}" if path or nested else part
    return path
