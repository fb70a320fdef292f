"""What the loop made of one step, as types: the observation the model reads next, and what changes.

Each step ends in exactly one outcome. The loop computes it (`Agent._outcome`, which changes nothing) and then
applies it to the run's state in one place (`_RunState.apply`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Union

from core.schema import Step, StepOutcome


@dataclass(frozen=True)
class ToolObserved:
    observation: str
    seconds: float
    calls: list = field(default_factory=list)  # a composite tool's inner calls (tools.base.ToolCall dicts)
    kind: StepOutcome = StepOutcome.tool


@dataclass(frozen=True)
class FinalAccepted:
    observation: str = ""
    verdicts: dict = field(default_factory=dict)  # check name -> "ok" (or its message, once overruled)
    kind: StepOutcome = StepOutcome.final


@dataclass(frozen=True)
class FinalSentBack:
    """A final answer a check rejected; the check's message goes back to the model as the observation."""
    observation: str
    check: str
    verdicts: dict = field(default_factory=dict)
    kind: StepOutcome = StepOutcome.final_sent_back


@dataclass(frozen=True)
class ParseFailed:
    observation: str
    kind: StepOutcome = StepOutcome.parse_error


@dataclass(frozen=True)
class RepeatWarned:
    """The same action and input again: a warning instead of the tool, and the tool is off the next step."""
    observation: str
    tool: str
    kind: StepOutcome = StepOutcome.repeat_warning


@dataclass(frozen=True)
class ToolDenied:
    """A call of a tool that needs approval, refused (by a person or the approver callback); the tool did not run."""
    observation: str
    kind: StepOutcome = StepOutcome.tool_denied


Outcome = Union[ToolObserved, ToolDenied, FinalAccepted, FinalSentBack, ParseFailed, RepeatWarned]


@dataclass(frozen=True)
class FinalCandidate:
    """What a final-answer check sees."""
    answer: str
    task: str
    today: str
    steps: list[Step] = field(default_factory=list)
    rejections: int = 0  # how often a final answer was already sent back in this run


# A check returns None to accept, or the message that sends the answer back to the model.
FinalCheck = Callable[[FinalCandidate], Union[str, None]]
