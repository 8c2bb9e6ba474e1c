"""``maic-tui doctor`` against the project's fake server: one line per check, exit 0 when a class can run,
2 otherwise, the working structured output mode found and remembered, and never the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from maic_tui.cli import main
from maic_tui.llm.client import PROBE_ANSWER
from tests.fake_openai import Reply, closed_port_url, fake_openai

KEY = "sk-doctor-SECRET-0123456789"


def _doctor(capsys: pytest.CaptureFixture[str], url: str, model: str = "fake-model", *extra: str) -> tuple[int, str]:
    code = main(["doctor", "--model", f"openai:{model}", "--base-url", url, "--api-key", KEY, "--timeout", "5",
                 *extra])
    out, err = capsys.readouterr()
    assert KEY not in out + err
    return code, out


def test_a_healthy_server_passes_and_its_mode_is_remembered(capsys: pytest.CaptureFixture[str],
                                                            private_data_dir: Path) -> None:
    refused = Reply(status=400, text="response_format json_schema is not supported")
    # the grammar field taken but not kept to (a hello where the grammar allows only its answer): the next mode
    ignored = Reply("Hello!")
    with fake_openai(refused, ignored, Reply('{"answer": "ok"}'), Reply("Hello class!"), Reply("one, two")) as server:
        code, out = _doctor(capsys, server.url)
    lines = out.splitlines()
    assert code == 0 and lines[-1] == "The class can run with this server."
    assert lines[0].startswith("✓ server") and "'fake-model' is listed" in lines[1]
    assert "grammar" in server.requests[1] and server.requests[2]["response_format"]["type"] == "json_object"
    assert "✓ structured output" in out and "json_object" in out
    assert "first token after" in out and "output cap" in out
    assert "json_object" in (private_data_dir / "structured-output.json").read_text(encoding="utf-8")
    assert server.requests[-1]["max_completion_tokens"] == 16  # the cap check asks for a small cap


def test_a_server_that_keeps_to_the_grammar_is_remembered_in_gbnf(capsys: pytest.CaptureFixture[str],
                                                                  private_data_dir: Path) -> None:
    refused = Reply(status=400, text="response_format json_schema is not supported")
    with fake_openai(refused, Reply(PROBE_ANSWER), Reply("Hello class!"), Reply("one, two")) as server:
        code, out = _doctor(capsys, server.url)
    assert code == 0 and "✓ structured output" in out and "gbnf" in out
    assert "gbnf" in (private_data_dir / "structured-output.json").read_text(encoding="utf-8")
    assert server.requests[1]["grammar"].startswith("root ::= ") and "response_format" not in server.requests[1]


def test_an_unreachable_server_is_one_clear_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _doctor(capsys, closed_port_url())
    assert code == 2 and out.splitlines()[0].startswith("✗ server") and "is it running" in out


def test_a_model_the_server_does_not_list_says_which_it_has(capsys: pytest.CaptureFixture[str]) -> None:
    with fake_openai(Reply(status=404, text="model 'gpt-nonexistent' not found")) as server:
        code, out = _doctor(capsys, server.url, "gpt-nonexistent")
    assert code == 2 and "✗ model" in out and "'gpt-nonexistent' is not listed" in out and "fake-model" in out
    # llama.cpp serves its one model under any name: not listed but answering is only a note
    with fake_openai(Reply('{"answer": "ok"}'), Reply("Hi"), Reply("one")) as server:
        code, out = _doctor(capsys, server.url, "any-name")
    assert code == 0 and "? model" in out and "answers to that name anyway" in out


def test_the_demo_model_needs_no_check(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", "--model", "demo"]) == 0
    assert "runs offline" in capsys.readouterr().out
