"""Bounded snapshot history of the board's elements, taken before a clear (as OpenMAIC keeps one)."""

from __future__ import annotations

from dataclasses import dataclass

from maic_tui.whiteboard.elements import Element

HISTORY_LIMIT = 20


@dataclass(frozen=True, slots=True)
class Snapshot:
    number: int  # position in the board's action sequence when taken: deterministic, unlike a clock
    elements: tuple[Element, ...]


class History:
    """At most ``limit`` snapshots, oldest dropped; empty boards and exact repeats are not stored."""

    def __init__(self, limit: int = HISTORY_LIMIT) -> None:
        self.limit = limit
        self._snapshots: list[Snapshot] = []

    def __len__(self) -> int:
        return len(self._snapshots)

    def __getitem__(self, index: int) -> Snapshot:
        return self._snapshots[index]

    def snapshots(self) -> tuple[Snapshot, ...]:
        return tuple(self._snapshots)

    def push(self, number: int, elements: tuple[Element, ...]) -> bool:
        # Elements are immutable models compared by value, which is the upstream "fingerprint" dedup.
        if not elements or any(s.elements == elements for s in self._snapshots):
            return False
        self._snapshots.append(Snapshot(number, elements))
        del self._snapshots[: -self.limit]
        return True
