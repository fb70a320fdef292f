"""Retrieval and context assembly on real Chroma and the real MiniLM model."""
from __future__ import annotations

import random
import uuid

import pytest

from ponder.bench.synthetic import FACTS, TASK, distractor_step, fact_step, research_run
from agent.llm.replay import Replay
from core.chroma import make_client
from core.schema import Step
from memory.assembler import Assembler
from memory.store import Store
from memory.strategies import STRATEGIES, full_history
from memory.factory import make_memory
from memory.tokens import TRUNCATION_MARK, minilm_token_counter


@pytest.fixture(scope="module")
def store() -> Store:
    return Store(make_client("memory"))


def run_id() -> str:
    return f"r-{uuid.uuid4().hex[:12]}"


def notes_llm() -> Replay:
    """A scripted summariser model: short notes naming the steps it was given."""
    def respond(messages):
        prompt = messages[-1].content
        numbers = [line[6:-1] for line in prompt.splitlines() if line.startswith("[step ")]
        return "Facts:\n- read steps " + ", ".join(numbers) + "\nOpen questions: none"
    return Replay(responder=respond)


def test_planted_step_is_retrieved_among_200_distractors(store):
    rid = run_id()
    fact = next(f for f in FACTS if f.entity == "Peace of Westphalia")
    rng = random.Random(7)
    steps = [distractor_step(i, rng) for i in range(1, 201)]
    steps[41] = fact_step(42, fact)
    store.add_steps(rid, steps)  # one embedding batch
    memory = make_memory("retrieval", rid, store=store, task=TASK)
    memory.add(Step(index=201, thought="Where and in which year was the Peace of Westphalia signed?",
                    action="wiki_search", action_input="Westphalia treaty", observation="No exact match."))
    shown = memory.context()
    assert 42 in shown.retrieved
    assert "[step 42]" in shown.text and "Osnabrück" in shown.text
    # Chosen steps are shown in chronological order.
    assert shown.retrieved == sorted(shown.retrieved)


def test_retrieval_drops_the_recent_window_and_weak_matches(store):
    rid = run_id()
    memory = make_memory("retrieval", rid, store=store, task=TASK, recent_window=3, min_similarity=0.99)
    rng = random.Random(3)
    for i in range(1, 12):
        memory.add(distractor_step(i, rng))
    shown = memory.context()
    assert [step.index for step in shown.recent] == [9, 10, 11]
    assert shown.retrieved == []  # nothing is that similar


def test_retrieval_summary_prompt_stays_flat_while_full_grows(store):
    steps, _ = research_run(100, seed=1)
    tokens = {}
    for strategy in ("full", "retrieval+summary"):
        memory = make_memory(strategy, run_id(), store=store, task=TASK,
                             summariser_llm=notes_llm() if strategy != "full" else None)
        tokens[strategy] = []
        for step in steps:
            shown = memory.context()
            tokens[strategy].append(shown.tokens)
            memory.add(step, shown)
        if strategy != "full":
            assert memory.summary is not None and memory.summary.upto >= 80
    full, summary = tokens["full"], tokens["retrieval+summary"]
    assert full[99] > 4 * full[24] > 0  # linear growth
    assert max(summary[24:]) <= 2000  # the budget
    late, middle = sum(summary[75:]) / 25, sum(summary[25:50]) / 25
    assert late < 1.25 * middle  # flat: no growth with the number of steps
    assert full[99] > 5 * summary[99]


def test_full_strategy_is_the_seed_full_history(store):
    memory = make_memory("full", run_id(), store=store, task=TASK)
    seed = full_history(TASK)
    rng = random.Random(5)
    for i in range(1, 6):
        step = distractor_step(i, rng)
        memory.add(step)
        seed.add(step)
    assert memory.context().text == seed.context().text
    assert memory.steps() == seed.steps() and store.load_steps(memory.run_id) == seed.steps()  # stored too


def test_unknown_strategy_lists_the_valid_names(store):
    with pytest.raises(ValueError) as error:
        make_memory("everything", run_id(), store=store)
    assert all(name in str(error.value) for name in STRATEGIES)
    with pytest.raises(ValueError, match="summariser"):
        make_memory("retrieval+summary", run_id(), store=store)


def test_budget_truncates_old_observations_before_dropping_recent_steps():
    counter = minilm_token_counter()
    long_text = " ".join(f"Sentence {i} about the history of the river trade." for i in range(200))
    steps = [Step(index=i, thought=f"thought {i}", action="wiki_page", action_input=f"page {i}",
                  observation=long_text) for i in range(1, 4)]
    assembled = Assembler(counter, budget=600).assemble(recent=steps)
    assert assembled.tokens <= 600
    assert [s.index for s in assembled.recent] == [1, 2, 3]
    assert all(f"[step {i}]" in assembled.text for i in (1, 2, 3))
    assert TRUNCATION_MARK.strip() in assembled.text
    # the steps the prompt shows as turns are the same cut copies the budget counted; the stored ones stay whole
    assert assembled.background == ""
    assert all(TRUNCATION_MARK.strip() in s.observation for s in assembled.recent[:-1])
    assert all(s.observation == long_text for s in steps)


def test_a_custom_token_counter_is_used(store):
    words = make_memory("window", run_id(), store=store, task=TASK, token_counter=lambda text: len(text.split()),
                        token_budget=150)
    rng = random.Random(9)
    for i in range(1, 5):
        words.add(distractor_step(i, rng))
    shown = words.context()
    assert shown.tokens == len(shown.text.split()) <= 150
