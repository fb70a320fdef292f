"""The events a run emits, in order: the one stream the CLI, notebooks and traces consume."""
from __future__ import annotations

from typing import Literal, Union

from pydantic import BaseModel

from core.schema import ParseStatus, RunResult, Step, Usage


class StepStarted(BaseModel):
    type: Literal["step_started"] = "step_started"
    index: int


class PromptSent(BaseModel):
    type: Literal["prompt"] = "prompt"
    index: int
    messages: list[dict]


class LLMOutput(BaseModel):
    type: Literal["llm_output"] = "llm_output"
    index: int
    text: str
    usage: Usage
    seconds: float


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


class FinalEvent(BaseModel):
    type: Literal["final"] = "final"
    result: RunResult


Event = Union[StepStarted, PromptSent, LLMOutput, ActionEvent, ObservationEvent, StepRecorded, FinalEvent]
