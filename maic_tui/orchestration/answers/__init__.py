"""An agent's answer: its model call, the stream parsed as it comes, shown at the reading pace with each action
checked, and a lesson's scripted lines played the same way (ARCHITECTURE.md, *One learner turn*)."""
