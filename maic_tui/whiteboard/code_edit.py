"""Line edits on a code element (``wb_edit_code``), with deterministic line ids.

Lines start as ``L1..Ln``; every new line gets the element's next number (``L<n+1>``, ...), so ids are
the same on every replay and a deleted id is never handed out again. ``replace_lines`` anchors at the
topmost replaced line in document order (the NEWER upstream fix) and reuses the replaced ids in that
order before minting new ones. Any unknown line id rejects the whole edit.
"""

from __future__ import annotations

from maic_tui.actions import EditCode, InvalidAction
from maic_tui.whiteboard.elements import CodeElement, CodeLine


def split_code(content: str | None) -> list[str]:
    return content.split("\n") if content else []


def initial_lines(code: str) -> tuple[CodeLine, ...]:
    return tuple(CodeLine(id=f"L{i}", content=text) for i, text in enumerate(code.split("\n"), start=1))


class _Ids:
    def __init__(self, next_number: int) -> None:
        self.next_number = next_number

    def mint(self) -> str:
        line_id = f"L{self.next_number}"
        self.next_number += 1
        return line_id


def edit_code(element: CodeElement, edit: EditCode) -> tuple[CodeElement, list[str]]:
    """Return the edited element and the ids of the lines the edit wrote (in document order)."""
    lines = list(element.lines)
    index = {line.id: i for i, line in enumerate(lines)}
    ids = _Ids(element.next_line_number)
    new_text = split_code(edit.content)

    if edit.operation in ("insert_after", "insert_before"):
        if not edit.line_id:
            raise InvalidAction("invalid_params: lineId")
        if edit.line_id not in index:
            raise InvalidAction(f"code_line_not_found: {edit.line_id}")
        if not new_text:
            raise InvalidAction("invalid_params: content")
        at = index[edit.line_id] + (1 if edit.operation == "insert_after" else 0)
        written = [CodeLine(id=ids.mint(), content=text) for text in new_text]
        lines[at:at] = written
    else:
        targets = edit.line_ids or []
        if not targets:
            raise InvalidAction("invalid_params: lineIds")
        missing = [line_id for line_id in targets if line_id not in index]
        if missing:
            raise InvalidAction(f"code_line_not_found: {missing[0]}")
        doomed = sorted({index[line_id] for line_id in targets})
        written = []
        if edit.operation == "replace_lines":
            reusable = [lines[i].id for i in doomed]
            written = [
                CodeLine(id=reusable[k] if k < len(reusable) else ids.mint(), content=text)
                for k, text in enumerate(new_text)
            ]
        removed = set(doomed)
        lines = [line for i, line in enumerate(lines) if i not in removed]
        # Nothing above the topmost replaced line moved, so its index is still the insertion point.
        lines[doomed[0] : doomed[0]] = written
    edited = element.model_copy(update={"lines": tuple(lines), "next_line_number": ids.next_number})
    return edited, [line.id for line in written]
