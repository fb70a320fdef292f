"""Typed records of a run: steps, results and the events the loop emits."""
from __future__ import annotations

import enum
from typing import Literal, Union

from pydantic import BaseModel, Field


class StopReason(str, enum.Enum):
    final_answer = "final_answer"
    max_steps = "max_steps"
    wall_time = "wall_time"
    token_budget = "token_budget"
    repeated_action = "repeated_action"
    parse_errors = "parse_errors"
    llm_error = "llm_error"
    interrupted = "interrupted"


class ParseStatus(str, enum.Enum):
    ok = "ok"            # strict Thought/Action/Action Input format
    json = "json"        # recovered from a JSON object
    lenient = "lenient"  # recovered from key-value lines or other fallbacks
    error = "error"      # nothing usable: the error goes back to the model


class Usage(BaseModel):
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: "Usage") -> "Usage":
        return Usage(prompt_tokens=self.prompt_tokens + other.prompt_tokens,
                     completion_tokens=self.completion_tokens + other.completion_tokens)


class Timings(BaseModel):
    llm_seconds: float = 0.0
    tool_seconds: float = 0.0
    memory_seconds: float = 0.0


RAW_SHOWN_CHARS = 600  # how much of an unparsable reply is shown back to the model


class Step(BaseModel):
    """One Thought -> Action -> Action Input -> Observation turn."""
    index: int
    thought: str = ""
    action: str = ""
    action_input: str = ""
    observation: str = ""
    raw: str = ""
    parse_status: ParseStatus = ParseStatus.ok
    usage: Usage = Field(default_factory=Usage)
    timings: Timings = Field(default_factory=Timings)
    started_at: float = 0.0

    @property
    def is_final(self) -> bool:
        return self.action == "Final"

    def as_call(self) -> str:
        """The model's turn: its Thought, Action and Action Input, or what it wrote if that did not parse."""
        if self.parse_status is ParseStatus.error:
            return self.raw.strip()[:RAW_SHOWN_CHARS] or "(empty reply)"
        return f"Thought: {self.thought}\nAction: {self.action}\nAction Input: {self.action_input}"

    def as_text(self) -> str:
        """The step as the model would have written it, plus its observation."""
        return f"{self.as_call()}\nObservation: {self.observation}" if self.observation else self.as_call()


class RunResult(BaseModel):
    run_id: str
    task: str
    answer: str | None
    stop_reason: StopReason
    forced_answer: bool = False  # True when the answer came from the last-chance call, not a Final action
    steps: list[Step] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    wall_seconds: float = 0.0
    model: str = ""
    trace_path: str | None = None
    error: str | None = None  # what went wrong, for llm_error stops


# ---- events: the one stream the CLI, notebooks and traces consume ----

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
