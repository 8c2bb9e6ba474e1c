"""The palette's "New classroom…": the topic is asked, the model plans the lesson (the same pipeline as
``maic-tui new``), the plan is shown to edit (``PlanEditor``: scenes and class), and once the author sends it
the scenes are written with a mark per scene; the class opens when the file is written. Esc cancels."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from maic_tui.i18n import N_, _
from maic_tui.tui.plain import plain
from maic_tui.tui.widgets.plan_editor import PlanEditor

if TYPE_CHECKING:
    from maic_tui.generation.pipeline import GenerationFailed, Generator
    from maic_tui.llm.options import ModelOptions


def stopped_at(failed: GenerationFailed) -> str:
    """Why the generation stopped and at which stage, in the interface's language (the dialog redacts it)."""
    from maic_tui.commands.new import failure_reason
    from maic_tui.generation.kind_stages import stage_name

    return _("{reason} (stage {stage})").format(reason=failure_reason(failed.lines, ()),
                                                stage=stage_name(failed.stage))


class NewClassroomScreen(ModalScreen[Path | None]):
    """Dismissed with the written file, or None."""

    CSS_PATH = Path(__file__).with_name("new_classroom.tcss")
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, model: str, options: ModelOptions, folder: Path) -> None:
        super().__init__()
        self.model, self.options, self.folder = model, options, folder
        self.generating = False
        self.generator: Generator | None = None
        self.topic = ""

    def compose(self) -> ComposeResult:
        with Vertical(id="new-classroom"):
            yield Static(Text(_("New classroom: what should the lesson teach?"), style="bold"))
            yield Input(placeholder=_("a topic, e.g. how vaccines work"), id="new-topic")
            yield Static(plain(_("Written to {folder}, then opened. Esc cancels.").format(folder=self.folder)),
                         id="new-progress")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def show(self, text: str, failed: bool = False) -> None:
        from maic_tui.redaction import redact, usable_secrets

        secrets = usable_secrets(self.options.secrets())
        line = self.query_one("#new-progress", Static)
        line.update(plain(redact(text, secrets), 300))  # wrapped, not cut at a label's length: the reason ends it
        line.set_class(failed, "-failed")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        topic = " ".join(event.value.split())
        if not topic or self.generating:
            return
        if self.model == "demo":
            from maic_tui.commands.new import NEEDS_A_MODEL

            self.show(_(NEEDS_A_MODEL), failed=True)
            return
        self.generating = True
        self.query_one(Input).disabled = True
        self._generate(topic)

    @work(exclusive=True, group="generate", exit_on_error=False)
    async def _generate(self, topic: str) -> None:
        """The plan (outline and class), then the editor for it."""
        from maic_tui.generation.outline_file import plan_of
        from maic_tui.generation.pipeline import GenerationFailed, Generator
        from maic_tui.generation.plan_edits import PlanEdits
        from maic_tui.generation.stages import Brief

        self.topic = topic
        self.generator = generator = Generator(self.model, self.options, Brief(topic), self._progress)
        try:
            await generator.plan()
        except GenerationFailed as failed:
            self._failed(stopped_at(failed))
            return
        except Exception as exc:  # never a dialog that hangs with its input off
            self._failed(_("the lesson could not be planned: {error}").format(error=exc))
            return
        self.query_one(Input).display = False
        self.show(_("The plan: change it as you like, then press g to write the scenes. Esc cancels."))
        await self.query_one("#new-classroom").mount(PlanEditor(PlanEdits(plan_of(generator.draft))),
                                                     before="#new-progress")

    def _progress(self, stage: str, detail: str) -> None:
        editors = self.query(PlanEditor)
        number, slash, _title = detail.partition("/")  # "2/3 Title"; a repair's line ("repair 1: …") marks nothing
        if stage in ("scene", "scene done") and editors and slash and number.isdigit():
            editors.first().mark(int(number) - 1, "done" if stage == "scene done" else "writing")
        from maic_tui.commands.new import progress_line

        self.show(progress_line(stage, detail))

    @on(PlanEditor.Confirmed)
    def _confirmed(self, event: PlanEditor.Confirmed) -> None:
        from maic_tui.generation.outline_file import apply_plan

        if self.generator is None:
            return
        apply_plan(self.generator.draft, event.plan)
        self.query_one(PlanEditor).start_writing()
        self._write()

    @work(exclusive=True, group="generate", exit_on_error=False)
    async def _write(self) -> None:
        """The scenes, quiz and demo material from the plan as the author left it; the file; the class opens."""
        from maic_tui.commands.new import free_path
        from maic_tui.files import write_atomically
        from maic_tui.generation.pipeline import GenerationFailed

        generator = self.generator
        assert generator is not None
        try:
            generated = await generator.write()
            self.folder.mkdir(parents=True, exist_ok=True)
            target = free_path(self.folder, self.topic)
            write_atomically(target, generator.client.redact(generated.text))
        except GenerationFailed as failed:
            self._failed(stopped_at(failed))
            return
        except OSError as exc:  # a full disk, a folder that is a file: said here, and the plan can be sent again
            self._failed(_("cannot write the classroom to {folder}: {reason}").format(folder=self.folder,
                                                                                       reason=exc.strerror or exc))
            return
        except Exception as exc:
            self._failed(_("the classroom could not be made: {error}").format(error=exc))
            return
        self.dismiss(target)

    def _failed(self, line: str) -> None:
        editors = self.query(PlanEditor)
        if editors:  # the plan stays: edit it or send it again
            editors.first().stop_writing()
            editors.first().scenes.focus()
        else:
            self.generating = False
            self.query_one(Input).disabled = False
            self.query_one(Input).focus()
        self.show(line, failed=True)

    def action_cancel(self) -> None:
        self.workers.cancel_group(self, "generate")
        self.dismiss(None)
