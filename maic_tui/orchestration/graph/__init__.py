"""The learner turn as a LangGraph graph: the engine, its typed state, what its nodes share, the conversation as
they see it, and the event stream with secrets replaced (ARCHITECTURE.md, *One learner turn*)."""
