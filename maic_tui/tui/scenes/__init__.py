"""The widgets scene kinds bring to the room, one module per kind (ARCHITECTURE.md, *Scene kinds*)."""
