"""Decision parsing, the conversation's transcript and the prompts' contents."""

from __future__ import annotations

import itertools

import pytest
from langchain_core.messages import HumanMessage, SystemMessage

from maic_tui.events import AgentTurnSummary
from maic_tui.orchestration.graph.conversation import (
    ENTRY_CHARS,
    NOTHING_YET,
    TRANSCRIPT_STEP,
    TRANSCRIPT_WINDOW,
    HistoryEntry,
    transcript,
)
from maic_tui.orchestration.prompts.agent_request import agent_messages, agent_part
from maic_tui.orchestration.prompts.director_request import director_messages
from maic_tui.orchestration.prompts.shared_part import RULES, class_opening, shared_opening, shared_part
from maic_tui.orchestration.routing.director_answer import DecisionError, parse_decision
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
        ('{"next_agent": "END", "instruction": "Go on with', "END"),  # read no further than the end
        ('```json\n{ "nextAgent" : "end",', "END"),
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


def test_the_transcript_tells_the_learner_from_agents_and_shows_answers_in_their_format() -> None:
    lines = transcript(HISTORY, "Sam").splitlines()
    assert lines[0] == "[Sam (learner)]: What is a slope?"
    assert lines[1].startswith('[Ms. Hale]: [{"type":"text","content":"Rise over run."}')  # compact: fewer tokens
    assert '"wb_draw_text"' in lines[1]
    assert lines[2].startswith("[Kim]: ") and "interrupted by the learner" in lines[2]
    assert len(lines) == 3  # "..." carries nothing and is dropped
    assert transcript([], "Sam") == NOTHING_YET
    long = transcript([HistoryEntry("learner", "x" * (ENTRY_CHARS + 50))], "Sam")
    assert long.endswith("x" * ENTRY_CHARS + "...")
    assert len(transcript([HistoryEntry("learner", "line one\nline two")], "Sam").splitlines()) == 1


def test_the_transcript_only_grows_between_its_window_steps() -> None:
    """Its window drops the oldest entries several at a time: between two drops each transcript starts with the one
    before, so a prompt cache reuses it; a window that slid by one would change it whole at every call."""
    entries = [HistoryEntry("learner", f"message {i}") for i in range(40)]
    texts = [transcript(entries[:n], "Sam") for n in range(1, 41)]
    drops = [n for n in range(1, 40) if not texts[n].startswith(texts[n - 1])]
    assert drops and all(b - a == TRANSCRIPT_STEP for a, b in itertools.pairwise(drops))
    sizes = [len(text.splitlines()) for text in texts]
    assert max(sizes) == TRANSCRIPT_WINDOW and min(sizes[TRANSCRIPT_WINDOW:]) == TRANSCRIPT_WINDOW - TRANSCRIPT_STEP + 1
    assert texts[-1].endswith("message 39")


def test_director_prompt_carries_what_the_rules_ask_for() -> None:
    board = Whiteboard()
    for i in range(6):
        board.apply("wb_draw_text", {"content": f"t{i}", "x": 10, "y": 10 + 80 * i})
    responses = [AgentTurnSummary(agent_id="teacher", agent_name="Ms. Hale", content_preview="Rise over run.",
                                  action_count=1)]
    system, user = director_messages(ROOM, HISTORY, responses, board, 2,
                                     choices=["kim", "USER", "END"])
    text, own = str(system.content), str(user.content)
    assert RULES in text and all(f"\n{n}. " in RULES for n in range(1, 10)) and "\n10. " not in RULES
    assert "kim (Kim, student)" in text and "Sam: likes pictures" in text
    assert "[Sam (learner)]: What is a slope?" in text and "Rise over run." in text  # the conversation, this turn's too
    assert "Spoke this turn: teacher." in own  # by id: the agents' list names them, the conversation has the rest
    assert "crowded" in own and "decision 2 of this turn" in own
    assert "What is a slope?" not in own  # the conversation's last line says it: not read twice
    assert own.endswith("Choose next_agent from: kim, USER, END.")


def test_what_the_director_reads_anew_per_decision_is_a_few_lines() -> None:
    """Its own part is all a decision adds after the shared part (a server's cache has the rest): every word of it is
    read anew on the critical path, where a small model on a CPU spends some 6 ms a token."""
    said = [AgentTurnSummary(agent_id="teacher", agent_name="Ms. Hale", content_preview="Rise over run.",
                             action_count=0)]
    _, own = director_messages(ROOM, HISTORY, said, Whiteboard(), 2)
    text = str(own.content)
    assert "Spoke this turn: teacher." in text and "decision 2" in text
    assert "Board" not in text and "Hale" not in text  # a closed, empty board decides nothing; the names are above
    assert len(text.split()) <= 20, text


def test_a_pasted_page_is_not_read_whole_at_every_decision() -> None:
    page = "A very long paste.\n" * 200
    history = [HistoryEntry("learner", page)]
    system, own = director_messages(ROOM, history, [], Whiteboard(), 1)
    assert "A very long paste." not in str(own.content) and len(str(own.content)) < 300
    assert len(str(system.content)) < len(shared_opening(ROOM)) + ENTRY_CHARS + 100  # one line of it, as it is shown


def test_discussion_context_reaches_both_prompts() -> None:
    room = classroom(session={"type": "discussion", "topic": "Cars in cities", "prompt": "Ban them?"})
    system, _ = director_messages(room, [], [], Whiteboard(), 1)
    assert "discussion, not Q&A. Topic: Cars in cities" in system.content
    assert "Open the discussion" in agent_part(room.agents[0], room, Whiteboard(), [], [], "")


def test_agent_prompt_lists_actions_board_ids_conflicts_and_peers() -> None:
    board = Whiteboard()
    board.apply("wb_draw_code", {"language": "python", "code": "a = 1", "x": 10, "y": 10, "elementId": "c1"})
    board.apply("wb_draw_text", {"content": "over", "x": 20, "y": 20})
    peers = [AgentTurnSummary(agent_id="kim", agent_name="Kim", content_preview="Why?", action_count=0)]
    teacher = ROOM.agents[0]
    here = [name for name in teacher.actions if name != "wb_delete"]
    system, request = agent_messages(teacher, ROOM, HISTORY, board, ROOM.scenes[0], here, peers, "Explain the loop")
    shared, prompt = str(system.content), str(request.content)
    assert isinstance(system, SystemMessage) and isinstance(request, HumanMessage)
    # every action of the class is documented in the shared part, with who may use which; here only what is barred
    assert "- wb_edit_code:" in shared
    assert f"{teacher.id} ({teacher.name}, teacher): {teacher.persona} May use" in shared
    assert "Not here: wb_delete." in prompt
    assert "[id:c1]" in prompt and "L1: a = 1" in prompt and "OVERLAP" in prompt
    assert "[id:t1] title" in shared  # the slide shown now: shared too, it changes only with the scene
    assert "Already spoke this turn: Kim." in prompt
    assert "The director asks you to: Explain the loop" in prompt
    assert "Sam: likes pictures" in shared and "[Sam (learner)]: What is a slope?" in shared
    assert prompt.startswith(f"You are {teacher.name} ({teacher.id}), the teacher.")
    own = agent_part(teacher, ROOM, Whiteboard(), here, peers, "Explain the loop")
    assert len(own) < 300  # a cache reuses the rest
    quiet = agent_part(ROOM.agents[2], ROOM, board, [], [], "")
    assert "text items only" in quiet and "Whiteboard" not in quiet and "OVERLAP" not in quiet


def test_each_roles_worked_example_is_concrete_valid_output_from_the_class() -> None:
    from maic_tui.orchestration.answers.parser import ParsedAction, StreamParser, TextDelta

    opening = class_opening(ROOM)
    teacher_line = next(line for line in opening.splitlines() if line.startswith("- teacher: "))
    example = teacher_line.split("For example: ")[1]
    parser = StreamParser()
    found = parser.feed(example) + parser.close()
    speech = "".join(item.text for item in found if isinstance(item, TextDelta))
    drawn = [item for item in found if isinstance(item, ParsedAction)]
    assert ROOM.title in speech and drawn and Whiteboard().apply(drawn[0].name, drawn[0].params).ok
    assert all(opening.count(f"\n- {role}: ") == 1 for role in ("teacher", "assistant", "student"))  # each role once
    assert "\n- assistant: " not in class_opening(classroom(agents=[ROOM.agents[0], ROOM.agents[2]]))
    assert "<" not in opening.split("The actions an agent may take")[0]  # no placeholder a model could speak as is


def test_placeholder_speech_or_a_copy_of_the_example_counts_as_empty() -> None:
    from maic_tui.orchestration.prompts.example import example_speech, is_filler

    teacher = ROOM.agents[0]
    example = example_speech(teacher, ROOM, list(teacher.actions))
    for filler in ("<speech>", " ... ", "", "<text for the learner>", example, example.upper() + "!"):
        assert is_filler(filler, example), filler
    assert not is_filler("The slope of a flat road is zero.", example)




def test_director_prompts_keep_a_stable_prefix_and_show_no_placeholders() -> None:
    board = Whiteboard()
    first = director_messages(ROOM, HISTORY[:1], [], board, 1)
    said = [AgentTurnSummary(agent_id="teacher", agent_name="Ms. Hale", content_preview="Rise over run.",
                             action_count=0)]
    board.apply("wb_draw_text", {"content": "m = rise / run", "x": 10, "y": 10})
    second = director_messages(ROOM, HISTORY[:2], said, board, 2)
    a, b = str(first[0].content), str(second[0].content)
    assert b.startswith(a)  # the system message only grew by what was said since
    assert RULES in a and '{"next_agent":"END"}' in a and "<" not in a
    assert "decision" not in a + b and "decision 2" in str(second[1].content)  # what changes per decision is apart
    decision = parse_decision('{"next_agent": "USER", "prompt": "<a short question>", "options": ["<a>", "<b>"]}',
                              ROOM.agents)
    assert decision.prompt is None and decision.options == ()


def test_the_director_and_every_agent_share_their_system_message_word_for_word() -> None:
    """A server that caches its last prompt reuses it from an agent's call to the director's and on: the class, who
    is in it, how an agent answers, every action an agent of the class may take, the director's rules and the
    conversation so far."""
    said = [AgentTurnSummary(agent_id="teacher", agent_name="Ms. Hale", content_preview="Rise over run.",
                             action_count=0)]
    scene = ROOM.scenes[0]
    director = director_messages(ROOM, HISTORY, said, Whiteboard(), 2, scene=scene)
    agents = [agent_messages(agent, ROOM, HISTORY, Whiteboard(), scene, list(agent.actions), said, "Go on.")
              for agent in ROOM.agents]
    shared = shared_part(ROOM, HISTORY, scene)
    assert all(str(messages[0].content) == shared for messages in [director, *agents])
    opening = class_opening(ROOM)
    assert shared.startswith(opening) and shared.endswith(transcript(HISTORY, "Sam"))
    assert len(opening) > 100  # the part reused is the class's roster and learner, not a few words
    assert all(f"{agent.id} ({agent.name}, {agent.role}): {agent.persona}" in opening for agent in ROOM.agents)
    assert "Sam: likes pictures" in opening and "Test class" in opening
    assert class_opening(classroom(learner={"nickname": "Ana"})) != opening  # the class's own, not a fixed preamble
    assert "one JSON array" in opening and "- wb_draw_text:" in opening and "- spotlight:" in opening
    assert all("You are " in str(messages[1].content) for messages in agents)  # an agent's own part comes after it
    assert "- spotlight:" not in class_opening(classroom(scenes=[]))  # no slide in the class, no pointer at one


def test_a_muted_agent_changes_only_the_directors_request() -> None:
    """The shared part stays the whole class's, word for word the agents' (a prompt cache still reuses it while
    someone is muted); the director's own request says who may not be picked."""
    director = director_messages(ROOM, HISTORY, [], Whiteboard(), 1, muted=["kim"])
    assert str(director[0].content) == shared_part(ROOM, HISTORY)
    assert "Muted by the learner, never to be picked: kim." in str(director[1].content)
    assert "Muted" not in str(director_messages(ROOM, HISTORY, [], Whiteboard(), 1)[1].content)
