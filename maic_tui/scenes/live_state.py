"""The live state of the scenes the learner works (ARCHITECTURE.md, *Scene kinds*, live state): one per scene that
has one (``SceneBase.initial``), changed by the learner's changes (``interaction`` records) and by the agents'
widget actions, each checked by the scene (``SceneBase.change``). The session, the view model and a rebuilt log
each keep one, fed the same changes, so they agree."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from maic_tui.actions import WIDGET_ACTIONS, InvalidAction, parse_params
from maic_tui.i18n import N_
from maic_tui.scenes.base import SceneBase, SceneChangeError

# an action's name: the change it makes
ACTION_VERBS = {"widget_highlight": "highlight", "widget_annotation": "annotate", "widget_reveal": "reveal"}


@dataclass(frozen=True, slots=True)
class SceneChange:
    """One change to a scene's live state: ``verb`` (set, preset, reveal, highlight, annotate) on ``target``."""

    verb: str
    target: str
    value: float | str | None = None


def action_changes(name: str, params: dict[str, Any]) -> list[SceneChange]:
    """The changes a widget action makes (``widget_setState``: one per variable); raises SceneChangeError."""
    try:
        parsed = parse_params(name, params)
    except InvalidAction as exc:
        raise SceneChangeError(exc.reason) from None
    if name == "widget_setState":
        return [SceneChange("set", key, value) for key, value in getattr(parsed, "state", {}).items()]
    value = getattr(parsed, "content", None) if name == "widget_annotation" else None
    return [SceneChange(ACTION_VERBS[name], getattr(parsed, "target", ""), value)]


class SceneStates:
    """Each scene's live state, by scene id, made from the scene's initial state on first use."""

    def __init__(self) -> None:
        self._states: dict[str, Any] = {}
        self.version = 0  # grows with every change (what shows it redraws, a decision made ahead is dropped)

    def of(self, scene: SceneBase | None) -> Any | None:
        """The scene's state now (None: the scene has nothing to work)."""
        if scene is None:
            return None
        if scene.id not in self._states:
            state = scene.initial()
            if state is None:
                return None
            self._states[scene.id] = state
        return self._states[scene.id]

    def change(self, scene: SceneBase | None, changes: Iterable[SceneChange], by: str = "the learner") -> Any:
        """Every change applied, or none (the first that fails raises SceneChangeError, one line)."""
        state = self.of(scene)
        if scene is None or state is None:
            raise SceneChangeError.said(N_("this scene has nothing to work") if scene is not None else
                                        N_("no scene is shown"))
        for change in changes:
            state = scene.change(state, change.verb, change.target, change.value, by)
        self._states[scene.id] = state
        self.version += 1
        return state

    def action(self, scene: SceneBase | None, name: str, params: dict[str, Any], by: str) -> Any:
        """A widget action applied to the scene's state; raises SceneChangeError naming why not."""
        if name not in WIDGET_ACTIONS:
            raise SceneChangeError.said(N_("not a widget action: {name}"), name=name)
        return self.change(scene, action_changes(name, params), by)

    def copy(self) -> SceneStates:
        twin = SceneStates()
        twin._states = dict(self._states)
        twin.version = self.version
        return twin

    def restore(self, other: SceneStates) -> None:
        self._states, self.version = dict(other._states), other.version
