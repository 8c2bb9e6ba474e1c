"""Learning records: what a session says about the learner, as xAPI statements for a Learning Record Store and
as a gradebook (ARCHITECTURE.md, *Learning records*)."""
