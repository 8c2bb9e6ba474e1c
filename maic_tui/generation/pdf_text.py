"""The worker that extracts a PDF's text for ``maic-tui new --from`` (see ``material``): the PDF's bytes on stdin,
the limits as JSON in ``argv[1]``, one JSON object on stdout: ``{"text": ...}`` or ``{"error": why, ...}``, why as
a code with its numbers (``material`` says it in the interface's language, which this process does not read).

Run as its own process so that a hostile file can be bounded in memory (an address-space limit) and in time
(the parent kills it), which a thread could not be."""

from __future__ import annotations

import io
import json
import sys
from typing import Any

from maic_tui.text_safety import one_line


class TooMuch(Exception):
    """A limit the PDF passes (or a lock): ``answer`` is the worker's error object."""

    def __init__(self, why: str, **numbers: int) -> None:
        super().__init__(why)
        self.answer = {"error": why, **numbers}


def extract(data: bytes, pages: int, page_chars: int, chars: int) -> str:
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    if reader.is_encrypted:
        try:
            opened = bool(reader.decrypt(""))  # many PDFs are "encrypted" with an empty password
        except Exception:  # an AES key pypdf cannot use without extra packages, a broken handler
            opened = False
        if not opened:
            raise TooMuch("encrypted")
    count = len(reader.pages)
    if count > pages:
        raise TooMuch("pages", count=count, limit=pages)
    texts, total = [], 0
    for page in reader.pages:
        text = (page.extract_text() or "")[:page_chars]
        total += len(text)
        if total > chars:
            raise TooMuch("characters", limit=chars)
        texts.append(text)
    return "\n".join(texts)


def main() -> None:
    limits: dict[str, Any] = json.loads(sys.argv[1])
    try:
        import resource

        memory = int(limits.pop("memory"))
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    except (ImportError, ValueError, OSError):  # no such limit here: the parent's timeout still holds
        limits.pop("memory", None)
    data = sys.stdin.buffer.read()
    try:
        answer: dict[str, Any] = {"text": extract(data, **limits)}
    except TooMuch as exc:
        answer = exc.answer
    except MemoryError:
        answer = {"error": "memory"}
    except RecursionError:
        answer = {"error": "nested"}
    except Exception as exc:  # pypdf's own errors, and whatever a malformed file makes it raise
        answer = {"error": "unreadable", "detail": one_line(str(exc), 160) or type(exc).__name__}
    sys.stdout.write(json.dumps(answer))


if __name__ == "__main__":
    main()
