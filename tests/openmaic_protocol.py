"""OpenMAIC's ``StatelessEvent`` (``lib/types/chat.ts``) and the director state it carries
(``lib/orchestration/types.ts``), written down as strict pydantic models: every field OpenMAIC declares must
be there with its type (optional ones may be absent); fields we add are allowed, changed ones are not."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, TypeAdapter


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True)


WhiteboardActionName = Literal["wb_draw_text", "wb_draw_shape", "wb_draw_chart", "wb_draw_latex", "wb_draw_table",
                               "wb_draw_line", "wb_draw_code", "wb_edit_code", "wb_clear", "wb_delete", "wb_open",
                               "wb_close"]


class WhiteboardActionRecord(_Open):
    actionName: WhiteboardActionName
    agentId: StrictStr
    agentName: StrictStr
    params: dict[str, Any]


class AgentTurnSummary(_Open):
    agentId: StrictStr
    agentName: StrictStr
    contentPreview: StrictStr
    actionCount: StrictInt
    whiteboardActions: list[WhiteboardActionRecord]


class DirectorState(_Open):
    turnCount: StrictInt
    agentResponses: list[AgentTurnSummary]
    whiteboardLedger: list[WhiteboardActionRecord]


class AgentStartData(_Open):
    messageId: StrictStr
    agentId: StrictStr
    agentName: StrictStr
    agentAvatar: StrictStr | None = None
    agentColor: StrictStr | None = None


class AgentStart(_Open):
    type: Literal["agent_start"]
    data: AgentStartData


class AgentEndData(_Open):
    messageId: StrictStr
    agentId: StrictStr


class AgentEnd(_Open):
    type: Literal["agent_end"]
    data: AgentEndData


class TextDeltaData(_Open):
    content: StrictStr
    messageId: StrictStr | None = None


class TextDelta(_Open):
    type: Literal["text_delta"]
    data: TextDeltaData


class ActionData(_Open):
    actionId: StrictStr
    actionName: StrictStr
    params: dict[str, Any]
    agentId: StrictStr
    messageId: StrictStr | None = None


class Action(_Open):
    type: Literal["action"]
    data: ActionData


class ThinkingData(_Open):
    stage: Literal["director", "agent_loading"]
    agentId: StrictStr | None = None


class Thinking(_Open):
    type: Literal["thinking"]
    data: ThinkingData


class CueUserData(_Open):
    fromAgentId: StrictStr | None = None
    prompt: StrictStr | None = None


class CueUser(_Open):
    type: Literal["cue_user"]
    data: CueUserData


class DoneData(_Open):
    totalActions: StrictInt
    totalAgents: StrictInt
    agentHadContent: StrictBool | None = None
    directorState: DirectorState | None = None


class Done(_Open):
    type: Literal["done"]
    data: DoneData


class ErrorData(_Open):
    message: StrictStr


class Error(_Open):
    type: Literal["error"]
    data: ErrorData


StatelessEvent = Annotated[AgentStart | AgentEnd | TextDelta | Action | Thinking | CueUser | Done | Error,
                           Field(discriminator="type")]
STATELESS_EVENT: TypeAdapter[Any] = TypeAdapter(StatelessEvent)
