"""What each stage of ``maic-tui new`` must answer, as pydantic models: the one source of the JSON schema a
server's structured output is held to, and of the check every answer passes, by type, before code builds on it.

A model's answer is untrusted: every string is made inert (no escape sequences, control or bidi characters,
lone surrogates) as it is read, and a value of the wrong type is one line naming where, for a repair round.
Counts (how many scenes, people, lines) are asked for in the schema but settled by code, never a reason to ask
again.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from maic_tui.bad_input import field_path, validation_message
from maic_tui.i18n import N_
from maic_tui.i18n.said import Said, said, shown
from maic_tui.redaction import redact_tree
from maic_tui.text_safety import terminal_safe

A = TypeVar("A", bound="StageAnswer")
Text = Annotated[str, AfterValidator(terminal_safe)]


def _lower(value: Any) -> Any:
    return value.strip().casefold() if isinstance(value, str) else value


def _listed(value: Any) -> Any:
    """A single string or number where a list of them was asked for: a list of one (a slip, not a new answer)."""
    return [value] if isinstance(value, str | int | float) and not isinstance(value, bool) else value


Role = Annotated[Literal["teacher", "assistant", "student"], BeforeValidator(_lower)]
ElementKind = Annotated[Literal["title", "text", "bullets"], BeforeValidator(_lower)]
QuestionKind = Annotated[Literal["single", "multiple", "short_answer"], BeforeValidator(_lower)]
Texts = Annotated[list[Text], BeforeValidator(_listed)]
Numbers = Annotated[list[int], BeforeValidator(_listed)]


def items(low: int, high: int) -> dict[str, Any]:
    """Asked of the server, not checked: code settles counts."""
    return {"json_schema_extra": {"minItems": low, "maxItems": high}}


class StageAnswer(BaseModel):
    # Extra keys are dropped, missing ones take their empty default: code builds around a gap, while a wrong
    # type is a real misunderstanding worth a repair round.
    model_config = ConfigDict(extra="ignore", frozen=True)


class Summary(StageAnswer):
    summary: Text = ""


class PlannedScene(StageAnswer):
    title: Text = ""
    points: Texts = Field(default_factory=list, **items(1, 4))


class Outline(StageAnswer):
    title: Text = ""
    description: Text = ""
    scenes: list[PlannedScene] = Field(default_factory=list)


class Person(StageAnswer):
    name: Text = ""
    role: Role = "student"
    persona: Text = ""


class Roster(StageAnswer):
    agents: list[Person] = Field(default_factory=list)


class Element(StageAnswer):
    kind: ElementKind = "text"
    text: Text = ""
    items: Texts = Field(default_factory=list, **items(0, 5))


class LectureLine(StageAnswer):
    agent: Text = ""
    say: Text = ""
    point_at: int = Field(-1, json_schema_extra={"minimum": 0})  # -1: it points at nothing
    board: Text = ""


class SceneAnswer(StageAnswer):
    elements: list[Element] = Field(default_factory=list, **items(1, 4))
    lines: list[LectureLine] = Field(default_factory=list, **items(2, 8))
    discussion: Text = ""  # asked of the middle scene only


class Prepared(StageAnswer):
    question: Text = ""
    keywords: Texts = Field(default_factory=list, **items(1, 6))
    answer: Text = ""


class DemoMaterial(StageAnswer):
    answers: list[Prepared] = Field(default_factory=list, **items(3, 8))


class AnswerProblems(ValueError):
    """An answer whose values have the wrong type; ``lines`` say where and what, as the loader's lines do."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__(lines[0])
        self.lines = lines


def read_answer(kind: type[A], data: dict[str, Any], secrets: tuple[str, ...] = ()) -> A:
    """The answer checked by type, its text made inert and the configured secrets replaced (a server may echo
    the key), or ``AnswerProblems``."""
    try:
        return kind.model_validate(redact_tree(data, secrets) if secrets else data)
    except ValidationError as exc:
        lines: list[str] = []
        for error in exc.errors()[:8]:
            where = field_path(tuple(error["loc"]))
            message = validation_message(error)
            lines.append(Said(f"{where}: {message}", f"{where}: {shown(message)}") if where else message)
        raise AnswerProblems(lines) from None
    except RecursionError:
        deep: list[str] = [said(N_("the answer is nested too deeply"))]  # a Said: English for the model, shown
        raise AnswerProblems(deep) from None


def answer_schema(kind: type[StageAnswer]) -> dict[str, Any]:
    """The model's JSON schema as servers take it: one self-contained object (no ``$ref``), every key required,
    no other key allowed, no titles or defaults."""
    schema = kind.model_json_schema()
    definitions = schema.pop("$defs", {})

    def inline(node: Any) -> Any:
        if isinstance(node, list):
            return [inline(item) for item in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            return inline(definitions[node["$ref"].rsplit("/", 1)[1]])
        found = {key: inline(value) for key, value in node.items() if key not in ("title", "default", "properties")}
        if "properties" in node:  # its keys are field names (a field may be called "title"), not schema words
            found["properties"] = {name: inline(value) for name, value in node["properties"].items()}
            found["additionalProperties"] = False
            found["required"] = list(node["properties"])
        return found

    return dict(inline(schema))
