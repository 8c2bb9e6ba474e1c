"""The interactive scene's widget (ARCHITECTURE.md, *Scene kinds*): above the composer while an interactive scene is
shown, the simulation's variables to work (↑↓ pick one, ←→ or - + change it by its step, p the next preset, Enter
tells the class, which reacts; a click on ◀ or ▶ steps it) or the diagram's reveal (→ reveals the next node, Enter
reveals it and the class reacts). The drawing itself (values, plot, diagram) is in the pane beside the transcript.
Every change goes to the class (``TheClass.work``), which records it; a typed ``h = 0.1`` works as well."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.widget import Widget

from maic_tui.i18n import N_, _
from maic_tui.text_safety import terminal_safe
from maic_tui.tui.messages import SendRequested
from maic_tui.tui.scene_widgets import CLASS, typed_on

if TYPE_CHECKING:
    from maic_tui.room.lesson_state import LessonStatus
    from maic_tui.tui.scene_widgets import WorkedClass

OWN_KEYS = frozenset({"up", "down", "left", "right", "plus", "minus", "p", "enter"})


class InteractivePanel(Widget, can_focus=True):
    DEFAULT_CSS = """
    InteractivePanel { height: auto; max-height: 10; border-left: outer $accent; padding: 0 0 0 1; display: none; }
    InteractivePanel:focus { border-left: outer $success; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "pick(-1)", N_("Previous variable"), show=False),
        Binding("down", "pick(1)", N_("Next variable"), show=False),
        Binding("left,minus", "step(-1)", N_("Less"), show=False),
        Binding("right,plus", "step(1)", N_("More"), show=False),
        Binding("p", "preset", N_("Next preset"), show=False),
        Binding("enter", "tell", N_("Tell the class"), show=False),
    ]

    def __init__(self) -> None:
        super().__init__(id="interactive", classes=CLASS)
        self.the_class: WorkedClass | None = None
        self.row = 0  # the variable picked
        self.preset = -1  # the preset picked last
        self._shown: tuple[Any, ...] | None = None
        self._arrows: tuple[int, int] = (0, 0)  # the columns of ◀ and ▶, for the mouse

    async def show(self, status: LessonStatus | None) -> None:
        """The widget follows the scene shown (``follow``), not the lesson's status."""

    def follow(self, the_class: WorkedClass) -> None:
        self.the_class = the_class
        view = the_class.view
        scene = view.scene
        state = view.scene_states.of(scene)
        visible = state is not None
        if bool(self.display) != visible:
            self.display = visible
            if not visible and self.has_focus:
                self.screen.set_focus(self.screen.query_one("#composer"))
        shown = (view.scene_index, view.scene_states.version, self.row, self.has_focus)
        if visible and shown != self._shown:
            # Its height is its scene's (a row a variable, the hint): a value or the row picked is drawn, not laid out.
            other_scene = self._shown is None or self._shown[0] != shown[0]
            self._shown = shown
            self.refresh(layout=other_scene)

    def _scene(self) -> tuple[Any, Any, int] | None:
        """The scene shown, its state and its index, when it has a widget."""
        if self.the_class is None:
            return None
        view = self.the_class.view
        state = view.scene_states.of(view.scene)
        return (view.scene, state, view.scene_index) if state is not None else None

    def _variables(self) -> list[Any]:
        found = self._scene()
        return list(getattr(found[0].widget, "variables", [])) if found else []

    def render(self) -> Text:
        found = self._scene()
        if found is None:
            return Text("")
        scene, state, _index = found
        widget = scene.widget
        focused = self.has_focus
        out = Text()
        if widget.kind == "diagram":
            hidden = scene.hidden(state)
            total = len(widget.nodes)
            shown = _("◐ {shown} of {total} shown").format(shown=total - len(hidden), total=total)
            left = _("{count} to reveal").format(count=len(hidden)) if hidden else _("all revealed")
            out.append(terminal_safe(f"{shown} · {left}"))
            hint = _("→ reveals the next · Enter reveals it and asks the class") if focused else \
                _("Tab: work the diagram")
            typed = _("or type {command}").format(command="reveal")  # the command is read in English
            out.append(terminal_safe(f"\n{hint} · {typed}"), style="dim")
            return out
        variables = widget.variables
        room = max(self.content_size.width, 20)
        self.row = min(self.row, len(variables) - 1)
        width = min(max(len(v.label) for v in variables), 20)
        for number, variable in enumerate(variables):
            value = state.values.get(variable.name, variable.default)
            mark = "▸" if number == self.row and focused else " "
            head = f"{mark} {variable.label[:width]:<{width}} "
            self._arrows = (len(head), len(head) + 12)  # "◀ " then the value in 9 cells, then " ▶"
            line = f"{head}◀ {value:>9.4g} ▶ {variable.unit:<4}"
            span = f" {variable.min:g}…{variable.max:g} " + _("step {step}").format(step=f"{variable.step:g}")
            line = (line + span if len(line + span) <= room else line).rstrip()[:room]  # one line each, however narrow
            out.append(terminal_safe(line), style="bold" if number == self.row and focused else "")
            out.append("\n")
        if focused:
            keys = [_("↑↓ pick"), _("←→ change"), *([_("p preset")] if widget.presets else []),
                    _("Enter asks the class")]
            hint = " · ".join(keys)
        else:
            typed = f"{variables[0].name} = {variables[0].default:g}"
            hint = _("Tab: work it with the keys") + " · " + _("or type {command}").format(command=typed)
        out.append(terminal_safe(hint)[:room], style="dim")
        return out

    async def on_key(self, event: events.Key) -> None:
        typed_on(self, event, OWN_KEYS)

    def on_click(self, event: events.Click) -> None:
        """A click picks the variable on its line; on ◀ or ▶ it steps it."""
        variables = self._variables()
        self.focus()
        at = event.get_content_offset(self)
        if at is None or not 0 <= at.y < len(variables):
            return
        self.row = at.y
        left, right = self._arrows
        if abs(at.x - left) <= 1:
            self.action_step(-1)
        elif abs(at.x - right) <= 1:
            self.action_step(1)
        self.refresh()

    def action_pick(self, by: int) -> None:
        variables = self._variables()
        if variables:
            self.row = (self.row + by) % len(variables)
            self.refresh()

    def _work(self, verb: str, target: str, value: float | str | None = None) -> None:
        from maic_tui.scenes.live_state import SceneChange

        found = self._scene()
        if found is not None and self.the_class is not None:
            self.the_class.work(found[2], SceneChange(verb, target, value))

    def action_step(self, steps: int) -> None:
        found = self._scene()
        if found is None:
            return
        scene, state, _index = found
        if scene.widget.kind == "diagram":
            if steps > 0 and scene.hidden(state):
                self._work("reveal", "")
            return
        variable = self._variables()[self.row]
        self._work("set", variable.name, scene.stepped(state, variable.name, steps))

    def action_preset(self) -> None:
        found = self._scene()
        presets = getattr(found[0].widget, "presets", []) if found else []
        if presets:
            self.preset = (self.preset + 1) % len(presets)
            self._work("preset", presets[self.preset].name)

    def action_tell(self) -> None:
        """The widget as it is now, sent as the learner's message: the class reacts to it."""
        found = self._scene()
        if found is None:
            return
        scene, state, _index = found
        if scene.widget.kind == "diagram":
            self.post_message(SendRequested("reveal"))
            return
        variable = self._variables()[self.row]
        self.post_message(SendRequested(f"{variable.name} = {state.values.get(variable.name, variable.default):g}"))


WIDGET = InteractivePanel
