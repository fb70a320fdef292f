"""The ReAct loop: build prompt -> call LLM -> parse -> Final? -> run tool -> observe -> record -> check limits."""
from __future__ import annotations

import datetime as dt
import time
import uuid
from typing import Callable, Iterator, Sequence

from agent import planning, prompts
from agent.config import AgentConfig
from agent.events import (
    ActionEvent,
    Event,
    FinalEvent,
    LLMOutput,
    ObservationEvent,
    PlanMade,
    PromptSent,
    StepRecorded,
    StepStarted,
)
from agent.observations import call_with_timeout, clean_observation
from agent.outcomes import (
    FinalAccepted,
    FinalCandidate,
    FinalSentBack,
    Outcome,
    ParseFailed,
    RepeatWarned,
    ToolDenied,
    ToolObserved,
)
from agent.parser import Parsed, parse
from agent.trace import TraceWriter
from core.clock import SYSTEM_CLOCK, Clock
from core.llm import LLM, STOP_SEQUENCES, Completion, LLMError, Message
from core.schema import (FINAL_ACTION, ParseStatus, RunResult, Step, StepOutcome, StopReason, Timings, Usage,
                         repeat_key)
from memory.base import Context, Memory
from memory.strategies import FullHistory
from tools.base import ToolRegistry

# Stops after which the run still has useful work: one last call asks for the best answer from it.
_FORCE_AFTER = (StopReason.max_steps, StopReason.repeated_action)


class StopRun(Exception):
    """Ends the loop with an explicit stop reason."""

    def __init__(self, reason: StopReason, detail: str = ""):
        self.reason, self.detail = reason, detail
        super().__init__(f"{reason.value}: {detail}")


class Injections:
    """What a person puts in place of the model's next action or the next tool result (agent.stepping). An action
    given before the model is called replaces the call; one given after the model proposed its own replaces that."""

    def __init__(self):
        self.action: tuple[str, str, str] | None = None  # thought, action, action input
        self.observation: str | None = None
        self.used: list[str] = []

    def completion(self) -> Completion | None:
        if self.action is None:
            return None
        text, self.action = "Thought: {}\nAction: {}\nAction Input: {}".format(*self.action), None
        self.used.append("action")
        return Completion(text=text, usage=Usage(), model="injected")

    def edit(self, parsed: Parsed) -> Parsed:
        completion = self.completion()
        return parse(completion.text) if completion else parsed

    def take_observation(self) -> str | None:
        observation, self.observation = self.observation, None
        if observation is not None:
            self.used.append("observation")
        return observation

    def take_used(self) -> list[str]:
        used, self.used = self.used, []
        return used


class Agent:
    """memory: made for this run's task (default: full history in this process); a memory that already holds
    steps (a stored run reopened) is resumed after them. clock: the date the prompt states; give the tools the
    same one."""

    def __init__(self, llm: LLM, tools: ToolRegistry, memory: Memory | None = None,
                 config: AgentConfig | None = None, run_id: str | None = None, clock: Clock = SYSTEM_CLOCK,
                 aux_llm: LLM | None = None, lessons: Sequence[str] = ()):
        """aux_llm: the model for side work (the plan); lessons: what failed attempts at this task taught."""
        self.llm, self.tools, self.memory = llm, tools, memory
        self.aux_llm, self.lessons = aux_llm or llm, list(lessons)
        self.injections = Injections()
        self.config = config or AgentConfig()
        self.run_id = run_id or getattr(memory, "run_id", None) or new_run_id()
        self.clock = clock

    def run(self, task: str | None = None, on_event: Callable[[Event], None] | None = None) -> RunResult:
        for event in self.stream(task):
            if on_event:
                on_event(event)
        return event.result

    def start(self, task: str | None = None, on_event: Callable[[Event], None] | None = None):
        """The run as an agent.stepping.Run: one step at a time, with breakpoints and injected actions."""
        from agent.stepping import Run  # stepping drives this module's stream
        return Run(self, task, on_event)

    def stream(self, task: str | None = None) -> Iterator[Event]:
        """Run the task, yielding typed events; the last one is a FinalEvent carrying the RunResult."""
        memory = self._memory_for(task)
        task = memory.task
        trace = TraceWriter.open(self.config.trace_dir, self.run_id)
        state = _RunState(task=task, steps=memory.steps(), started=time.monotonic())
        today = self.clock.today().isoformat()
        answer, forced, planner = None, False, None
        try:
            if self.config.plan:
                planner = self._planner(task, today, state, memory.noted("plan"))
                if planner.plan is None:  # a resumed run keeps the plan it had
                    yield _log(trace, self._plan_event(planner, planner.make(), state, memory))
            while True:
                self._check_limits(state)
                index = len(state.steps)
                yield _log(trace, StepStarted(index=index))
                started = time.time()
                shown, messages, memory_seconds = self._prompt(memory, state, planner, today)
                yield _log(trace, PromptSent(index=index, messages=[m.model_dump() for m in messages]))
                completion, llm_seconds = self._think(messages, state)
                yield _log(trace, LLMOutput(index=index, text=completion.text, usage=completion.usage,
                                            seconds=llm_seconds))
                parsed = parse(completion.text)
                yield ActionEvent(index=index, thought=parsed.thought, action=parsed.action,
                                  action_input=parsed.action_input, parse_status=parsed.status)
                parsed = self.injections.edit(parsed)  # a person may replace the action the model proposed
                outcome = self._outcome(parsed, state, today)
                if outcome.observation:
                    yield ObservationEvent(index=index, observation=outcome.observation,
                                           seconds=getattr(outcome, "seconds", 0.0))
                timings = Timings(llm_seconds=llm_seconds, tool_seconds=getattr(outcome, "seconds", 0.0),
                                  memory_seconds=memory_seconds)
                step = Step(index=index, thought=parsed.thought, action=parsed.action,
                            action_input=parsed.action_input, observation=outcome.observation, raw=completion.text,
                            parse_status=parsed.status, usage=completion.usage, started_at=started,
                            outcome=outcome.kind, timings=timings, verdicts=getattr(outcome, "verdicts", {}),
                            tool_calls=getattr(outcome, "calls", []), injected=self.injections.take_used(),
                            approval=self._approval_of(parsed, outcome))
                self._record(memory, step, shown)
                state.apply(step, outcome)
                yield _log(trace, StepRecorded(step=step))
                revised = planner.revise(state.steps) if planner else None
                if revised:
                    yield _log(trace, self._plan_event(planner, revised, state, memory))
                if isinstance(outcome, FinalAccepted):
                    answer = parsed.action_input
                    raise StopRun(StopReason.final_answer)
                if state.repeats_over(self.config.repeat_limit):
                    raise StopRun(StopReason.repeated_action, f"{parsed.action} {parsed.action_input!r}")
        except StopRun as stop:
            reason = stop.reason
            if reason in _FORCE_AFTER and self.config.force_final_answer:
                answer, forced = self._forced_answer(memory, state, today)
        except (KeyboardInterrupt, GeneratorExit):  # Ctrl-C, or a stepped run stopped (agent.stepping): every
            # finished step is stored; record the stop, and the run can resume
            self._finish(memory, trace, state, None, StopReason.interrupted, False, planner)
            raise
        yield self._finish(memory, trace, state, answer, reason, forced, planner)

    # ---- helpers -------------------------------------------------------------------------------------------

    def _memory_for(self, task: str | None) -> Memory:
        if self.memory is None:
            if not task:
                raise ValueError("no task: give the question, or a memory made for one")
            return FullHistory(task)
        if task and self.memory.task and task != self.memory.task:
            raise ValueError(f"this memory was made for another task ({self.memory.task!r})")
        if not self.memory.task:
            raise ValueError("no task: make the memory with one")
        return self.memory

    def _finish(self, memory: Memory, trace: TraceWriter, state: "_RunState", answer: str | None,
                reason: StopReason, forced: bool, planner: planning.Planner | None = None) -> FinalEvent:
        plan = planner.plan.render(planning.progress(planner.plan, state.steps)) if planner and planner.plan else None
        result = RunResult(run_id=self.run_id, task=state.task, answer=answer, stop_reason=reason, plan=plan,
                           forced_answer=forced, steps=state.steps, usage=state.usage,
                           wall_seconds=time.monotonic() - state.started,
                           model=getattr(self.llm, "name", type(self.llm).__name__),
                           trace_path=str(trace.path) if trace.path else None, error=state.error)
        memory.finish(result)
        event = FinalEvent(result=result)
        trace.write(event)
        trace.close()
        return event

    def _planner(self, task: str, today: str, state: "_RunState", stored: str | None) -> planning.Planner:
        def complete(messages: list[Message], grammar: str) -> Completion:
            try:
                completion = self.aux_llm.complete(messages, grammar=grammar)
            except LLMError as exc:
                state.error = str(exc)
                raise StopRun(StopReason.llm_error, str(exc)) from None
            state.usage = state.usage + completion.usage
            return completion
        system = prompts.build_messages(task, Context(), self.tools.describe(), today)[0].content
        planner = planning.Planner(complete, task, system, self.tools.names, self.config.plan_revise_every)
        planner.plan = planning.Plan.parse(stored or "", self.tools.names, made_after=len(state.steps))
        return planner

    def _plan_event(self, planner: planning.Planner, completion: Completion, state: "_RunState",
                    memory: Memory) -> PlanMade:
        plan = planner.plan
        if plan:
            memory.note("plan", plan.render())
        return PlanMade(index=len(state.steps), plan=plan.render() if plan else "", revision=plan.revision if plan
                        else 0, raw=completion.text, usage=completion.usage)

    def _check_limits(self, state: "_RunState") -> None:
        cfg = self.config
        if len(state.steps) >= cfg.max_steps:
            raise StopRun(StopReason.max_steps)
        if time.monotonic() - state.started > cfg.max_wall_seconds:
            raise StopRun(StopReason.wall_time)
        if state.usage.evaluated_prompt_tokens + state.usage.completion_tokens > cfg.max_total_tokens:
            raise StopRun(StopReason.token_budget)
        if state.consecutive_parse_errors >= cfg.max_consecutive_parse_errors:
            raise StopRun(StopReason.parse_errors)

    def _prompt(self, memory: Memory, state: "_RunState", planner: planning.Planner | None,
                today: str) -> tuple[Context, list[Message], float]:
        """What memory shows, the messages built from it, and the seconds memory took."""
        start = time.perf_counter()
        shown = memory.context()
        plan = planner.plan if planner else None
        messages = prompts.build_messages(state.task, shown, self.tools.describe(), today, lessons=self.lessons,
                                          plan=plan.render() if plan else "",
                                          progress=planning.progress_line(plan, state.steps) if plan else "")
        shown.sent = messages  # memory may continue this very conversation (a cache-friendly compaction)
        return shown, messages, time.perf_counter() - start

    def _think(self, messages: list[Message], state: "_RunState") -> tuple[Completion, float]:
        injected = self.injections.completion()
        if injected is not None:
            return injected, 0.0
        return self._complete(messages, state, tool_names=state.allowed(self.tools.names))

    def _complete(self, messages: list[Message], state: "_RunState", tool_names=()) -> tuple[Completion, float]:
        start = time.perf_counter()
        try:
            completion = self.llm.complete(messages, stop=STOP_SEQUENCES, tool_names=tool_names)
        except LLMError as exc:
            state.error = str(exc)
            raise StopRun(StopReason.llm_error, str(exc)) from None
        state.usage = state.usage + completion.usage
        return completion, time.perf_counter() - start

    def _outcome(self, parsed: Parsed, state: "_RunState", today: str) -> Outcome:
        """What the step comes to. Changes no state (but runs the tool)."""
        if parsed.action == FINAL_ACTION:
            return self._judge_final(parsed.action_input, state, today)
        if parsed.status is ParseStatus.error:
            return ParseFailed(parsed.error or "Error: could not parse your output.")
        observation = self.injections.take_observation()
        if observation is not None:
            return ToolObserved(observation, 0.0)
        if not self._approved(parsed):
            return ToolDenied(f"Denied: the user did not allow {parsed.action} with this input, so it did not run. "
                              "Do not ask for it again: use another tool, or answer from what you have.")
        earlier = state.seen.get(repeat_key(parsed.action, parsed.action_input))
        if earlier:
            return RepeatWarned(
                f"Warning: you already ran {parsed.action} with this input at step {earlier[0]}; its result is in "
                "your work so far. Repeating it will not help: change strategy (another tool, another query), go "
                "on to another part of the question, or give the Final answer.", tool=parsed.action)
        calls: list = []  # a composite tool's inner calls, kept even if it times out
        observation, seconds = call_with_timeout(lambda: self._run_tool(parsed, calls),
                                                 self.config.tool_timeout_seconds, parsed.action)
        return ToolObserved(clean_observation(observation, self.config.observation_max_chars), seconds,
                            calls=[call.model_dump() for call in calls])

    def _approval_of(self, parsed: Parsed, outcome: Outcome) -> str:
        if isinstance(outcome, ToolDenied):
            return "denied"
        tool = self.tools.get(parsed.action)
        return "approved" if isinstance(outcome, ToolObserved) and tool and tool.needs_approval else ""

    def _approved(self, parsed: Parsed) -> bool:
        tool = self.tools.get(parsed.action)
        if tool is None or not tool.needs_approval:
            return True
        approver = self.config.approver
        return bool(approver and approver(tool.name, parsed.action_input))

    def _run_tool(self, parsed: Parsed, calls: list) -> tuple[str, float]:
        run = self.tools.run(parsed.action, parsed.action_input)
        calls.extend(run.calls)
        return run.observation, run.seconds

    def _judge_final(self, answer: str, state: "_RunState", today: str) -> FinalAccepted | FinalSentBack:
        """Each check may send the answer back, a bounded number of times a run; after that the answer is
        accepted with the checks' objections kept in its verdicts (a --reflect retry reads them)."""
        candidate = FinalCandidate(answer=answer, task=state.task, today=today, steps=state.steps,
                                   rejections=state.final_rejections)
        may_send_back = state.final_rejections < self.config.max_final_rejections
        verdicts: dict[str, str] = {}
        for check in self.config.final_answer_checks:
            name = getattr(check, "__name__", type(check).__name__)
            message = check(candidate)
            verdicts[name] = message or "ok"
            if message and may_send_back:
                return FinalSentBack(message, check=name, verdicts=verdicts)
        return FinalAccepted(verdicts=verdicts)

    def _record(self, memory: Memory, step: Step, shown) -> None:
        start = time.perf_counter()
        memory.add(step, shown)  # persisted before the next LLM call
        step.timings.memory_seconds += time.perf_counter() - start

    def _forced_answer(self, memory: Memory, state: "_RunState", today: str) -> tuple[str | None, bool]:
        messages = prompts.build_forced_final(state.task, memory.context(), today)
        try:
            completion, _ = self._complete(messages, state)
        except StopRun:
            return None, False
        parsed = parse(completion.text)  # the model may still answer in the step format
        text = parsed.action_input if parsed.action == FINAL_ACTION else completion.text
        return (text.strip() or None), True


class _RunState:
    """Everything the loop tracks besides the steps' own records; changed only by `apply` (and usage/error)."""

    def __init__(self, task: str, steps: list[Step], started: float):
        self.task, self.steps, self.started = task, [], started
        self.usage = Usage()
        self.error: str | None = None
        self.consecutive_parse_errors = 0
        self.final_rejections = 0
        self.repeated_tool: str | None = None  # the tool of a just-warned repeat: off the next step
        self.seen: dict[tuple[str, str], list[int]] = {}  # repeat key -> step indices
        for step in steps:  # a resumed run keeps its history, counters included
            self.apply(step, _replayed(step))
            self.usage = self.usage + step.usage

    def apply(self, step: Step, outcome: Outcome) -> None:
        self.steps.append(step)
        self.consecutive_parse_errors = self.consecutive_parse_errors + 1 if isinstance(outcome, ParseFailed) else 0
        self.final_rejections += isinstance(outcome, FinalSentBack)
        self.repeated_tool = outcome.tool if isinstance(outcome, RepeatWarned) else None
        if isinstance(outcome, (ToolObserved, RepeatWarned, ToolDenied)):  # asking again for a denied call repeats
            self.seen.setdefault(repeat_key(step.action, step.action_input), []).append(step.index)

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


def _replayed(step: Step) -> Outcome:
    """The outcome a stored step had (steps stored before outcomes were recorded are read from their fields)."""
    kind = step.outcome
    if step.is_final:
        return FinalSentBack(step.observation, check="") if step.observation else FinalAccepted()
    if kind is StepOutcome.parse_error or (kind is StepOutcome.unrecorded and step.parse_status is ParseStatus.error):
        return ParseFailed(step.observation)
    if kind is StepOutcome.repeat_warning:
        return RepeatWarned(step.observation, tool=step.action)
    if kind is StepOutcome.tool_denied:
        return ToolDenied(step.observation)
    return ToolObserved(step.observation, step.timings.tool_seconds)


def _log(trace: TraceWriter, event: Event) -> Event:
    trace.write(event)
    return event


def new_run_id() -> str:
    return dt.datetime.now().strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]
