"""Stage answers into classroom data: ids, colours, positions, pointers and option values are assigned here,
and what cannot be built is a problem line the stage is asked again with."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from maic_tui.classroom.models import Agent, Voices
from maic_tui.classroom.report import Found, grouped
from maic_tui.classroom.voices import assigned_table
from maic_tui.generation.stages import AVATARS, PALETTE, numbered, slug
from maic_tui.i18n import N_
from maic_tui.i18n.said import said

Data = dict[str, Any]
POINT_CHARS, PERSONA_CHARS = 1_000, 2_000
BOARD_ROWS = 6  # lines of board writing per scene, 70 units apart
DEFAULT_PERSONAS = {"teacher": "Clear, patient teacher who explains step by step and checks understanding.",
                    "assistant": "Friendly assistant who rephrases in everyday words and adds an example.",
                    "student": "Curious student who asks why and says so when lost."}


def outline(draft: Data, answer: Data, wanted: int) -> list[str]:
    """The lesson's plan: ``wanted`` scenes at most (a longer outline is cut, never one call more per scene)."""
    draft["title"] = " ".join(str(answer.get("title", "")).split())[:80] or "A lesson"
    draft["description"] = " ".join(str(answer.get("description", "")).split())
    scenes = [s for s in answer.get("scenes", []) if isinstance(s, dict) and s.get("title")][:wanted]
    draft["_outline"] = [{"title": " ".join(str(s["title"]).split())[:80],
                          "points": [str(p)[:POINT_CHARS] for p in s.get("points", []) if str(p).strip()][:12]
                          or [str(s["title"])]}  # within what the plan allows (generation/outline_file.py)
                         for s in scenes]
    return [] if scenes else [said(N_("the outline has no scenes with a title"))]


def roster(draft: Data, answer: Data, wanted: int) -> list[str]:
    """The class: ``wanted`` people at most, one of them the teacher."""
    agents, used = [], set()
    for number, person in enumerate(answer.get("agents", [])[:wanted]):
        name = " ".join(str(person.get("name", "")).split())[:40] or f"Agent {number + 1}"
        ident = slug(name.split()[-1] if person.get("role") == "teacher" else name.split()[0], f"agent{number + 1}")
        while ident in used:
            ident += str(number + 1)
        used.add(ident)
        role = person.get("role") if person.get("role") in ("teacher", "assistant", "student") else "student"
        agents.append({"id": ident, "name": name, "role": role,
                       "persona": str(person.get("persona", "")).strip()[:PERSONA_CHARS],
                       "avatar": AVATARS[number % len(AVATARS)], "color": PALETTE[number % len(PALETTE)],
                       "priority": {"teacher": 10, "assistant": 7, "student": 5}[role]})
    # One teacher, whatever the model said: the first it called a teacher (else the first person) leads, any other
    # "teacher" assists (or joins the students once there is an assistant).
    lead = next((a for a in agents if a["role"] == "teacher"), agents[0] if agents else None)
    for agent in agents:
        if agent is lead:
            agent["role"] = "teacher"
        elif agent["role"] == "teacher":
            agent["role"] = "student" if any(a["role"] == "assistant" for a in agents) else "assistant"
        role = str(agent["role"])
        agent["priority"] = {"teacher": 10, "assistant": 7, "student": 5}[role]
        agent["persona"] = agent["persona"] or DEFAULT_PERSONAS[role]
    given = answer.get("agents", [])[:wanted]
    _give_voices(agents, [person.get("voice") for person in given], str(draft.get("language", "en")))
    draft["agents"] = agents
    return [] if agents else [said(N_("the roster has nobody in it"))]


def _give_voices(agents: list[Data], asked: list[object], language: str) -> None:
    """Each agent's voice per provider: the one the plan gave, where it is a voice; else one of its own."""
    models = []
    for agent, voice in zip(agents, asked, strict=False):
        try:
            own = Voices.model_validate(voice) if isinstance(voice, dict) else None
        except ValidationError:
            own = None
        models.append(Agent.model_construct(**(agent | {"voice": own})))
    table = assigned_table(models, language)
    for agent in agents:
        agent["voice"] = table[agent["id"]]


def scene(draft: Data, number: int, answer: Data) -> list[str]:
    planned = draft["_outline"][number]
    roles = {agent["id"]: agent["role"] for agent in draft["agents"]}
    problems: list[str] = []
    elements = []
    for k, item in enumerate(answer.get("elements", [])):
        kind, text = item.get("kind"), " ".join(str(item.get("text", "")).split())
        items = [str(i).strip() for i in item.get("items", []) if str(i).strip()]
        if kind == "bullets" and items:
            elements.append({"type": "bullets", "id": f"e{k + 1}", "items": items})
        elif text:
            elements.append({"type": "title" if kind == "title" else "text", "id": f"e{k + 1}", "text": text})
    if not elements:  # the outline's points make the slide the lecture talks about
        elements = [{"type": "title", "id": "e1", "text": planned["title"]},
                    {"type": "bullets", "id": "e2", "items": list(planned["points"])}]
    script: list[Data] = []
    rows, board_open = 0, False
    # the board keeps what earlier scenes drew; clearing an empty one is an error when the lesson plays
    drawn_before = any(step.get("action") == "wb_draw_text" for earlier in draft.get("scenes", ())
                       for step in earlier.get("script", ()))
    strangers: list[Found] = []  # lines by nobody of the roster: one problem per name, however many lines
    for n, line in enumerate(answer.get("lines", [])):
        agent = _agent_of(draft["agents"], line.get("agent"))
        if agent is None:
            strangers.append((f"lines[{n}].agent", f"{line.get('agent')!r} is not an agent id ({', '.join(roles)})"))
            continue
        pointed = line.get("point_at")
        if roles[agent] == "teacher" and isinstance(pointed, int) and 0 <= pointed < len(elements):
            if board_open:
                script.append({"agent": agent, "action": "wb_close"})
                board_open = False
            script.append({"agent": agent, "action": "spotlight", "params": {"elementId": elements[pointed]["id"]}})
        speech = " ".join(str(line.get("say", "")).split())
        if speech:
            script.append({"agent": agent, "say": speech})
        board = " ".join(str(line.get("board", "")).split())[:80]
        if board and rows < BOARD_ROWS:
            if rows == 0 and drawn_before:
                script.append({"agent": agent, "action": "wb_clear"})
            script.append({"agent": agent, "action": "wb_draw_text", "params": {
                "content": board, "x": 40, "y": 40 + 70 * rows, "width": 900, "height": 50, "fontSize": 20}})
            rows, board_open = rows + 1, True
    problems += [f"{where}: {what}" for where, what in grouped(strangers)]
    if not any("say" in step for step in script):
        problems.append(said(N_("the lecture has no line with speech")))
    topic = " ".join(str(answer.get("discussion", "")).split())
    students = [ident for ident, role in roles.items() if role == "student"]
    if topic and students:
        script.append({"discussion": topic, "agent": students[number % len(students)]})
    ident = slug(planned["title"], f"scene{number + 1}")
    taken = {s["id"] for s in draft.get("scenes", [])}
    draft.setdefault("scenes", []).append({"id": ident if ident not in taken else numbered(ident, number + 1),
                                           "title": planned["title"], "script": script, "elements": elements})
    return problems


def _agent_of(agents: list[Data], said: object) -> str | None:
    """An agent id from what the model wrote: the id, or the name (any case)."""
    text = str(said or "").strip().casefold()
    for agent in agents:
        if text in (agent["id"], agent["name"].casefold()) or text in agent["name"].casefold().split():
            return str(agent["id"])
    return None


def ensure_discussion(draft: Data) -> None:
    """At least one discussion in the lesson: if the model gave none, a student opens one on the middle scene."""
    scenes = draft.get("scenes", [])
    students = [a["id"] for a in draft["agents"] if a["role"] == "student"]
    if not scenes or not students or any("discussion" in step for s in scenes for step in s["script"]):
        return
    middle = len(scenes) // 2
    point = draft["_outline"][middle]["points"][0].rstrip(".")
    scenes[middle]["script"].append({"discussion": f"What do you think: {point}?", "agent": students[0]})


def demo(draft: Data, answer: Data) -> list[str]:
    teacher = next(a for a in draft["agents"] if a["role"] == "teacher")
    answers, used = [], set()
    for k, item in enumerate(answer.get("answers", [])):
        question = " ".join(str(item.get("question", "")).split())
        reply = " ".join(str(item.get("answer", "")).split())
        keywords = [str(w).strip() for w in item.get("keywords", []) if str(w).strip()]
        if not (question and reply and keywords):
            continue
        ident = slug(question, f"answer{k + 1}")
        if ident in used:
            continue
        used.add(ident)
        answers.append({"id": ident, "question": question, "keywords": keywords,
                        "turns": [{"agent": teacher["id"], "steps": [{"say": reply}]}]})
    if not answers:  # the outline still says what each scene is about
        for planned in draft["_outline"]:
            ident = slug(planned["title"], f"answer{len(answers) + 1}")
            if ident not in used:
                used.add(ident)
                answers.append({"id": ident, "question": f"What is {planned['title']} about?",
                                "keywords": [w for w in planned["title"].split() if len(w) > 3] or [planned["title"]],
                                "turns": [{"agent": teacher["id"], "steps": [{"say": " ".join(planned["points"])}]}]})
    nickname = draft.get("learner", {}).get("nickname", "everyone")
    draft["demo"] = {"opening": [{"agent": teacher["id"], "steps": [
        {"say": f"Welcome, {nickname}! Today: {draft['title']}. Ask me anything as we go."}]}], "answers": answers}
    return [] if answers else [said(N_("no prepared answer has a question, keywords and an answer"))]


def classroom_data(draft: Data) -> Data:
    """The draft without the generator's own notes (the outline), as the classroom file holds it."""
    return {key: value for key, value in draft.items() if not key.startswith("_")}
