"""What the loop made of one step, as types: the observation the model reads next, and what changes.

Each step ends in exactly one outcome. The loop computes it (`Agent._outcome`, which changes nothing) and then
applies it to the run's state in one place (`RunState.apply`).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Callable, Sequence, Union

from core.schema import FINAL_ACTION, Findings, ParseStatus, Step, StepOutcome, StopReason, Usage, repeat_key


class StopRun(Exception):
    """Ends the loop with an explicit stop reason."""

    def __init__(self, reason: StopReason, detail: str = ""):
        self.reason, self.detail = reason, detail
        super().__init__(f"{reason.value}: {detail}")


class StepResult:
    """What every outcome has: its observation (a field of each kind), and these, which a kind may set."""
    seconds = 0.0                      # the tool's time (ToolObserved)
    verdicts = MappingProxyType({})    # the final-answer checks' verdicts (FinalAccepted, FinalSentBack)
    calls: Sequence[dict] = ()         # a composite tool's inner calls (ToolObserved)
    findings: Findings | None = None   # what the tool found, as fields (ToolObserved)


@dataclass(frozen=True)
class ToolObserved(StepResult):
    observation: str
    seconds: float
    calls: list = field(default_factory=list)  # a composite tool's inner calls (tools.base.ToolCall dicts)
    findings: Findings | None = None
    kind: StepOutcome = StepOutcome.tool


@dataclass(frozen=True)
class FinalAccepted(StepResult):
    observation: str = ""
    verdicts: dict = field(default_factory=dict)  # check name -> "ok" (or its message, once overruled)
    answers: bool = True  # False: a check found it no answer at all (the question restated); the run has none
    kind: StepOutcome = StepOutcome.final


@dataclass(frozen=True)
class FinalSentBack(StepResult):
    """A final answer a check rejected; the check's message goes back to the model as the observation."""
    observation: str
    check: str
    verdicts: dict = field(default_factory=dict)
    kind: StepOutcome = StepOutcome.final_sent_back


@dataclass(frozen=True)
class ParseFailed(StepResult):
    observation: str
    kind: StepOutcome = StepOutcome.parse_error


@dataclass(frozen=True)
class RepeatWarned(StepResult):
    """The same action and input again: a warning instead of the tool, and the tool is off the next step."""
    observation: str
    tool: str
    kind: StepOutcome = StepOutcome.repeat_warning

    @classmethod
    def of(cls, action: str, earlier: int, folded_result: str = "") -> "RepeatWarned":
        """folded_result: the earlier step's observation when memory folded that step out of the prompt; the
        warning then restates it (measured on the real model: after its Elbe lookup was folded, it looked the
        Elbe up again, was told the result was in its work, and answered with the Vistula's length)."""
        where = (f"it is no longer in your work so far, so here it is again:\n{folded_result}\n"
                 if folded_result else "its result is in your work so far. ")
        return cls(f"Warning: you already ran {action} with this input at step {earlier}; {where}Repeating it will "
                   "not help: change strategy (another tool, another query), go on to another part of the question, "
                   "or give the Final answer.", tool=action)


@dataclass(frozen=True)
class ToolDenied(StepResult):
    """A call of a tool that needs approval, refused (by a person or the approver callback); the tool did not run."""
    observation: str
    kind: StepOutcome = StepOutcome.tool_denied

    @classmethod
    def of(cls, action: str) -> "ToolDenied":
        return cls(f"Denied: the user did not allow {action} with this input, so it did not run. Do not ask for it "
                   "again: use another tool, or answer from what you have.")


@dataclass(frozen=True)
class ToolRefused(StepResult):
    """A tool call an action check refused (see ActionCheck): it cannot answer the question as asked; the tool did
    not run, and the check's message says what call would."""
    observation: str
    check: str
    verdicts: dict = field(default_factory=dict)  # check name -> its message
    kind: StepOutcome = StepOutcome.tool_refused


@dataclass(frozen=True)
class ReplyCut(StepResult):
    """A reply that stopped on the token limit, also when asked again shorter: nothing in it is used (its last field
    may be incomplete). It is no parse error: it neither counts toward nor resets the parse-error stop."""
    observation: str
    kind: StepOutcome = StepOutcome.reply_cut


Outcome = Union[ToolObserved, ToolDenied, ToolRefused, FinalAccepted, FinalSentBack, ParseFailed, RepeatWarned,
                ReplyCut]


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
# Consulted before a tool runs: check(action, action_input, task) returns None to let it run, or the observation
# that refuses it (the call cannot answer the question; the message says what would).
ActionCheck = Callable[[str, str, str], str | None]


class RunState:
    """Everything one run tracks besides the steps' own records; the counters change only by `apply` (and
    usage/error). today: the date the prompt states; injections: a person's replacements (agent.stepping);
    planner: the run's agent.planning.Planner under --plan."""

    def __init__(self, task: str, steps: list[Step], started: float, today: str = "", injections=None):
        self.task, self.steps, self.started = task, [], started
        self.today, self.injections, self.planner = today, injections, None
        self.usage = Usage()
        self.error: str | None = None
        self.consecutive_parse_errors = 0
        self.final_rejections = 0
        self.repeated_tool: str | None = None  # the tool of a just-warned repeat: off the next step
        self.seen: dict[tuple[str, str], list[int]] = {}  # repeat key -> step indices
        self.storing_seconds = 0.0  # memory's time storing the latest step: part of the next step's memory time
        self.planned_steps = 0  # the helper calls and computation the run planned itself: on top of max_steps
        for step in steps:  # a resumed run keeps its history, counters included
            self.apply(step, replayed(step))
            self.usage = self.usage + step.usage

    def apply(self, step: Step, outcome: Outcome) -> None:
        self.steps.append(step)
        if not isinstance(outcome, ReplyCut):
            self.consecutive_parse_errors = self.consecutive_parse_errors + 1 if isinstance(outcome, ParseFailed) else 0
        self.final_rejections += isinstance(outcome, FinalSentBack)
        self.repeated_tool = outcome.tool if isinstance(outcome, RepeatWarned) else None
        if step.findings is not None and step.findings.usage is not None:  # a sub-agent's calls count here too
            self.usage = self.usage + step.findings.usage
        if isinstance(outcome, (ToolObserved, RepeatWarned, ToolDenied, ToolRefused)):  # asking again for a denied or
            # refused call repeats
            self.seen.setdefault(repeat_key(step.action, step.action_input), []).append(step.index)

    def limit_reached(self, config) -> StopReason | None:
        """The limit (of agent.config.AgentConfig) the run has reached before its next step, if any."""
        if len(self.steps) >= config.max_steps + self.planned_steps:
            return StopReason.max_steps
        if time.monotonic() - self.started > config.max_wall_seconds:
            return StopReason.wall_time
        if self.usage.evaluated_prompt_tokens + self.usage.completion_tokens > config.max_total_tokens:
            return StopReason.token_budget
        if self.consecutive_parse_errors >= config.max_consecutive_parse_errors:
            return StopReason.parse_errors
        return None

    def repeats_over(self, limit: int) -> bool:
        """Has the latest action been repeated more than `limit` times?"""
        if not self.steps:
            return False
        latest = self.steps[-1]
        return len(self.seen.get(repeat_key(latest.action, latest.action_input), ())) - 1 > limit

    def allowed(self, tool_names: list[str]) -> list[str]:
        """Actions the next step may take. Right after a repeat warning the repeated tool is left out, so a
        grammar-constrained model must change strategy as the warning says (free-text models just get told)."""
        names = [name for name in tool_names if name != self.repeated_tool]
        return [*(names or tool_names), FINAL_ACTION]


def replayed(step: Step) -> Outcome:
    """The outcome a stored step had (steps stored before outcomes were recorded are read from their fields)."""
    kind = step.outcome
    if step.is_final:
        return FinalSentBack(step.observation, check="") if step.observation else FinalAccepted()
    if kind is StepOutcome.reply_cut:
        return ReplyCut(step.observation)
    if kind is StepOutcome.tool_refused:
        return ToolRefused(step.observation, check=next(iter(step.verdicts), ""), verdicts=dict(step.verdicts))
    if kind is StepOutcome.parse_error or (kind is StepOutcome.unrecorded and step.parse_status is ParseStatus.error):
        return ParseFailed(step.observation)
    if kind is StepOutcome.repeat_warning:
        return RepeatWarned(step.observation, tool=step.action)
    if kind is StepOutcome.tool_denied:
        return ToolDenied(step.observation)
    return ToolObserved(step.observation, step.timings.tool_seconds)
