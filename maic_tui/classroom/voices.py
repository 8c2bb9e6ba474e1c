"""Who speaks in which voice: an agent's own (``voice`` in the classroom file: a name, or one per provider), else
one the class assigns, by role and then by order in the file, never one another agent of the class has, so no
two agents sound alike while the provider has voices left. What a provider cannot speak is a problem line for
``validate``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Literal, get_args

from maic_tui.classroom.models import Agent, Voices
from maic_tui.i18n import N_
from maic_tui.i18n.said import Said, said

Provider = Literal["openai", "espeak"]
PROVIDERS: tuple[Provider, ...] = get_args(Provider)
# OpenAI's own voices; a local server (Kokoro, openedai-speech, LocalAI, Speaches) maps or adds its own names.
OPENAI_VOICES = ("onyx", "nova", "alloy", "echo", "shimmer", "fable", "ash", "coral", "sage")
# espeak-ng's variants (1.51, ``espeak-ng --voices=variant``): the palette the class is given first, seven male
# and five female, then every other variant it has, which a file may name.
ESPEAK_PALETTE = ("m3", "f2", "m1", "f4", "m7", "f1", "m5", "f3", "m2", "f5", "m4", "m6")
_OTHER_VARIANTS = (
    "adam", "Alex", "Alicia", "Andrea", "Andy", "Annie", "antonio", "aunty", "belinda", "benjamin", "boris",
    "caleb", "david", "Demonic", "Denis", "Diogo", "ed", "edward", "edward2", "Gene", "Gene2", "gustave",
    "announcer", "Henrique", "Hugo", "iven", "iven2", "iven3", "iven4", "Jacky", "john", "kaukovalta", "Lee",
    "linda", "marcelo", "Marco", "Mario", "max", "Michael", "michel", "miguel", "Mike", "Mr", "Nguyen", "pablo",
    "paul", "pedro", "quincy", "RicishayMax", "RicishayMax2", "RicishayMax3", "rob", "robert", "robosoft",
    "robosoft2", "robosoft3", "robosoft4", "robosoft5", "robosoft6", "robosoft7", "robosoft8", "steph",
    "steph2", "steph3", "Storm", "Tweaky", "UniRobot", "zac", "anika", "anikaRobot", "AnxiousAndy", "fast",
    "whisperf", "grandpa", "klatt", "klatt2", "klatt3", "klatt4", "klatt5", "klatt6", "norbert", "sandro",
    "shelby", "travis", "victor", "whisper", "m8", "croak", "grandma",
)
ESPEAK_VARIANTS = frozenset((*ESPEAK_PALETTE, *_OTHER_VARIANTS))
ROLE_ORDER = {"teacher": 0, "assistant": 1, "student": 2}
_ESPEAK = re.compile(r"^(?P<language>[a-z]{2,3}(?:-[a-z0-9]{2,8})*)(?:\+(?P<variant>[A-Za-z0-9]+))?$")


def own_voice(agent: Agent, provider: Provider) -> str | None:
    if isinstance(agent.voice, str):
        return agent.voice
    if isinstance(agent.voice, Voices):
        return getattr(agent.voice, provider)
    return None


# Languages whose espeak-ng voice is not named by the language's own code: Chinese is spoken as Mandarin
# (``cmn``) unless the region speaks Cantonese; espeak-ng takes other codes as they are (``pt-br``, ``es-419``).
_ESPEAK_NAMES = {"zh": "cmn", "zh-cn": "cmn", "zh-sg": "cmn", "zh-tw": "cmn", "zh-hans": "cmn", "zh-hant": "cmn",
                 "zh-hans-cn": "cmn", "zh-hant-tw": "cmn", "zh-hk": "yue", "zh-mo": "yue", "zh-hant-hk": "yue",
                 "zh-yue": "yue", "nb": "nb", "no": "nb", "fil": "tl"}


def espeak_language(language: str) -> str:
    """espeak-ng's voice for a BCP 47 language code (``zh`` and ``zh-Hans`` are ``cmn``)."""
    code = language.casefold().replace("_", "-")
    return _ESPEAK_NAMES.get(code, code)


def in_language(voice: str, language: str) -> str:
    """An espeak-ng voice made to speak ``language``, its variant kept (``en+f2`` in Chinese: ``cmn+f2``)."""
    _, plus, variant = voice.partition("+")
    return f"{espeak_language(language)}{plus}{variant}"


def palette(provider: Provider, language: str) -> list[str]:
    if provider == "openai":
        return list(OPENAI_VOICES)
    base = espeak_language(language)
    return [f"{base}+{variant}" for variant in ESPEAK_PALETTE]


def assign(agents: list[Agent], provider: Provider, language: str, speech_language: str | None = None
           ) -> dict[str, str]:
    """Each agent's voice for ``provider``: its own, else the next of the palette no one in the class has. The
    palette speaks ``speech_language`` if one is asked for (``[voice] language``, a classroom's
    ``speech_language``), else the class's ``language``; an agent's own espeak-ng voice then speaks it too."""
    chosen = {a.id: voice for a in agents if (voice := own_voice(a, provider)) is not None}
    if speech_language is not None and provider == "espeak":
        chosen = {agent: in_language(voice, speech_language) for agent, voice in chosen.items()}
    every = palette(provider, speech_language or language)
    free = [v for v in every if v not in chosen.values()]
    waiting = sorted((a for a in agents if a.id not in chosen), key=lambda a: (ROLE_ORDER[a.role], agents.index(a)))
    for number, agent in enumerate(waiting):
        # More agents than voices: the palette starts again (the class is larger than the provider's range).
        chosen[agent.id] = free[number] if number < len(free) else every[number % len(every)]
    return chosen


def assigned_table(agents: list[Agent], language: str) -> dict[str, dict[str, str]]:
    """Every agent's voice for every provider, as a classroom file names them (what ``new`` writes)."""
    per = {provider: assign(agents, provider, language) for provider in PROVIDERS}
    return {a.id: {provider: per[provider][a.id] for provider in PROVIDERS} for a in agents}


def espeak_problem(voice: str) -> Said | None:
    found = _ESPEAK.match(voice)
    if found is None:
        return said(N_("{voice} is not an espeak-ng voice (a language code, then +m1…+m7 or +f1…+f5: en+f3)"),
                    voice=repr(voice))
    variant = found.group("variant")
    if variant is not None and variant not in ESPEAK_VARIANTS:
        return said(N_("{voice}: espeak-ng has no variant {variant} (m1…m8, f1…f5, croak, whisper, klatt…: see "
                       "espeak-ng --voices=variant)"), voice=repr(voice), variant=repr(variant))
    return None


def voice_problems(agents: list[Agent], provider: Provider | None = None) -> Iterator[tuple[str, str]]:
    """What a provider cannot speak (every provider a voice is named for, or only ``provider``), and a voice two
    agents were given."""
    for provider_ in PROVIDERS if provider is None else (provider,):
        taken: dict[str, str] = {}
        for number, agent in enumerate(agents):
            voice = own_voice(agent, provider_)
            if voice is None or (provider is None and isinstance(agent.voice, str) and provider_ == "espeak"):
                continue  # a bare name is checked against the provider that speaks it (validate --voice)
            where = f"agents[{number}].voice" + ("" if isinstance(agent.voice, str) else f".{provider_}")
            if provider_ == "espeak" and (problem := espeak_problem(voice)):
                yield where, problem
            elif voice in taken:
                yield where, said(N_("{voice} is already {agent}'s voice: no two agents of a class sound alike"),
                                  voice=repr(voice), agent=taken[voice])
            else:
                taken[voice] = agent.id
