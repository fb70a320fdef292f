"""The events a run emits, in order: the one stream the CLI, notebooks and traces consume."""
from __future__ import annotations

from typing import Literal, Union

from pydantic import BaseModel

from core.schema import ParseStatus, RunResult, Step, Usage


class StepStarted(BaseModel):
    type: Literal["step_started"] = "step_started"
    index: int


class PromptSent(BaseModel):
    """A prompt, and what memory put in it: the earlier steps it recalled, the steps its summary covers (up to),
    and the memory's part in tokens (traces written before these fields have None)."""
    type: Literal["prompt"] = "prompt"
    index: int
    messages: list[dict]
    recalled: list[int] | None = None
    summary_upto: int | None = None
    memory_tokens: int | None = None


class LLMOutput(BaseModel):
    """One reply of the model. truncated: it stopped on the token limit, and the step asks again once, with the
    same prompt and agent.prompts.CUT_RETRY after its last message (so a step may have two of these)."""
    type: Literal["llm_output"] = "llm_output"
    index: int
    text: str
    usage: Usage
    seconds: float
    truncated: bool = False


class ActionEvent(BaseModel):
    type: Literal["action"] = "action"
    index: int
    thought: str
    action: str
    action_input: str
    parse_status: ParseStatus


class ObservationEvent(BaseModel):
    type: Literal["observation"] = "observation"
    index: int
    observation: str
    seconds: float


class StepRecorded(BaseModel):
    type: Literal["step_recorded"] = "step_recorded"
    step: Step


class PlanMade(BaseModel):
    """A plan written before the first step (revision 0) or rewritten after a dead end."""
    type: Literal["plan"] = "plan"
    index: int  # the step it comes before
    plan: str   # "" when the model's reply held no readable plan
    revision: int
    raw: str
    usage: Usage


class LessonWritten(BaseModel):
    """A failed attempt's lesson; the next attempt starts with it in its prompt."""
    type: Literal["lesson"] = "lesson"
    attempt: int
    failure: str
    lesson: str
    usage: Usage


class FinalEvent(BaseModel):
    type: Literal["final"] = "final"
    result: RunResult


Event = Union[StepStarted, PromptSent, LLMOutput, ActionEvent, ObservationEvent, StepRecorded, PlanMade, LessonWritten,
              FinalEvent]
