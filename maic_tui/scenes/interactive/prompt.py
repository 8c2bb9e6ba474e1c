"""What every call of the class is told of an interactive scene: the widget's state now and the learner's last
change, in the caller's own request (it changes with every change, so it stays out of the shared part)."""

from __future__ import annotations

from collections.abc import Sequence

from maic_tui.formulas import number_text
from maic_tui.scenes.interactive.model import Diagram, InteractiveScene, WidgetState, range_text, unit_text


def shown(scene: InteractiveScene, actions: Sequence[str]) -> str:
    """What the shared part says of the scene: it has a widget, worked with the widget actions."""
    names = [name for name in actions if name in InteractiveScene.enables]
    if not names:
        return ""
    return (f'Current scene "{scene.title}" (id {scene.id}) is an interactive {scene.widget.kind} the learner works; '
            f"drive it with {', '.join(names)} (targets: {', '.join(scene.targets())}).")


def live(scene: InteractiveScene, state: WidgetState) -> str:
    """The widget's state now and the learner's last change."""
    widget = scene.widget
    if isinstance(widget, Diagram):
        shown = [n.label for n in widget.nodes if n.id not in scene.hidden(state)]
        lines = [f"The learner's {widget.layout} diagram shows: {', '.join(shown) or 'nothing yet'}; "
                 f"still hidden, in order: {', '.join(scene.hidden(state)) or 'none'}."]
    else:
        values = scene.values(state)
        parts = [f"{v.name} ({v.label}) = {number_text(values[v.name])}{unit_text(v)} [{range_text(v)}]"
                 for v in widget.variables]
        lines = ["The learner's simulation: " + "; ".join(parts) + "."]
        if widget.computed:
            lines.append("Computed: " + "; ".join(f"{c.label} = {number_text(values[c.name])}{unit_text(c)}"
                                                   for c in widget.computed) + ".")
        if widget.presets:
            lines.append("Presets: " + ", ".join(f"{p.name} ({p.label})" for p in widget.presets) + ".")
    if state.highlight:
        lines.append(f"Highlighted: {state.highlight}.")
    if state.last:
        lines.append(f"Last change: {state.last}.")
    return " ".join(lines)
