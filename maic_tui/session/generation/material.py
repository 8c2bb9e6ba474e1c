"""``--from FILE``: the material a generated lesson must teach, as text. Markdown and plain text are read as they
are; a PDF's text is extracted with pypdf (pure Python, well kept), loaded only when a PDF is given."""

from __future__ import annotations

from pathlib import Path

from maic_tui.bad_input import BadInput, Unreadable, describe_path, read_text_file

MATERIAL_LIMIT = 2 * 2**20  # characters: beyond this a file is not lesson material


class MaterialError(BadInput):
    """Material that cannot be read; one line naming the file."""


def read_material(path: str | Path) -> str:
    name = describe_path(path)
    if str(path).lower().endswith(".pdf"):
        text = _pdf_text(Path(path), name)
    else:
        try:
            text = read_text_file(path, "material file", limit=MATERIAL_LIMIT)
        except Unreadable as exc:
            raise MaterialError(f"{name}: cannot read the material ({exc.reason})") from None
    text = "\n".join(line.rstrip() for line in text.splitlines()).strip()
    if not text:
        raise MaterialError(f"{name}: the material is empty")
    return text[:MATERIAL_LIMIT]


def _pdf_text(path: Path, name: str) -> str:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(path)
        return "\n".join(page.extract_text() or "" for page in reader.pages)
    except (OSError, PdfReadError, ValueError) as exc:
        raise MaterialError(f"{name}: not a readable PDF ({exc})") from None
