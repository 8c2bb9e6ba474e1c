"""Stream parser speed: ours against a naive re-parse-everything parser, and growth with input size.

(a) A ~12 KB agent response in 4-character chunks, parsed by our incremental ``StreamParser`` and by
    the upstream approach: append the chunk, re-parse the whole buffer with a partial-JSON parser
    (langchain-core's ``parse_partial_json``) and diff the item list. Target: ours >= 100x faster.
(b) Our time on a 50 KB and a 400 KB response in 1-character chunks. Target: 8x input <= 10x time.

Both sides run in the same process, one after the other, best of several repeats.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from langchain_core.utils.json import parse_partial_json

from maic_tui.orchestration.answers.parser import StreamParser

SENTENCE = "The derivative measures how fast a quantity changes; think of a speedometer [1]. "


def response(size: int) -> str:
    """A realistic agent answer: speech interleaved with whiteboard actions, about ``size`` characters."""
    items: list[dict] = []
    n = 0
    while len(json.dumps(items)) < size:
        n += 1
        items.append({"type": "text", "content": SENTENCE * 3})
        items.append({"type": "action", "name": "wb_draw_latex",
                      "params": {"latex": f"\\frac{{d}}{{dx}} x^{{{n}}} = {n} x^{{{n - 1}}}", "x": 40, "y": 30 * n,
                                 "elementId": f"f{n}", "points": ["", "arrow"]}})
    return json.dumps(items)


def chunks(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def ours(parts: list[str]) -> int:
    parser = StreamParser()
    count = 0
    for part in parts:
        count += len(parser.feed(part))
    return count + len(parser.close())


def naive(parts: list[str]) -> int:
    """Upstream's shape: re-parse the whole buffer on every chunk and emit the items that completed."""
    buffer, done, count = "", 0, 0
    for part in parts:
        buffer += part
        start = buffer.find("[")
        if start < 0:
            continue
        try:
            parsed = parse_partial_json(buffer[start:])
        except Exception:
            continue
        if not isinstance(parsed, list):
            continue
        complete = len(parsed) if buffer.rstrip().endswith("]") else max(len(parsed) - 1, 0)
        count += max(complete - done, 0)
        done = max(done, complete)
    return count


def best_of(repeats: int, func: Callable[[list[str]], int], parts: list[str]) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        func(parts)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    small = chunks(response(12_000), 4)
    ours_small = best_of(5, ours, small)
    naive_small = best_of(1, naive, small)
    print(f"(a) ~12 KB in 4-char chunks ({len(small)} chunks)")
    print(f"    naive re-parse : {naive_small * 1000:9.1f} ms")
    print(f"    StreamParser   : {ours_small * 1000:9.1f} ms")
    print(f"    ratio          : {naive_small / ours_small:9.0f}x faster  (target >= 100x)")

    medium, large = chunks(response(50_000), 1), chunks(response(400_000), 1)
    t_medium, t_large = best_of(3, ours, medium), best_of(3, ours, large)
    size_ratio = len(large) / len(medium)
    print(f"(b) growth in 1-char chunks: {len(medium):,} -> {len(large):,} chars ({size_ratio:.1f}x input)")
    print(f"    {len(medium) // 1000} KB : {t_medium * 1000:9.1f} ms")
    print(f"    {len(large) // 1000} KB : {t_large * 1000:9.1f} ms")
    print(f"    time ratio     : {t_large / t_medium:9.2f}x  (target <= 10x for 8x input)")


if __name__ == "__main__":
    main()
