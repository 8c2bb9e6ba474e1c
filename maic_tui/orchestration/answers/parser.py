"""Incremental parser for an agent's streamed JSON-array output (ARCHITECTURE.md, *One learner turn*).

The model answers ``[{"type":"text","content":"..."}, {"type":"action","name":"wb_...","params":{...}}]``.
``StreamParser`` is a real tokenizer: it keeps string/escape state and nesting depth across chunks, so
each character is looked at once (linear time) and the result never depends on where chunks split.

- Text items stream as ``TextDelta`` while their string is still open; an action is emitted when its
  object closes; the response ends at the depth-0 ``]``; anything after it is ignored.
- Tolerated: prose or code fences before ``[``, legacy ``tool_name``/``parameters`` keys, items without
  ``type`` when their keys make the kind plain, bare strings as speech, a bare object, unescaped inner
  quotes where the next characters show the string cannot have ended, an unclosed array (complete
  items count; a last item missing only its ``}`` is recovered), and plain prose (spoken at the end).
- Raw JSON is never spoken: output without any item is spoken only if it does not look structured.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from maic_tui.orchestration.answers.items import Item, ParsedAction, TextDelta, action_from, item_kind
from maic_tui.orchestration.answers.speech_cleanup import QuoteMarkerStripper, prose_fallback
from maic_tui.orchestration.answers.string_chars import StringChars
from maic_tui.text_cells import joined_closely
from maic_tui.text_safety import EscapeFilter, clean_tree

__all__ = ["Item", "ParsedAction", "StreamParser", "TextDelta"]

_SEEK, _CANDIDATE, _JSON, _STRING, _LITERAL, _DONE, _CLOSED = range(7)
_KEY, _VALUE, _SPEECH = range(3)  # what an open string is
_NO_CLOSE, _QUOTE, _QUOTE_COMMA = range(3)  # undecided closing quote (inner-quote recovery)

_OPENERS = re.compile(r"[\[{]")
_SPACE = re.compile(r"[ \t\r\n]*")
_STRING_SPECIAL = re.compile(r'["\\]')
_LITERAL_CHARS = re.compile(r'[^\s,:\[\]{}"]*')
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")
_SKIP = object()  # a value that could not be read (garbage literal)


@dataclass(slots=True)
class _Object:
    data: dict[str, Any] = field(default_factory=dict)
    key: str | None = None
    expect_value: bool = False
    streamed: bool = False


@dataclass(slots=True)
class _Array:
    data: list[Any] = field(default_factory=list)


def _match_end(pattern: re.Pattern[str], text: str, start: int) -> int:
    """Where a pattern that can match the empty string ends, from ``start``."""
    found = pattern.match(text, start)
    return found.end() if found is not None else start


class StreamParser:
    """Feed chunks of model output; get speech deltas and complete actions in the model's order."""

    def __init__(self) -> None:
        self._mode = _SEEK
        self._opener = ""
        self._escapes = EscapeFilter()
        self._explicit_array = False
        self._stack: list[_Object | _Array] = []
        # open string
        self._target = _VALUE
        self._chars = StringChars()
        self._close = _NO_CLOSE
        self._pending = ""  # raw characters after an undecided closing quote
        self._literal: list[str] = []
        # output
        self._out: list[Item] = []
        self._speech: list[str] = []
        self._quotes = QuoteMarkerStripper()
        self._item_started = False
        self._last_char = ""
        self._emitted = False
        self._raw: list[str] | None = []  # kept only until something is emitted (prose fallback)

    # --- public API --------------------------------------------------------------------------------

    def feed(self, chunk: str) -> list[Item]:
        if self._mode == _CLOSED or not isinstance(chunk, str) or not chunk:
            return []
        if self._raw is not None:
            self._raw.append(chunk)
        self._consume(chunk)
        return self._take()

    @property
    def finished(self) -> bool:
        """The response array has closed: nothing more the model sends can matter."""
        return self._mode in (_DONE, _CLOSED)

    def close(self) -> list[Item]:
        if self._mode == _CLOSED:
            return []
        if self._mode == _STRING:
            if self._close != _NO_CLOSE or self._target == _KEY:
                self._finish_string()
            elif self._target == _SPEECH:
                self._chars.flush_surrogate()
                self._speak_chars()
        elif self._mode == _LITERAL:
            self._finish_literal()
        if self._mode == _JSON and len(self._stack) == 2 and isinstance(self._stack[1], _Object):
            self._on_item(self._stack.pop())  # only the last item's "}" is missing: the item is complete
        self._flush_speech()
        if not self._said_anything() and self._raw is not None:
            prose = prose_fallback("".join(self._raw))
            if prose:
                self._start_speech()
                self._speak(self._quotes.feed(prose))
        self._mode = _CLOSED
        self._stack.clear()
        return self._take()

    # --- output ------------------------------------------------------------------------------------

    def _take(self) -> list[Item]:
        self._flush_speech()
        out, self._out = self._out, []
        if out:
            self._emitted = True
            self._raw = None
        return out

    def _said_anything(self) -> bool:
        return self._emitted or bool(self._out) or bool(self._speech)

    def _start_speech(self) -> None:
        self._quotes.reset()
        self._item_started = True

    def _speak(self, text: str) -> None:
        # Speech is untrusted: escape sequences (whole, parameters too) and control characters never leave
        # the parser. The filter is a character-level state machine, so chunking still changes nothing.
        text = self._escapes.feed(text)
        if not text:
            return
        if self._item_started:
            # A new text item joins the message with a space unless whitespace already separates them or the
            # language is written without spaces.
            self._item_started = False
            if (self._last_char and not self._last_char.isspace() and not text[0].isspace()
                    and not joined_closely(self._last_char, text)):
                self._speech.append(" ")
        self._speech.append(text)
        self._last_char = text[-1]

    def _flush_speech(self) -> None:
        if self._speech:
            self._out.append(TextDelta("".join(self._speech)))
            self._speech = []

    def _emit_action(self, action: ParsedAction) -> None:
        self._flush_speech()
        # Parameters end up on the board, in chips and in exports: as inert as speech.
        self._out.append(ParsedAction(clean_tree(action.name), clean_tree(action.params), action.action_id))

    # --- items -------------------------------------------------------------------------------------

    def _on_item(self, value: Any) -> None:
        if not isinstance(value, _Object):
            return  # bare string items were spoken while they streamed; other values are not items
        kind = item_kind(value.data)
        if kind == "text":
            content = value.data.get("content")
            if not value.streamed and isinstance(content, str):
                self._start_speech()
                self._speak(self._quotes.feed(content))
        elif kind == "action":
            action = action_from(value.data)
            if action is not None:
                self._emit_action(action)

    # --- tokenizer ---------------------------------------------------------------------------------

    def _consume(self, text: str) -> None:
        i, n = 0, len(text)
        while i < n:
            mode = self._mode
            if mode == _STRING:
                i = self._string(text, i)
            elif mode == _JSON:
                i = _match_end(_SPACE, text, i)
                if i < n:
                    i = self._structural(text, i)
            elif mode == _LITERAL:
                end = _match_end(_LITERAL_CHARS, text, i)
                self._literal.append(text[i:end])
                i = end
                if i < n:
                    self._finish_literal()
            elif mode == _SEEK:
                found = _OPENERS.search(text, i)
                if found is None:
                    return
                self._opener = found.group()
                self._mode = _CANDIDATE
                i = found.end()
            elif mode == _CANDIDATE:
                i = _match_end(_SPACE, text, i)
                if i < n:
                    self._confirm_opener(text[i])
            else:  # _DONE: everything after the array is ignored
                return

    def _confirm_opener(self, nxt: str) -> None:
        """A '[' or '{' in prose starts JSON only if the next character can continue a real answer."""
        if (self._opener == "[" and nxt in '{"]') or (self._opener == "{" and nxt == '"'):
            self._explicit_array = self._opener == "["
            self._stack = [_Array()]
            if not self._explicit_array:
                self._stack.append(_Object())
            self._mode = _JSON
        else:
            self._mode = _SEEK  # the character is looked at again in prose

    def _structural(self, text: str, i: int) -> int:
        c = text[i]
        top = self._stack[-1]
        if c == '"':
            self._open_string(top)
        elif c == "{":
            self._stack.append(_Object())
        elif c == "[":
            self._stack.append(_Array())
        elif c == "}" or c == "]":
            return self._closer(c, top, i)
        elif c == ":":
            if isinstance(top, _Object):
                top.expect_value = True
        elif c == ",":
            pass  # separators carry no information once values are tracked by key
        else:
            self._literal = []
            self._mode = _LITERAL
            return i
        return i + 1

    def _closer(self, c: str, top: _Object | _Array, i: int) -> int:
        if len(self._stack) == 1:
            if c == "]" or not self._explicit_array:
                self._end_array()
            return i + 1  # a stray "}" at item level is ignored
        matches = isinstance(top, _Object) == (c == "}")
        self._stack.pop()
        self._complete(top)
        # A mismatched closer also closes what it skipped over: look at it again one level up.
        return i + 1 if matches else i

    def _end_array(self) -> None:
        self._stack.clear()
        self._mode = _DONE if self._said_anything() else _SEEK

    def _complete(self, value: Any) -> None:
        """A value finished; attach it to its container or, at item level, hand it on."""
        if len(self._stack) == 1:
            self._on_item(value)
            if not self._explicit_array:
                self._reset_seek()  # a bare object ends here; another may follow
            return
        plain = value.data if isinstance(value, _Object | _Array) else value
        top = self._stack[-1]
        if isinstance(top, _Object):
            if top.key is not None and plain is not _SKIP:
                top.data[top.key] = plain
            top.key = None
            top.expect_value = False
        elif plain is not _SKIP:
            top.data.append(plain)

    def _reset_seek(self) -> None:
        self._stack.clear()
        self._mode = _SEEK

    # --- strings -----------------------------------------------------------------------------------

    def _open_string(self, top: _Object | _Array) -> None:
        depth = len(self._stack)
        if isinstance(top, _Object) and not top.expect_value:
            self._target = _KEY
        elif depth == 1 or (
            # speech streams once its item says it is text, or has said nothing else yet: a model free to order the
            # keys may write {"content":... first, and its words need not wait for the item to close
            depth == 2 and isinstance(top, _Object) and top.key == "content"
            and top.data.get("type", "text") == "text" and not top.data.keys() & {"name", "tool_name"}
        ):
            self._target = _SPEECH
            if isinstance(top, _Object):
                top.streamed = True
            self._start_speech()
        else:
            self._target = _VALUE
        self._chars.clear()
        self._close = _NO_CLOSE
        self._mode = _STRING

    def _string(self, text: str, i: int) -> int:
        n = len(text)
        while i < n:
            if self._close != _NO_CLOSE:
                i = self._decide_close(text, i)
                if self._mode != _STRING:
                    return i
                continue
            if self._chars.escaping:
                i = self._chars.read_escape(text, i)
                continue
            found = _STRING_SPECIAL.search(text, i)
            end = n if found is None else found.start()
            if end > i:
                self._chars.add(text[i:end])
            if found is None:
                i = n
                break
            i = end + 1
            if found.group() == "\\":
                self._chars.begin_escape()
            elif self._target == _KEY:
                self._finish_string()
                return i
            else:
                self._close, self._pending = _QUOTE, '"'
        if self._target == _SPEECH and self._chars.has_text:
            self._speak_chars()
        return i

    def _decide_close(self, text: str, i: int) -> int:
        """After a quote inside a value string: did the string end, or was it an unescaped inner quote?"""
        c = text[i]
        if c in " \t\r\n":
            self._pending += c
            return i + 1
        in_object = isinstance(self._stack[-1], _Object)
        if self._close == _QUOTE:
            if c in "}]" or (c == "," and not in_object):
                self._finish_string()
                return i
            if c == ",":
                # In an object a real comma is followed by the next key (or a trailing "}").
                self._close = _QUOTE_COMMA
                self._pending += c
                return i + 1
        elif c in '"}':
            self._finish_string()
            return i
        pending, self._pending, self._close = self._pending, "", _NO_CLOSE
        self._chars.add(pending)
        return i

    def _speak_chars(self) -> None:
        self._speak(self._quotes.feed(self._chars.take()))

    def _finish_string(self) -> None:
        self._chars.finish()
        target = self._target
        if target == _SPEECH:
            self._speak_chars()
        value = self._chars.take()
        self._pending, self._close = "", _NO_CLOSE
        self._mode = _JSON
        top = self._stack[-1]
        if target == _KEY and isinstance(top, _Object):
            top.key, top.expect_value = value, False
        else:
            self._complete(value)

    # --- literals ----------------------------------------------------------------------------------

    def _finish_literal(self) -> None:
        token = "".join(self._literal)
        self._literal = []
        self._mode = _JSON
        top = self._stack[-1]
        if isinstance(top, _Object) and not top.expect_value:
            return  # a bare word where a key belongs: not JSON, skip it
        if token in _WORDS:
            value: Any = _WORDS[token]
        elif _NUMBER.fullmatch(token):
            value = json.loads(token)
        else:
            value = _SKIP
        self._complete(value)


_WORDS: dict[str, Any] = {"true": True, "false": False, "null": None}
