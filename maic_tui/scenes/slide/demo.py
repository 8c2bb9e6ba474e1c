"""What the offline demo model's teacher says presenting a slide that has no script: each element in turn, under
the spotlight."""

from __future__ import annotations

from gettext import NullTranslations

from maic_tui.classroom.models import Agent, DemoStep, DemoTurn
from maic_tui.i18n import ENGLISH, translator
from maic_tui.scenes.slide.model import SlideScene
from maic_tui.scenes.slide_elements import SlideElement


def _element_line(element: SlideElement, t: NullTranslations) -> str:
    match element.type:
        case "title":
            return t.gettext("Our topic: {title}.").format(title=element.text)
        case "text":
            return element.text
        case "bullets":
            return t.gettext("The points to hold on to: {points}.").format(points="; ".join(element.items))
        case "formula":
            return t.gettext("Here is the formula we need; read it slowly, term by term.")
        case "image":
            return t.gettext("Look at the picture: {description}.").format(description=element.alt)
        case "table":
            return t.gettext("This table sums it up; read it row by row.")
    return ""


def presentation(scene: SlideScene, agent: Agent, language: str = ENGLISH) -> DemoTurn:
    """The teacher walks through the slide: a spotlight on each element and a line about it (the demo's own words in
    the class's language)."""
    t = translator(language)
    if not scene.elements:
        return DemoTurn(agent=agent.id, steps=[DemoStep(say=now_line(scene.title, t))])
    steps = [DemoStep(say=t.gettext("Let's look at “{title}”.").format(title=scene.title))]
    for element in scene.elements:
        steps.append(DemoStep(action="spotlight", params={"elementId": element.id}))
        steps.append(DemoStep(say=_element_line(element, t)))
    steps.append(DemoStep(say=t.gettext("Questions so far? Otherwise we go on.")))
    return DemoTurn(agent=agent.id, steps=steps)


def now_line(title: str, t: NullTranslations) -> str:
    return t.gettext("Now: {title}. Ask me anything about it.").format(title=title)
