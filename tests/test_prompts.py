"""Decision parsing, the history converter, the conversation summary and the prompts' contents."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from maic_tui.events import AgentTurnSummary, WhiteboardActionRecord
from maic_tui.orchestration.decision import DecisionError, parse_decision
from maic_tui.orchestration.history import (
    SUMMARY_CHARS,
    SUMMARY_MESSAGES,
    HistoryEntry,
    agent_messages,
    conversation_summary,
)
from maic_tui.orchestration.prompts.agent import agent_system_prompt
from maic_tui.orchestration.prompts.director import director_messages
from maic_tui.orchestration.prompts.opening import RULES, class_opening
from maic_tui.whiteboard import Whiteboard
from tests.engine_helpers import classroom

ROOM = classroom()


@pytest.mark.parametrize(
    ("raw", "target"),
    [
        ('{"next_agent": "teacher"}', "teacher"),
        ('Sure! ```json\n{"next_agent": "kim", "instruction": "ask"}\n``` done', "kim"),
        ('{"next_agent": "user"}', "USER"),
        ('{"next_agent": "End"}', "END"),
        ('{"next_agent": "Ms. Hale"}', "teacher"),
        ('{"nextAgent": "ta"}', "ta"),
        ('{"x": {"y": 1}} then {"next_agent": "lee"}', "lee"),
        ("USER", "USER"),
        ('"Tom"', "ta"),
        ('{"next_agent": "ghost"}', "ghost"),
    ],
)
def test_decisions_parse_tolerantly(raw: str, target: str) -> None:
    assert parse_decision(raw, ROOM.agents).next_agent == target


@pytest.mark.parametrize("raw", ["", "I would pick the teacher.", '{"next_agent": ""}', '{"agent": 3}'])
def test_undecidable_answers_raise(raw: str) -> None:
    with pytest.raises(DecisionError):
        parse_decision(raw, ROOM.agents)


def test_options_are_trimmed_deduplicated_and_need_two() -> None:
    one = parse_decision('{"next_agent": "USER", "options": ["yes", " yes ", ""]}', ROOM.agents)
    assert one.options == ()
    many = parse_decision('{"next_agent": "USER", "options": ["a", "b", "c", "d", "e"]}', ROOM.agents)
    assert many.options == ("a", "b", "c", "d")


HISTORY = [
    HistoryEntry("learner", "What is a slope?"),
    HistoryEntry("agent", "Rise over run.", "teacher", "Ms. Hale", (("wb_draw_text", {"content": "m"}),)),
    HistoryEntry("agent", "...", "kim", "Kim"),
    HistoryEntry("agent", "So steep means big?", "kim", "Kim", interrupted=True),
]


def test_agent_messages_map_peers_to_the_user_role_with_their_name() -> None:
    messages = agent_messages(HISTORY, "teacher", "Sam")
    assert isinstance(messages[0], HumanMessage) and messages[0].content == "[Sam (learner)]: What is a slope?"
    assert isinstance(messages[1], AIMessage) and '"wb_draw_text"' in messages[1].content
    assert isinstance(messages[2], HumanMessage) and messages[2].content.startswith("[Kim]: ")
    assert "interrupted by the learner" in messages[2].content  # the note reaches agent messages too
    assert len(messages) == 3  # "..." carries nothing and is dropped
    own_last = agent_messages(HISTORY[:2], "teacher", "Sam")
    assert isinstance(own_last[-1], HumanMessage) and "your turn" in own_last[-1].content
    assert agent_messages([], "teacher", "Sam")[0].content == "Please begin."


def test_summary_tells_the_learner_from_agents() -> None:
    summary = conversation_summary(HISTORY, "Sam")
    assert summary.splitlines()[0] == "[Learner (human) Sam] What is a slope?"
    assert summary.splitlines()[1] == "[Agent Ms. Hale] Rise over run."
    assert summary.splitlines()[2].endswith("[interrupted]")
    assert conversation_summary([], "Sam") == "No conversation yet."
    long = conversation_summary([HistoryEntry("learner", "x" * 250)], "Sam")
    assert long.endswith("] " + "x" * SUMMARY_CHARS + "...")
    many = conversation_summary([HistoryEntry("learner", f"m{i}") for i in range(SUMMARY_MESSAGES + 3)], "Sam")
    assert len(many.splitlines()) == SUMMARY_MESSAGES and many.endswith(f"m{SUMMARY_MESSAGES + 2}")


def test_director_prompt_carries_what_the_rules_ask_for() -> None:
    board = Whiteboard()
    for i in range(6):
        board.apply("wb_draw_text", {"content": f"t{i}", "x": 10, "y": 10 + 80 * i})
    responses = [AgentTurnSummary(agent_id="teacher", agent_name="Ms. Hale", content_preview="Rise over run.",
                                  action_count=1)]
    ledger = [WhiteboardActionRecord(action_name="wb_draw_shape", agent_id="teacher", agent_name="Ms. Hale",
                                     params={"shape": "circle"})]
    system, user = director_messages(ROOM, HISTORY, "What is a slope?", responses, ledger, board, 2)
    text = system.content
    assert RULES in text and all(f"\n{n}. " in RULES for n in range(1, 10)) and "\n10. " not in RULES
    assert "kim (Kim, student)" in text
    assert '1. Ms. Hale (teacher): "Rise over run." [1 actions; whiteboard: drew shape(circle)]' in text
    assert "Sam: likes pictures" in text and "crowded" in text and "Decision 2 of this turn" in text
    assert "[Learner (human) Sam]" in text
    assert "What is a slope?" in user.content


def test_discussion_context_reaches_both_prompts() -> None:
    room = classroom(session={"type": "discussion", "topic": "Cars in cities", "prompt": "Ban them?"})
    system, _ = director_messages(room, [], "hi", [], [], Whiteboard(), 1)
    assert "discussion, not Q&A. Topic: Cars in cities" in system.content
    opening = agent_system_prompt(room.agents[0], room, Whiteboard(), None, [], [], "")
    assert "opening a discussion on: Cars in cities" in opening


def test_agent_prompt_lists_actions_board_ids_conflicts_and_peers() -> None:
    board = Whiteboard()
    board.apply("wb_draw_code", {"language": "python", "code": "a = 1", "x": 10, "y": 10, "elementId": "c1"})
    board.apply("wb_draw_text", {"content": "over", "x": 20, "y": 20})
    peers = [AgentTurnSummary(agent_id="kim", agent_name="Kim", content_preview="Why?", action_count=0)]
    prompt = agent_system_prompt(ROOM.agents[0], ROOM, board, ROOM.scenes[0], ["spotlight", "wb_edit_code"], peers,
                                 "Explain the loop")
    # every action of the class is documented in the opening all prompts share; the agent's own are named as such
    assert "- wb_edit_code:" in prompt and "Your actions: spotlight, wb_edit_code; no others." in prompt
    assert "[id:c1]" in prompt and "L1: a = 1" in prompt
    assert "OVERLAP" in prompt
    assert '- Kim: "Why?"' in prompt and "[id:t1] title" in prompt
    assert "The director asks you to: Explain the loop" in prompt
    assert "Sam: likes pictures" in prompt
    quiet = agent_system_prompt(ROOM.agents[2], ROOM, board, None, [], [], "")
    assert "text items only" in quiet and "OVERLAP" not in quiet


def test_the_worked_example_is_concrete_valid_output_from_the_agents_own_lesson() -> None:
    from maic_tui.orchestration.parser import ParsedAction, StreamParser, TextDelta
    from maic_tui.orchestration.prompts.agent import agent_system_prompt

    teacher = ROOM.agents[0]
    prompt = agent_system_prompt(teacher, ROOM, Whiteboard(), ROOM.scenes[0], list(teacher.actions), [], "")
    example = prompt[prompt.index("For example:\n") + len("For example:\n"):].split("\n\n")[0]
    parser = StreamParser()
    found = parser.feed(example) + parser.close()
    speech = "".join(item.text for item in found if isinstance(item, TextDelta))
    drawn = [item for item in found if isinstance(item, ParsedAction)]
    assert ROOM.scenes[0].title in speech and drawn and Whiteboard().apply(drawn[0].name, drawn[0].params).ok
    assert "<" not in prompt.split("Actions you may use")[0]  # no placeholder a model could speak as is


def test_placeholder_speech_or_a_copy_of_the_example_counts_as_empty() -> None:
    from maic_tui.orchestration.prompts.example import example_speech, is_filler

    teacher = ROOM.agents[0]
    example = example_speech(teacher, ROOM, ROOM.scenes[0], list(teacher.actions))
    for filler in ("<speech>", " ... ", "", "<text for the learner>", example, example.upper() + "!"):
        assert is_filler(filler, example), filler
    assert not is_filler("The slope of a flat road is zero.", example)




def test_director_prompts_keep_a_stable_prefix_and_show_no_placeholders() -> None:
    board = Whiteboard()
    first, _ = director_messages(ROOM, HISTORY, "What is a slope?", [], [], board, 1)
    said = [AgentTurnSummary(agent_id="teacher", agent_name="Ms. Hale", content_preview="Rise over run.",
                             action_count=0)]
    board.apply("wb_draw_text", {"content": "m = rise / run", "x": 10, "y": 10})
    second, _ = director_messages(ROOM, HISTORY, "What is a slope?", said, [], board, 2)
    a, b = str(first.content), str(second.content)
    shared = next(i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y)
    assert RULES in a[:shared] and '{"next_agent": "END"}' in a[:shared]  # everything fixed comes first
    assert "<" not in a[:shared]
    decision = parse_decision('{"next_agent": "USER", "prompt": "<a short question>", "options": ["<a>", "<b>"]}',
                              ROOM.agents)
    assert decision.prompt is None and decision.options == ()


def test_the_director_and_every_agent_open_their_prompts_with_the_same_words() -> None:
    """A server that caches its last prompt reuses the class's opening from an agent's call to the director's: the
    class, how an agent answers and the documentation of every action an agent of the class may take."""
    said = [AgentTurnSummary(agent_id="teacher", agent_name="Ms. Hale", content_preview="Rise over run.",
                             action_count=0)]
    system, _ = director_messages(ROOM, HISTORY, "What is a slope?", said, [], Whiteboard(), 2)
    director = str(system.content)
    agents = [agent_system_prompt(agent, ROOM, Whiteboard(), ROOM.scenes[0], list(agent.actions), said, "Go on.")
              for agent in ROOM.agents]
    opening = class_opening(ROOM)
    assert director.startswith(opening) and all(prompt.startswith(opening) for prompt in agents)
    assert len(opening) > 100  # the part reused is the class's roster and learner, not a few words
    assert all(f"{agent.id} ({agent.name}, {agent.role})" in opening for agent in ROOM.agents)
    assert "Sam: likes pictures" in opening and "Test class" in opening
    assert class_opening(classroom(learner={"nickname": "Ana"})) != opening  # the class's own, not a fixed preamble
    assert "one JSON array" in opening and "- wb_draw_text:" in opening and "- spotlight:" in opening
    assert all(prompt.index("You are ") > len(opening) for prompt in agents)  # an agent's own part comes after it
    assert "- spotlight:" not in class_opening(classroom(scenes=[]))  # no slide in the class, no pointer at one
