"""What the offline demo model's teacher says presenting a slide that has no script: each element in turn, under
the spotlight."""

from __future__ import annotations

from maic_tui.classroom.models import Agent, DemoStep, DemoTurn
from maic_tui.scenes.slide.model import SlideScene
from maic_tui.scenes.slide_elements import SlideElement


def _element_line(element: SlideElement) -> str:
    match element.type:
        case "title":
            return f"Our topic: {element.text}."
        case "text":
            return element.text
        case "bullets":
            return "The points to hold on to: " + "; ".join(element.items) + "."
        case "formula":
            return "Here is the formula we need; read it slowly, term by term."
        case "image":
            return f"Look at the picture: {element.alt}."
        case "table":
            return "This table sums it up; read it row by row."
    return ""


def presentation(scene: SlideScene, agent: Agent) -> DemoTurn:
    """The teacher walks through the slide: a spotlight on each element and a line about it."""
    if not scene.elements:
        return DemoTurn(agent=agent.id, steps=[DemoStep(say=f"Now: {scene.title}. Ask me anything about it.")])
    steps = [DemoStep(say=f"Let's look at “{scene.title}”.")]
    for element in scene.elements:
        steps.append(DemoStep(action="spotlight", params={"elementId": element.id}))
        steps.append(DemoStep(say=_element_line(element)))
    steps.append(DemoStep(say="Questions so far? Otherwise we go on."))
    return DemoTurn(agent=agent.id, steps=steps)
