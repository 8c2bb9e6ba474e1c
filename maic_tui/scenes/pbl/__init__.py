"""A project: the learner takes a role in a team of agents and works through the project's issues in order."""
