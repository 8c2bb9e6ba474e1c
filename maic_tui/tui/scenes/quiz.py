"""The quiz's widget (ARCHITECTURE.md, *Scene kinds*): while a question waits, its options as a list to pick from
(↑↓ and Enter; Space marks several), or typed: a letter or word typed at the list goes to the composer. Picking
sends the answer as the learner's message, ``A) label`` per option, which the lesson reads back into option values."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.segment import Segment
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.strip import Strip
from textual.widgets import OptionList, SelectionList, Static
from textual.widgets._toggle_button import ToggleButton
from textual.widgets.option_list import Option, OptionDoesNotExist

from maic_tui.i18n import N_, _
from maic_tui.tui.messages import SendRequested
from maic_tui.tui.plain import plain
from maic_tui.tui.scene_widgets import CLASS, typed_on

if TYPE_CHECKING:
    from maic_tui.room.lesson_state import LessonStatus
    from maic_tui.tui.scene_widgets import WorkedClass


def option_line(number: int, label: str) -> str:
    return f"{chr(ord('A') + number)}) {label}"


class SingleChoice(OptionList):
    async def on_key(self, event: events.Key) -> None:
        typed_on(self, event, frozenset())

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(SendRequested(str(event.option.id)))


class SeveralChoices(SelectionList[str]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "send", N_("Send the answer"), show=False)]

    async def on_key(self, event: events.Key) -> None:
        typed_on(self, event, frozenset({"space"}))

    def render_line(self, y: int) -> Strip:
        """Textual draws every box with an X and tells a ticked one only by colour: an unticked box is drawn empty,
        so the difference shows without colour too (a monochrome terminal, NO_COLOR)."""
        strip = super().render_line(y)
        try:
            option = self.get_option_at_index(self.scroll_offset.y + y)
        except OptionDoesNotExist:
            return strip
        segments = list(strip)
        if option.value in self.selected or len(segments) < 2 or segments[1].text != ToggleButton.BUTTON_INNER:
            return strip
        segments[1] = Segment(" " * len(ToggleButton.BUTTON_INNER), segments[1].style, segments[1].control)
        return Strip(segments, strip.cell_length)

    def action_send(self) -> None:
        every = [str(self.get_option_at_index(i).value) for i in range(self.option_count)]
        picked = [value for value in every if value in self.selected]  # in the options' order
        if picked:
            self.post_message(SendRequested("; ".join(picked)))


class QuizPanel(Vertical):
    DEFAULT_CSS = """
    QuizPanel { height: auto; max-height: 10; border-left: outer $accent; padding: 0 0 0 1; display: none; }
    QuizPanel > #quiz-question { height: 1; color: $text-muted; }
    QuizPanel > .quiz-options, QuizPanel > .quiz-options:focus {
        height: auto; max-height: 8; border: none; padding: 0; background: transparent;
    }
    """

    def __init__(self) -> None:
        super().__init__(id="quiz", classes=CLASS)
        self.question_id: str | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text(""), id="quiz-question")

    def follow(self, the_class: WorkedClass) -> None:
        """The quiz follows the lesson's status alone (``show``)."""

    async def show(self, status: LessonStatus | None) -> None:
        """The waiting question's options to pick from (a short answer is typed in the composer); hidden when no
        question waits."""
        question = status.question if status is not None else None
        if (question.id if question else None) == self.question_id:
            return
        self.question_id = question.id if question else None
        await self.query(".quiz-options").remove()
        self.display = question is not None and bool(question.options)
        if not self.display or question is None:
            return
        # The question itself is in the transcript just above: the panel only says how to answer.
        several = question.type == "multiple"
        hint = _("↑↓ move · Space marks · Enter answers") if several else _("↑↓ move · Enter answers")
        self.query_one("#quiz-question", Static).update(plain(hint + " · " + _("or type it")))
        lines = [option_line(n, option.label) for n, option in enumerate(question.options)]
        picker: OptionList | SeveralChoices
        if question.type == "multiple":
            picker = SeveralChoices(*[(plain(line), line) for line in lines], classes="quiz-options")
        else:
            picker = SingleChoice(*[Option(plain(line), id=line) for line in lines], classes="quiz-options")
        await self.mount(picker)
        picker.focus()


WIDGET = QuizPanel
