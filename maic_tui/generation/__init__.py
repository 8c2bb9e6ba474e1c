"""Generating a classroom from a topic (``maic-tui new``): stages, building, material."""
