"""Speech: each agent's words spoken in its own voice, as the class talks (ARCHITECTURE.md, *Speech*)."""
