"""The ReAct loop: build prompt -> call LLM -> parse -> Final? -> run tool -> observe -> record -> check limits."""
from __future__ import annotations

import datetime as dt
import time
import uuid
from typing import Callable, Generator, Iterator, Sequence

from agent import openings, planning, prompts, research
from agent.approval import approval_of, approved
from agent.config import AgentConfig
from agent.events import (ActionEvent, Event, FinalEvent, LLMOutput, ObservationEvent, PromptSent,
                          StepRecorded, StepStarted)
from agent.checks import judge_final, no_answer, refusal
from agent.observations import observe
from agent.outcomes import (FinalAccepted, FinalCandidate, Outcome, ParseFailed, ReplyCut, RepeatWarned, RunState,
                            StopRun, ToolDenied, ToolObserved)
from agent.parser import Parsed, parse
from agent.stepping import Injections, Run
from agent.trace import TraceWriter
from core.clock import SYSTEM_CLOCK, Clock
from core.llm import LLM, STOP_SEQUENCES, Completion, LLMError, Message
from core.schema import FINAL_ACTION, Fact, ParseStatus, RunResult, Step, StopReason, Timings, Usage, repeat_key
from memory.base import Context, Memory
from memory.ledger import facts_of, facts_shown, table
from memory.strategies import full_history
from tools.base import ToolRegistry

# Stops after which the run still has useful work: one last call asks for the best answer from it (flagged forced;
# the bench never counts one right). Also after the question restated (held-out omh-154, lh-64, omh-160 printed none)
_FORCE_AFTER = (StopReason.max_steps, StopReason.repeated_action, StopReason.unanswered)


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
        return Run(self, task, on_event)

    def stream(self, task: str | None = None, injections: Injections | None = None) -> Iterator[Event]:
        """Run the task, yielding typed events; the last one is a FinalEvent carrying the RunResult.
        injections: what a person puts in place of the model's action or a tool's result (agent.stepping)."""
        memory = self._memory_for(task)
        trace = TraceWriter.open(self.config.trace_dir, self.run_id)
        state = RunState(memory.task, memory.steps(), time.monotonic(), today=self.clock.today().isoformat(),
                         injections=injections or Injections())
        answer, forced = None, False
        try:
            for event in openings.opened(self, state, memory):  # a plan, a split among helpers
                yield trace.log(event)
            while True:
                if reason := state.limit_reached(self.config):
                    raise StopRun(reason)
                step, outcome = yield from self._step(memory, trace, state)
                if isinstance(outcome, FinalAccepted):
                    if not outcome.answers:
                        raise StopRun(StopReason.unanswered)
                    answer = step.action_input
                    raise StopRun(StopReason.final_answer)
                if state.repeats_over(self.config.repeat_limit):
                    raise StopRun(StopReason.repeated_action, f"{step.action} {step.action_input!r}")
        except StopRun as stop:
            reason = stop.reason
            if reason in _FORCE_AFTER and self.config.force_final_answer:
                answer, forced = self._forced_answer(memory, state)
        except (KeyboardInterrupt, GeneratorExit):  # Ctrl-C, or a stepped run stopped (agent.stepping): every
            # finished step is stored; record the stop, and the run can resume
            self._finish(memory, trace, state, None, StopReason.interrupted, False)
            raise
        yield self._finish(memory, trace, state, answer, reason, forced)

    def _step(self, memory: Memory, trace: TraceWriter, state: RunState) -> Generator[Event, None, tuple]:
        """One turn: prompt, the model's action, its outcome; the step is stored before it is reported."""
        index, started = len(state.steps), time.time()
        yield trace.log(StepStarted(index=index))
        # memory folds only for a prompt a model will read (not for a planned helper call)
        shown, facts, messages, memory_seconds = self._prompt(memory, state, fold=not state.injections.given_next())
        yield trace.log(PromptSent(index=index, messages=[m.model_dump() for m in messages], recalled=shown.retrieved,
                                   summary_upto=shown.summary_upto, memory_tokens=shown.tokens))
        replies, llm_seconds = yield from self._think(messages, state, trace, index)
        completion = replies[-1]  # the reply the step uses; a cut one before it was asked again
        parsed = parse(completion.text, cut=completion.truncated)
        yield ActionEvent(index=index, thought=parsed.thought, action=parsed.action,
                          action_input=parsed.action_input, parse_status=parsed.status)
        parsed = state.injections.edit(parsed)  # a person may replace the action the model proposed
        outcome = self._outcome(parsed, state, shown, facts, planned=state.injections.used == ["planned"])
        if outcome.observation:
            yield ObservationEvent(index=index, observation=outcome.observation, seconds=outcome.seconds)
        step = Step(index=index, thought=parsed.thought, action=parsed.action, action_input=parsed.action_input,
                    observation=outcome.observation, raw=completion.text, parse_status=parsed.status,
                    usage=sum((reply.usage for reply in replies), Usage()), started_at=started, outcome=outcome.kind,
                    verdicts=outcome.verdicts, cut_replies=[reply.text for reply in replies[:-1]],
                    timings=Timings(llm_seconds=llm_seconds, tool_seconds=outcome.seconds,
                                    memory_seconds=memory_seconds),
                    tool_calls=outcome.calls, findings=outcome.findings, injected=state.injections.take_used(),
                    approval=approval_of(self.tools, parsed.action, outcome))
        step.facts = facts_of(step)  # only what code finds quoted in the observation
        self._record(memory, step, shown, messages, state)
        state.apply(step, outcome)
        yield trace.log(StepRecorded(step=step))
        revised = state.planner.revise(state.steps) if state.planner else None
        if revised:
            yield trace.log(openings.plan_event(revised, state, memory))
        return step, outcome

    # ---- helpers -------------------------------------------------------------------------------------------

    def _memory_for(self, task: str | None) -> Memory:
        if self.memory is None:
            if not task:
                raise ValueError("no task: give the question, or a memory made for one")
            return full_history(task)
        if task and self.memory.task and task != self.memory.task:
            raise ValueError(f"this memory was made for another task ({self.memory.task!r})")
        if not self.memory.task:
            raise ValueError("no task: make the memory with one")
        return self.memory

    def _finish(self, memory: Memory, trace: TraceWriter, state: RunState, answer: str | None,
                reason: StopReason, forced: bool) -> FinalEvent:
        plan = state.planner.plan if state.planner else None
        plan = plan.render(planning.progress(plan, state.steps)) if plan else None
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

    def _prompt(self, memory: Memory, state: RunState,
                fold: bool = True) -> tuple[Context, list[Fact], list[Message], float]:
        """What memory shows, the facts table it shows, the messages built from them, and memory's seconds:
        storing the step before, then this. fold: a model reads this prompt, so memory first folds what no longer
        fits."""
        start = time.perf_counter()
        if fold:
            memory.fold()
        shown = memory.context()
        facts = self._facts_shown(state, shown)
        plan = state.planner.plan if state.planner else None
        messages = prompts.build_messages(state.task, shown, self.tools.describe(), state.today, lessons=self.lessons,
                                          plan=plan.render() if plan else "",
                                          progress=planning.progress_line(plan, state.steps) if plan else "",
                                          facts=table(facts), brief=self.config.brief)
        return shown, facts, messages, state.storing_seconds + time.perf_counter() - start

    def _think(self, messages: list[Message], state: RunState, trace: TraceWriter,
               index: int) -> Generator[Event, None, tuple[list[Completion], float]]:
        """The model's replies, the one to use last: a reply cut off at the token limit is asked for again, shorter,
        once (agent.prompts.CUT_RETRY). Each is traced as it comes."""
        names = [name for name in self.tools.names if self.config.actions is None or name in self.config.actions]
        injected, tools = state.injections.completion(), state.allowed(names)
        replies, seconds = [], 0.0
        for prompt in (messages, prompts.after_cut(messages)):
            completion, took = (injected, 0.0) if injected is not None else self._complete(prompt, state, tools)
            replies.append(completion)
            seconds += took
            yield trace.log(LLMOutput(index=index, text=completion.text, usage=completion.usage, seconds=took,
                                      truncated=completion.truncated))
            if not completion.truncated:
                break
        return replies, seconds

    def _complete(self, messages: list[Message], state: RunState, tool_names=()) -> tuple[Completion, float]:
        start = time.perf_counter()
        try:
            completion = self.llm.complete(messages, stop=STOP_SEQUENCES, tool_names=tool_names)
        except LLMError as exc:
            state.error = str(exc)
            raise StopRun(StopReason.llm_error, str(exc)) from None
        state.usage = state.usage + completion.usage
        return completion, time.perf_counter() - start

    def _facts_shown(self, state: RunState, shown: Context) -> list[Fact]:
        return facts_shown(state.steps, shown, state.task, whole=self.config.research)  # a lead's whole table

    def _outcome(self, parsed: Parsed, state: RunState, shown: Context, facts: list[Fact], planned=False) -> Outcome:
        """What the step comes to; changes no state (but runs the tool). shown, facts: what its prompt showed (F1,
        F2... in a tool's input are its rows); planned: code's action, a Final checked, never sent back (omh-287)."""
        if parsed.action == FINAL_ACTION:
            candidate = FinalCandidate(answer=parsed.action_input, task=state.task, today=state.today,
                                       steps=state.steps, rejections=state.final_rejections)
            return judge_final(self.config.final_answer_checks, candidate, may_send_back=not planned and (
                state.final_rejections < self.config.max_final_rejections))
        if parsed.status is ParseStatus.error:
            problem = parsed.error or "Error: could not parse your output."
            return ReplyCut(problem) if parsed.cut else ParseFailed(problem)
        observation = state.injections.take_observation()
        if observation is not None:
            return ToolObserved(observation, 0.0)
        # F1, F2... read as the facts they name before a check judges the call: "F1, F5" is two dates
        action_input = research.resolve(parsed.action_input, facts)
        if refused := refusal(self.config.action_checks, parsed.action, action_input, state.task,
                              self.config.actions):
            return refused  # before the approver is asked: the call cannot answer the question
        if not approved(self.tools, self.config.approver, parsed.action, parsed.action_input):
            return ToolDenied.of(parsed.action)
        earlier = state.seen.get(repeat_key(parsed.action, parsed.action_input))
        if earlier:
            before = next(step for step in state.steps if step.index == earlier[0])
            folded = before.index not in shown.shown_indices
            return RepeatWarned.of(parsed.action, before.index, before.observation if folded else "")
        return research.named(observe(self.tools, parsed.action, action_input, self.config.tool_timeout_seconds,
                                      self.config.observation_max_chars), facts)

    def _record(self, memory: Memory, step: Step, shown: Context, sent: list[Message], state: RunState) -> None:
        start = time.perf_counter()  # the step is stored as traced: this time counts in the next step's memory time
        memory.add(step, shown, sent=sent, fold=False)  # persisted now; folded before the next model call
        state.storing_seconds = time.perf_counter() - start

    def _forced_answer(self, memory: Memory, state: RunState) -> tuple[str | None, bool]:
        memory.fold()  # a model reads this prompt
        shown = memory.context()
        messages = prompts.build_forced_final(state.task, shown, state.today,
                                              facts=table(self._facts_shown(state, shown)))
        try:
            completion, _ = self._complete(messages, state)
        except StopRun:
            return None, False
        parsed = parse(completion.text)  # the model may still answer in the step format
        text = (parsed.action_input if parsed.action == FINAL_ACTION else completion.text).strip()
        candidate = FinalCandidate(answer=text, task=state.task, today=state.today, steps=state.steps)
        return (None, False) if not text or no_answer(self.config.final_answer_checks, candidate) else (text, True)


def new_run_id() -> str:
    return dt.datetime.now().strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]
