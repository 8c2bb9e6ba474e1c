"""A learner played by a model (``maic-tui simulate --learner-model SPEC``): given the persona and the conversation
so far, one short message to the class, asked through the model client as the director is (bounded, one JSON
object). A script model answers it under the caller ``learner``."""

from __future__ import annotations

import json
from collections.abc import Sequence

from langchain_core.messages import HumanMessage, SystemMessage

from maic_tui.classroom.models import Classroom
from maic_tui.llm.client import ModelClient
from maic_tui.llm.context import Said
from maic_tui.text_safety import one_line

LEARNER = "learner"
SCHEMA = {"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"],
          "additionalProperties": False}
PERSONA_WORDS = {
    "curious": "curious: you ask follow-up questions and answer the class's questions as well as you can",
    "confused": "confused: you often do not follow, say so, and sometimes answer wrongly",
    "off-topic": "easily distracted: you often talk about something else",
    "terse": "terse: a few words at most",
    "adversarial": "contrary: you challenge what is said and test the class",
}
SHOWN = 12  # the last messages the learner model sees


async def model_message(client: ModelClient, classroom: Classroom, persona: str, said: Sequence[Said]) -> str:
    names = {agent.id: agent.name for agent in classroom.agents} | {LEARNER: "You"}
    system = (f'You play {classroom.learner.nickname}, the learner in the class "{classroom.title}". You are '
              f"{PERSONA_WORDS.get(persona, persona)}. Write your next message to the class: one or two short "
              'sentences, as one JSON object: {"message": "..."}.')
    conversation = "\n".join(f"{names.get(s.speaker, s.speaker)}: {s.text}" for s in said[-SHOWN:])
    prompt = conversation or "The class has just started: say your first message."
    raw = await client.ask(LEARNER, "learner_message", SCHEMA, [SystemMessage(system), HumanMessage(prompt)],
                           tokens=120, chars=2_000)
    try:
        message = str(json.loads(raw).get("message") or "")
    except (ValueError, AttributeError):
        message = raw  # a small model may answer in plain words: they are the message
    return one_line(message, 300) or "go on"
