"""Offline understanding for the demo model (issue 16, first step): stems, typos, rare words over common ones,
and a threshold under which a message is off-topic."""

from __future__ import annotations

import pytest

from maic_tui.classroom import load_classroom
from maic_tui.demo.understanding import MaterialIndex


@pytest.fixture(scope="module")
def water() -> MaterialIndex:
    return MaterialIndex.of(load_classroom("water-cycle"))


def test_inflections_and_stems_find_the_same_material(water: MaterialIndex) -> None:
    assert water.terms("What is evaporation?") == water.terms("it evaporates") == ["evapor"]
    best = water.best("how do clouds form")
    assert best is not None and (best.passage.kind, best.passage.key) == ("answer", "clouds")


def test_a_typo_is_read_as_the_classroom_word_it_nearly_is(water: MaterialIndex) -> None:
    assert water.terms("evaporaton?") == water.terms("evaporation")
    assert water.terms("precipitaion") == water.terms("precipitation")


@pytest.mark.parametrize("message", ["why is the sky blue?", "i like pizza", "who won the football"])
def test_a_message_about_nothing_the_class_holds_is_off_topic(water: MaterialIndex, message: str) -> None:
    assert water.best(message) is None


def test_rare_words_weigh_more_than_common_ones(water: MaterialIndex) -> None:
    common = min(water.terms("water evaporation"), key=water.idf)
    assert common == "water" and water.idf("water") < water.idf("evapor")


def test_a_stopword_in_a_scene_title_stays_a_topic_word() -> None:
    loops = MaterialIndex.of(load_classroom("python-loops"))
    assert "for" in loops.terms("What is a for loop?")
    best = loops.best("What is a for loop?")
    assert best is not None and best.passage.key.startswith("for-loop")  # the scene, or its prepared answer
    assert "the" not in loops.terms("the loop")


def test_a_students_reaction_quotes_the_classrooms_own_words_as_a_sentence() -> None:
    from maic_tui.classroom import load_classroom
    from maic_tui.demo.planner import material
    from maic_tui.demo.replies import reaction_to

    room = load_classroom("car-free-city")
    student = next(agent for agent in room.agents if agent.role == "student")
    turn = reaction_to(room, student, "but who pays for the buses in the city?", material(room))
    line = " ".join(step.say or "" for step in turn.steps)
    assert line.startswith(f"Fair point, {room.learner.nickname}. ") and line.endswith((".", "!", "?"))
    assert "about pays" not in line and "about city" not in line and len(line.split()) > 6
    quiet = reaction_to(room, student, "hmm", material(room))
    assert " ".join(step.say or "" for step in quiet.steps) == f"Interesting, {room.learner.nickname}. Go on?"


@pytest.mark.parametrize(("typed", "meant"), [("evaporashun", "evaporation"), ("condensayshun", "condensation"),
                                              ("precipitashun", "precipitation")])
def test_a_word_spelt_as_it_sounds_finds_the_classroom_word(typed: str, meant: str) -> None:
    from maic_tui.classroom import load_classroom
    from maic_tui.demo.planner import material
    from maic_tui.demo.understanding import sound_of, stem_all

    index = material(load_classroom("water-cycle"))
    assert sound_of(typed) == sound_of(meant)
    assert stem_all("en", [meant])[0] in index.terms(f"what is {typed}")
    assert index.terms("how do i cook pasta") == stem_all("en", ["cook", "pasta"])  # short words: no sound match


def test_why_and_push_back_answer_from_the_point_just_made_by_the_agent_who_made_it() -> None:
    from maic_tui.classroom import load_classroom
    from maic_tui.demo.moves import push_back, why
    from maic_tui.demo.planner import material
    from maic_tui.llm.context import Said

    room = load_classroom("water-cycle")
    said = [Said("learner", "how do clouds form"),
            Said("rivera", "High up it is cold, so the vapour cools and turns back into tiny droplets: a cloud.")]
    reason = " ".join(step.say or "" for step in why(room, material(room), said)[0].steps)
    assert why(room, material(room), said)[0].agent == "rivera" and reason.startswith("Good question, Kai.")
    # the reason behind the point (here its own "so" clause: the material has nothing closer), not the point again
    assert "It comes down to this: High up it is cold." in reason and "tiny droplets" not in reason
    doubt = push_back(room, material(room), said)[0]
    line = " ".join(step.say or "" for step in doubt.steps)
    assert doubt.agent == "rivera" and line.endswith("What makes you doubt it?")
    nothing = why(room, material(room), [Said("learner", "hi")])[0]
    assert "which point" in " ".join(step.say or "" for step in nothing.steps)
