"""The model spec string: ``demo``, ``openai:<model>`` or ``script:<path>``. Light on purpose: the app
checks the spec before it takes the terminal, long before LangChain loads."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from maic_tui.bad_input import BadInput
from maic_tui.i18n import _

KINDS = ("demo", "openai", "script")


class ModelSpecError(BadInput):
    """A model spec that names no usable model; one line."""


@dataclass(frozen=True, slots=True)
class ModelSpec:
    kind: str
    target: str = ""  # the model name for openai, the file for script

    @classmethod
    def parse(cls, spec: str) -> ModelSpec:
        kind, _colon, target = spec.strip().partition(":")
        if kind == "demo" and not target:
            return cls("demo")
        if kind in ("openai", "script") and target.strip():
            return cls(kind, target.strip())
        raise ModelSpecError(_("unknown model {spec}: use 'demo', 'openai:<model>' or 'script:<path>'")
                             .format(spec=repr(spec)))

    def __str__(self) -> str:
        return self.kind if not self.target else f"{self.kind}:{self.target}"

    def check(self) -> ModelSpec:
        """The spec, once what can be known without a model is known: a script file must exist."""
        if self.kind == "script" and not Path(self.target).is_file():
            raise ModelSpecError(_("script model file not found: {path}").format(path=self.target))
        return self


def shown_model(spec: str) -> str:
    """The spec as lists and titles show it: a script model by its file's name (its folder is noise)."""
    if spec.startswith("script:"):
        return "script:" + Path(spec.removeprefix("script:")).name
    return spec
