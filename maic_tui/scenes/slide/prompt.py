"""What every call of the class is told while a slide is shown: its elements, which an agent may point at."""

from __future__ import annotations

from collections.abc import Sequence

from maic_tui.scenes.slide.model import SlideScene


def shown(scene: SlideScene, actions: Sequence[str]) -> str:
    """The slide shown now and the elements an agent may point at (shared: it changes only with the scene)."""
    if not scene.elements or not any(name in SlideScene.enables for name in actions):
        return ""
    lines = [f'Current slide "{scene.title}" (id {scene.id}), elements an agent may point at:']
    for element in scene.elements:
        label = getattr(element, "text", None) or getattr(element, "latex", None) or getattr(element, "alt", None)
        if label is None and hasattr(element, "items"):
            label = "; ".join(element.items)
        lines.append(f"  [id:{element.id}] {element.type}" + (f': "{str(label)[:60]}"' if label else ""))
    return "\n".join(lines)
