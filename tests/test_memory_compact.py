"""The compacting memory through the real loop: real Chroma (in memory), the real tools where they matter, a
scripted model. Prompts only grow at their end between compactions; compaction folds older steps in one
summariser call inside the agent's own conversation; no number observed is lost; recall comes after the latest
observation; a short task never embeds anything."""
from __future__ import annotations

import uuid

import pytest

from agent.config import AgentConfig
from agent.llm.replay import Replay
from agent.loop import Agent
from core.chroma import make_client
from core.llm import Message
from memory.compact import CARRIED_HEADING
from memory.store import Store
from memory.factory import make_memory
from tools.base import ToolRegistry, tool

TASK = "Collect the founding year of every city in the list, then add them up."
CITIES = {f"City{n:02d}": 1100 + 7 * n for n in range(1, 25)}


@tool
def city_facts(name: str) -> str:
    """Facts about a city."""
    year = CITIES.get(name.strip(), 1000)
    return (f"{name} is an old market town on a river, with a cathedral, a university and a busy port. "
            f"It was founded in {year}. Its population is about {year * 37}. " + "It has many parks. " * 6)


def words(text: str) -> int:
    return len(text.split())


CARELESS_NOTES = "Facts:\n- City01 was founded in 1107 (step 0)\nOpen questions: the other cities"
# A small model's notes at their worst: longer than the notes' share of the budget, and without one of the numbers
# it read (varied enough that the summariser does not reject them as a degenerate loop).
_RIVERS = ["Avon", "Severn", "Thames", "Trent", "Tyne", "Wear", "Ouse", "Exe", "Dart", "Tamar", "Wye", "Usk"]
_GOODS = ["wool", "salt", "tin", "grain", "timber", "cloth", "leather", "iron", "fish", "wine", "silk", "coal"]
_SIGHTS = ["cathedral", "castle", "guildhall", "bridge", "abbey", "market cross"]
VERBOSE_NOTES = "Facts:\n" + "\n".join(f"- City{n:02d} lies on the {_RIVERS[n % 12]} and has long traded in "
                                        f"{_GOODS[n * 5 % 12]}; its old quarter keeps a {_SIGHTS[n % 6]}."
                                        for n in range(1, 11))
# Verbose notes get a budget whose notes' share holds every carried fact: the test is that the prose, not the facts,
# gives way (at 400 the facts alone pass the share, and the oldest carried give way, their steps still stored).
BUDGET = {CARELESS_NOTES: 400, VERBOSE_NOTES: 700}


class Script:
    """A scripted researcher: looks cities up one by one; asked for notes, it writes notes that keep only the
    first fact it sees (a careless note-taker), so the memory must carry the rest."""

    def __init__(self, steps: int, final_thought: str = "", notes: str = CARELESS_NOTES):
        self.steps, self.step, self.final_thought, self.notes = steps, 0, final_thought, notes
        self.notes_requests: list[list[Message]] = []

    def __call__(self, messages: list[Message]) -> str:
        if messages[-1].content.startswith("Pause the research"):
            self.notes_requests.append(messages)
            return self.notes
        index, self.step = self.step, self.step + 1
        if index < self.steps:
            city = f"City{index + 1:02d}"
            return f"Thought: I look up {city}.\nAction: city_facts\nAction Input: {city}"
        thought = self.final_thought or "I have them all."
        return f"Thought: {thought}\nAction: Final\nAction Input: done"


def run(steps: int, budget: int, final_thought: str = "", store: Store | None = None,
        notes: str = CARELESS_NOTES):
    store = store or Store(make_client("memory"))
    script = Script(steps, final_thought, notes)
    llm = Replay(responder=script)
    memory = make_memory("compact", f"c-{uuid.uuid4().hex[:10]}", store=store, task=TASK, summariser_llm=llm,
                         token_counter=words, token_budget=budget, recent_window=2)
    result = Agent(llm, ToolRegistry([city_facts]), memory=memory,
                   config=AgentConfig(max_steps=steps + 2, max_final_rejections=0)).run()
    step_calls = [call for call in llm.calls if not call[-1].content.startswith("Pause the research")]
    return result, memory, script, step_calls, store


def test_between_compactions_a_prompt_only_grows_at_its_end():
    result, memory, script, calls, _ = run(steps=14, budget=400)
    assert len(script.notes_requests) >= 2  # the run was long enough to compact more than once
    unchanged = 0
    for before, after in zip(calls, calls[1:]):
        if after[1].content == before[1].content:  # same question and notes: no compaction in between
            assert [m.content for m in after[:len(before) - 1]] == [m.content for m in before[:-1]]
            assert after[len(before) - 1].content.startswith(before[-1].content.split("\n\n(Recalled")[0])
            unchanged += 1
    assert unchanged >= 8
    assert result.answer == "done" and len(result.steps) == 15


def test_compaction_continues_the_agents_own_conversation_and_bounds_the_prompt():
    result, memory, script, calls, _ = run(steps=14, budget=400)
    request = script.notes_requests[0]
    step_prompt = next(call for call in calls if len(call) + 1 < len(request))
    assert request[0].content == calls[0][0].content  # the same system prompt: the backend reuses its cache
    assert "Pause the research" in request[-1].content and request[-2].content.startswith("Observation: ")
    for shown in (memory.context(),):
        assert shown.tokens <= 400
    assert memory.summary is not None and memory.log_from > 0
    assert all(words(" ".join(m.content for m in call[1:])) < 400 + 200 for call in calls)  # notes + log + step
    assert step_prompt  # compaction happened after real steps


@pytest.mark.parametrize("notes", [CARELESS_NOTES, VERBOSE_NOTES], ids=["careless notes", "verbose notes"])
def test_no_observed_number_is_lost_at_compaction(notes):
    """Whether the model's notes drop the numbers or bury them under prose longer than the notes' share of the
    budget, every folded step's year is in the notes."""
    _, memory, _, _, store = run(steps=10, budget=BUDGET[notes], notes=notes)
    notes = memory.summary.text
    assert CARRIED_HEADING in notes  # the careless notes were completed
    folded = [step for step in memory.steps() if step.index < memory.log_from]
    assert folded
    for step in folded:
        year = str(CITIES[step.action_input])
        assert year in notes, (step.index, year)
    assert len(store.load_steps(memory.run_id)) == len(memory.steps())  # originals all kept


def test_recall_of_a_folded_page_comes_after_the_latest_observation():
    result, memory, _, calls, _ = run(steps=12, budget=400, final_thought="I need City02's founding year again.")
    last = calls[-1]
    assert "Recalled from your earlier steps" in last[-1].content and "City02" in last[-1].content
    assert 1 < memory.log_from  # City02's step (index 1) had left the conversation
    assert all("Recalled" not in m.content for m in last[:-1])
    assert 1 in store_records_retrieved(memory)


def store_records_retrieved(memory) -> list[int]:
    return memory.store.step_records(memory.run_id)[-1].retrieved


def test_a_short_task_never_embeds():
    store = Store(make_client("memory"))
    result, memory, script, _, _ = run(steps=3, budget=4000, store=store)
    assert result.answer == "done" and not script.notes_requests
    assert store._embedder is None  # no embedding model was even loaded: no step paid for it


def test_a_compacted_run_resumes_with_its_notes():
    _, memory, _, _, store = run(steps=10, budget=400)
    again = make_memory("compact", memory.run_id, store=store, summariser_llm=Replay(["unused"]),
                        token_counter=words, token_budget=400, recent_window=2)
    assert again.log_from == memory.log_from and again.summary.text == memory.summary.text
    assert again.context().background == memory.context().background


def test_a_summariser_that_fails_still_leaves_notes():
    class Down:
        name = "down"

        def complete(self, messages, stop=(), tool_names=(), grammar=None):
            if messages[-1].content.startswith("Pause the research"):
                raise RuntimeError("server down")
            return llm.complete(messages, stop, tool_names)

    script = Script(10)
    llm = Replay(responder=script)
    store = Store(make_client("memory"))
    memory = make_memory("compact", f"c-{uuid.uuid4().hex[:10]}", store=store, task=TASK, summariser_llm=Down(),
                         token_counter=words, token_budget=400, recent_window=2)
    result = Agent(Down(), ToolRegistry([city_facts]), memory=memory, config=AgentConfig(max_steps=12)).run()
    assert result.answer == "done"
    assert memory.summary is not None and "1107" in memory.summary.text


@pytest.mark.parametrize("strategy", ["compact"])
def test_compact_is_a_listed_strategy(strategy):
    from memory.strategies import STRATEGIES
    assert strategy in STRATEGIES


def test_a_page_read_by_a_json_lookup_is_carried_under_its_title():
    """The model often writes wikipedia_lookup's input as JSON: the page it read is named by its title, and a page
    the notes already name is not carried again."""
    from core.schema import Step
    from memory.compact import _unsaved_pages

    lookup = Step(index=3, action="wikipedia_lookup", action_input='{"title": "Loire", "text": "length"}',
                  observation="1 sentence containing \"length\" in \"Loire\": With a length of 1,006 kilometres.",
                  outcome="tool")
    carried = _unsaved_pages("Facts:\n- nothing yet", [lookup])
    assert len(carried) == 1 and carried[0].startswith("- read \u201cLoire\u201d:") and "1,006" in carried[0]
    assert _unsaved_pages("Facts:\n- the Loire is long", [lookup]) == []


def test_a_rank_is_carried_like_a_quantity():
    """"the 171st-longest in the world" is a fact a question may ask: compaction carries it with the length (a real
    run lost it when only plain numbers counted)."""
    from core.schema import Findings, Step, StepOutcome, ToolStatus
    from memory.summariser import numbers_in, unsaved_facts
    observation = ("Loire, Longest river in France: The Loire is the longest river in France and the 171st-longest in "
                   "the world. With a length of 1,006 kilometres (625 mi), it drains 117,054 km2.")
    step = Step(index=6, action="wikipedia_summary", action_input="Loire", observation=observation,
                outcome=StepOutcome.tool, findings=Findings(status=ToolStatus.found, pages=["Loire"]))
    assert numbers_in("the 171st-longest, 2nd, 1,006 km, version2") == ["171", "1006"]
    carried = "\n".join(unsaved_facts("Facts:", [step]))
    assert "171st-longest" in carried and "1,006 kilometres" in carried


def test_the_newest_folded_facts_outlast_the_summarisers_prose():
    """A summary that quotes an older page whole must not push the newest folded step's numbers out: the prose is
    cut for them (a real small-window run lost the Vistula's five numbers that way)."""
    from memory.compact import CARRIED_HEADING as HEADING
    from memory.tokens import minilm_token_counter
    memory = make_memory("compact", f"b-{uuid.uuid4().hex[:8]}", task="t", store=Store(make_client("memory")),
                         summariser_llm=Replay(["unused"]), token_budget=400)
    prose = "Facts: (Step 6) The Loire is the longest river in France, " + "and it drains a very large basin " * 12
    newest = ['- "Vistula": "Its length is 1,047 kilometres and its basin covers 193,960 km2" (step 7)',
              '- "Vistula": "of which 168,868 km2 lies in Poland; the mean discharge is 1,080 m3/s" (step 7)']
    older = ['- "Loire": "With a length of 1,006 kilometres (625 mi)" (step 6)']
    bounded = memory._bounded(f"{prose}\n{HEADING}\n" + "\n".join(older + newest))
    text = bounded.replace(",", "")
    assert all(n in text for n in ("1047", "193960", "168868", "1080"))
    assert minilm_token_counter().count(bounded) <= int(0.35 * 400)



def scripted(replies: list[str]):
    """A researcher whose step replies are `replies`, in order; asked for notes, it writes careless ones."""
    replies = iter(replies)
    return Replay(responder=lambda messages: CARELESS_NOTES if messages[-1].content.startswith("Pause the research")
                  else next(replies))


def lookup(city: str) -> str:
    return f"Thought: I look up {city}.\nAction: city_facts\nAction Input: {city}"


DONE = "Thought: Done.\nAction: Final\nAction Input: done"


def test_a_repeated_call_of_a_folded_step_gets_that_steps_result_again():
    """The warning for a repeat says where the earlier result is: once memory folded that step out of the prompt,
    it is not "in your work so far", so the warning restates it (the real model, told so, answered from the
    newest page instead)."""
    llm = scripted([lookup(f"City{n:02d}") for n in range(1, 13)] + [lookup("City03"), DONE])
    memory = make_memory("compact", f"c-{uuid.uuid4().hex[:10]}", store=Store(make_client("memory")), task=TASK,
                         summariser_llm=llm, token_counter=words, token_budget=400, recent_window=2)
    result = Agent(llm, ToolRegistry([city_facts]), memory=memory,
                   config=AgentConfig(max_steps=16, max_final_rejections=0)).run()
    repeat = result.steps[12]
    assert repeat.outcome.value == "repeat_warning" and memory.log_from > 2  # City03's step had left the prompt
    assert "no longer in your work so far" in repeat.observation
    assert result.steps[2].observation in repeat.observation  # "founded in 1121", restated word for word


def test_a_repeat_of_a_step_still_shown_is_only_warned():
    llm = scripted([lookup("City01"), lookup("City01"), DONE])
    result = Agent(llm, ToolRegistry([city_facts]), config=AgentConfig(max_steps=4)).run(TASK)
    assert result.steps[1].outcome.value == "repeat_warning"
    assert "its result is in your work so far" in result.steps[1].observation
    assert "founded in" not in result.steps[1].observation


@pytest.mark.parametrize("budget", [300, 5000], ids=["folded", "all shown"])
def test_the_facts_of_folded_lookups_stay_in_the_prompt_as_the_ledger_table(offline_wiki, budget):
    """Issue 22: a fact a folded step looked up stays in the prompt verbatim, with its page and sentence, whatever
    the notes keep; while every step is shown, the prompt carries no table (its prefix stays as it was)."""
    from memory.ledger import TABLE_HEADER
    from tools.defaults import default_tools

    rivers = ["Elbe", "Loire", "Vistula", "Oder"]
    llm = scripted([f"Thought: I look up the {river}.\nAction: wikipedia_summary\nAction Input: {river}"
                    for river in rivers] + [DONE])
    memory = make_memory("compact", f"c-{uuid.uuid4().hex[:10]}", store=Store(make_client("memory")),
                         task="How long is the Elbe?", summariser_llm=llm, token_counter=words, token_budget=budget,
                         recent_window=1)
    result = Agent(llm, default_tools(offline_wiki), memory=memory,
                   config=AgentConfig(max_steps=6, max_final_rejections=0)).run()
    last = [call for call in llm.calls if not call[-1].content.startswith("Pause the research")][-1]
    shown = "\n".join(message.content for message in last)
    elbe = result.steps[0]
    assert "1,094" in elbe.observation and any(fact.value == "1,094" for fact in elbe.facts)
    if budget == 5000:
        assert memory.log_from == 0 and TABLE_HEADER not in shown
        return
    assert memory.log_from > 0 and elbe.observation not in shown
    table = shown[shown.index(TABLE_HEADER):]
    row = next(line for line in table.splitlines() if "1,094" in line)
    assert row.split(" | ")[0].endswith("Elbe") and any(fact.quote in row for fact in elbe.facts)


def test_the_folded_facts_table_is_bounded_and_keeps_the_asked_unit_first():
    """The table a non-lead prompt shows: nothing while every step is shown; once a step is folded, the run's facts,
    at most FOLDED_TABLE_ROWS, those of the unit the question asks first, the newest kept."""
    from core.schema import Fact, Step
    from memory.base import Context
    from memory.ledger import FOLDED_TABLE_ROWS, facts_shown

    def fact(n: int, unit: str) -> Fact:
        return Fact(subject=f"River{n}", value=str(100 + n), unit=unit, page=f"River{n}", quote=f"It is {100 + n}.",
                    step=n)

    steps = [Step(index=n, facts=[fact(n, "km" if n % 2 else "people")]) for n in range(2 * FOLDED_TABLE_ROWS + 4)]
    task = "What is the combined length of these rivers?"
    assert facts_shown(steps, Context(recent=steps), task) == []
    assert len(facts_shown(steps, Context(recent=steps), task, whole=True)) == len(steps)
    folded = facts_shown(steps, Context(recent=steps[-1:]), task)
    assert len(folded) == FOLDED_TABLE_ROWS and all(f.unit == "km" for f in folded)
    assert folded[-1].step == len(steps) - 1 and folded[0].step == len(steps) - 1 - 2 * (FOLDED_TABLE_ROWS - 1)
    few = steps[:4]
    assert facts_shown(few, Context(recent=few[-1:]), task) == [s.facts[0] for s in few]  # under the bound: all
    recalled = Context(recent=steps[2:], retrieved=[0, 1])  # the folded steps recalled whole: nothing is folded
    assert recalled.shown_indices == {step.index for step in steps}
    assert facts_shown(steps, recalled, task) == []
