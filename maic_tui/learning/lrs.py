"""Sending statements to a Learning Record Store: ``POST statements`` in batches, as xAPI 1.0.3's communication part
says (``X-Experience-API-Version``, Basic auth, JSON arrays).

Sending twice is safe: statement ids are stable, and a statement the LRS already has is not an error (it answers
``204`` or, for a batch holding one, ``409``; the batch is then sent one statement at a time, and a ``409`` for one
statement means the LRS has it). Every failure is one line naming the LRS, never its password.
"""

from __future__ import annotations

import base64
import json
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode, urljoin, urlsplit

from maic_tui.redaction import redact
from maic_tui.text_safety import one_line

VERSION = "1.0.3"
ERROR_BODY_BYTES = 4096  # of an error's body, for its message


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


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect would turn the POST into a GET, or carry the credentials elsewhere: it is a failure."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)


class Lrs:
    def __init__(self, endpoint: str, credentials: tuple[str, str] | None, timeout: float = 30.0,
                 batch: int = 100) -> None:
        self.url = statements_url(endpoint)
        parts = urlsplit(self.url)
        self.name = f"{parts.scheme}://{parts.netloc}{parts.path}"  # what messages call it
        self.timeout, self.batch = timeout, batch
        self.headers = {"X-Experience-API-Version": VERSION, "Content-Type": "application/json",
                        "Accept": "application/json"}
        self.secrets: tuple[str, ...] = ()
        if credentials is not None:
            token = base64.b64encode(f"{credentials[0]}:{credentials[1]}".encode()).decode("ascii")
            self.headers["Authorization"] = f"Basic {token}"
            self.secrets = (credentials[1], token)

    def _failed(self, message: str) -> LrsError:
        """An LRS may echo what it was sent: its words never carry the password out."""
        return LrsError(redact(message, self.secrets))

    def send(self, statements: Sequence[dict[str, Any]],
             progress: Callable[[int, int], None] | None = None) -> Sent:
        """Every statement, in batches; ``progress(done, total)`` after each. Raises LrsError."""
        stored = known = 0
        for start in range(0, len(statements), self.batch):
            batch = list(statements[start:start + self.batch])
            status, _ = self._request("POST", self.url, batch)
            if status == 409:  # one of them is there already: find which, one at a time
                for statement in batch:
                    alone, _ = self._request("POST", self.url, [statement])
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
            _, body = self._request("GET", url, None)
            if not isinstance(body, dict) or not isinstance(body.get("statements"), list):
                raise self._failed(f"LRS {self.name}: its answer to GET statements holds no 'statements' list")
            found += body["statements"]
            more = body.get("more")
            url = urljoin(self.url, more) if isinstance(more, str) and more else ""
        return found

    def _request(self, method: str, url: str, payload: list[dict[str, Any]] | None) -> tuple[int, Any]:
        data = None if payload is None else json.dumps(payload, ensure_ascii=False).encode("utf-8")
        request = urllib.request.Request(url, data=data, method=method, headers=self.headers)
        try:
            with _OPENER.open(request, timeout=self.timeout) as answer:
                raw = answer.read(64 * 1024 * 1024)
                status = answer.status
        except urllib.error.HTTPError as exc:
            if exc.code == 409 and method == "POST":
                return 409, None
            raise self._failed(self._refused(exc)) from None
        except TimeoutError:
            raise self._failed(f"LRS {self.name}: no answer within {self.timeout:g} s") from None
        except urllib.error.URLError as exc:
            raise self._failed(f"LRS {self.name}: cannot reach it ({one_line(str(exc.reason), 160)})") from None
        except (OSError, ValueError) as exc:
            raise self._failed(f"LRS {self.name}: {one_line(str(exc), 160)}") from None
        if not raw.strip():
            return status, None
        try:
            return status, json.loads(raw)
        except ValueError:
            raise self._failed(f"LRS {self.name}: answered {status} with something that is not JSON") from None

    def _refused(self, exc: urllib.error.HTTPError) -> str:
        if exc.code in (401, 403):
            return (f"LRS {self.name}: refused the credentials ({exc.code}); check MAIC_LRS_USER and "
                    "MAIC_LRS_PASSWORD (or [records] user and password)")
        if 300 <= exc.code < 400:
            where = one_line(exc.headers.get("Location", "?"), 120)
            return f"LRS {self.name}: answered a redirect ({exc.code}) to {where}; give that address"
        try:
            body = exc.read(ERROR_BODY_BYTES).decode("utf-8", "replace")
        except OSError:
            body = ""
        detail = _detail(body)
        return f"LRS {self.name}: answered {exc.code}{f' ({detail})' if detail else ''}"


def _detail(body: str) -> str:
    try:
        parsed = json.loads(body)
    except ValueError:
        return one_line(body, 160)
    if isinstance(parsed, dict):
        for key in ("detail", "message", "error"):
            if isinstance(parsed.get(key), str):
                return one_line(parsed[key], 160)
    return one_line(body, 160)
