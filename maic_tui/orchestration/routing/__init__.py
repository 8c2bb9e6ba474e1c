"""Who speaks next: the director node, its rules and guards, step mode's picks, decisions made ahead, and whom the
learner's message names (ARCHITECTURE.md, *One learner turn*)."""
