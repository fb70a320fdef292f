"""`--reflect` and what memory keeps across runs: a failed attempt writes a lesson and the next attempt starts with
it; with a memory space the lesson reaches a later run's prompt; an answer kept for later runs carries the
observations that support it, or is marked unverified. Scripted model, real tools, real Chroma and embedder."""
from __future__ import annotations

import uuid

import pytest

from agent.checks import names_are_grounded
from agent.config import AgentConfig
from agent.llm.replay import Replay
from agent.loop import Agent
from agent.reflection import failure, solve
from core.chroma import make_client
from core.llm import count_tokens_fallback
from core.schema import RunResult, Step, StopReason
from memory.store import Store
from memory.strategies import remembered_answer
from memory.factory import make_memory
from tools.base import ToolRegistry, tool
from tools.calculator import calculator

TASK = "Who invented the phonograph?"


@tool
def wikipedia_summary(title: str) -> str:
    """The introduction of a page."""
    pages = {"Photography": "Photography: Louis Daguerre made the daguerreotype, an early photographic process.",
             "Thomas Edison": "Thomas Edison, American inventor: he invented the phonograph and a light bulb."}
    return pages.get(title.strip(), f'There is no Wikipedia page titled "{title}". Did you mean: Photography?')


def tools() -> ToolRegistry:
    return ToolRegistry([calculator, wikipedia_summary])


def step(thought: str, action: str, action_input: str) -> str:
    return f"Thought: {thought}\nAction: {action}\nAction Input: {action_input}"


WRONG = [step("Look it up.", "wikipedia_summary", "phonograph"),
         step("Maybe this.", "wikipedia_summary", "Photography"),
         step("Daguerre it is.", "Final", "The phonograph was invented by Louis Daguerre."),
         step("I am sure.", "Final", "The phonograph was invented by Louis Daguerre.")]
LESSON = "Lesson: Photography is not about the phonograph; search for the inventor's page, e.g. Thomas Edison."
RIGHT = [step("Use the lesson.", "wikipedia_summary", "Thomas Edison"),
         step("Found it.", "Final", "Thomas Edison invented the phonograph.")]


def reflective_config(**changes) -> AgentConfig:
    return AgentConfig(final_answer_checks=[names_are_grounded], max_final_rejections=1, reflect_retries=1,
                       **changes)


def test_what_counts_as_a_failed_attempt():
    def result(reason, **fields) -> RunResult:
        return RunResult(run_id="r", task=TASK, answer="x", stop_reason=reason, **fields)
    assert "max_steps" in failure(result(StopReason.max_steps, forced_answer=True))
    assert failure(result(StopReason.final_answer)) is None
    overruled = Step(index=3, action="Final", action_input="x", verdicts={"names_are_grounded": "names X"})
    assert "ran out of send-backs: names X" in failure(result(StopReason.final_answer, steps=[overruled]))
    accepted = Step(index=3, action="Final", action_input="x", verdicts={"names_are_grounded": "ok"})
    assert failure(result(StopReason.final_answer, steps=[accepted])) is None
    for reason in (StopReason.interrupted, StopReason.llm_error):  # another try would not help
        assert failure(result(reason)) is None


def test_a_rejected_answer_teaches_a_lesson_that_the_next_attempt_starts_with():
    llm = Replay(WRONG + [LESSON] + RIGHT)
    config = reflective_config()
    agents: list[Agent] = []

    def attempt(number: int, lessons: list[str]) -> Agent:
        agents.append(Agent(llm, tools(), config=config, run_id=f"run-{number}", lessons=lessons))
        return agents[-1]

    result = solve(TASK, attempt, llm=llm, retries=config.reflect_retries)
    assert result.answer == "Thomas Edison invented the phonograph." and result.run_id == "run-1"
    assert result.attempts == 2 and result.lessons == [LESSON.removeprefix("Lesson: ")]
    lesson_prompt = llm.calls[4][-1].content  # after the 4 calls of attempt 0
    assert "Louis Daguerre" in lesson_prompt and "ran out of send-backs" in lesson_prompt
    retry_question = llm.calls[5][1].content
    assert "Lessons from earlier attempts" in retry_question and "Thomas Edison" in retry_question
    assert "Lessons" not in llm.calls[0][1].content
    # Every call is paid for: both attempts and the lesson.
    assert result.usage.prompt_tokens == sum(count_tokens_fallback(m.content) for call in llm.calls for m in call)
    assert len(llm.calls) == 7


def test_an_attempt_that_succeeds_is_not_retried():
    llm = Replay(RIGHT)
    result = solve(TASK, lambda n, lessons: Agent(llm, tools(), config=reflective_config(), lessons=lessons),
                   llm=llm, retries=1)
    assert result.attempts == 1 and result.lessons == [] and len(llm.calls) == 2


@pytest.fixture()
def store() -> Store:
    return Store(make_client("memory"))


def test_a_lesson_kept_in_a_memory_space_reaches_a_later_runs_prompt(store):
    space = f"space-{uuid.uuid4().hex[:6]}"
    llm = Replay(WRONG + [LESSON] + RIGHT)

    def attempt(number: int, lessons: list[str]) -> Agent:
        run_id = f"first-{number}-{uuid.uuid4().hex[:6]}"
        memory = make_memory("full", run_id, task=TASK, store=store, space=space)
        return Agent(llm, tools(), memory=memory, config=reflective_config(), run_id=run_id, lessons=lessons)

    solve(TASK, attempt, llm=llm, retries=1)
    later = Replay(RIGHT)
    memory = make_memory("compact", f"second-{uuid.uuid4().hex[:6]}", task="In what year was the inventor of the "
                         "phonograph born?", store=store, space=space, summariser_llm=later)
    Agent(later, tools(), memory=memory, config=AgentConfig()).run()
    question = later.calls[0][1].content
    assert "Lesson from a failed attempt: Photography is not about the phonograph" in question
    # The failed attempt's answer is there too, but marked: nothing of that run supported Daguerre.
    assert "UNVERIFIED" in question and "Louis Daguerre" in question


def test_an_answer_kept_for_later_runs_carries_its_sources_or_is_marked_unverified():
    looked_up = Step(index=0, action="wikipedia_summary", action_input="Thomas Edison", outcome="tool",
                     observation="Thomas Edison, American inventor: he invented the phonograph and a light bulb.")
    wrong_page = Step(index=0, action="wikipedia_summary", action_input="Photography", outcome="tool",
                      observation="Photography: Louis Daguerre made the daguerreotype.")

    def result(answer: str, steps: list[Step]) -> RunResult:
        return RunResult(run_id="r", task=TASK, answer=answer, stop_reason=StopReason.final_answer, steps=steps)

    verified = remembered_answer(TASK, result("Thomas Edison invented it.", [looked_up]))
    assert "UNVERIFIED" not in verified
    assert "Sources: step 0 wikipedia_summary('Thomas Edison'): Thomas Edison, American inventor" in verified
    unverified = remembered_answer(TASK, result("Louis Daguerre invented it.", [wrong_page]))
    assert "UNVERIFIED" in unverified and "Louis Daguerre appear in no observation" in unverified
    assert "UNVERIFIED" in remembered_answer(TASK, result("It was invented in 1877.", [looked_up]))  # 1877 seen nowhere
