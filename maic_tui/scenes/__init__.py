"""The kinds of scene a lesson is made of (a slide, a quiz): each kind is a package of its own here, one module
per part it brings, registered once in ``registry.py`` (ARCHITECTURE.md, *Scene kinds*)."""
