"""A run taken one step at a time, for notebooks and `ponder ask --step`: see the prompt about to be sent, let the
model propose an action, replace that action or the tool's result, stop at breakpoints, then go on.

    run = agent.start("question")
    run.next_prompt                  # the messages the next LLM call will get
    run.propose()                    # the model's next action (the tool has not run yet)
    run.inject_observation("...")    # ... its result, written by you
    run.step()                       # finish that step: the recorded Step
    run.run_until(tool="calculator") # go on until the model proposes a calculator call
    run.finish()                     # to the end: the RunResult

It drives `Agent.stream`, so it emits the same events (in `run.events`), stores every step as a plain run does
(injected steps are marked `injected` in the trace and in memory), and `run.stop()` leaves a stored run resumable.
"""
from __future__ import annotations

from typing import Callable

from agent.events import ActionEvent, Event, FinalEvent, PromptSent, StepRecorded
from agent.parser import Parsed, parse
from core.llm import Completion, Message
from core.schema import FINAL_ACTION, RunResult, Step, Usage, step_call


class Injections:
    """What a person puts in place of the model's next action or the next tool result (agent.stepping). An action
    given before the model is called replaces the call; one given after the model proposed its own replaces that."""

    def __init__(self):
        self.action: tuple[str, str, str] | None = None  # thought, action, action input
        self.observation: str | None = None
        self.used: list[str] = []
        # Actions the run planned itself (a lead agent's sub-questions, agent/research.py): taken one a step, after
        # any a person gives, and marked "planned"; an entry may be a function that gives its action when its turn
        # comes (or None: nothing to do)
        self.planned: list = []

    def given_next(self) -> bool:
        """Whether the next step's action is already given (a person's, or a planned one), so no model will read
        its prompt. A planned entry computed at its turn is computed now (its turn has come: nothing changes the
        run's steps before the completion takes it)."""
        while self.planned and callable(self.planned[0]):
            action = self.planned[0]()
            if action:
                self.planned[0] = action
                break
            self.planned.pop(0)
        return self.action is not None or bool(self.planned)

    def completion(self) -> Completion | None:
        if self.action is not None:
            text, self.action = step_call(*self.action), None
            self.used.append("action")
            return Completion(text=text, usage=Usage(), model="injected")
        while self.planned:
            entry = self.planned.pop(0)
            action = entry() if callable(entry) else entry
            if action:
                self.used.append("planned")
                return Completion(text=step_call(*action), usage=Usage(), model="planned")
        return None

    def edit(self, parsed: Parsed) -> Parsed:
        """A person's action in place of the one proposed (planned actions wait for a turn of their own)."""
        if self.action is None:
            return parsed
        text, self.action = step_call(*self.action), None
        self.used.append("action")
        return parse(text)

    def take_observation(self) -> str | None:
        observation, self.observation = self.observation, None
        if observation is not None:
            self.used.append("observation")
        return observation

    def take_used(self) -> list[str]:
        used, self.used = self.used, []
        return used


class RunFinished(Exception):
    """The run has ended: there is no next step."""


class Run:
    def __init__(self, agent, task: str | None = None, on_event: Callable[[Event], None] | None = None):
        self.agent, self.on_event = agent, on_event
        self.events: list[Event] = []
        self.result: RunResult | None = None
        self.proposed: ActionEvent | None = None  # the model's action for the pending step, once proposed
        self._prompt: PromptSent | None = None
        self._stopped = False
        self.injections = Injections()
        self._stream = agent.stream(task, injections=self.injections)
        self._advance_to(PromptSent)

    # ---- where the run stands ----

    @property
    def done(self) -> bool:
        return self.result is not None or self._stopped

    @property
    def index(self) -> int | None:
        """The pending step's index (None once the run has ended)."""
        return None if self.done or self._prompt is None else self._prompt.index

    @property
    def next_prompt(self) -> list[Message]:
        """The messages of the pending step's LLM call (already sent once the action was proposed)."""
        if self.done or self._prompt is None:
            return []
        return [Message(**message) for message in self._prompt.messages]

    @property
    def steps(self) -> list[Step]:
        return [event.step for event in self.events if isinstance(event, StepRecorded)]

    # ---- moving on ----

    def propose(self) -> ActionEvent:
        """Call the model for the pending step and return its action; the tool has not run yet."""
        if self.proposed is None:
            self._require_pending()
            self.proposed = self._advance_to(ActionEvent)
        return self.proposed

    def inject_action(self, action: str, action_input: str, thought: str = "(action injected by a person)") -> None:
        """Use this action for the pending step: instead of calling the model, or instead of what it proposed."""
        self._require_pending()
        if "\n" in action or not action.strip():
            raise ValueError(f"an action is one tool name (or {FINAL_ACTION}), got {action!r}")
        self.injections.action = (" ".join(thought.split()), action.strip(), " ".join(action_input.split()))

    def inject_observation(self, text: str) -> None:
        """Use this text as the pending step's tool result; the tool is not run."""
        self._require_pending()
        self.injections.observation = text

    def step(self) -> Step | None:
        """Finish the pending step and stop before the next one's LLM call. Returns the recorded step (None if the
        run ended without one: a failed LLM call)."""
        self._require_pending()
        recorded = self._advance_to(StepRecorded)
        self.proposed = None
        self._advance_to(PromptSent)
        return recorded.step if recorded else None

    def run_until(self, *, step: int | None = None, tool: str | None = None,
                  when: Callable[[ActionEvent], bool] | None = None) -> ActionEvent | None:
        """Run steps until a breakpoint: before step `step` is sent to the model; or when the model proposes a call
        of `tool`, or an action for which `when(action)` is true (the tool not yet run, so you may inject its
        result). Returns the proposed action that stopped it, or None (step breakpoint, or the run ended)."""
        while not self.done:  # bounded: the run itself ends at its step, time and token limits
            if step is not None and self.index is not None and self.index >= step:
                return None
            if tool is not None or when is not None:
                proposed = self.propose()
                if self.done:
                    return None
                if (tool is not None and proposed.action == tool) or (when is not None and when(proposed)):
                    return proposed
            self.step()
        return None

    def finish(self) -> RunResult:
        """Run to the end without pausing."""
        while not self.done:
            self._advance_to(FinalEvent)
        return self.result

    def stop(self) -> None:
        """End here: the run is recorded as interrupted, with every finished step stored, and can be resumed."""
        if not self.done:
            self._stream.close()
            self._prompt, self.proposed, self._stopped = None, None, True

    # ---- internals ----

    def _require_pending(self) -> None:
        if self.done:
            raise RunFinished("the run has ended; start another, or resume it")

    def _advance_to(self, kind: type) -> Event | None:
        for event in self._stream:
            self.events.append(event)
            if self.on_event:
                self.on_event(event)
            if isinstance(event, PromptSent):
                self._prompt = event
            if isinstance(event, FinalEvent):
                self.result, self._prompt, self.proposed = event.result, None, None
                return event if kind is FinalEvent else None
            if isinstance(event, kind):
                return event
        return None
