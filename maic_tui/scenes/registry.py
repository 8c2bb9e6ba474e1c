"""The one registration of the kinds of scene (ARCHITECTURE.md, *Scene kinds*): ``SceneKinds`` names each kind's
file model, and every other part a kind brings is found by its place, ``scenes/<kind>/<part>.py``
(``scene_part``), so adding a kind is its package and one name here."""

from __future__ import annotations

from functools import cache
from importlib import import_module
from types import ModuleType
from typing import Annotated, Any, get_args

from pydantic import BeforeValidator, Field

from maic_tui.i18n import N_
from maic_tui.i18n.said import said
from maic_tui.scenes.base import SceneBase
from maic_tui.scenes.interactive.model import InteractiveScene
from maic_tui.scenes.pbl.model import PblScene
from maic_tui.scenes.quiz.model import QuizScene
from maic_tui.scenes.slide.model import SlideScene

# The registration. The first kind is what a scene is when its file names no ``type``; ``new`` writes the kinds'
# own scenes after the slides in this order, so the quiz, last, ends the lesson.
SceneKinds = SlideScene | InteractiveScene | PblScene | QuizScene
KIND_MODELS: tuple[type[SceneBase], ...] = get_args(SceneKinds)
# each kind's name is its ``type`` literal
KINDS: dict[str, type[SceneBase]] = {get_args(model.model_fields["type"].annotation)[0]: model
                                     for model in KIND_MODELS}
DEFAULT_KIND = next(iter(KINDS))
# Actions that only some kinds allow: each is taken from a scene whose kind does not enable it.
KIND_ACTIONS: frozenset[str] = frozenset().union(*(model.enables for model in KIND_MODELS))
# The routing rules the kinds bring, each decided in its own kind's scenes.
KIND_RULES: tuple[str, ...] = tuple(rule for model in KIND_MODELS for rule in model.rules)


def _typed(data: Any) -> Any:
    """A scene table with its kind named (the default when it names none), and a field of another kind named as
    such: ``only a scene of type 'quiz' has questions`` says more than "extra inputs are not permitted"."""
    if not isinstance(data, dict):
        return data
    kind = data.get("type", DEFAULT_KIND)
    own = KINDS.get(kind) if isinstance(kind, str) else None
    if own is not None:
        for name in data:
            owners = [other for other, model in KINDS.items() if name in model.model_fields]
            if name not in own.model_fields and owners:
                raise ValueError(said(N_("only a scene of type {kind} has {name}"), kind=repr(owners[0]), name=name))
    return data if "type" in data else {**data, "type": DEFAULT_KIND}


Scene = Annotated[SceneKinds, Field(discriminator="type"), BeforeValidator(_typed)]


def actions_in(allowed: tuple[str, ...] | list[str], kind: str | None) -> list[str]:
    """An agent's actions in a scene of ``kind``: those some kinds keep to themselves go unless this kind enables
    them (``None``: no scene is shown)."""
    model = KINDS.get(kind) if kind is not None else None
    enabled = model.enables if model is not None else frozenset()
    return [name for name in allowed if name not in KIND_ACTIONS or name in enabled]


@cache
def scene_part(kind: str, part: str) -> ModuleType | None:
    """The module of ``kind`` that brings ``part`` (``scenes/<kind>/<part>.py``), None when the kind has none: the
    layer that asks defines what the module holds (a protocol beside it), and this only finds it."""
    return optional_module(f"{__package__}.{kind}.{part}")


def optional_module(name: str) -> ModuleType | None:
    """The module ``name``, or None when there is none (an import error inside it is raised as it is)."""
    try:
        return import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return None
