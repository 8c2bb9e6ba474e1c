"""The New dialog's plan before any scene is written: the scenes and the class as two lists to edit with keys
(``generation/plan_edits.py`` does each edit), then, while the scenes are written, a mark per scene. ``g`` sends
``PlanEditor.Confirmed`` with the plan once it is valid; until then the problem is said under the lists."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import var
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from maic_tui.classroom.models import Voices
from maic_tui.generation.outline_file import Plan
from maic_tui.generation.plan_edits import PlanEdits
from maic_tui.i18n import N_, _
from maic_tui.tui.plain import plain

HELP = N_("Enter renames · a adds a scene after · d deletes · Shift+↑/↓ moves · Tab: the class (p persona, r role) "
          "· g writes the scenes")
PLACEHOLDERS = {"scene": N_("the scene's title"), "new-scene": N_("the new scene's title"), "name": N_("their name"),
                "persona": N_("how they speak and think")}
MARKS = {"waiting": "  ", "writing": "… ", "done": "✓ "}


@dataclass(frozen=True, slots=True)
class Editing:
    field: str  # "scene", "new-scene", "name" or "persona"
    index: int


def _voices(voice: Voices | None) -> str:
    named = [name for name in (voice.openai, voice.espeak) if name] if voice is not None else []
    return _("voice {names} · ").format(names=" / ".join(named)) if named else ""


class PlanEditor(Vertical):
    DEFAULT_CSS = """
    PlanEditor { height: auto; }
    PlanEditor OptionList { height: auto; max-height: 10; border: none; padding: 0; margin-bottom: 1; }
    PlanEditor OptionList:focus { background-tint: $foreground 5%; }
    PlanEditor #plan-edit { display: none; }
    PlanEditor.-editing #plan-edit { display: block; }
    PlanEditor #plan-problem { color: $error; }
    PlanEditor .plan-heading { text-style: bold; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "add", N_("Add scene")), Binding("d,delete", "delete", N_("Delete scene")),
        Binding("shift+up", "move(-1)", N_("Move up")), Binding("shift+down", "move(1)", N_("Move down")),
        Binding("p", "persona", N_("Persona")), Binding("r", "role", N_("Role")),
        Binding("g", "generate", N_("Write scenes")), Binding("escape", "stop_editing", N_("Stop editing")),
    ]

    class Confirmed(Message):
        def __init__(self, plan: Plan) -> None:
            super().__init__()
            self.plan = plan

    editing: var[Editing | None] = var(None)
    writing = var(False)  # the scenes are being written: the plan is shown, no longer edited

    def __init__(self, edits: PlanEdits) -> None:
        super().__init__()
        self.edits = edits
        self.marks: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static(plain(_(HELP), 300), id="plan-help")
        yield Static("Scenes", classes="plan-heading")
        yield OptionList(id="plan-scenes")
        yield Static("Class", classes="plan-heading")
        yield OptionList(id="plan-agents")
        yield Input(id="plan-edit")
        yield Static("", id="plan-problem")

    def on_mount(self) -> None:
        self.show()
        self.scenes.focus()

    @property
    def scenes(self) -> OptionList:
        return self.query_one("#plan-scenes", OptionList)

    @property
    def agents(self) -> OptionList:
        return self.query_one("#plan-agents", OptionList)

    def show(self, scene: int | None = None, agent: int | None = None) -> None:
        """Both lists drawn again from the edits, the highlight kept (or moved to ``scene``/``agent``)."""
        for widget, lines, wanted in ((self.scenes, self._scene_lines(), scene),
                                      (self.agents, self._agent_lines(), agent)):
            keep = widget.highlighted if wanted is None else wanted
            widget.clear_options()
            widget.add_options([Option(plain(line, 200)) for line in lines])
            if lines:
                widget.highlighted = max(0, min(len(lines) - 1, keep or 0))

    def _scene_lines(self) -> list[str]:
        lines = []
        for number, scene in enumerate(self.edits.scenes):
            mark = MARKS[self.marks[number]] if self.writing and number < len(self.marks) else ""
            lines.append(f"{mark}{number + 1}. {scene.title} — {'; '.join(scene.goals)}")
        return lines

    def _agent_lines(self) -> list[str]:
        return [f"{a.name} · {a.role} · {_voices(a.voice)}{a.persona}" for a in self.edits.agents]

    def say(self, problem: str) -> None:
        self.query_one("#plan-problem", Static).update(plain(problem, 300))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.writing:
            return False
        if action == "stop_editing":
            return self.editing is not None
        if self.editing is not None:
            return False
        on_scenes = self.scenes.has_focus
        if action in ("add", "delete", "move"):
            return on_scenes
        if action in ("persona", "role"):
            return self.agents.has_focus
        return True

    # --- edits -----------------------------------------------------------------------------------------

    @on(OptionList.OptionSelected)
    def _enter(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if self.writing or self.editing is not None:
            return
        index = event.option_index
        if event.option_list is self.scenes:
            self._edit(Editing("scene", index), self.edits.scenes[index].title)
        else:
            self._edit(Editing("name", index), self.edits.agents[index].name)

    def action_add(self) -> None:
        self._edit(Editing("new-scene", self.scenes.highlighted or 0), "")

    def action_delete(self) -> None:
        problem = self.edits.delete_scene(self.scenes.highlighted or 0)
        self.say(problem or "")
        self.show()

    def action_move(self, by: int) -> None:
        self.show(scene=self.edits.move_scene(self.scenes.highlighted or 0, by))

    def action_persona(self) -> None:
        index = self.agents.highlighted or 0
        self._edit(Editing("persona", index), self.edits.agents[index].persona)

    def action_role(self) -> None:
        self.edits.next_role(self.agents.highlighted or 0)
        self.show()

    def action_generate(self) -> None:
        plan, problems = self.edits.checked()
        if plan is None:
            self.say(problems[0])
            return
        self.say("")
        self.post_message(self.Confirmed(plan))

    def _edit(self, editing: Editing, value: str) -> None:
        self.editing = editing
        field = self.query_one("#plan-edit", Input)
        field.placeholder = _(PLACEHOLDERS[editing.field])
        field.value = value
        field.focus()

    def watch_editing(self, editing: Editing | None) -> None:
        self.set_class(editing is not None, "-editing")

    @on(Input.Submitted, "#plan-edit")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        editing, value = self.editing, event.value
        if editing is None:
            return
        problem: str | None = None
        scene = agent = None
        if editing.field == "scene":
            problem = self.edits.rename_scene(editing.index, value)
        elif editing.field == "new-scene":
            added = self.edits.add_scene(editing.index, value)
            problem, scene = (added, None) if isinstance(added, str) else (None, added)
        elif editing.field == "name":
            problem = self.edits.rename_agent(editing.index, value)
        else:
            self.edits.set_persona(editing.index, value)
        if problem:
            self.say(problem)
            return
        self.say("")
        self.action_stop_editing()
        self.show(scene=scene, agent=agent)

    def action_stop_editing(self) -> None:
        back_to = self.agents if self.editing and self.editing.field in ("name", "persona") else self.scenes
        self.editing = None
        back_to.focus()

    # --- writing ---------------------------------------------------------------------------------------

    def start_writing(self) -> None:
        self.marks = ["waiting"] * len(self.edits.scenes)
        self.writing = True
        self.query_one("#plan-help", Static).update("Writing the scenes…")
        self.show()

    def mark(self, number: int, state: str) -> None:
        """Scene ``number`` (0-based) is being written, or done."""
        if 0 <= number < len(self.marks):
            self.marks[number] = state
            self.show()

    def stop_writing(self) -> None:
        """The writing failed: the plan may be edited and sent again."""
        self.writing = False
        self.query_one("#plan-help", Static).update(plain(_(HELP), 300))
        self.show()
