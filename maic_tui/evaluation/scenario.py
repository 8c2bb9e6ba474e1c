"""Routing scenarios (TOML): a classroom, the learner's messages, and what each turn must look like.

```toml
description = "Rule 5: a clear question goes to the teacher first"
classroom = "derivatives"        # a bundled sample, or a path relative to this file
model = "demo"                   # optional; `maic-tui eval --model` overrides; script: paths are relative
threshold = 1.0                  # the pass rate every expectation must reach (0..1)

[[turns]]
say = "What is a derivative?"
expect = { first_role = "teacher", end_reason = "cue_user", no_repeat = true }
```

A scenario written from a recorded session (``eval --from-session``) starts where that session was: ``scene`` (a
scene id), ``[[history]]`` (``who`` is "learner", "lesson" or an agent id; ``text``) and ``[[worked]]`` (each
change made to a scene's widget: ``scene``, ``verb``, ``target``, ``value``, ``by``), and expects each
decision of its turn (``decision = { 1 = ["reyes"], 2 = ["theo", "USER"] }``: step -> allowed choices).

On a scene whose kind reads the learner's replies while it waits (a project), the turns are played there, as the
lesson would: ``[[events]]`` are the scene's own records before them (``name`` and ``data``, as the log has
them: a project's role chosen, issue opened), so a turn can be a hint request or a submission.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError

from maic_tui.bad_input import BadInput, Unreadable, describe_path, field_path, read_toml_file, validation_message
from maic_tui.classroom.models import Classroom, RuleName
from maic_tui.classroom.report import Found, grouped
from maic_tui.events import EndReason
from maic_tui.i18n import _
from maic_tui.paths import SCENARIOS_DIR
from maic_tui.strict import Strict
from maic_tui.text_safety import clean_tree

Role = Literal["teacher", "assistant", "student"]
Rate = Annotated[float, Field(ge=0, le=1)]


class ScenarioError(BadInput):
    """A scenario file that cannot be used; one line per problem, naming the file and the field."""


class Expect(Strict):
    """What one turn must show. Every field is optional; each one given is checked and reported alone."""

    first_role: Role | None = None  # the role of the first agent to speak
    first_speaker: str | None = None  # an agent id
    no_student_first: bool = False  # a student never opens the turn (rules 5 and 6)
    must_speak: list[str] = Field(default_factory=list)  # agent ids that speak this turn
    must_not_speak: list[str] = Field(default_factory=list)
    no_repeat: bool = False  # no agent speaks twice in a row (rule 2)
    distinct_speakers: bool = False  # no agent is called twice in the turn (rule 2)
    no_same_role_twice: bool = False  # no two agents of one role in a row while other roles are in the class (3)
    max_agents: int | None = Field(None, ge=0)  # at most this many agent messages (rule 8)
    min_agents: int | None = Field(None, ge=0)
    end_reason: EndReason | None = None  # e.g. "cue_user": the turn hands back to the learner (rule 8)
    no_error: bool = False  # no error event
    no_fallback: bool = False  # the director never fell back to the deterministic choice
    guard_caught: list[str] = Field(default_factory=list)  # routing guards that rejected a director answer
    board_not_empty: bool = False  # the whiteboard holds something after the turn
    brief_instructions: int | None = Field(None, ge=1)  # director instructions at most this long (rule 9)
    no_reexplain: bool = False  # no director instruction asks an agent to explain again (rule 4)
    no_impersonation: bool = False  # no agent writes lines as another agent ("[Name]: …", rule 7)
    # Decision step (1 is the first) -> the choices allowed there: agent ids, USER, END.
    decision: dict[Annotated[str, Field(pattern=r"^[1-9][0-9]?$")], Annotated[list[str], Field(min_length=1)]] = (
        Field(default_factory=dict))
    not_end_after_question: bool = False  # the turn does not end (END) right after an agent asked a question
    threshold: Rate | None = None  # overrides the scenario's threshold for this turn


class Said(Strict):
    """One entry of the conversation before the scenario's turns."""

    who: Annotated[str, Field(min_length=1)]  # "learner", "lesson" or an agent id
    text: str


class Worked(Strict):
    """A change made to a scene's widget before the scenario's turns (the learner's, or an agent's action)."""

    scene: Annotated[str, Field(min_length=1)]  # the scene's id
    verb: Literal["set", "preset", "reveal", "highlight", "annotate"]
    target: str = ""
    value: float | str | None = None
    by: str = "the learner"


class SceneEvent(Strict):
    """One of the scene's own records before the first turn (a project's ``role_chosen``, ``issue_opened``)."""

    name: Annotated[str, Field(min_length=1)]
    data: dict[str, Any] = Field(default_factory=dict)


class Turn(Strict):
    say: Annotated[str, Field(min_length=1)]
    expect: Expect = Expect()


class Scenario(Strict):
    description: str = ""
    classroom: Annotated[str, Field(min_length=1)]
    model: str | None = None
    # The routing rules played (default: the classroom's own). A guard's scenario switches them off, so the
    # director is asked for every decision and the guard is what decides.
    rules: list[RuleName] | None = None
    threshold: Rate = 1.0
    scene: str | None = None  # the scene (its id) the class is on; default: the first
    history: list[Said] = Field(default_factory=list)  # the conversation before the first turn
    worked: list[Worked] = Field(default_factory=list)  # the widgets as they were worked before the first turn
    events: list[SceneEvent] = Field(default_factory=list)  # the scene's own records before the first turn
    turns: Annotated[list[Turn], Field(min_length=1)]


def scenario_names() -> list[str]:
    return sorted(path.stem for path in SCENARIOS_DIR.glob("*.toml"))


def resolve_scenario(name_or_path: str) -> Path:
    path = Path(name_or_path)
    if path.exists() or path.suffix == ".toml" or len(path.parts) > 1:
        return path
    return SCENARIOS_DIR / f"{name_or_path}.toml"


def load_scenario(name_or_path: str) -> tuple[Path, Scenario]:
    path = resolve_scenario(name_or_path)
    name = describe_path(path)
    try:
        data = read_toml_file(path, "scenario file")
        return path, Scenario.model_validate(clean_tree(data))
    except Unreadable as exc:
        raise ScenarioError(f"{name}: {exc.reason}") from None
    except ValidationError as exc:
        problems = [(field_path(tuple(error["loc"])), validation_message(error)) for error in exc.errors()]
        raise ScenarioError(lines=[f"{name}: {where}: {what}" for where, what in problems]) from None


def check_against(path: Path, scenario: Scenario, classroom: Classroom) -> None:
    """ScenarioError when the scenario names agents or a scene its classroom does not have: each problem once,
    one repeated over many turns on one line."""
    problems = grouped(_unknown_names(scenario, classroom))
    if problems:
        name = describe_path(path)
        raise ScenarioError(lines=[f"{name}: {where}: {what}" for where, what in problems])


def _unknown_names(scenario: Scenario, classroom: Classroom) -> list[Found]:
    agents = {agent.id for agent in classroom.agents}
    known = ", ".join(sorted(agents))

    def unknown(who: str) -> str:
        return _("{name} is not an agent of this scenario's classroom ({known})").format(name=repr(who), known=known)

    found: list[Found] = []
    if scenario.scene is not None and all(scene.id != scenario.scene for scene in classroom.scenes):
        scenes = ", ".join(scene.id for scene in classroom.scenes) or _("it has no scenes")
        found.append(("scene", _("{scene} is not a scene of this scenario's classroom ({scenes})").format(
            scene=repr(scenario.scene), scenes=scenes)))
    for number, said in enumerate(scenario.history):
        if said.who not in ("learner", "lesson") and said.who not in agents:
            found.append((f"history[{number}].who", unknown(said.who)))
    for number, turn in enumerate(scenario.turns):
        expect, where = turn.expect, f"turns[{number}].expect"
        if expect.first_speaker is not None and expect.first_speaker not in agents:
            found.append((f"{where}.first_speaker", unknown(expect.first_speaker)))
        for key in ("must_speak", "must_not_speak"):
            found += [(f"{where}.{key}[{i}]", unknown(who)) for i, who in enumerate(getattr(expect, key))
                      if who not in agents]
        for step, choices in expect.decision.items():
            found += [(f"{where}.decision.{step}[{i}]", unknown(who)) for i, who in enumerate(choices)
                      if who not in agents and who not in ("USER", "END")]
    return found


def relative_to(scenario_path: Path, target: str) -> str:
    """A classroom or script path written in a scenario is relative to the scenario's folder."""
    if target.startswith("script:"):
        return "script:" + relative_to(scenario_path, target.removeprefix("script:"))
    path = Path(target)
    if path.is_absolute() or not (path.suffix or len(path.parts) > 1):
        return target  # absolute, or the name of a bundled sample
    return str(scenario_path.parent / path)
