"""One scene of a classroom file replaced, or a new one put in, with every other byte of the file as it was:
the scene's lines (its ``[[scenes]]`` table and the sub-tables under it) are found by ``toml_layout`` and only
they change; comments and blank lines before the next table stay with what follows. The result is read back
and compared with what was meant, so a file laid out in a way this cannot follow is refused, never damaged."""

from __future__ import annotations

import tomllib
from typing import Any

from maic_tui.bad_input import BadInput
from maic_tui.classroom.toml_layout import Layout
from maic_tui.classroom.toml_writer import scene_toml
from maic_tui.i18n import _


class CannotSplice(BadInput):
    """The file's scenes are not laid out as ``[[scenes]]`` tables this can find; one line."""


def replace_scene(text: str, index: int, scene: dict[str, Any]) -> str:
    layout = _checked(text)
    start, end = layout.scene_spans()[index]
    return _verified(text, _join(layout.lines[:start], scene_toml(scene), layout.lines[end:]), index, scene, 0)


def insert_scene(text: str, index: int, scene: dict[str, Any]) -> str:
    """``scene`` becomes scene ``index`` (0-based); the ones from there move down. At least one scene exists."""
    layout = _checked(text)
    spans = layout.scene_spans()
    if index < len(spans):  # before the scene now there: above the comments that lead into it
        start = spans[index][0]
        while start > 0 and layout.lines[start - 1].strip().startswith("#"):
            start -= 1
        joined = _join(layout.lines[:start], scene_toml(scene) + "\n", layout.lines[start:])
    else:
        end = spans[-1][1]
        joined = _join(layout.lines[:end], "\n" + scene_toml(scene), layout.lines[end:])
    return _verified(text, joined, index, scene, 1)


def _checked(text: str) -> Layout:
    layout = Layout.of(text)
    scenes = tomllib.loads(text).get("scenes", [])
    if not scenes or len(layout.scene_spans()) != len(scenes):
        raise CannotSplice(_("the scenes are not each written as a [[scenes]] table, so one cannot be replaced "
                             "without rewriting the file"))
    return layout


def _join(before: list[str], middle: str, after: list[str]) -> str:
    head = "".join(before)
    if head and not head.endswith("\n"):
        head += "\n"
    return head + middle + "".join(after)


def _verified(old: str, new: str, index: int, scene: dict[str, Any], added: int) -> str:
    """``new`` parses, holds ``scene`` at ``index`` and is otherwise ``old``'s data."""
    before, after = tomllib.loads(old), tomllib.loads(new)
    expected = list(before["scenes"])
    if added:
        expected.insert(index, scene)
    else:
        expected[index] = scene
    if tomllib.loads(scene_toml(scene))["scenes"][0] != after["scenes"][index] or \
            {**before, "scenes": None} != {**after, "scenes": None} or \
            [s for n, s in enumerate(after["scenes"]) if n != index] != \
            [s for n, s in enumerate(expected) if n != index]:
        raise CannotSplice(_("the file's layout could not be followed: the scene was not put in (nothing written)"))
    return new
