"""The stages scene kinds bring to ``maic-tui new`` and ``regen`` (ARCHITECTURE.md, *Scene kinds*): the slides are
the outline's scenes, written by the pipeline's own scene stage; any other kind that makes scenes of its own (the
quiz at the end) brings a ``generation`` part, asked here after the slides, in the order of the registration."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, cast

from maic_tui.generation.answers import StageAnswer
from maic_tui.generation.stages import Brief
from maic_tui.i18n import N_, _
from maic_tui.scenes.registry import KINDS, scene_part

Data = dict[str, Any]


class Drafting(Protocol):
    """The generator as a kind's stage uses it (``pipeline.Generator``): the draft, and one stage asked, checked
    and repaired."""

    draft: Data

    async def ask(self, stage: str, kind: type[StageAnswer], schema: Data, prompt: str,
                  apply: Callable[[Data], list[str]], check: bool = True) -> Data: ...


class KindStage(Protocol):
    """What ``scenes/<kind>/generation.py`` holds."""

    STAGE: str  # the stage's name (a script file's ``stages`` answer it by this name)
    LABEL: str  # the same, marked with ``N_``: what the progress lines show, in the interface's language

    def wanted(self, brief: Brief) -> bool:
        """Whether a lesson generated for ``brief`` gets this kind's scenes."""

    async def write(self, generator: Drafting) -> None:
        """Its scenes written, checked and appended to ``generator.draft`` (``_outline`` says what was taught)."""

    async def again(self, generator: Drafting, index: int, context: str) -> None:
        """Scene ``index`` of the draft, of this kind, made again; ``context`` (the course around it, the author's
        note) follows the stage's own prompt."""


def kind_stage(kind: str) -> KindStage | None:
    part = scene_part(kind, "generation")
    return cast(KindStage, part) if part is not None else None


def kind_stages() -> list[KindStage]:
    """The stages after the slides, in the registration's order."""
    return [stage for kind in KINDS if (stage := kind_stage(kind)) is not None]


# The pipeline's own stages as a person reads their names (the ids stay in records, draft files and scripts).
STAGE_NAMES = {"summary": N_("summary"), "outline": N_("outline"), "roster": N_("roster"), "scene": N_("scene"),
               "demo": N_("demo"), "final check": N_("final check"), "regen": N_("regen")}


def stage_name(stage: str) -> str:
    """A stage's name in the interface's language (an unknown one as it is)."""
    label = STAGE_NAMES.get(stage) or next((kind.LABEL for kind in kind_stages() if stage == kind.STAGE), None)
    return _(label) if label else stage
