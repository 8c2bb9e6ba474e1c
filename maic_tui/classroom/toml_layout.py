"""Where things are in a TOML text, by line: the table headers, the keys, and the first line of each item of a
multi-line array. Two uses need it and no TOML library gives it: a problem's field path shown with its line
(``maic-tui edit`` writes the problems above the draft), and one scene's lines replaced with every other byte of
the file left as it was (``maic-tui regen``; a parse-and-dump round trip moves comments and tables, see
ARCHITECTURE.md, *Authoring*).

The scanner reads the text once, character by character, knowing strings (basic, literal, multi-line),
comments, arrays and inline tables, so a ``[[scenes]]`` inside a string is never taken for a header."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_BARE = re.compile(r"[A-Za-z0-9_-]+")
_INDEX = re.compile(r"\[(\d+)[^\]]*\]")  # "[3]" and a grouped "[1, 2 and 4]": the first index


@dataclass(frozen=True, slots=True)
class Header:
    line: int  # 0-based
    names: tuple[str, ...]  # ("scenes", "elements")
    array: bool  # [[...]] rather than [...]
    path: str  # as problems name it: "scenes[1].elements[0]"


@dataclass(slots=True)
class Key:
    line: int
    path: str  # "scenes[1].script"
    items: list[int] = field(default_factory=list)  # the line each item of its array value starts on


@dataclass(slots=True)
class Layout:
    headers: list[Header]
    keys: dict[str, Key]
    lines: list[str]  # the text's lines, each with its end

    @classmethod
    def of(cls, text: str) -> Layout:
        return _Scanner(text).run()

    def line_of(self, path: str) -> int | None:
        """The 1-based line a problem's field path points at: the item, else its key, else its table."""
        path = _INDEX.sub(lambda m: f"[{m.group(1)}]", path)
        tables = {h.path: h.line for h in self.headers}
        while path:
            found = _item_line(self.keys, path)
            if found is None:
                key = self.keys.get(path)
                found = key.line if key else tables.get(path)
            if found is not None:
                return found + 1
            path = re.sub(r"(\[\d+\]|\.?[^.\[]+)$", "", path)
        return None

    def scene_spans(self) -> list[tuple[int, int]]:
        """Each ``[[scenes]]`` entry's lines, [start, end): its header to its last line of content, so the
        comments and blank lines before the next header stay with what follows."""
        spans: list[tuple[int, int]] = []
        starts = [i for i, h in enumerate(self.headers) if h.array and h.names == ("scenes",)]
        for number in starts:
            end_header = next((h for h in self.headers[number + 1:] if h.names[0] != "scenes"
                               or h.names == ("scenes",)), None)
            end = end_header.line if end_header else len(self.lines)
            start = self.headers[number].line
            while end > start + 1 and _is_filler(self.lines[end - 1]):
                end -= 1
            spans.append((start, end))
        return spans


def _item_line(keys: dict[str, Key], path: str) -> int | None:
    found = re.fullmatch(r"(.+)\[(\d+)\]", path)
    if not found or found.group(1) not in keys:
        return None
    items = keys[found.group(1)].items
    index = int(found.group(2))
    return items[index] if index < len(items) else None


def _is_filler(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = text.splitlines(keepends=True)
        self.headers: list[Header] = []
        self.keys: dict[str, Key] = {}
        self.counts: dict[str, int] = {}  # an array of tables' path -> entries so far
        self.table = ""  # the path of the table keys now belong to

    def run(self) -> Layout:
        pos, line, size = 0, 0, len(self.text)
        key: Key | None = None  # the key whose value is being read
        depth = 0  # brackets and braces open inside a value
        expect_item = False  # inside the key's array at depth 1, before an item's first character
        at_line_start = True
        while pos < size:
            char = self.text[pos]
            if char == "\n":
                line, pos, at_line_start = line + 1, pos + 1, True
                continue
            if char in " \t\r":
                pos += 1
                continue
            if char == "#":
                pos = self._line_end(pos)
                continue
            if at_line_start and depth == 0:
                at_line_start = False
                if char == "[":
                    pos = self._header(pos, line)
                    key = None
                    continue
                pos, key = self._key(pos, line)
                continue
            at_line_start = False
            if expect_item and depth == 1 and key is not None and char not in ",]":
                key.items.append(line)
                expect_item = False
            if char in "\"'":
                pos, line = self._string(pos, line)
                continue
            if char in "[{":
                depth += 1
                if depth == 1 and char == "[":
                    expect_item = True
            elif char in "]}":
                depth = max(0, depth - 1)
            elif char == "," and depth == 1:
                expect_item = True
            pos += 1
        return Layout(self.headers, self.keys, self.lines)

    def _line_end(self, pos: int) -> int:
        end = self.text.find("\n", pos)
        return len(self.text) if end == -1 else end

    def _header(self, pos: int, line: int) -> int:
        end = self._line_end(pos)
        raw = self.text[pos:end].split("#", 1)[0].strip()
        array = raw.startswith("[[")
        inner = raw.strip("[]").strip()
        names = tuple(_key_parts(inner))
        if not names:
            return end
        path = ""
        for name in names[:-1]:
            path = f"{path}.{name}" if path else name
            if path in self.counts:
                path += f"[{self.counts[path] - 1}]"
        path = f"{path}.{names[-1]}" if path else names[-1]
        if array:
            self.counts[path] = self.counts.get(path, 0) + 1
            path += f"[{self.counts[path] - 1}]"
        self.headers.append(Header(line, names, array, path))
        self.table = path
        return end

    def _key(self, pos: int, line: int) -> tuple[int, Key | None]:
        equals = self.text.find("=", pos, self._line_end(pos))
        if equals == -1:
            return self._line_end(pos), None
        name = ".".join(_key_parts(self.text[pos:equals]))
        path = f"{self.table}.{name}" if self.table else name
        key = Key(line, path)
        self.keys[path] = key
        return equals + 1, key

    def _string(self, pos: int, line: int) -> tuple[int, int]:
        quote = self.text[pos]
        if self.text.startswith(quote * 3, pos):
            end = self.text.find(quote * 3, pos + 3)
            while quote == '"' and end != -1 and _escaped(self.text, end):
                end = self.text.find(quote * 3, end + 1)
            end = len(self.text) if end == -1 else end + 3
            while self.text.startswith(quote, end):  # up to two quotes may end the content
                end += 1
            return end, line + self.text.count("\n", pos, end)
        end = pos + 1
        while end < len(self.text) and self.text[end] not in (quote, "\n"):
            end += 2 if quote == '"' and self.text[end] == "\\" else 1
        return min(end + 1, len(self.text)), line


def _escaped(text: str, at: int) -> bool:
    slashes = 0
    while at - slashes - 1 >= 0 and text[at - slashes - 1] == "\\":
        slashes += 1
    return slashes % 2 == 1


def _key_parts(raw: str) -> list[str]:
    """A dotted key's parts, quoted parts unquoted (``a."b.c"`` -> a, b.c)."""
    parts, rest = [], raw.strip()
    while rest:
        if rest[0] in "\"'":
            end = rest.find(rest[0], 1)
            end = len(rest) if end == -1 else end
            parts.append(rest[1:end])
            rest = rest[end + 1:].lstrip()
        else:
            found = _BARE.match(rest)
            if not found:
                return parts
            parts.append(found.group())
            rest = rest[found.end():].lstrip()
        rest = rest[1:].lstrip() if rest.startswith(".") else ""
    return parts
