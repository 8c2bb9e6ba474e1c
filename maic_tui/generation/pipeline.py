"""``maic-tui new``'s pipeline: material summarised in pieces, then outline → roster → each scene → quiz → demo
material, every stage's answer checked by the loader that checks a hand-written file, and asked again with the
loader's lines (at most ``REPAIRS`` times) before the generation stops with what it had."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from maic_tui.bad_input import MAX_FILE_BYTES
from maic_tui.classroom.loader import check_text
from maic_tui.classroom.models import Classroom
from maic_tui.classroom.toml_writer import data_toml
from maic_tui.files import encodable
from maic_tui.generation import answers, build, stages
from maic_tui.generation.answers import AnswerProblems, StageAnswer, read_answer
from maic_tui.generation.kind_stages import kind_stages, stage_name
from maic_tui.generation.stages import Brief
from maic_tui.i18n import N_, _, named_in_english
from maic_tui.i18n.said import Said, said, shown
from maic_tui.llm import describe
from maic_tui.llm.client import ModelClient
from maic_tui.llm.options import ModelOptions
from maic_tui.llm.structured_modes import ModeMemory
from maic_tui.orchestration.routing.director_answer import ObjectScanner
from maic_tui.provider import make_provider

REPAIRS = 2  # a stage is asked again at most this many times with the loader's lines
ANSWER_TOKENS = 1_500
ANSWER_CHARS = 16_000
SYSTEM = ("You write parts of a classroom file for a multi-agent lesson. You answer with one JSON object and "
          "nothing else.")

def system_prompt(language: str) -> str:
    """Every stage's system message: in a class of another language than English, all it writes is in that one."""
    if language == "en":
        return SYSTEM
    return (f"{SYSTEM} Write every text the learner reads or hears (titles, descriptions, personas, slides, speech, "
            f"questions, options, answers, keywords) in {named_in_english(language)}; keep the JSON keys and ids as "
            "asked.")


Progress = Callable[[str, str], None]  # (stage's id, what it is doing: in the interface's language)


class GenerationFailed(Exception):
    def __init__(self, stage: str, lines: list[str], draft: dict[str, Any]) -> None:
        super().__init__(f"the {stage} stage did not validate after {REPAIRS} repairs: {lines[0] if lines else '?'}")
        self.stage, self.lines, self.draft = stage, lines, draft


@dataclass
class StageLog:
    stage: str
    rounds: int  # 1 + repairs
    seconds: float


@dataclass
class Generated:
    classroom: Classroom
    text: str  # the TOML file
    log: list[StageLog] = field(default_factory=list)


def parse_object(raw: str) -> dict[str, Any]:
    """The first JSON object in a model's answer (prose or code fences around it are ignored)."""
    start = raw.find("{")
    if start == -1:
        raise ValueError(said(N_("the answer has no JSON object")))
    try:
        found, _end = json.JSONDecoder(strict=False).raw_decode(raw[start:])  # raw newlines in strings are fine
    except json.JSONDecodeError as exc:
        raise ValueError(said(N_("the JSON object does not parse: {reason} at character {position}"),
                              reason=exc.msg, position=exc.pos)) from None
    if not isinstance(found, dict):
        raise ValueError(said(N_("the answer is not a JSON object")))
    return found


class Generator:
    def __init__(self, spec: str, options: ModelOptions, brief: Brief, progress: Progress | None = None,
                 modes: ModeMemory | None = None) -> None:
        self.brief = brief
        self.progress = progress or (lambda stage, detail: None)
        self.client = ModelClient(make_provider(spec, None, options), modes or ModeMemory(None))
        self.draft: dict[str, Any] = {"language": brief.language}
        self.log: list[StageLog] = []

    async def ask(self, stage: str, kind: type[StageAnswer], schema: dict[str, Any], prompt: str,
                  apply: Callable[[dict[str, Any]], list[str]], check: bool = True) -> dict[str, Any]:
        """One stage: ask, check the answer's types, build, check the classroom; again with the problems;
        GenerationFailed after the last repair."""
        import time

        started = time.monotonic()
        messages: list[BaseMessage] = [SystemMessage(system_prompt(self.brief.language)), HumanMessage(prompt)]
        lines: list[str] = []
        for round_ in range(1, REPAIRS + 2):
            raw = await self._call(stage, schema, messages)
            before = json.loads(json.dumps(self.draft))  # a failed round leaves the draft as it was
            try:
                answer = read_answer(kind, parse_object(raw), self.client.secrets).model_dump()
                lines = apply(answer)
            except AnswerProblems as exc:
                answer, lines = {}, exc.lines
            except ValueError as exc:  # parse_object's lines are Said; keep them so
                answer, lines = {}, [exc.args[0] if exc.args and isinstance(exc.args[0], Said) else str(exc)]
            if not lines and check:
                lines = self.check()
            if not lines:
                self.log.append(StageLog(stage, round_, time.monotonic() - started))
                return answer
            self.draft = before
            if round_ > REPAIRS:
                break
            self.progress(stage, _("repair {round}: {problem}").format(round=round_, problem=shown(lines[0])))
            problems = "\n".join(f"- {line}" for line in lines[:8])
            messages = [*messages[:2], AIMessage(raw[:ANSWER_CHARS]),
                        HumanMessage(f"That answer has these problems:\n{problems}\nAnswer again with one corrected "
                                     "JSON object.")]
        raise GenerationFailed(stage, lines, self.draft)

    def check(self) -> list[str]:
        """The loader's lines for the classroom so far (as for a hand-written file)."""
        if not self.draft.get("agents"):
            return []
        _, problems = check_text(data_toml(build.classroom_data(self.draft)), "generated classroom")
        return [f"{p.path}: {p.message}" if p.path else p.message for p in problems]

    async def _call(self, stage: str, schema: dict[str, Any], messages: list[BaseMessage]) -> str:
        client = self.client
        try:
            return await client.ask(stage, f"classroom_{stage}", schema, messages, tokens=ANSWER_TOKENS,
                                    chars=ANSWER_CHARS, until=lambda: ObjectScanner().feed)
        except Exception as exc:  # a failing server: one line, and the stage stops the generation
            line = Said(describe(exc, who=stage, secrets=client.secrets).message,  # the kept draft's, English
                        describe(exc, who=stage_name(stage), secrets=client.secrets, shown=True).message)
            raise GenerationFailed(stage, [line], self.draft) from None

    async def run(self) -> Generated:
        await self.plan()
        return await self.write()

    async def plan(self) -> None:
        """The material summarised, the outline and the class: what ``new --review`` shows the author."""
        brief = self.brief
        if len(brief.material) > stages.SUMMARY_CHARS:
            brief = self.brief = replace(brief, material=await self._summarise())
        self.progress("outline", brief.topic)
        await self.ask("outline", answers.Outline, stages.outline_schema(brief.scenes), stages.outline_prompt(brief),
                       lambda a: build.outline(self.draft, a, brief.scenes), check=False)
        title = self.draft["title"]
        self.progress("roster", title)
        await self.ask("roster", answers.Roster, stages.roster_schema(brief.agents), stages.roster_prompt(brief, title),
                       lambda a: build.roster(self.draft, a, brief.agents))

    async def write(self) -> Generated:
        """Each scene of the outline (as planned, or as the author left it), the quiz and the demo material."""
        brief, title = self.brief, self.draft["title"]
        cast = "; ".join(f"{a['id']} ({a['role']}: {a['persona']})" for a in self.draft["agents"])
        planned = self.draft["_outline"]
        middle = len(planned) // 2
        for number, scene in enumerate(planned):
            self.progress("scene", f"{number + 1}/{len(planned)} {scene['title']}")
            schema = stages.scene_schema([a["id"] for a in self.draft["agents"]], number == middle)

            def apply(answer: dict[str, Any], n: int = number) -> list[str]:
                return build.scene(self.draft, n, answer)

            prompt = stages.scene_prompt(brief, title, scene, cast, number == middle)
            await self.ask("scene", answers.SceneAnswer, schema, prompt, apply)
            self.progress("scene done", f"{number + 1}/{len(planned)} {scene['title']}")
        build.ensure_discussion(self.draft)
        points = "; ".join(p for s in planned for p in s["points"])
        for stage in kind_stages():
            if stage.wanted(brief):
                self.progress(stage.STAGE, title)
                await stage.write(self)
        self.progress("demo", title)
        await self.ask("demo", answers.DemoMaterial, stages.demo_schema(), stages.demo_prompt(title, points),
                       lambda a: build.demo(self.draft, a))
        text = data_toml(build.classroom_data(self.draft), comment=f"Generated by maic-tui new: {brief.topic}")
        classroom, problems = check_text(text, "generated classroom")
        if classroom is None:  # every stage was checked; this is the whole file's last word
            raise GenerationFailed("final check", [str(p) for p in problems], self.draft)
        size = len(encodable(text, "the generated classroom").encode("utf-8"))
        if size > MAX_FILE_BYTES:  # what the loader would refuse to open is never written
            line = said(N_("the classroom is {size} MB, over the {limit} MB a file may have"),
                        size=f"{size / 2**20:.1f}", limit=f"{MAX_FILE_BYTES / 2**20:g}")
            raise GenerationFailed("final check", [line], self.draft)
        return Generated(classroom, text, self.log)

    async def _summarise(self) -> str:
        """Long material in pieces of about ``SUMMARY_CHARS``, each summarised; the summaries teach the lesson."""
        material, size = self.brief.material, stages.SUMMARY_CHARS
        pieces = [material[i:i + size] for i in range(0, len(material), size)]
        summaries = []
        for number, piece in enumerate(pieces):
            self.progress("summary", f"{number + 1}/{len(pieces)}")
            answer = await self.ask("summary", answers.Summary, stages.summary_schema(),
                                    stages.summary_prompt(self.brief.topic, piece),
                                    lambda a: [] if str(a.get("summary", "")).strip() else
                                    [said(N_("the summary is empty"))],
                                    check=False)
            summaries.append(str(answer["summary"]).strip())
        return "\n".join(summaries)
