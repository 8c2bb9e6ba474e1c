"""A message that opens with an agent's name picks that agent, as ``@name`` does (titles aside)."""

from __future__ import annotations

import pytest

from maic_tui.classroom import load_classroom
from maic_tui.orchestration.routing.mentions import addressed_agent


@pytest.mark.parametrize(("message", "agent"), [
    ("Mei, what does the data say?", "mei"), ("felix?", "felix"), ("noor what do you think", "noor"),
    ("Okafor: is that fair?", "okafor"), ("Ms. Okafor, is that fair?", None),  # "Ms." alone names nobody
    ("mei", "mei"), ("I think Mei is right", None), ("Felixes are cats", None),
])
def test_a_leading_name_addresses_that_agent(message: str, agent: str | None) -> None:
    assert addressed_agent(load_classroom("car-free-city").agents, message) == agent


@pytest.mark.parametrize(("message", "agent"), [
    ("what do you think, Noor?", "noor"), ("and you, felix", "felix"), ("is that fair, Okafor?!", "okafor"),
    ("I agree, thanks", None), ("cars, buses, bikes", None), ("Mei, what do you think, Felix?", "mei"),
])
def test_a_name_after_a_comma_at_the_end_addresses_that_agent(message: str, agent: str | None) -> None:
    assert addressed_agent(load_classroom("car-free-city").agents, message) == agent
