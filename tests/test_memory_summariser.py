"""The summariser agent (scripted LLM) and long-term memory across runs, on real Chroma and MiniLM."""
from __future__ import annotations

import logging
import random
import uuid

import pytest

from ponder.bench.synthetic import distractor_step
from agent.llm.replay import Replay
from core.chroma import make_client
from core.llm import LLMError
from core.schema import RunResult, Step, StopReason
from memory.store import Store
from memory.factory import make_memory


@pytest.fixture(scope="module")
def store() -> Store:
    return Store(make_client("memory"))


def run_id() -> str:
    return f"s-{uuid.uuid4().hex[:12]}"


def drive(memory, first: int, last: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    for i in range(first, last + 1):
        memory.add(distractor_step(i, rng), memory.context())


def test_old_steps_are_folded_into_a_stored_summary_in_every_prompt(store):
    llm = Replay(["Facts:\n- first batch (steps 1-6)", "Facts:\n- first batch\n- second batch (steps 7-12)"])
    rid = run_id()
    memory = make_memory("retrieval+summary", rid, store=store, summariser_llm=llm, task="find facts",
                         recent_window=3)
    drive(memory, 1, 8)  # steps 1-5 left the window at step 8: not yet 6
    assert memory.summary is None and not llm.calls
    drive(memory, 9, 9)
    assert (memory.summary.first, memory.summary.upto) == (1, 6)
    assert "[step 3]" in llm.calls[0][-1].content  # the summariser saw the steps it folds
    text = memory.context().text
    assert text.startswith("Summary of steps 1-6:\nFacts:\n- first batch")
    drive(memory, 10, 15)
    assert memory.summary.upto == 12 and "second batch" in memory.context().text
    assert [(s.first, s.upto) for s in store.summaries(rid)] == [(1, 6), (1, 12)]
    assert [s.index for s in store.load_steps(rid)] == list(range(1, 16))  # originals kept
    assert make_memory("retrieval+summary", rid, store=store, summariser_llm=llm).summary.upto == 12


class Failing:
    name = "failing"

    def __init__(self, exc: Exception):
        self.exc = exc

    def complete(self, messages, stop=(), tool_names=(), grammar=None):
        raise self.exc


@pytest.mark.parametrize("llm, reason", [
    (Failing(LLMError("server down")), "server down"),
    (Failing(KeyError("bug")), "bug"),
    (Replay(["   \n"]), "empty"),
    (Replay(["the same words again " * 400]), "runaway length"),
    (Replay(["loop loop loop " * 60]), "repetitive"),
])
def test_summariser_failure_keeps_the_previous_summary_and_the_run_going(store, caplog, llm, reason):
    rid = run_id()
    memory = make_memory("retrieval+summary", rid, store=store, summariser_llm=Replay(["Facts:\n- kept note"]),
                         task="find facts", recent_window=3)
    drive(memory, 1, 9)
    assert memory.summary.text == "Facts:\n- kept note"
    memory.summariser.llm = llm
    with caplog.at_level(logging.WARNING, logger="memory.summariser"):
        drive(memory, 10, 16, seed=1)
    assert memory.summary.text == "Facts:\n- kept note" and memory.summary.upto == 6
    assert reason in caplog.text
    assert len(store.load_steps(rid)) == 16
    assert "kept note" in memory.context().text


def test_summary_length_is_bounded(store):
    long_notes = "Facts:\n" + "\n".join(f"- fact number {i} about a distinct subject {i * 7}" for i in range(22))
    memory = make_memory("retrieval+summary", run_id(), store=store, summariser_llm=Replay([long_notes]),
                         task="find facts", recent_window=3, summary_tokens=120)
    assert 120 < memory.counter.count(long_notes) < 3 * 120  # over the bound, short of a runaway
    drive(memory, 1, 9)
    assert memory.summary is not None
    assert memory.counter.count(memory.summary.text) <= 120


def test_a_named_space_carries_answers_and_notes_into_later_runs(store):
    space = f"space-{uuid.uuid4().hex[:8]}"
    first = make_memory("retrieval+summary", run_id(), store=store, space=space, task="How deep is Lake Baikal?",
                        summariser_llm=Replay(["Facts:\n- Lake Baikal is 1,642 m deep (step 1)"] * 3))
    first.add(Step(index=1, thought="Read about Lake Baikal.", action="wiki_page", action_input="Lake Baikal",
                   observation="Lake Baikal in Siberia is the deepest lake in the world, 1,642 m deep."))
    first.finish(RunResult(run_id=first.run_id, task=first.task, answer="Lake Baikal is 1,642 m deep.",
                           stop_reason=StopReason.final_answer))
    assert {item.kind for item in store.space_items(space)} == {"answer", "summary"}

    later = make_memory("retrieval", run_id(), store=store, space=space, task="Which lake in Siberia is deepest?")
    text = later.context().text
    assert "Notes from earlier runs:" in text and "1,642 m" in text
    other_space = make_memory("retrieval", run_id(), store=store, space=f"other-{uuid.uuid4().hex[:8]}",
                              task="Which lake in Siberia is deepest?")
    assert "1,642" not in other_space.context().text
