"""What the offline demo model's teacher does presenting an interactive scene that has no script: it works the
widget in front of the class (a simulation: each variable highlighted and set to its presets; a diagram: each node
revealed in order), saying what changes."""

from __future__ import annotations

from maic_tui.classroom.models import Agent, DemoStep, DemoTurn
from maic_tui.scenes.interactive.model import Diagram, InteractiveScene


def presentation(scene: InteractiveScene, agent: Agent) -> DemoTurn:
    widget = scene.widget
    steps = [DemoStep(say=f"Let's work “{scene.title}” together.")]
    if isinstance(widget, Diagram):
        labels = {node.id: node.label for node in widget.nodes}
        for node in widget.reveal[:6]:
            steps.append(DemoStep(action="widget_reveal", params={"target": node}))
            steps.append(DemoStep(say=f"Next: {labels[node]}."))
        steps.append(DemoStep(say="That's the whole picture. Reveal it again in your own words: what leads to what?"))
        return DemoTurn(agent=agent.id, steps=steps)
    first = widget.variables[0]
    steps.append(DemoStep(action="widget_highlight", params={"target": first.name}))
    steps.append(DemoStep(say=f"This is {first.label}: it goes from {first.min:g} to {first.max:g}."))
    for preset in widget.presets[:3]:
        steps.append(DemoStep(action="widget_setState", params={"state": dict(preset.values)}))
        steps.append(DemoStep(say=f"Here it is {preset.label}. Watch what the values do."))
    steps.append(DemoStep(say=f"Now it's yours: change {first.name} with the arrow keys, or type "
                              f"{first.name} = {first.default:g}, and tell me what you see."))
    return DemoTurn(agent=agent.id, steps=steps)
