"""Pydantic models of a classroom file. Every model forbids unknown keys: a typo must not pass silently."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal, get_args

from pydantic import AfterValidator, Field, model_validator

from maic_tui.actions import ALL_ACTIONS, ROLE_DEFAULT_ACTIONS, Role
from maic_tui.classroom.field_types import Identifier, Line, Text
from maic_tui.colors import is_hex_color
from maic_tui.i18n import N_
from maic_tui.i18n.said import said
from maic_tui.scenes.registry import KIND_RULES, Scene
from maic_tui.strict import Strict

ActionName = Literal[ALL_ACTIONS]  # type: ignore[valid-type]
GuardName = Literal["unknown_agent", "same_agent_twice", "cue_before_answer", "student_first", "floor_after_question"]
GUARD_NAMES: tuple[GuardName, ...] = get_args(GuardName)  # the one list; guards.GUARDS implements each
# Decisions the rules take in code, without asking the director model (ARCHITECTURE.md, *One learner turn*).
CoreRule = Literal["teacher_first", "discussion_rounds", "guarded_choices"]


def _known_rule(name: str) -> str:
    if name not in RULE_NAMES:
        raise ValueError(said(N_("unknown rule {name}; the rules are {rules}"), name=repr(name),
                              rules=", ".join(RULE_NAMES)))
    return name


# A scene kind brings its own rules (``KIND_RULES``), decided in its scenes; all are switched on unless a file
# says otherwise, save guarded_choices.
RuleName = Annotated[str, AfterValidator(_known_rule)]
RULE_NAMES: tuple[str, ...] = (*get_args(CoreRule), *KIND_RULES)
DEFAULT_RULES: tuple[str, ...] = ("teacher_first", "discussion_rounds", *KIND_RULES)

LANGUAGE_CODE = r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$"  # en, fr, pt-BR, zh-Hans
_TITLES = frozenset({"mr", "mrs", "ms", "miss", "dr", "prof", "professor", "sir"})


def _hex_color(value: str) -> str:
    if not is_hex_color(value):
        raise ValueError(said(N_("not a colour: {value} (use #rgb or #rrggbb)"), value=repr(value)))
    return value.lower()


HexColor = Annotated[str, AfterValidator(_hex_color)]


class Learner(Strict):
    nickname: Line = "Learner"
    bio: str = ""


class QAMode(Strict):
    type: Literal["qa"] = "qa"


class DiscussionMode(Strict):
    type: Literal["discussion"]
    topic: Text
    prompt: str = ""
    trigger_agent: Identifier | None = None


# The file's [session] table: how the class runs (Q&A, or a discussion on a topic). Not a live session.
ClassMode = Annotated[QAMode | DiscussionMode, Field(discriminator="type")]


class Limits(Strict):
    max_agent_turns: int = Field(6, ge=1, le=6)
    max_actions_per_agent: int = Field(8, ge=1, le=8)


class Routing(Strict):
    guards: list[GuardName] = Field(default_factory=lambda: list(GUARD_NAMES))
    # guarded_choices is opt-in: measured with a small model (make bench-real), a director that may not repeat the
    # last speaker calls every other agent up to the turn's limit instead of handing back (turns 3.6x longer), unless
    # something else ends the turn, as discussion_rounds does in a discussion
    rules: list[RuleName] = Field(default_factory=lambda: list(DEFAULT_RULES))


VoiceName = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.+\-]{0,63}$")]


class Voices(Strict):
    """An agent's voice per speech provider (``classroom/voices.py``: who gets which when none is named)."""

    openai: VoiceName | None = None  # a voice of an OpenAI-compatible speech server: nova, onyx, af_bella…
    espeak: VoiceName | None = None  # an espeak-ng voice: language, then a variant (en+f3)


class Agent(Strict):
    id: Identifier
    name: Line
    role: Role
    persona: Text
    avatar: Annotated[str, Field(min_length=1, max_length=4)]
    color: HexColor
    priority: int = Field(5, ge=1, le=10)
    allowed_actions: list[ActionName] | None = None
    voice: VoiceName | Voices | None = None  # a name for whichever provider speaks, or one per provider

    @property
    def name_words(self) -> frozenset[str]:
        """What a learner may call this agent without ``@``: its id and the words of its name, titles aside."""
        words = {part for part in re.findall(r"[^\W\d_]+", self.name.casefold()) if len(part) > 2} - _TITLES
        return frozenset(words | {self.id.casefold()})

    @property
    def actions(self) -> tuple[str, ...]:
        """The actions this agent may use: its own list, or the defaults of its role."""
        if self.allowed_actions is None:
            return ROLE_DEFAULT_ACTIONS[self.role]
        return tuple(self.allowed_actions)


# --- demo material (for the offline demo model) -----------------------------------------------------


class DemoStep(Strict):
    """One item of an agent's answer: speech (``say``) or an action with its params."""

    say: str | None = None
    action: ActionName | None = None
    params: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _one_kind(self) -> DemoStep:
        if (self.say is None) == (self.action is None):
            raise ValueError(said(N_("a step has either 'say' or 'action'")))
        if self.say is not None and self.params:
            raise ValueError(said(N_("'params' belongs to an 'action' step")))
        return self


class DemoTurn(Strict):
    agent: Identifier
    steps: list[DemoStep] = Field(min_length=1)


class DemoAnswer(Strict):
    """What the class says when the learner's message matches one of ``keywords``."""

    id: Identifier
    question: Text  # an example question, offered to the learner as a suggestion
    keywords: list[Text] = Field(min_length=1)
    turns: list[DemoTurn] = Field(min_length=1)
    # When the answer ends by asking the learner something: the right answers ("5x^4"), so a reply is judged (a
    # wrong one gets ``hint``, then the answer); or the answers it offers (each taken up, none wrong).
    expects: list[Text] = Field(default_factory=list)
    options: list[Text] = Field(default_factory=list, max_length=4)
    hint: str = ""


class Demo(Strict):
    opening: list[DemoTurn] = Field(default_factory=list)
    answers: list[DemoAnswer] = Field(default_factory=list)
    # agent id -> lines for a question the material does not cover (honest, in character)
    fallback: dict[str, list[Text]] = Field(default_factory=dict)


class Classroom(Strict):
    title: Line
    description: str = ""
    language: Annotated[str, Field(pattern=LANGUAGE_CODE)] = "en"
    # The language the voices speak, when not the text's (a class read in Chinese and heard in English).
    speech_language: Annotated[str, Field(pattern=LANGUAGE_CODE)] | None = None
    learner: Learner = Field(default_factory=Learner)
    session: ClassMode = Field(default_factory=QAMode)
    limits: Limits = Field(default_factory=Limits)
    routing: Routing = Field(default_factory=Routing)
    agents: list[Agent] = Field(min_length=1)
    scenes: list[Scene] = Field(default_factory=list)
    demo: Demo = Field(default_factory=Demo)

    def agent(self, agent_id: str) -> Agent | None:
        return next((a for a in self.agents if a.id == agent_id), None)

    def lead(self) -> Agent | None:
        """Who answers a question first: the teacher (highest priority), else the assistant."""
        for role in ("teacher", "assistant"):
            found = [a for a in self.agents if a.role == role]
            if found:
                return max(found, key=lambda a: a.priority)
        return None
