"""What the learner opens over the room to read (ARCHITECTURE.md, *The app*): F1 help, an agent's persona card
(muting it from there), the full transcript and talk statistics (the palette), and copying the last message."""

from __future__ import annotations

from typing import TYPE_CHECKING

from maic_tui.i18n import _

if TYPE_CHECKING:
    from textual.screen import Screen

    from maic_tui.tui.parts.the_class import TheClass


def show_help(screen: Screen[None]) -> None:
    from maic_tui.tui.screens.help import HelpScreen

    screen.app.push_screen(HelpScreen())


def show_persona(screen: Screen[None], the_class: TheClass, agent_id: str) -> None:
    """The agent's card; the learner may mute or unmute it there (not the lead, not in a replay)."""
    from maic_tui.tui.screens.persona import PersonaScreen

    classroom = the_class.classroom
    agent = classroom.agent(agent_id)
    if agent is None:
        return
    scene, lead = the_class.view.scene, classroom.lead() or classroom.agents[0]
    muted = the_class.view.muted
    can_mute = agent.id != lead.id and the_class.recipe.replay is None

    def toggled(mute: bool | None) -> None:
        if mute:
            the_class.control(muted ^ {agent.id})

    screen.app.push_screen(PersonaScreen(agent, scene.type if scene else None,
                                         agent.id in muted if can_mute else None), toggled)


def full_transcript(screen: Screen[None], the_class: TheClass) -> None:
    from maic_tui.tui.screens.full_transcript import FullTranscriptScreen, transcript_text

    screen.app.push_screen(FullTranscriptScreen(transcript_text(the_class.view)))


def talk_stats(screen: Screen[None], the_class: TheClass) -> None:
    from maic_tui.tui.screens.full_transcript import FullTranscriptScreen

    screen.app.push_screen(FullTranscriptScreen("\n".join(the_class.view.talk.lines()), _("Talk statistics")))


def copy_last(screen: Screen[None], the_class: TheClass) -> None:
    from maic_tui.room.view import AgentMessage

    last = next((e for e in reversed(the_class.view.entries) if isinstance(e, AgentMessage)), None)
    if last is not None:
        screen.app.copy_to_clipboard(last.text)
        screen.notify(_("Copied {name}'s message.").format(name=last.name), markup=False)
