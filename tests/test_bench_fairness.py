"""The parser benchmark compares like with like: both parsers find the same items in its inputs."""

from __future__ import annotations

import json

from bench.parser_bench import chunks, naive, ours, response


def test_benchmark_input_is_valid_and_both_parsers_agree() -> None:
    text = response(3_000)
    items = json.loads(text)
    assert len(text) >= 3_000 and {i["type"] for i in items} == {"text", "action"}
    assert naive(chunks(text, 4)) == len(items)
    # Ours emits text as several deltas, so it reports at least one output per item.
    assert ours(chunks(text, 4)) >= len(items)
