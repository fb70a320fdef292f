"""Step-by-step runs: the prompt about to be sent, the model's proposed action before its tool runs, injected
actions and observations (marked in the trace and in memory), breakpoints, and a stopped run that resumes.
Scripted model, real tools, real Chroma (in memory)."""
from __future__ import annotations

import uuid

import pytest

from agent.config import AgentConfig
from agent.events import ActionEvent, FinalEvent, PromptSent, StepRecorded
from agent.llm.replay import Replay
from agent.loop import Agent
from agent.stepping import RunFinished
from agent.trace import read_trace
from core.chroma import make_client
from core.schema import StopReason
from memory.store import Store
from memory.factory import make_memory
from tools.base import ToolRegistry
from tools.calculator import calculator
from tools.clock import current_time

TASK = "What is 6 times 7, plus 1?"


def step(thought: str, action: str, action_input: str) -> str:
    return f"Thought: {thought}\nAction: {action}\nAction Input: {action_input}"


def tools() -> ToolRegistry:
    return ToolRegistry([calculator, current_time])


def test_the_next_prompt_is_what_the_model_is_then_sent():
    llm = Replay([step("Multiply.", "calculator", "6*7"), step("Add.", "calculator", "42+1"),
                  step("Done.", "Final", "43")])
    run = Agent(llm, tools()).start(TASK)
    assert run.index == 0 and not llm.calls  # paused before the first call
    shown = run.next_prompt
    first = run.step()
    assert first.observation == "42" and llm.calls[0] == shown
    assert run.index == 1 and run.next_prompt[-1].content == "Observation: 42"
    result = run.finish()
    assert result.answer == "43" and run.done and len(run.steps) == 3
    # The same events as Agent.stream
    assert [type(e).__name__ for e in run.events if isinstance(e, (PromptSent, StepRecorded, FinalEvent))] == [
        "PromptSent", "StepRecorded", "PromptSent", "StepRecorded", "PromptSent", "StepRecorded", "FinalEvent"]
    with pytest.raises(RunFinished):
        run.step()


def test_an_injected_action_replaces_the_model_call_and_is_marked(tmp_path):
    llm = Replay([step("Add.", "calculator", "42+1"), step("Done.", "Final", "43")])
    run = Agent(llm, tools(), config=AgentConfig(trace_dir=tmp_path)).start(TASK)
    run.inject_action("calculator", "6*7", thought="I know the first part.")
    injected = run.step()
    assert injected.injected == ["action"] and injected.observation == "42" and not llm.calls  # no model call
    assert injected.usage.prompt_tokens == 0
    result = run.finish()
    assert result.answer == "43" and [s.injected for s in result.steps] == [["action"], [], []]
    recorded = [e["step"] for e in read_trace(result.trace_path) if e["type"] == "step_recorded"]
    assert recorded[0]["injected"] == ["action"] and recorded[0]["thought"] == "I know the first part."


def test_a_proposed_action_can_be_replaced_or_its_result_written_by_hand():
    llm = Replay([step("Multiply.", "calculator", "6*8"), step("Check the time.", "current_time", "UTC"),
                  step("Done.", "Final", "42, plus one.")])
    run = Agent(llm, tools()).start(TASK)
    proposed = run.propose()
    assert (proposed.action, proposed.action_input) == ("calculator", "6*8")  # the tool has not run
    run.inject_action("calculator", "6*7")  # the person corrects the model
    fixed = run.step()
    assert (fixed.action_input, fixed.observation, fixed.injected) == ("6*7", "42", ["action"])
    assert fixed.raw.endswith("6*8")  # what the model wrote stays on record
    assert run.propose().action == "current_time"
    run.inject_observation("The clock is broken; the answer is 42 + 1.")
    written = run.step()
    assert written.observation.startswith("The clock is broken") and written.injected == ["observation"]
    assert run.finish().answer == "42, plus one."


def test_breakpoints_on_a_step_a_tool_or_a_predicate():
    script = [step("Warm up.", "current_time", "UTC"), step("Multiply.", "calculator", "6*7"),
              step("Add.", "calculator", "42+1"), step("Done.", "Final", "43")]
    run = Agent(Replay(script), tools()).start(TASK)
    assert run.run_until(tool="calculator").action_input == "6*7"
    assert [s.action for s in run.steps] == ["current_time"]  # stopped before the calculator ran
    assert run.run_until(when=lambda action: "42" in action.action_input).action_input == "42+1"
    assert len(run.steps) == 2
    assert run.run_until(tool="wikipedia_summary") is None and run.done and run.result.answer == "43"

    run = Agent(Replay(script), tools()).start(TASK)
    assert run.run_until(step=2) is None and run.index == 2 and len(run.steps) == 2


def test_a_stopped_stepped_run_is_stored_as_interrupted_and_resumes():
    store, run_id = Store(make_client("memory")), f"step-{uuid.uuid4().hex[:8]}"
    memory = make_memory("compact", run_id, task=TASK, store=store, summariser_llm=Replay(["unused"]))
    run = Agent(Replay([step("Multiply.", "calculator", "6*7")]), tools(), memory=memory, run_id=run_id).start()
    run.inject_observation("42 (checked by hand)")
    run.propose()
    run.step()
    run.stop()
    assert run.done and store.run_info(run_id).status == StopReason.interrupted.value
    stored = store.load_steps(run_id)
    assert [s.injected for s in stored] == [["observation"]]
    later = Replay([step("Add.", "calculator", "42+1"), step("Done.", "Final", "43")])
    reopened = make_memory("compact", run_id, store=store, summariser_llm=later)
    result = Agent(later, tools(), memory=reopened, run_id=run_id).run()
    assert result.answer == "43" and [s.index for s in result.steps] == [0, 1, 2]
    assert "42 (checked by hand)" in later.calls[0][-1].content


def test_injecting_after_the_end_is_refused():
    run = Agent(Replay([step("Done.", "Final", "43")]), tools()).start(TASK)
    run.finish()
    with pytest.raises(RunFinished):
        run.inject_action("calculator", "1+1")
    with pytest.raises(ValueError):
        Agent(Replay([]), tools()).start(TASK).inject_action("calc\nulator", "1")


def test_proposed_events_are_action_events():
    run = Agent(Replay([step("Multiply.", "calculator", "6*7"), step("Done.", "Final", "42")]), tools()).start(TASK)
    assert isinstance(run.propose(), ActionEvent) and run.propose() is run.proposed  # proposing twice: one call
