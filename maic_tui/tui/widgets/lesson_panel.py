"""The lesson above the composer: one line saying where it is and which key does what, and a quiz question's
options as a list to pick from (↑↓ and Enter; Space marks several). Picking sends the answer as the learner's
message, ``A) label`` per option, which the lesson reads back into option values."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import OptionList, SelectionList, Static
from textual.widgets.option_list import Option

from maic_tui.tui.messages import SendRequested
from maic_tui.tui.plain import plain

if TYPE_CHECKING:
    from maic_tui.classroom.lesson import QuizQuestion


def option_line(number: int, label: str) -> str:
    return f"{chr(ord('A') + number)}) {label}"


class SingleChoice(OptionList):
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(SendRequested(str(event.option.id)))


class SeveralChoices(SelectionList[str]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "send", "Send the answer", show=False)]

    def action_send(self) -> None:
        every = [str(self.get_option_at_index(i).value) for i in range(self.option_count)]
        picked = [value for value in every if value in self.selected]  # in the options' order
        if picked:
            self.post_message(SendRequested("; ".join(picked)))


class QuizPanel(Vertical):
    DEFAULT_CSS = """
    QuizPanel { height: auto; max-height: 12; border: round $accent; padding: 0 1; display: none; }
    QuizPanel > #quiz-question { height: auto; text-style: bold; }
    QuizPanel > OptionList, QuizPanel > SelectionList { height: auto; max-height: 8; border: none; padding: 0; }
    """

    def __init__(self) -> None:
        super().__init__(id="quiz")
        self.question_id: str | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text(""), id="quiz-question")

    async def show(self, question: QuizQuestion | None) -> None:
        """The question's options to pick from (a short answer is typed in the composer); None hides it."""
        if (question.id if question else None) == self.question_id:
            return
        self.question_id = question.id if question else None
        await self.query(".quiz-options").remove()
        self.display = question is not None and bool(question.options)
        if not self.display or question is None:
            return
        hint = "Space marks, Enter sends" if question.type == "multiple" else "Enter picks"
        self.query_one("#quiz-question", Static).update(plain(f"{question.question}  ({hint}, or type it)"))
        lines = [option_line(n, option.label) for n, option in enumerate(question.options)]
        picker: OptionList | SeveralChoices
        if question.type == "multiple":
            picker = SeveralChoices(*[(plain(line), line) for line in lines], classes="quiz-options")
        else:
            picker = SingleChoice(*[Option(plain(line), id=line) for line in lines], classes="quiz-options")
        await self.mount(picker)
        picker.focus()


class LessonLine(Static):
    DEFAULT_CSS = """
    LessonLine { height: auto; max-height: 2; color: $text-muted; display: none; }
    LessonLine.-waiting { color: $accent; text-style: bold; }
    """

    def __init__(self) -> None:
        super().__init__(Text(""), id="lesson-line")

    def show(self, text: str, waiting: bool) -> None:
        self.update(plain(text))
        self.set_class(waiting, "-waiting")
        self.display = bool(text)
