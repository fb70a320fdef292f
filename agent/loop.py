"""The ReAct loop: build prompt -> call LLM -> parse -> Final? -> run tool -> observe -> record -> check limits."""
from __future__ import annotations

import datetime as dt
import time
import uuid
from typing import Callable, Iterator

from agent import prompts
from agent.config import AgentConfig
from agent.grounding import ungrounded_numbers
from agent.llm.base import LLM, Completion, LLMError, Message
from agent.observations import call_with_timeout, clean_observation
from agent.parser import STOP_SEQUENCES, Parsed, parse
from agent.schema import (ActionEvent, Event, FinalEvent, LLMOutput, ObservationEvent, ParseStatus, PromptSent,
                          RunResult, Step, StepRecorded, StepStarted, StopReason, Timings, Usage)
from agent.trace import TraceWriter
from memory.base import FullHistory, Memory
from tools.base import ToolRegistry


# Stops after which the run still has useful work: one last call asks for the best answer from it.
_FORCE_AFTER = (StopReason.max_steps, StopReason.repeated_action)


class StopRun(Exception):
    """Ends the loop with an explicit stop reason."""

    def __init__(self, reason: StopReason, detail: str = ""):
        self.reason, self.detail = reason, detail
        super().__init__(f"{reason.value}: {detail}")


class Agent:
    def __init__(self, llm: LLM, tools: ToolRegistry, memory: Memory | None = None,
                 config: AgentConfig | None = None, run_id: str | None = None):
        self.llm, self.tools = llm, tools
        self.memory = memory if memory is not None else FullHistory()
        self.config = config or AgentConfig()
        self.run_id = run_id or new_run_id()

    def run(self, task: str, on_event: Callable[[Event], None] | None = None,
            prior_steps: list[Step] | None = None) -> RunResult:
        for event in self.stream(task, prior_steps):
            if on_event:
                on_event(event)
        return event.result

    def stream(self, task: str, prior_steps: list[Step] | None = None) -> Iterator[Event]:
        """Run the task, yielding typed events; the last one is a FinalEvent carrying the RunResult."""
        trace = TraceWriter.open(self.config.trace_dir, self.run_id)
        state = _RunState(task=task, steps=list(prior_steps or []), started=time.monotonic())
        answer, forced = None, False
        try:
            while True:
                self._check_limits(state)
                index = len(state.steps)
                yield _log(trace, StepStarted(index=index))
                started, memory_seconds = time.time(), time.perf_counter()
                messages = prompts.build_messages(task, self.memory.context(task), self.tools.describe(), _today())
                memory_seconds = time.perf_counter() - memory_seconds
                yield _log(trace, PromptSent(index=index, messages=[m.model_dump() for m in messages]))
                completion, llm_seconds = self._complete(messages, state, tool_names=self._allowed_actions(state))
                yield _log(trace, LLMOutput(index=index, text=completion.text, usage=completion.usage,
                                            seconds=llm_seconds))
                parsed = parse(completion.text)
                yield _log(trace, ActionEvent(index=index, thought=parsed.thought, action=parsed.action,
                                              action_input=parsed.action_input, parse_status=parsed.status))
                observation, tool_seconds = self._observe(parsed, state)  # for a Final: "" once accepted
                if observation:
                    yield _log(trace, ObservationEvent(index=index, observation=observation, seconds=tool_seconds))
                step = Step(index=index, thought=parsed.thought, action=parsed.action,
                            action_input=parsed.action_input, observation=observation, raw=completion.text,
                            parse_status=parsed.status, usage=completion.usage, started_at=started,
                            timings=Timings(llm_seconds=llm_seconds, tool_seconds=tool_seconds,
                                            memory_seconds=memory_seconds))
                self._record(step, state)
                yield _log(trace, StepRecorded(step=step))
                if parsed.action == "Final" and not observation:
                    answer = parsed.action_input
                    raise StopRun(StopReason.final_answer)
        except StopRun as stop:
            reason = stop.reason
            if reason in _FORCE_AFTER and self.config.force_final_answer:
                answer, forced = self._forced_answer(state)
        result = RunResult(run_id=self.run_id, task=task, answer=answer, stop_reason=reason, forced_answer=forced,
                           steps=state.steps, usage=state.usage, wall_seconds=time.monotonic() - state.started,
                           model=getattr(self.llm, "name", type(self.llm).__name__),
                           trace_path=str(trace.path) if trace.path else None, error=state.error)
        yield _log(trace, FinalEvent(result=result))
        trace.close()

    # ---- helpers -------------------------------------------------------------------------------------------

    def _check_limits(self, state: "_RunState") -> None:
        cfg = self.config
        if len(state.steps) >= cfg.max_steps:
            raise StopRun(StopReason.max_steps)
        if time.monotonic() - state.started > cfg.max_wall_seconds:
            raise StopRun(StopReason.wall_time)
        if state.usage.total_tokens > cfg.max_total_tokens:
            raise StopRun(StopReason.token_budget)
        if state.consecutive_parse_errors >= cfg.max_consecutive_parse_errors:
            raise StopRun(StopReason.parse_errors)

    def _complete(self, messages: list[Message], state: "_RunState", tool_names=()) -> tuple[Completion, float]:
        start = time.perf_counter()
        try:
            completion = self.llm.complete(messages, stop=STOP_SEQUENCES, tool_names=tool_names)
        except LLMError as exc:
            state.error = str(exc)
            raise StopRun(StopReason.llm_error, str(exc)) from None
        state.usage = state.usage + completion.usage
        return completion, time.perf_counter() - start

    def _observe(self, parsed: Parsed, state: "_RunState") -> tuple[str, float]:
        """The observation for an action: a parse error, a repeat warning, the tool's result, or for a Final
        answer "" (accepted) or why it is sent back."""
        if parsed.action == "Final":
            return self._check_final(parsed, state), 0.0
        if parsed.status is ParseStatus.error:
            state.consecutive_parse_errors += 1
            return parsed.error or "Error: could not parse your output.", 0.0
        state.consecutive_parse_errors = 0
        key = (parsed.action.strip().lower(), " ".join(parsed.action_input.lower().split()))
        earlier = state.seen.setdefault(key, [])
        earlier.append(len(state.steps))
        if len(earlier) - 1 > self.config.repeat_limit:
            raise StopRun(StopReason.repeated_action, f"{parsed.action} {parsed.action_input!r}")
        if len(earlier) > 1:
            state.repeated_tool = parsed.action
            return (f"Warning: you already ran {parsed.action} with this input at step {earlier[0]}; its result is "
                    "in your work so far. Repeating it will not help: change strategy (another tool, another "
                    "query), go on to another part of the question, or give the Final answer."), 0.0
        observation, seconds = call_with_timeout(lambda: self.tools.execute(parsed.action, parsed.action_input),
                                                 self.config.tool_timeout_seconds, parsed.action)
        return clean_observation(observation, self.config.observation_max_chars), seconds

    def _check_final(self, parsed: Parsed, state: "_RunState") -> str:
        """A Final answer with numbers that no observation backs goes back to the model (a bounded number of
        times a run: the model may know better, and then it repeats its answer)."""
        if state.final_checks >= self.config.final_number_checks:
            return ""
        sources = [state.task, _today(), *(step.observation for step in state.steps if step.action != "Final")]
        missing = ungrounded_numbers(parsed.action_input, sources)
        if not missing:
            return ""
        state.final_checks += 1
        still = "still " if state.final_checks > 1 else ""
        return (f"Check before finishing: your answer {still}states {', '.join(missing)}, which no Observation "
                "shows. Work it out with a tool (calculator, date_diff) or look it up, then write a new Final "
                "answer that uses the Observations' numbers; if it is right as it is, repeat the same Final answer.")

    def _allowed_actions(self, state: "_RunState") -> list[str]:
        """Tool names the next step may use. Right after a repeat warning the repeated tool is left out, so a
        grammar-constrained model must change strategy as the warning says (free-text models just get told)."""
        names = [n for n in self.tools.names if n != state.repeated_tool]
        state.repeated_tool = None
        return [*(names or self.tools.names), "Final"]

    def _record(self, step: Step, state: "_RunState") -> None:
        start = time.perf_counter()
        self.memory.add(step)  # persisted before the next LLM call
        step.timings.memory_seconds += time.perf_counter() - start
        state.steps.append(step)

    def _forced_answer(self, state: "_RunState") -> tuple[str | None, bool]:
        messages = prompts.build_forced_final(state.task, self.memory.context(state.task), _today())
        try:
            completion, _ = self._complete(messages, state)
        except StopRun:
            return None, False
        parsed = parse(completion.text)  # the model may still answer in the step format
        text = parsed.action_input if parsed.action == "Final" else completion.text
        return (text.strip() or None), True


class _RunState:
    def __init__(self, task: str, steps: list[Step], started: float):
        self.task, self.steps, self.started = task, steps, started
        self.usage = sum((s.usage for s in steps), Usage())
        self.consecutive_parse_errors = 0
        self.error: str | None = None
        self.repeated_tool: str | None = None  # the tool of a just-warned repeat
        self.final_checks = sum(s.action == "Final" for s in steps)  # a resumed run's Finals were sent back
        self.seen: dict[tuple[str, str], list[int]] = {}
        for s in steps:  # a resumed run keeps its repeat history
            self.seen.setdefault((s.action.lower(), " ".join(s.action_input.lower().split())), []).append(s.index)


def _log(trace: TraceWriter, event: Event) -> Event:
    trace.write(event)
    return event


def _today() -> str:
    return dt.date.today().isoformat()


def new_run_id() -> str:
    return dt.datetime.now().strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]
