"""What a scene plays (ARCHITECTURE.md, *The lesson*): its ``script`` of steps, and the questions of a quiz scene.

A step is one TOML inline table whose key says its kind: ``{agent, say}`` speech, ``{agent, action, params}``
an action, ``{discussion, prompt?, agent?}`` a director-led exchange, ``{pause, agent?, prompt?, options?,
expects?}`` the class asks and waits for the learner, ``{ask}`` a quiz question of the scene.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal, assert_never, get_args

from pydantic import Field, model_validator

from maic_tui.actions import ALL_ACTIONS
from maic_tui.i18n import N_
from maic_tui.i18n.said import said
from maic_tui.strict import Strict

# The kinds of script step: a new one fails the type check (``assert_never``) until every place that acts on a
# step's kind handles it (``step_shape`` here, ``lesson_steps``'s helpers, and the lesson player).
ScriptKind = Literal["say", "action", "discussion", "pause", "ask"]
SCRIPT_KINDS: tuple[ScriptKind, ...] = get_args(ScriptKind)
Agent = Literal["needed", "none", "optional"]
Id = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,39}$")]
Words = Annotated[str, Field(min_length=1)]


class ScriptStep(Strict):
    agent: Id | None = None
    say: Words | None = None
    action: Literal[ALL_ACTIONS] | None = None  # type: ignore[valid-type]
    params: dict[str, Any] = Field(default_factory=dict)
    discussion: Words | None = None  # the topic
    pause: bool | None = None
    prompt: str = ""
    options: list[Words] = Field(default_factory=list, max_length=4)
    expects: list[Words] = Field(default_factory=list)  # a pause's right answers, when its prompt has them
    ask: Id | None = None  # a question id of this scene

    @property
    def kind(self) -> ScriptKind:
        return next(kind for kind in SCRIPT_KINDS if getattr(self, kind) not in (None, False))

    @model_validator(mode="after")
    def _one_kind(self) -> ScriptStep:
        kinds = [kind for kind in SCRIPT_KINDS if getattr(self, kind) not in (None, False)]
        if len(kinds) != 1:
            if kinds:
                raise ValueError(said(N_("a step is one of: {kinds} (this one has {these})"),
                                      kinds=", ".join(SCRIPT_KINDS), these=", ".join(kinds)))
            raise ValueError(said(N_("a step is one of: {kinds}"), kinds=", ".join(SCRIPT_KINDS)))
        kind = kinds[0]
        agent, extras = step_shape(kind)
        if agent == "needed" and self.agent is None:
            raise ValueError(said(N_("a '{kind}' step needs 'agent'"), kind=kind))
        if agent == "none" and self.agent is not None:
            raise ValueError(said(N_("a '{kind}' step has no 'agent'"), kind=kind))
        for extra, owners in (("params", _AN_ACTION), ("options", _A_PAUSE), ("expects", _A_PAUSE),
                              ("prompt", _A_PAUSE_OR_DISCUSSION)):
            if getattr(self, extra) and extra not in extras:
                raise ValueError(said(owners, extra=extra))
        return self


# Where a step's key belongs, when a step of another kind has it.
_AN_ACTION = N_("'{extra}' belongs to an 'action' step")
_A_PAUSE = N_("'{extra}' belongs to a 'pause' step")
_A_PAUSE_OR_DISCUSSION = N_("'{extra}' belongs to a 'pause' or 'discussion' step")


def step_shape(kind: ScriptKind) -> tuple[Agent, frozenset[str]]:
    """Whether a step of this kind has an agent, and which other keys it may have."""
    match kind:
        case "say":
            return "needed", frozenset()
        case "action":
            return "needed", frozenset({"params"})
        case "discussion":
            return "optional", frozenset({"prompt"})
        case "pause":  # said by its agent, else by the teacher
            return "optional", frozenset({"prompt", "options", "expects"})
        case "ask":
            return "none", frozenset()
        case _:
            assert_never(kind)


class QuizOption(Strict):
    label: Words
    value: Id


class QuizQuestion(Strict):
    id: Id
    type: Literal["single", "multiple", "short_answer"]
    question: Words
    options: list[QuizOption] = Field(default_factory=list)
    answer: list[str] = Field(default_factory=list)  # option values; for a short answer, a model answer
    accept: list[Words] = Field(default_factory=list)  # a short answer's equivalent right answers, compared after
    # normalising case, spacing and the punctuation around them (any of them earns full points, with no model call)
    keywords: list[Words] = Field(default_factory=list)  # a short answer's expected words (the demo grades by them)
    analysis: str = ""  # shown after the answer
    comment_prompt: str = ""  # what the grader should look for in a short answer
    points: int = Field(1, ge=1, le=100)  # a multiple choice: per right option (a wrong pick costs as much)

    @property
    def worth(self) -> int:
        """The most the question can earn."""
        return self.points * len(self.answer) if self.type == "multiple" else self.points

    @model_validator(mode="after")
    def _consistent(self) -> QuizQuestion:
        values = [option.value for option in self.options]
        if self.type == "short_answer":
            if self.options:
                raise ValueError(said(N_("a short answer has no 'options'")))
            return self
        if self.accept:
            raise ValueError(said(N_("'accept' belongs to a short answer (a choice is read from its options)")))
        if len(values) < 2:
            raise ValueError(said(N_("a '{kind}' question needs at least two options"), kind=self.type))
        if len(set(values)) != len(values):
            raise ValueError(said(N_("option values must differ")))
        wrong = [value for value in self.answer if value not in values]
        if wrong:
            raise ValueError(said(N_("answer {answer} is not one of the option values ({values})"),
                                  answer=repr(wrong[0]), values=", ".join(values)))
        if self.type == "single" and len(self.answer) != 1:
            raise ValueError(said(N_("a 'single' question has exactly one answer")))
        if self.type == "multiple" and not self.answer:
            raise ValueError(said(N_("a 'multiple' question needs at least one answer")))
        return self


StepKind = ScriptKind | Literal["present"]  # "present": a slide without a script, presented by its teacher


def waits(kind: StepKind) -> bool:
    """A step of this kind waits for the learner."""
    match kind:
        case "pause" | "ask":
            return True
        case "say" | "action" | "discussion" | "present":
            return False
        case _:
            assert_never(kind)


def read_out(kind: StepKind) -> bool:
    """Steps of this kind by one agent in a row are read as one message (as a model's answer would be)."""
    match kind:
        case "say" | "action":
            return True
        case "discussion" | "pause" | "ask" | "present":
            return False
        case _:
            assert_never(kind)


@dataclass(frozen=True, slots=True)
class Step:
    scene: int
    index: int
    kind: StepKind
    script: ScriptStep | None = None  # None for "present": a scene without a script, presented by the model
    question: QuizQuestion | None = None

    @property
    def waits(self) -> bool:
        return waits(self.kind)
