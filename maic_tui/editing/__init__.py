"""Editing a file in the author's own editor until it is valid (ARCHITECTURE.md, *Authoring*)."""
