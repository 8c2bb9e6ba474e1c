"""Sending statements to a Learning Record Store: ``POST statements`` in batches, as xAPI 1.0.3's communication part
says (``X-Experience-API-Version``, Basic auth, JSON arrays).

Sending twice is safe: statement ids are stable, and a statement the LRS already has is not an error (it answers
``204`` or, for a batch holding one, ``409``; the batch is then sent one statement at a time, and a ``409`` for one
statement means the LRS has it). Every failure is one line naming the LRS, never its password nor a part of it.
Each request is bounded as a whole (``http_call``): its deadline, its size, a stop signal; a redirect is a
failure, since following it would turn the POST into a GET, or carry the credentials elsewhere.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode, urljoin, urlsplit

from maic_tui.i18n import _
from maic_tui.learning.http_call import Answer, CallEnded, call
from maic_tui.redaction import secret_free_line

VERSION = "1.0.3"
ERROR_BODY_BYTES = 4096  # of an error's body, for its message
MAX_ANSWER_BYTES = 64 << 20  # a page of statements from GET is far smaller; anything above is not an LRS's answer


class LrsError(Exception):
    """The LRS could not take the statements: one line, which names the LRS and what it said."""


@dataclass(frozen=True, slots=True)
class Sent:
    stored: int  # statements the LRS stored now
    known: int  # statements it already had


def statements_url(endpoint: str) -> str:
    """The LRS's statements resource: the endpoint given, or ``statements`` below it."""
    base = endpoint.strip()
    return base if base.rstrip("/").endswith("/statements") else base.rstrip("/") + "/statements"


class Lrs:
    def __init__(self, endpoint: str, credentials: tuple[str, str] | None, timeout: float = 30.0,
                 batch: int = 100) -> None:
        self.url = statements_url(endpoint)
        parts = urlsplit(self.url)
        self.name = f"{parts.scheme}://{parts.netloc}{parts.path}"  # what messages call it
        self.timeout, self.batch = timeout, batch  # timeout: each request's, all told (connect, status, body)
        self.stopped: Callable[[], bool] = lambda: False  # a stop signal came: the request in flight ends now
        self.headers = {"X-Experience-API-Version": VERSION, "Content-Type": "application/json",
                        "Accept": "application/json"}
        self.secrets: tuple[str, ...] = ()
        if credentials is not None:
            token = base64.b64encode(f"{credentials[0]}:{credentials[1]}".encode()).decode("ascii")
            self.headers["Authorization"] = f"Basic {token}"
            self.secrets = (credentials[1], token)

    def _failed(self, message: str) -> LrsError:
        """An LRS may echo what it was sent: its words never carry the password out (taken out before the cut)."""
        return LrsError(secret_free_line(message, self.secrets, 300))

    def send(self, statements: Sequence[dict[str, Any]],
             progress: Callable[[int, int], None] | None = None) -> Sent:
        """Every statement, in batches; ``progress(done, total)`` after each. Raises LrsError."""
        stored = known = 0
        for start in range(0, len(statements), self.batch):
            batch = list(statements[start:start + self.batch])
            status, _body = self._request("POST", self.url, batch)
            if status == 409:  # one of them is there already: find which, one at a time
                for statement in batch:
                    alone, _body = self._request("POST", self.url, [statement])
                    stored, known = (stored, known + 1) if alone in (204, 409) else (stored + 1, known)
            elif status == 204:
                known += len(batch)
            else:
                stored += len(batch)
            if progress is not None:
                progress(start + len(batch), len(statements))
        return Sent(stored, known)

    def query(self, **params: str) -> list[dict[str, Any]]:
        """``GET statements`` with these parameters, following ``more`` to the end."""
        url = f"{self.url}?{urlencode(params)}"
        found: list[dict[str, Any]] = []
        while url:
            _status, body = self._request("GET", url, None)
            if not isinstance(body, dict) or not isinstance(body.get("statements"), list):
                raise self._failed(_("LRS {name}: its answer to GET statements holds no 'statements' list").format(
                    name=self.name))
            found += body["statements"]
            more = body.get("more")
            url = urljoin(self.url, more) if isinstance(more, str) and more else ""
        return found

    def _request(self, method: str, url: str, payload: list[dict[str, Any]] | None) -> tuple[int, Any]:
        data = None if payload is None else json.dumps(payload, ensure_ascii=False).encode("utf-8")
        try:
            answer = call(method, url, data, self.headers, self.timeout, MAX_ANSWER_BYTES, self.stopped)
        except CallEnded as exc:
            raise self._failed(self._ended(exc)) from None
        if answer.status == 409 and method == "POST":
            return 409, None
        if not 200 <= answer.status < 300:
            raise self._failed(self._refused(answer))
        if not answer.body.strip():
            return answer.status, None
        try:
            return answer.status, json.loads(answer.body)
        except ValueError:
            raise self._failed(_("LRS {name}: answered {status} with something that is not JSON").format(
                name=self.name, status=answer.status)) from None

    def _ended(self, exc: CallEnded) -> str:
        if exc.why == "deadline":
            return _("LRS {name}: no answer within {seconds} s").format(name=self.name, seconds=f"{self.timeout:g}")
        if exc.why == "stopped":
            return _("LRS {name}: sending stopped (a stop signal)").format(name=self.name)
        if exc.why == "too large":
            return _("LRS {name}: answered more than {limit} MB; nothing of it was used").format(
                name=self.name, limit=MAX_ANSWER_BYTES >> 20)
        return _("LRS {name}: cannot reach it ({detail})").format(name=self.name, detail=exc.detail)

    def _refused(self, answer: Answer) -> str:
        if answer.status in (401, 403):
            return _("LRS {name}: refused the credentials ({status}); check MAIC_LRS_USER and MAIC_LRS_PASSWORD (or "
                     "[records] user and password)").format(name=self.name, status=answer.status)
        if 300 <= answer.status < 400:
            return _("LRS {name}: answered a redirect ({status}) to {where}; give that address").format(
                name=self.name, status=answer.status, where=answer.location or "?")
        detail = _detail(answer.body[:ERROR_BODY_BYTES].decode("utf-8", "replace"))
        if detail:
            return _("LRS {name}: answered {status} ({detail})").format(name=self.name, status=answer.status,
                                                                        detail=detail)
        return _("LRS {name}: answered {status}").format(name=self.name, status=answer.status)


def _detail(body: str) -> str:
    """An error body's message (the whole of it: the line is cut only once the password is out of it)."""
    try:
        parsed = json.loads(body)
    except ValueError:
        return body
    if isinstance(parsed, dict):
        for key in ("detail", "message", "error"):
            if isinstance(parsed.get(key), str):
                return str(parsed[key])
    return body
