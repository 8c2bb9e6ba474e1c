"""``--from FILE``: the material a generated lesson must teach, as text.

Markdown and plain text are read as any input file is (a regular file, a size cap, UTF-8). A PDF's text is
extracted by pypdf (pure Python, well kept) in a worker process (``pdf_text``) with limits on pages, characters
a page, characters in all, memory and time, which Ctrl-C stops at once: a hostile PDF (a decompression bomb, one
stream shared by every page, a page tree that never ends) costs seconds, never the machine.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Protocol

from maic_tui.bad_input import MAX_FILE_BYTES, BadInput, Unreadable, describe_path, read_file_bytes, read_text_file
from maic_tui.i18n import N_, _

MATERIAL_CHARS = 200_000  # about 50 summary calls; a longer text is not one lesson's material
PDF_BYTES = 32 * 2**20
PDF_PAGES = 1_000
PAGE_CHARS = 20_000  # a dense page holds about 5,000 characters; more is not text a lesson can use
PDF_SECONDS = 60.0
PDF_MEMORY = 2**30  # bytes the worker may use
WORKER = [sys.executable, "-m", "maic_tui.generation.pdf_text"]
POLL_SECONDS = 0.1
# What the worker (pdf_text) answers when it cannot give the text, by its code; {name} is the file.
PDF_PROBLEMS = {
    "encrypted": N_("{name}: the PDF is encrypted; give its text instead (a .txt or .md file)"),
    "pages": N_("{name}: {count} pages is too long for one lesson's material (at most {limit})"),
    "characters": N_("{name}: more than {limit} characters of text is too long for one lesson's material: give the "
                     "part the lesson is about"),
    "memory": N_("{name}: not a readable PDF (it needs more memory than a PDF's text should)"),
    "nested": N_("{name}: not a readable PDF (its structure is nested too deeply)"),
    "unreadable": N_("{name}: not a readable PDF ({detail})"),
}


class MaterialError(BadInput):
    """Material that cannot be used; one line naming the file."""


class Stopping(Protocol):
    @property
    def stopping(self) -> bool: ...


def read_material(path: str | Path, stop: Stopping | None = None) -> str:
    """The material's text, or MaterialError; "" when ``stop`` says to stop while a PDF is read."""
    name = describe_path(path)
    try:
        if str(path).lower().endswith(".pdf"):
            text = _pdf_text(read_file_bytes(path, "PDF", PDF_BYTES), name, stop)
            if stop is not None and stop.stopping:
                return ""
        else:
            text = read_text_file(path, "material file", limit=MAX_FILE_BYTES)
    except Unreadable as exc:
        raise MaterialError(_("{name}: cannot read the material ({reason})").format(name=name, reason=exc.reason)) \
            from None
    text = "\n".join(line.rstrip() for line in text.splitlines()).strip()
    if not text:
        raise MaterialError(_("{name}: the material is empty").format(name=name))
    if len(text) > MATERIAL_CHARS:
        raise MaterialError(_("{name}: {count} characters is too long for one lesson's material (at most {limit}): "
                              "give the part the lesson is about")
                            .format(name=name, count=f"{len(text):,}", limit=f"{MATERIAL_CHARS:,}"))
    return text


def _pdf_text(data: bytes, name: str, stop: Stopping | None) -> str:
    limits = {"pages": PDF_PAGES, "page_chars": PAGE_CHARS, "chars": MATERIAL_CHARS, "memory": PDF_MEMORY}
    worker = subprocess.Popen([*WORKER, json.dumps(limits)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + PDF_SECONDS
    send: bytes | None = data
    try:
        while True:
            try:
                output, _errors = worker.communicate(send, timeout=POLL_SECONDS)
                break
            except subprocess.TimeoutExpired:
                send = None  # already on its way
            if stop is not None and stop.stopping:
                return ""
            if time.monotonic() > deadline:
                raise MaterialError(_("{name}: reading the PDF took longer than {seconds} s; give its text instead "
                                      "(a .txt or .md file)").format(name=name, seconds=f"{PDF_SECONDS:g}"))
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait()
    try:
        answer = json.loads(output)
    except ValueError:  # it died: the memory limit, or a crash inside the PDF library
        raise MaterialError(_("{name}: not a readable PDF (reading it failed; it may need more memory than a PDF's "
                              "text should)").format(name=name)) from None
    if "error" in answer:
        raise MaterialError(_pdf_problem(name, answer))
    return str(answer["text"])


def _pdf_problem(name: str, answer: dict[str, object]) -> str:
    numbers = {key: f"{value:,}" if isinstance(value, int) else str(value) for key, value in answer.items()}
    return _(PDF_PROBLEMS.get(str(answer["error"]), PDF_PROBLEMS["unreadable"])).format_map(
        {"detail": answer["error"], **numbers, "name": name})
