"""What every kind of scene is in a classroom file, and what a kind may change of it (ARCHITECTURE.md, *Scene
kinds*): its own fields, the actions its scenes enable, its checks beyond the schema, and the steps it plays when
the file gives it no script."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from typing import Any, ClassVar

from pydantic import Field

from maic_tui.bad_input import BadInput
from maic_tui.classroom.field_types import Identifier, Line
from maic_tui.classroom.lesson import QuizQuestion, ScriptStep, Step
from maic_tui.i18n import ENGLISH, N_, _
from maic_tui.scenes.slide_elements import SlideElement
from maic_tui.strict import Strict
from maic_tui.text_safety import one_line

Found = tuple[str, str]  # (path inside the scene, what is wrong)


class SceneChangeError(BadInput):
    """A change a scene cannot take (it has nothing to work, a name it does not know, a value out of range): one
    line saying what is allowed, in English for the class's model, the trace's reasons and the log; ``shown`` is
    the same line in the interface's language, for the learner."""

    def __init__(self, message: str, shown: str = "") -> None:
        super().__init__(message)
        self.shown = one_line(shown) if shown else self.lines[0]

    @classmethod
    def said(cls, message: str, **fields: object) -> SceneChangeError:
        """The error from a message marked with ``N_`` and its named fields: English, and shown translated."""
        return cls(message.format(**fields), _(message).format(**fields))


class SceneBase(Strict):
    """The fields every scene has. A kind subclasses it with ``type`` as a literal of its own name."""

    id: Identifier
    title: Line
    type: str
    elements: list[SlideElement] = Field(default_factory=list)
    script: list[ScriptStep] = Field(default_factory=list)

    # Actions that only some kinds of scene allow (a pointer needs a slide to point at): those this kind allows.
    enables: ClassVar[frozenset[str]] = frozenset()
    # Routing rules this kind brings (ARCHITECTURE.md, *One learner turn*): names ``[routing] rules`` may switch,
    # decided by the kind's ``routing`` part in its scenes.
    rules: ClassVar[tuple[str, ...]] = ()

    def graded(self) -> Sequence[QuizQuestion]:
        """The questions this scene asks and grades (the gradebook's columns, the lesson's score)."""
        return ()

    def question(self, question_id: str) -> QuizQuestion | None:
        return next((q for q in self.graded() if q.id == question_id), None)

    def problems(self) -> Iterator[Found]:
        """What is wrong with this scene beyond its schema and the checks every scene gets."""
        return iter(())

    def agent_problems(self, agents: Collection[str]) -> Iterator[Found]:
        """What this scene names that is not an agent of the class (``agents``: their ids)."""
        return iter(())

    def steps(self, number: int, language: str = ENGLISH) -> list[Step]:
        """The steps the lesson plays for this scene (scene ``number``): its script, else ``unscripted`` (what it
        says itself in the class's ``language``)."""
        if self.script:
            return [Step(number, i, step.kind, step, self.question(step.ask) if step.ask else None)
                    for i, step in enumerate(self.script)]
        return self.unscripted(number, language)

    def unscripted(self, number: int, language: str = ENGLISH) -> list[Step]:
        """The steps of this scene when the file gives it no script: its teacher presents it through the model."""
        return [Step(number, 0, "present")]

    # --- a scene the learner works (ARCHITECTURE.md, *Scene kinds*: live state) ---------------------------

    def initial(self) -> Any | None:
        """The live state of a scene the learner and the agents work (an interactive widget); None: nothing to work."""
        return None

    def change(self, state: Any, verb: str, target: str, value: float | str | None = None,
               by: str = "the learner") -> Any:
        """The state after a change (``verb`` on ``target``); raises SceneChangeError, one line."""
        raise SceneChangeError.said(N_("a {kind} scene has nothing to work"), kind=self.type)

    def typed(self, text: str) -> tuple[str, str, float | str | None] | None:
        """A message that changes the live state (``h = 0.1``) as (verb, target, value); None: it is for the class."""
        return None

    def reaction(self, state: Any) -> str | None:
        """The demo material's line for the live state now (what the offline teacher says to a change)."""
        return None
