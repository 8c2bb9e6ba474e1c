"""Words of the classroom the room shows in the interface's language: an agent's role."""

from __future__ import annotations

from maic_tui.i18n import N_, _

ROLES = {"teacher": N_("teacher"), "assistant": N_("assistant"), "student": N_("student")}


def role_name(role: str) -> str:
    """A role as the interface names it (a role we do not know, as the classroom file wrote it)."""
    return _(ROLES[role]) if role in ROLES else role
