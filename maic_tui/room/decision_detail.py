"""One director decision told in full, as sections of plain text: the inspector's detail view and
``maic-tui trace`` print the same (ARCHITECTURE.md, *The routing workbench*)."""

from __future__ import annotations

from maic_tui.events import GuardVerdict, TraceRecord
from maic_tui.i18n import _
from maic_tui.room.decisions import TurnDecisions
from maic_tui.text_safety import one_line, terminal_safe

WHY_MANUAL = "manual"


def why(record: TraceRecord) -> str:
    """Why the decision went the way it did, in one line: the guard's own reason when one rejected a choice, else
    the path's reason (the fallback's, the rule's, the limit's)."""
    if record.path == "manual":  # the reason says it was picked, what the director proposed, who objected
        return record.reason or WHY_MANUAL
    rejected = next((v for v in record.guards if not v.passed), None)
    if rejected is not None and record.path in ("model", "fallback"):
        return f"✗ {rejected.rule}: {rejected.reason or 'rejected'}"
    return record.reason or record.path


def row(turn: TurnDecisions, record: TraceRecord) -> str:
    """A decision as one line, what matters most first (a narrow pane cuts the end): turn.step, path, the final
    choice, why, latency, and whether it was made while the last message was read."""
    ahead = " · " + _("made ahead") if record.made_ahead else ""
    return (f"{turn.number}.{record.step} {record.path} {terminal_safe(record.final)}: "
            f"{one_line(terminal_safe(why(record)), 200)} · {record.latency_ms:.0f} ms{ahead}")


def _verdicts(verdicts: list[GuardVerdict]) -> str:
    if not verdicts:
        return "  (no guard checked it)"
    return "\n".join(f"  {'✓' if v.passed else '✗'} {v.rule}" + (f": {v.reason}" if v.reason else "")
                     for v in verdicts)


def _tokens(record: TraceRecord) -> str:
    usage = record.usage
    if usage is None:
        return "not reported by the server" if record.attempts else "no model call"
    return f"prompt {usage.prompt}, completion {usage.completion}, cached {usage.cached}"


def _waited(record: TraceRecord) -> str:
    """When the decision was made, and what it cost the learner (older logs do not say)."""
    if record.waited_ms is None:
        return ""
    when = "made ahead, while the last message was read; " if record.made_ahead else ""
    return f"\nwhen: {when}the learner waited {record.waited_ms:.0f} ms"


def sections(turn: TurnDecisions, record: TraceRecord) -> list[tuple[str, str]]:
    """(title, body) pairs, every text made safe for a terminal."""
    parts = [(_("Decision"), _("{turn}, step {step}").format(turn=turn.heading, step=record.step)
              + f"\npath: {record.path}\nfinal: {record.final}\n"
                          f"why: {why(record)}\ncandidates: {', '.join(record.candidates) or '-'}\n"
                          f"latency: {record.latency_ms:.0f} ms{_waited(record)}\ntokens: {_tokens(record)}")]
    for index, attempt in enumerate(record.attempts, 1):
        body = f"raw answer:\n{attempt.raw or '(nothing)'}\n"
        if attempt.parsed is not None:
            body += "read as: " + ", ".join(f"{k}={v}" for k, v in attempt.parsed.items() if v) + "\n"
        body += "guards:\n" + _verdicts(attempt.guards)
        if attempt.usage is not None:
            body += f"\ntokens: prompt {attempt.usage.prompt}, completion {attempt.usage.completion}"
        parts.append((_("Attempt {number}").format(number=index), body))
    if not record.attempts and record.guards:  # a manual pick: the guards' verdicts on it
        parts.append((_("Guards"), _verdicts(record.guards)))
    if record.path == "fallback":
        parts.append((_("Fallback"), record.reason or ""))
    message = turn.message_of(record)
    parts.append((_("Produced"), _("message {id}").format(id=message) if message
                  else _("no message ({final})").format(final=record.final)))
    for message_part in record.prompt:
        parts.append((_("Prompt: {role}").format(role=message_part.role), message_part.content))
    if record.action_warnings:
        parts.append((_("Rejected actions"), "\n".join(record.action_warnings)))
    return [(title, terminal_safe(body)) for title, body in parts]


def as_text(turn: TurnDecisions, record: TraceRecord) -> str:
    return "\n\n".join(f"== {title}\n{body}" for title, body in sections(turn, record))
