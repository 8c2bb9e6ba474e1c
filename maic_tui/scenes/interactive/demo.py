"""What the offline demo model's teacher does presenting an interactive scene that has no script: it works the
widget in front of the class (a simulation: each variable highlighted and set to its presets; a diagram: each node
revealed in order), saying what changes."""

from __future__ import annotations

from maic_tui.classroom.models import Agent, DemoStep, DemoTurn
from maic_tui.i18n import ENGLISH, translator
from maic_tui.scenes.interactive.model import Diagram, InteractiveScene


def presentation(scene: InteractiveScene, agent: Agent, language: str = ENGLISH) -> DemoTurn:
    """The teacher works the widget, saying what changes (the demo's own words in the class's language)."""
    t = translator(language)
    widget = scene.widget
    steps = [DemoStep(say=t.gettext("Let's work “{title}” together.").format(title=scene.title))]
    if isinstance(widget, Diagram):
        labels = {node.id: node.label for node in widget.nodes}
        for node in widget.reveal[:6]:
            steps.append(DemoStep(action="widget_reveal", params={"target": node}))
            steps.append(DemoStep(say=t.gettext("Next: {node}.").format(node=labels[node])))
        steps.append(DemoStep(say=t.gettext("That's the whole picture. Reveal it again in your own words: what leads "
                                            "to what?")))
        return DemoTurn(agent=agent.id, steps=steps)
    first = widget.variables[0]
    steps.append(DemoStep(action="widget_highlight", params={"target": first.name}))
    steps.append(DemoStep(say=t.gettext("This is {label}: it goes from {low} to {high}.").format(
        label=first.label, low=f"{first.min:g}", high=f"{first.max:g}")))
    for preset in widget.presets[:3]:
        steps.append(DemoStep(action="widget_setState", params={"state": dict(preset.values)}))
        steps.append(DemoStep(say=t.gettext("Here it is {preset}. Watch what the values do.").format(
            preset=preset.label)))
    steps.append(DemoStep(say=t.gettext("Now it's yours: change {name} with the arrow keys, or type {name} = "
                                        "{value}, and tell me what you see.").format(name=first.name,
                                                                                     value=f"{first.default:g}")))
    return DemoTurn(agent=agent.id, steps=steps)
