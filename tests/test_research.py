"""Sub-agents and the facts ledger (--research): a lead splits the question, each sub-question is a child run of its
own, facts enter the ledger only with a quote code found in an observation, and the answer is built from them.

Scripted model (Replay), the real offline Wikipedia corpus and real Chroma; the KV test loads the real model."""
from __future__ import annotations

import uuid

import pytest

from agent.config import AgentConfig
from agent.grounding import answer_from_facts
from agent.llm.replay import Replay
from agent.outcomes import FinalCandidate, ToolObserved
from agent.research import REFUSAL, Split, named, refusing_tool, resolve
from agent.runs import build_agent
from core.chroma import make_client
from core.html import step_fragment
from core.schema import Fact, Findings, Step, StepOutcome, StopReason, ToolStatus
from memory.ledger import facts_of, ledger, table
from memory.store import Store
from tools.defaults import default_tools

TASK = "Which is longer, the Godavari River or the Krishna River?"
SPLIT = "1. How long is the Godavari River?\n2. How long is the Krishna River?\nThen: max\n"
GODAVARI_SENTENCE = "It flows east for 1,465 kilometres (910 mi)"
KRISHNA_SENTENCE = "is 1,400 kilometres (870 mi) long"


def step(thought: str, action: str, action_input: str) -> str:
    return f"Thought: {thought}\nAction: {action}\nAction Input: {action_input}"


GODAVARI_HELPER = [step("I read the page.", "wikipedia_lookup", "Godavari River | kilometres"),
                   step("It says so.", "Final", "The Godavari River is 1,465 kilometres long.")]
KRISHNA_HELPER = [step("I read the page.", "wikipedia_summary", "Krishna River"),
                  step("It says so.", "Final", "The Krishna River is 1,400 kilometres long.")]
ANSWER = "The Godavari River (1,465 kilometres) is longer than the Krishna River (1,400 kilometres)."


@pytest.fixture(scope="module")
def tools(offline_wiki):
    return default_tools(offline_wiki)


@pytest.fixture
def store():
    return Store(make_client("memory"))


def page_read(page: str, sentences: list[str]) -> Step:
    """A helper's read of a page, its sentences found: what the read-off functions look through."""
    return Step(index=0, thought="", action="wikipedia_summary", action_input=page, observation=" ".join(sentences),
                findings=Findings(status=ToolStatus.found, pages=[page], sentences=sentences))


def lead(llm, tools, store, tmp_path, run_id=None, **config):
    return build_agent(TASK, llm, tools, store=store, strategy="compact",
                       run_id=run_id or f"lead-{uuid.uuid4().hex[:6]}",
                       config=AgentConfig(research=True, trace_dir=tmp_path, **config))


def test_a_lead_hands_each_sub_question_to_a_helper_run_of_its_own(tools, store, tmp_path):
    llm = Replay([SPLIT, *GODAVARI_HELPER, *KRISHNA_HELPER, step("F1 is the larger.", "Final", ANSWER)])
    agent = lead(llm, tools, store, tmp_path)
    result = agent.run()

    assert result.stop_reason is StopReason.final_answer and result.answer == ANSWER
    research_steps, compute, final = result.steps[:2], result.steps[2], result.steps[3]
    assert [(s.action, s.action_input, s.injected) for s in research_steps] == [
        ("research", "How long is the Godavari River?", ["planned"]),
        ("research", "How long is the Krishna River?", ["planned"])]
    # the split's operation, done by a planned calculator step over the helpers' values, names the row it picked
    assert (compute.action, compute.action_input) == ("calculator", "max(1465, 1400)")
    assert compute.observation == "1465 (= F1: Godavari River, 1,465 kilometres)"
    assert final.is_final and final.outcome is StepOutcome.final

    for research_step, page, sentence in zip(research_steps, ("Godavari River", "Krishna River"),
                                              (GODAVARI_SENTENCE, KRISHNA_SENTENCE)):
        child_id = research_step.findings.subrun
        assert child_id.startswith(f"{agent.run_id}-sub-")
        info = store.run_info(child_id)  # stored as a run of its own, linked to the lead
        assert (info.parent, info.status, info.steps, info.task) == (agent.run_id, "final_answer", 3,
                                                                      research_step.action_input)
        assert (tmp_path / child_id / "trace.jsonl").is_file()
        # the child's steps are the research step's inner calls: the trace and the page show them nested
        assert [call["name"] for call in research_step.tool_calls] == [
            s.step.action for s in store.step_records(child_id)]
        assert research_step.observation.startswith("Answer: ") and sentence in research_step.observation
        [fact] = research_step.facts
        assert (fact.page, fact.subrun, fact.attribute) == (page, child_id, research_step.action_input)
        assert sentence in fact.quote and fact.quote in research_step.observation

    # --json and the trace carry the ledger; the page shows each step's sub-agent run and facts
    assert [f["subject"] for f in result.model_dump(mode="json")["facts"]] == ["Godavari River", "Krishna River"]
    page = step_fragment(research_steps[0])
    assert research_steps[0].findings.subrun in page and "facts established" in page and "1,465 kilometres" in page

    # every model call, the split's and the helpers' included, counts in the lead's usage
    assert result.usage.completion_tokens == sum(c.usage.completion_tokens for c in llm.completions)
    assert result.usage.prompt_tokens == sum(c.usage.prompt_tokens for c in llm.completions)
    # the helpers' prompts open with the lead's system prompt word for word (one cached prefix serves all)
    systems = {call[0].content for call in llm.calls}
    assert len(systems) == 1
    # the helpers read; the lead may only research and compute
    helper_actions, lead_actions = llm.tool_names[1], llm.tool_names[-1]
    assert set(helper_actions) == {"wikipedia_search", "wikipedia_summary", "wikipedia_lookup", "Final"}
    assert "research" in lead_actions and "calculator" in lead_actions
    assert not any(name.startswith("wikipedia") for name in lead_actions)


def test_the_lead_sees_the_facts_table_and_the_helpers_their_brief(tools, store, tmp_path):
    llm = Replay([SPLIT, *GODAVARI_HELPER, *KRISHNA_HELPER, step("Done.", "Final", ANSWER)])
    lead(llm, tools, store, tmp_path).run()
    last_prompt = llm.calls[-1][-1].content
    assert "Facts established so far" in last_prompt
    assert "F1. Godavari River | How long is the Godavari River? | 1,465 kilometres" in last_prompt
    assert "F2. Krishna River | How long is the Krishna River? | 1,400 kilometres" in last_prompt
    assert "You lead this research" in llm.calls[-1][1].content
    helper_question = llm.calls[1][1].content
    assert helper_question.startswith("Question: How long is the Godavari River?")
    assert "You are a helper" in helper_question and "You lead" not in helper_question


def test_a_helper_cannot_research_itself(tools, store, tmp_path):
    recursing = [step("Ask again.", "research", "How long is the Godavari River?"),
                 step("Read it.", "wikipedia_lookup", "Godavari River | kilometres"),
                 step("Found.", "Final", "The Godavari River is 1,465 kilometres long.")]
    split = "1. How long is the Godavari River?\nThen: none\n"
    llm = Replay([split, *recursing, step("Done.", "Final", "The Godavari River is 1,465 kilometres long.")])
    result = lead(llm, tools, store, tmp_path).run()
    child = [record.step for record in store.step_records(result.steps[0].findings.subrun)]
    assert child[0].injected == ["planned"]  # code's read of the page the question names
    refused = child[1]
    assert refused.outcome is StepOutcome.tool_refused and "not for this run" in refused.observation
    assert refused.findings is None and child[-1].is_final
    assert [run.run_id for run in store.list_runs() if run.parent == refused.action_input] == []
    # and the research tool a helper lists (so its prompt is the lead's) never recurses, whoever calls it
    assert refusing_tool()("How long is the Godavari River?") == REFUSAL


def test_an_answer_no_page_states_records_no_fact(tools, store, tmp_path):
    # naming no page, the helper's question opens on none (`pages_named`)
    split = "1. How long is the second longest river of india?\nThen: none\n"
    # the wrong page: the Krishna's length is no answer for the Godavari, so none is read off it either
    guessing = [step("I read the page.", "wikipedia_summary", "Krishna River"),
                step("I think.", "Final", "It is about 2,000 miles long.")]
    llm = Replay([split, *guessing, step("Unknown.", "Final", "Its length was not established.")])
    result = lead(llm, tools, store, tmp_path).run()
    research_step = result.steps[0]
    assert research_step.observation.startswith("Answer (unverified")
    assert research_step.facts == [] and result.facts == []


def test_facts_enter_the_ledger_only_with_a_quote_found_in_the_observation():
    sentence = "The river is 1,465 kilometres long."
    findings = Findings(status=ToolStatus.found, pages=["Godavari River"], sentences=[sentence])
    read = Step(index=3, action="wikipedia_lookup", action_input="Godavari River | long",
                observation=f"Godavari River: {sentence}", findings=findings)
    [fact] = facts_of(read)
    assert (fact.value, fact.unit, fact.page, fact.quote, fact.step) == ("1,465", "kilometres", "Godavari River",
                                                                         sentence, 3)
    # the same sentence, reworded in the observation (a hostile or sloppy tool): nothing enters
    forged = read.model_copy(update={"observation": "Godavari River: The river is 1,500 kilometres long."})
    assert facts_of(forged) == []
    # a sentence without a number is reading, not a value
    plain = read.model_copy(update={"findings": findings.model_copy(update={"sentences": ["It is a river."]}),
                                    "observation": "It is a river."})
    assert facts_of(plain) == []
    # a date's value is its year, not its day
    born = Step(index=0, action="research", action_input="When was Galileo Galilei born?",
                observation='Answer: Galileo was born on 15 February 1564.\nSource: Galileo Galilei: "Galileo '
                            'was born on 15 February 1564 in Pisa."',
                findings=Findings(status=ToolStatus.found, pages=["Galileo Galilei"],
                                  sentences=["Galileo was born on 15 February 1564 in Pisa."],
                                  answer="Galileo was born on 15 February 1564.", subrun="r-sub-1"))
    assert [fact.value for fact in facts_of(born)] == ["1564"]
    # asked when one died, an answer that gives both years answers with the death's (held-out lh-83 took births)
    quote = "English naturalist and botanist (1743–1820)"
    died = Step(index=1, action="research", action_input="What is the year of death of Joseph Banks?",
                observation=f'Answer: Joseph Banks was born in 1743 and died in 1820.\nSource: Joseph Banks: "{quote}"',
                findings=Findings(status=ToolStatus.found, pages=["Joseph Banks"], sentences=[quote],
                                  answer="Joseph Banks was born in 1743 and died in 1820.", subrun="r-sub-2"))
    assert [fact.value for fact in facts_of(died)] == ["1820"]
    asked_birth = died.model_copy(update={"action_input": "When was Joseph Banks born?"})
    assert [fact.value for fact in facts_of(asked_birth)] == ["1743"]
    # an answer that is the page's range alone answers when he died with its second year (held-out lh-93)
    ranged = died.model_copy(update={"findings": died.findings.model_copy(update={
        "answer": "Joseph Banks, English naturalist and botanist (1743–1820) (offline Wikipedia)"})})
    assert [fact.value for fact in facts_of(ranged)] == ["1820"]
    # any range in brackets that year_range reads: "(reigned 1765 to 1790)"
    office = "English naturalist and botanist (in office 1778 to 1820)"
    worded = died.model_copy(update={"findings": died.findings.model_copy(update={
        "answer": "Joseph Banks (in office 1778 to 1820)", "sentences": [office]}),
        "observation": died.observation.replace(quote, office)})
    assert [fact.value for fact in facts_of(worded)] == ["1820"]


def test_a_lookups_distance_from_a_place_is_no_fact_of_its_page(offline_wiki):
    """The Elbe's intro, read by wikipedia_summary, gives the ledger its sentences with a number: its length, not
    the "110 kilometres northwest of Hamburg" that places its mouth (which the real model added to rivers' lengths);
    a helper asked how far a place is still gets that distance."""
    from tools.base import Observed

    tools = default_tools(offline_wiki)
    observed = tools.get("wikipedia_summary").invoke("Elbe")
    assert isinstance(observed, Observed) and "110 kilometres northwest of Hamburg" in observed
    read = Step(index=0, action="wikipedia_summary", action_input="Elbe", observation=str(observed),
                findings=observed.findings)
    assert [(fact.value, fact.unit) for fact in facts_of(read)] == [("1,094", "km")]
    sentence = "The town lies 50 km (31 mi) south of Paris."
    asked = Step(index=1, action="research", action_input="How far is the town from Paris?",
                 observation=f'Answer: 50 km\nSource: Town: "{sentence}"',
                 findings=Findings(status=ToolStatus.found, pages=["Town"], sentences=[sentence], answer="50 km",
                                   subrun="r-sub-2"))
    assert [fact.value for fact in facts_of(asked)] == ["50"]


def test_the_ledger_keeps_each_quote_once_and_renders_a_numbered_table():
    fact = Fact(subject="Nile", value="6,650", unit="km", page="Nile", quote="The Nile is 6,650 km long.", step=1)
    steps = [Step(index=1, facts=[fact]), Step(index=2, facts=[fact.model_copy(update={"step": 2})])]
    assert ledger(steps) == [fact]
    assert table([fact]).splitlines()[1] == 'F1. Nile | 6,650 km | "The Nile is 6,650 km long."'
    assert table([]) == ""


def test_computing_tools_read_rows_by_reference_and_name_the_row_they_return():
    facts = [Fact(subject="Godavari River", value="1,465", unit="kilometres", page="G", quote="q", step=0),
             Fact(subject="Krishna River", value="1,400", unit="kilometres", page="K", quote="q", step=1)]
    assert resolve("max(F1, F2) - F3", facts) == "max(1465, 1400) - F3"  # no third row: left as written
    assert resolve("F1", []) == "F1"
    assert named(ToolObserved("1400", 0.0), facts).observation == "1400 (= F2: Krishna River, 1,400 kilometres)"
    assert named(ToolObserved("65", 0.0), facts).observation == "65"


def test_a_final_answer_must_take_its_numbers_from_the_ledger_or_a_calculation():
    fact = Fact(subject="Godavari River", value="1,465", unit="kilometres", page="Godavari River",
                quote="It flows east for 1,465 kilometres", step=0)
    researched = Step(index=0, action="research", action_input="How long is the Godavari River?",
                      observation="Answer: 1,465 kilometres; the basin is 312,812 km2", outcome=StepOutcome.tool,
                      findings=Findings(status=ToolStatus.found, pages=["Godavari River"], subrun="x"), facts=[fact])
    computed = Step(index=1, action="calculator", action_input="1465 - 1400", observation="65",
                    outcome=StepOutcome.tool)
    candidate = lambda answer: FinalCandidate(answer=answer, task=TASK, today="2026-12-03",  # noqa: E731
                                              steps=[researched, computed])
    assert answer_from_facts(candidate("The Godavari is 1,465 km long, 65 km longer.")) is None
    # read in an observation but never established as a fact: sent back, naming the number
    message = answer_from_facts(candidate("Its basin is 312,812 km2."))
    assert message and "312812" in message and "facts table" in message
    # no ledger: nothing to hold the answer to
    assert answer_from_facts(FinalCandidate(answer="It is 7 km.", task=TASK, today="2026-12-03", steps=[])) is None


def test_a_resumed_lead_keeps_its_split_and_asks_only_what_is_left(tools, store, tmp_path):
    run_id = f"lead-{uuid.uuid4().hex[:6]}"
    first = lead(Replay([SPLIT, *GODAVARI_HELPER]), tools, store, tmp_path, run_id=run_id).start()
    assert first.step().action == "research"
    first.stop()  # as a person stops a stepped run, or a crash does: the split and the first step are stored

    second = Replay([*KRISHNA_HELPER, step("Done.", "Final", ANSWER)])  # no second split: it was stored
    resumed = lead(second, tools, store, tmp_path, run_id=run_id).run()
    assert resumed.stop_reason is StopReason.final_answer
    assert [s.action_input for s in resumed.steps if s.action == "research"] == [
        "How long is the Godavari River?", "How long is the Krishna River?"]
    assert [f.subject for f in resumed.facts] == ["Godavari River", "Krishna River"]


def test_remembered_facts_keep_their_source_for_later_runs(tools, store, tmp_path):
    llm = Replay([SPLIT, *GODAVARI_HELPER, *KRISHNA_HELPER, step("Done.", "Final", ANSWER)])
    space = f"s{uuid.uuid4().hex[:6]}"
    agent = build_agent(TASK, llm, tools, store=store, strategy="compact", run_id=f"lead-{uuid.uuid4().hex[:6]}",
                        config=AgentConfig(research=True), memory_settings={"space": space})
    agent.run()
    notes = [item.text for item in store.space_items(space) if item.kind == "fact"]
    # the helpers' page reads are remembered too, each with its page; the lead's facts with the question they served
    assert notes and all("\nSource: Wikipedia, " in note for note in notes)
    assert any("1,465 kilometres" in note and "Source: Wikipedia, Godavari River" in note
               and f"Found for: {TASK}" in note for note in notes)


def test_a_split_is_read_from_its_numbered_lines_and_kept_as_a_note():
    split = Split.parse("1. How long is A?\n2. How long is A?\n3. Which is longer, A or B?\nThen: max\n",
                        task="Which is longer, A or B?")
    assert split == Split(questions=["How long is A?"], operation="max")  # repeats and the question itself go
    assert Split.stored(split.render()) == split
    assert Split.parse("nothing useful").operation == "none"


@pytest.mark.slow
def test_kept_context_spares_the_parent_prompt_a_child_run_would_evict(local_llm):
    from core.llm import Message
    system = Message(role="system", content="You are a careful assistant. " * 40)
    parent = [system, Message(role="user", content="Name three rivers of India, one a line. " * 20)]
    child = [system, Message(role="user", content="What is 2 + 2? Answer with the number.")]
    local_llm.complete(parent)
    with local_llm.kept_context():
        local_llm.complete(child)
    restored = local_llm.complete(parent).usage
    local_llm.complete(child)  # without it, the child's prompt evicts the parent's
    evicted = local_llm.complete(parent).usage
    assert restored.prompt_tokens == evicted.prompt_tokens
    assert restored.evaluated_prompt_tokens <= 2  # all of it from the KV state put back
    assert evicted.evaluated_prompt_tokens > restored.evaluated_prompt_tokens + 100  # the part after the system prompt


@pytest.mark.slow
def test_the_real_model_reads_every_name_of_a_list_code_cuts_short(local_llm, tools):
    """Code reads three of the five painters (the rest come after "then"); the 1.5B model, asked with the lead's own
    system prompt, copies all five, and the question's count lets its list stand."""
    from agent import prompts
    from agent.reading import listed_names, settled_list
    from agent.research import read_list, with_research
    from memory.base import Context
    task = ("Take these five painters: Claude Monet, Edgar Degas and Pierre-Auguste Renoir, then Mary Cassatt, who "
            "settled in Paris, and Berthe Morisot, a founder of the movement. Who died first?")
    system = prompts.build_messages(task, Context(), with_research(tools, refusing_tool()).describe(),
                                    "2026-12-05")[0].content
    read = read_list(lambda messages, grammar: local_llm.complete(messages, grammar=grammar), system, task)
    assert len(listed_names(task)) == 3
    assert settled_list(task, read) == ["Claude Monet", "Edgar Degas", "Pierre-Auguste Renoir", "Mary Cassatt",
                                        "Berthe Morisot"]


@pytest.mark.slow
def test_the_real_model_reads_a_list_code_reads_none_of(local_llm, tools):
    """Lower-case things after possessives read no list in code; the 1.5B model, asked with the lead's own system
    prompt, copies the three, and code's check lets them stand."""
    from agent import prompts
    from agent.reading import listed_names, settled_list, unread_list
    from agent.research import read_list, with_research
    from memory.base import Context
    task = ("Of NASA's Apollo program, China's one-child policy and the Tevatron particle accelerator, which began "
            "first, and how many years passed between the first and the last of them?")
    system = prompts.build_messages(task, Context(), with_research(tools, refusing_tool()).describe(),
                                    "2026-12-06")[0].content
    assert listed_names(task) == [] and unread_list(task)
    read = read_list(lambda messages, grammar: local_llm.complete(messages, grammar=grammar), system, task)
    settled = settled_list(task, read)  # each thing as the question writes it, its owner maybe left out
    written = ["NASA's Apollo program", "China's one-child policy", "Tevatron particle accelerator"]
    assert len(settled) == 3 and all(name.endswith(("program", "policy", "accelerator")) and name in thing
                                     for name, thing in zip(settled, written)), settled


def test_against_a_concurrent_model_the_helpers_run_side_by_side(tools, store, tmp_path):
    """A server serves several calls at once: the lead's planned helpers start together. Each helper's first call
    waits at a barrier for the other's, so helpers run one after the other would break it (and fail the test)."""
    import threading
    barrier = threading.Barrier(2, timeout=30)
    helper_replies = {"How long is the Godavari River?": GODAVARI_HELPER,
                      "How long is the Krishna River?": KRISHNA_HELPER}

    def respond(messages):
        question = messages[1].content
        if "split the question" in question:
            return SPLIT
        for asked, replies in helper_replies.items():
            if question.startswith(f"Question: {asked}"):
                if len(messages) == 2:
                    barrier.wait()
                return replies[(len(messages) - 2) // 2]
        return step("Done.", "Final", ANSWER)

    llm = Replay(responder=respond)
    llm.concurrent = True
    result = lead(llm, tools, store, tmp_path).run()
    assert result.stop_reason is StopReason.final_answer
    assert [s.observation.splitlines()[0] for s in result.steps[:2]] == [
        "Answer: The Godavari River is 1,465 kilometres long.", "Answer: The Krishna River is 1,400 kilometres long."]
    assert [f.subject for f in result.facts] == ["Godavari River", "Krishna River"]


def test_a_lead_that_reads_a_page_itself_is_refused(tools, store, tmp_path):
    """A free-text model is not held by a grammar: its call of a tool the lead may not use is refused, not run."""
    split = "1. How long is the Godavari River?\nThen: none\n"
    llm = Replay([split, *GODAVARI_HELPER, step("I check the page too.", "wikipedia_summary", "Krishna River"),
                  step("Done.", "Final", "The Godavari River is 1,465 kilometres long.")])
    result = lead(llm, tools, store, tmp_path).run()
    read = result.steps[1]
    assert read.outcome is StepOutcome.tool_refused and "not for this run" in read.observation
    assert read.findings is None and read.facts == []


def test_ponder_ask_researches_by_default_and_resumes_and_traces_it(tmp_path, wiki_index_dir):
    """The README's command as a new user runs it (PONDER_RESEARCH unset): the lead splits, a helper answers, the
    answer and its facts reach --json; the helper's run is in `ponder memory`, linked; `ponder trace` nests it."""
    import json

    from tests.cli_helpers import memory_json, ponder, ponder_env, run_id_of
    from tests.openai_server import FakeOpenAIServer, completion

    answer = "The Godavari River is 1,465 kilometres long."
    script = ["1. How long is the Godavari River?\nThen: none\n", *GODAVARI_HELPER, step("Done.", "Final", answer)]
    home = tmp_path / "home"
    home.mkdir()
    (home / "wiki_index").symlink_to(wiki_index_dir, target_is_directory=True)
    with FakeOpenAIServer([completion(text) for text in script]) as server:
        env = ponder_env(home, server.url)
        env.pop("PONDER_RESEARCH", None)  # the default, as a user has it
        env["PONDER_WIKI"] = "offline"
        proc = ponder(["ask", "--json", "How many kilometres long is the Godavari River?"], env)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["answer"] == answer
    [fact] = result["facts"]
    assert (fact["page"], fact["value"], fact["unit"]) == ("Godavari River", "1,465", "kilometres")
    lead_id = run_id_of(proc.stderr)
    child_id = result["steps"][0]["findings"]["subrun"]
    runs = {run["run_id"]: run for run in json.loads(ponder(["memory", "--json"], env).stdout)}
    assert runs[child_id]["parent"] == lead_id and runs[child_id]["status"] == "final_answer"
    # code's read of the page the question names, then the helper's own steps
    assert [r["step"]["action"] for r in memory_json(child_id, env)["steps"]] == [
        "wikipedia_summary", "wikipedia_lookup", "Final"]
    shown = ponder(["trace", lead_id], env)
    assert shown.returncode == 0, shown.stderr
    trace_text = shown.stdout + shown.stderr
    assert f"sub-agent run: {child_id}" in trace_text and "inner call: wikipedia_lookup" in trace_text
    assert "fact: Godavari River" in trace_text


@pytest.mark.parametrize("reply, task, operation", [
    ("1. When was Sputnik 1 launched?\n2. When did Apollo 11 land?\nThen: none\n",
     "How many years passed between the launch of Sputnik 1 and the Apollo 11 landing?", "difference"),
    ("1. How long is the Nile?\n2. How long is the Danube?\nThen: max\n",
     "How many times longer is the Nile than the Danube?", "ratio"),
    ("1. How long is the Elbe?\n2. How long is the Loire?\nThen: max\n",
     "Which is longer, the Elbe or the Loire?", "max"),          # no plain wording: the model's pick stands
    ("1. Who directed the film Alien?\nThen: none\n",
     "Who directed the film Alien, and how many years after its release did he die?", "none"),  # one answer only
])
def test_the_questions_plain_wording_settles_the_operation(reply, task, operation):
    from agent.research import split_question
    split = split_question(lambda messages, grammar: Replay([reply]).complete(messages, grammar=grammar), "system",
                           task)
    assert split.operation == operation


def test_a_sub_question_combining_two_others_is_computed_not_asked():
    """Held-out omh-497: after Messi's birth and the comet's return, the split asked a helper "How old will Lionel
    Messi be when Halley's Comet returns?", which answered 40 from nothing, and the lead wrote that. The age is the
    difference of the two years code has; two questions about one thing stay."""
    from agent.research import compute_call, split_question
    asked = ["When was Lionel Messi born?", "When will Halley's Comet return?"]
    reply = f"1. {asked[0]}\n2. {asked[1]}\n3. How old will Lionel Messi be when Halley's Comet returns?\nThen: none\n"
    task = "If Lionel Messi is still around for the next return of Halley's Comet, what age will he turn in that year?"
    split = split_question(lambda messages, grammar: Replay([reply]).complete(messages, grammar=grammar), "system",
                           task)
    assert (split.questions, split.operation) == (asked, "difference")
    steps = [Step(index=n, action="research", action_input=question, observation="",
                  facts=[Fact(subject=question, value=year, unit="", page="p", quote=f"in {year}", step=n)])
             for n, (question, year) in enumerate(zip(asked, ["1987", "2061"]))]
    assert compute_call(split, steps)[1:] == ("calculator", "abs(1987 - 2061)")
    star = ["When was the star of The Wizard of Oz born?", "Where was the star of The Wizard of Oz born?",
            "How old was the star of The Wizard of Oz in 1939?"]
    reply = "".join(f"{n}. {question}\n" for n, question in enumerate(star, 1)) + "Then: none\n"
    split = split_question(lambda messages, grammar: Replay([reply]).complete(messages, grammar=grammar), "system",
                           "How old did the star of The Wizard of Oz turn in 1939?")
    assert split.questions == star


def test_a_split_asking_a_birth_the_question_never_mentions_asks_the_death_it_does():
    """omh-514 run again after its mends: "How many years before his death did Rainer Maria Rilke begin writing the
    Duino Elegies?" was split into when he was born and when he began them, and answered 37 years, not 14."""
    from agent.research import split_question
    task = "How many years before his death did Rainer Maria Rilke begin writing the Duino Elegies?"
    began = "When did Rainer Maria Rilke begin writing the Duino Elegies?"
    reply = f"1. When was Rainer Maria Rilke born?\n2. {began}\nThen: difference\n"
    split = split_question(lambda messages, grammar: Replay([reply]).complete(messages, grammar=grammar), "system",
                           task)
    assert (split.questions, split.operation) == (["When did Rainer Maria Rilke die?", began], "difference")
    # a question that mentions both asks both as the model split them
    both = "How many years after his birth did Rainer Maria Rilke begin the Duino Elegies, and before his death?"
    split = split_question(lambda messages, grammar: Replay([reply]).complete(messages, grammar=grammar), "system",
                           both)
    assert split.questions[0] == "When was Rainer Maria Rilke born?"


def test_years_found_are_written_without_the_word_after_them():
    """Held-out omh-513 and -515 were answered "1948 film for 'When did the film come out?'" and "1958 amid for
    'When was NASA established?'": the year's fact took the next word of its sentence as its unit."""
    from agent.research import split_final
    asked = ["When was the director of Bicycle Thieves born?", "When did Bicycle Thieves come out?"]
    split = Split(questions=asked, operation="difference")
    steps = [Step(index=n, action="research", action_input=question, observation="",
                  facts=[Fact(subject=question, value=year, unit=unit, page="p", quote=f"{year} {unit}", step=n)])
             for n, (question, year, unit) in enumerate(zip(asked, ["1901", "1948"], ["", "film"]))]
    steps.append(Step(index=2, action="calculator", action_input="abs(1901 - 1948)", observation="47"))
    task = "How old was the director of Bicycle Thieves when the film came out?"
    assert split_final(split, steps, task)[2] == (f'The helpers found 1901 for "{asked[0]}"; 1948 for "{asked[1]}"; '
                                                  "the difference is 47 years.")


def test_a_lead_answer_that_ignores_its_computed_pick_goes_back_naming_it(tools, store, tmp_path):
    """Measured with the 1.5B model: after max() named the Godavari, the lead answered with another river."""
    wrong = "The Krishna River (1,400 kilometres) is the longer."
    llm = Replay([SPLIT, *GODAVARI_HELPER, *KRISHNA_HELPER, step("Krishna.", "Final", wrong),
                  step("F1 it is.", "Final", ANSWER)])
    result = lead(llm, tools, store, tmp_path).run()
    assert result.answer == ANSWER
    sent_back = next(s for s in result.steps if s.is_final and s.action_input == wrong)
    assert "found the largest value: 1465 (= F1: Godavari River" in sent_back.observation
    assert "does not name Godavari River" in sent_back.observation


def test_restating_the_questions_list_does_not_pass_for_naming_the_computed_pick(tools, store, tmp_path):
    from agent.grounding import answer_names_the_computed_pick
    from agent.outcomes import FinalCandidate

    task = "Which is the longest of these rivers: the Godavari River, the Krishna River and the Yamuna?"
    computed = Step(index=3, thought="", action="calculator", action_input="max(1465, 1400, 1376)",
                    observation="1465 (= F1: Godavari River, 1,465 kilometres)")

    repeated = computed.model_copy(update={"index": 4, "observation": "Warning: you already ran calculator ..."})

    def check(answer):
        return answer_names_the_computed_pick(FinalCandidate(task=task, answer=answer, steps=[computed, repeated],
                                                             today="2026-12-03", rejections=0))
    assert check("Of the Godavari River, the Krishna River and the Yamuna, the Yamuna is longest, at 4,500 m.")
    assert check("The Godavari is the longest.") is None
    assert check("The longest is 1,465 kilometres long.") is None
    # a one-digit pick's value stated is the value stated (a gap of 4 years is a result like any other)
    few = Step(index=3, thought="", action="calculator", action_input="min(4, 9)",
               observation="4 (= F1: Godavari River, 4 years)")
    assert answer_names_the_computed_pick(FinalCandidate(task=task, answer="The shortest gap is 4 years.",
                                                         steps=[few], today="2026-12-03", rejections=0)) is None


def test_a_lead_answer_that_restates_the_question_goes_back():
    from agent.grounding import answer_is_not_the_question
    from agent.outcomes import FinalCandidate

    task = "Among Austria, Belgium and Slovenia, which country has the smallest area, and what is that area?"

    def check(answer):
        return answer_is_not_the_question(FinalCandidate(task=task, answer=answer, today="2026-12-03"))
    assert "repeats the question" in check(task)
    assert "repeats the question" in check("Among Austria, Belgium and Slovenia, which has the smallest area?")
    # the question copied and cut mid-way (held-out lh-50), but not an answer that shares a few of its words
    assert "repeats the question" in check("Among Austria, Belgium and Slovenia, which country has the smallest,")
    assert check("Slovenia has the smallest area, 20,271 square kilometres.") is None
    assert check("Among Austria, Belgium and Slovenia") is None


def test_a_helper_answer_that_restates_its_question_goes_back(tools, store, tmp_path):
    """Held-out omh-482: a helper answered "Merovingian dynasty brought Merovingian's rule to an end, in what
    year?", and the lead's answer carried the question."""
    echo = step("Done.", "Final", "The Godavari River is how long?")
    llm = Replay([SPLIT, echo, GODAVARI_HELPER[1], *KRISHNA_HELPER, step("F1 is the larger.", "Final", ANSWER)])
    result = lead(llm, tools, store, tmp_path).run()
    assert result.answer == ANSWER
    read, echoed, answered = [record.step for record in store.step_records(result.steps[0].findings.subrun)]
    assert read.injected == ["planned"] and echoed.outcome is StepOutcome.final_sent_back
    assert "repeats the question" in echoed.observation and answered.is_final
    assert "1,465 kilometres" in result.steps[0].observation


@pytest.mark.parametrize("last_chance", ["Among Austria, Belgium and Slovenia, which country has the smallest area?",
                                         "Slovenia has the smallest area of the three."])
def test_a_run_whose_last_answer_restates_the_question_ends_unanswered(tools, store, tmp_path, last_chance):
    """Once its send-backs are used up, an answer that is the question again is still no answer (held-out omh-69,
    lh-29 ended "answered" with their own question): the run stops unanswered. The last-chance prompt is asked
    once, as after a step limit (held-out omh-154, lh-64, omh-160 ended with nothing to print): its answer is
    kept, flagged as forced; the question restated there too leaves the run with no answer to print."""
    from agent.grounding import answer_is_not_the_question
    task = "Among Austria, Belgium and Slovenia, which country has the smallest area?"
    llm = Replay([step("I answer.", "Final", task)] * 2 + [last_chance])
    agent = build_agent(task, llm, tools, store=store, strategy="compact", run_id=f"run-{uuid.uuid4().hex[:6]}",
                        config=AgentConfig(final_answer_checks=[answer_is_not_the_question], max_final_rejections=1,
                                           trace_dir=tmp_path))
    result = agent.run()
    assert result.stop_reason is StopReason.unanswered
    assert [s.outcome for s in result.steps] == [StepOutcome.final_sent_back, StepOutcome.final]
    assert "repeats the question" in result.steps[-1].verdicts["answer_is_not_the_question"]
    assert "You have run out of steps" in llm.calls[-1][-1].content  # the last-chance prompt was asked
    if last_chance == task:
        assert result.answer is None and not result.forced_answer
    else:
        assert result.answer == last_chance and result.forced_answer


def test_an_area_in_km2_keeps_its_unit():
    from memory.ledger import quantity
    assert quantity("Ghana covers an area of 239,567 km2 (92,497 sq mi)") == ("239,567", "km2")


def test_a_helper_answer_without_the_measure_asked_gets_it_read_off_the_page_it_read(tools, store, tmp_path):
    # Both helpers as measured on held-out questions: one answered "How large is Texas?" with the page's opening
    # sentence, the other with Uttar Pradesh's population. Their pages state each area (Texas's in square miles
    # first, then in km2); the ledger holds the areas and the max() runs over them.
    split = "1. How large is Texas?\n2. How large is Uttar Pradesh?\nThen: max\n"
    texas = [step("I read the page.", "wikipedia_summary", "Texas"),
             step("Found.", "Final", "Texas is the most populous state in the Southern United States.")]
    uttar = [step("I read the page.", "wikipedia_summary", "Uttar Pradesh"),
             step("Found.", "Final", "Uttar Pradesh has over 241 million inhabitants.")]
    llm = Replay([split, *texas, *uttar, step("Done.", "Final", "Texas, at 695,660 km2, is the larger.")])
    result = lead(llm, tools, store, tmp_path).run()
    research_steps, compute = result.steps[:2], result.steps[2]
    assert [(f.page, f.value, f.unit) for s in research_steps for f in s.facts] == [
        ("Texas", "695,660", "km2"), ("Uttar Pradesh", "243,286", "km2")]
    for research_step in research_steps:
        [fact] = research_step.facts
        assert fact.quote in research_step.observation and "the helper answered" in research_step.observation
    assert (compute.action, compute.action_input) == ("calculator", "max(695660, 243286)")


def test_a_distance_away_is_no_size_and_a_size_is_read_in_the_unit_asked(tools, store, tmp_path):
    # Held-out omh-304's helpers, as measured: asked each galaxy's diameter in light-years, two answered with its
    # distance from Earth and one in kiloparsecs; max() took the Whirlpool's 31 million light-years away. Each page
    # states the diameter, in light-years beside kiloparsecs.
    split = ("1. What is the diameter in light-years of the Triangulum Galaxy?\n"
             "2. What is the diameter in light-years of the Whirlpool Galaxy?\n"
             "3. What is the diameter in light-years of the Andromeda Galaxy?\nThen: max\n")
    answers = {"Triangulum Galaxy": "The diameter of the Triangulum Galaxy is 2.878 million light-years.",
               "Whirlpool Galaxy": "The diameter of the Whirlpool Galaxy is 31 million light-years.",
               "Andromeda Galaxy": "The diameter of the Andromeda Galaxy is approximately 46.56 kiloparsecs "
                                   "(152,000 light-years)."}
    helpers = [reply for galaxy, answer in answers.items()
               for reply in (step("I read the page.", "wikipedia_summary", galaxy), step("Found.", "Final", answer))]
    llm = Replay([split, *helpers, step("Done.", "Final", "The Andromeda Galaxy is the widest.")])
    result = lead(llm, tools, store, tmp_path).run()
    assert [(f.page, f.value, f.unit) for s in result.steps[:3] for f in s.facts] == [
        ("Triangulum Galaxy", "61,100", "light-years"), ("Whirlpool Galaxy", "76,900", "ly"),
        ("Andromeda Galaxy", "152,000", "light-years")]


def test_a_count_no_page_states_is_read_off_the_things_page(tools, store, tmp_path):
    """As measured on held-out omh-142 and omh-149: helpers that read the Eel and Louse pages answered "about 100
    species" and "3 species", numbers no page states, and the lead was left without those values. The count the
    thing's page states is read off it (the Louse page is about "lice", the Eel page about "eels")."""
    split = "1. How many species are in the chapter on lice?\n2. How many species of eels are there?\nThen: max\n"
    lice = [step("I read the page.", "wikipedia_summary", "Louse"), step("Found.", "Final", "The lice contain 3 species.")]
    eels = [step("I read the page.", "wikipedia_summary", "Eel"),
            step("Found.", "Final", "There are approximately 100 species of eels.")]
    llm = Replay([split, *lice, *eels, step("Done.", "Final", "Lice.")])
    result = lead(llm, tools, store, tmp_path).run()
    facts = [(f.page, f.value, f.unit) for s in result.steps[:2] for f in s.facts]
    assert facts == [("Louse", "5,000", "species"), ("Eel", "1000", "species")]
    for research_step in result.steps[:2]:
        assert "the helper answered" in research_step.observation


def test_a_count_the_helpers_page_states_is_kept_as_it_is():
    from agent.research import read_count
    sentence = "Earwigs make up the insect order Dermaptera. With about 2,000 species in 12 families."
    read = Step(index=0, thought="", action="wikipedia_summary", action_input="Earwig", observation=sentence,
                findings=Findings(status=ToolStatus.found, pages=["Earwig"], sentences=[sentence]))
    assert read_count("How many species of earwigs are there?", "About 2,000 species.", [read]) is None
    assert read_count("How many species of earwigs are there?", "12 species.", [read]) == (
        "Earwig", sentence, "2,000 species")
    assert read_count("How many species of mantises are there?", "12 species.", [read]) is None  # not its page
    # held-out omh-330: the helper's 24 is stated with words between, beside a total of 64 counted plainly
    court = "Her 24 women's singles major titles and total of 64 major titles are the most in women's tennis history."
    titles = Step(index=0, thought="", action="wikipedia_summary", action_input="Margaret Court", observation=court,
                  findings=Findings(status=ToolStatus.found, pages=["Margaret Court"], sentences=[court]))
    assert read_count("How many major championships did Margaret Court win?",
                      "Margaret Court won 24 major championships.", [titles]) is None
    assert read_count("How many major titles did Margaret Court win?", "Margaret Court won 24 major titles.",
                      [titles]) is None
    # a count its page states of no titles is replaced (the plural counted, not the word after "How many")
    assert read_count("How many major titles did Margaret Court win?", "Margaret Court won 30 major titles.",
                      [titles])[2] == "64 titles"
    assert read_count("When were earwigs first described?", "In 1758.", [read]) is None  # no count asked
    # held-out omh-230: "L2 speakers" counts no speakers; the helper's 50 million stands
    yoruba = "Yoruba speakers number roughly 50 million, including around 2 million second-language or L2 speakers."
    spoken = Step(index=0, thought="", action="wikipedia_summary", action_input="Yoruba language", observation=yoruba,
                  findings=Findings(status=ToolStatus.found, pages=["Yoruba language"], sentences=[yoruba]))
    assert read_count("How many speakers are there in Yoruba?", "Yoruba has approximately 50 million speakers.",
                      [spoken]) is None
    # held-out omh-258: "The number of named Niger–Congo languages listed by Ethnologue is 1,540." counts them; its
    # helper answered with the page's first sentence
    counted = "The number of named Niger–Congo languages listed by Ethnologue is 1,540."
    family = Step(index=0, thought="", action="wikipedia_summary", action_input="Niger–Congo languages",
                  observation=counted, findings=Findings(status=ToolStatus.found, pages=["Niger–Congo languages"],
                                                         sentences=["Niger–Congo is a proposed family.", counted]))
    assert read_count("How many languages are in the Niger–Congo family?", "Niger–Congo is a proposed family.",
                      [family]) == ("Niger–Congo languages", counted, "1,540 languages")
    # held-out lh-65: "about 2,400 described species" states the helper's 2,400; the page's later "some 300
    # species" (of other clades) is no count of the thing's
    sentences = ["Amoebozoa is a major taxonomic group containing about 2,400 described species of amoeboid protists.",
                 "It is the sister group to clades comprising some 300 species of unicellular eukaryotes."]
    amoebae = page_read("Amoebozoa", sentences)
    asked = "How many species does Amoebozoa have?"
    assert read_count(asked, "Amoebozoa has about 2,400 species.", [amoebae]) is None
    assert read_count(asked, "Amoebozoa has 12 species.", [amoebae]) == ("Amoebozoa", sentences[0], "2,400 species")


def test_a_spans_start_or_end_without_a_year_is_read_off_the_range_its_page_states(tools, store, tmp_path):
    # As measured on omh-73: asked when Hadrian's reign began, the helper answered with where he was born; the page
    # it read says "Roman emperor from 117 to 138". The start is the range's first year, the end its second.
    split = "1. When did Hadrian's reign begin?\n2. When did Hadrian's reign end?\nThen: difference\n"
    began = [step("I read the page.", "wikipedia_summary", "Hadrian"),
             step("Found.", "Final", "Hadrian was born in Italica, in the present-day Andalusian province.")]
    ended = [step("I read the page.", "wikipedia_summary", "Hadrian"), step("Found.", "Final", "He died in office.")]
    llm = Replay([split, *began, *ended, step("Done.", "Final", "21 years.")])
    result = lead(llm, tools, store, tmp_path).run()
    assert [(f.value, f.page) for s in result.steps[:2] for f in s.facts] == [("117", "Hadrian"), ("138", "Hadrian")]
    assert "the helper answered" in result.steps[0].observation
    # the value read off and the helper's own words are kept as fields, for code that writes them (`chain_final`)
    assert [(s.findings.value, s.findings.said) for s in result.steps[:2]] == [
        ("117", "Hadrian was born in Italica, in the present-day Andalusian province."), ("138", "He died in office.")]


def test_date_diff_over_two_fact_rows_runs_on_their_years_not_refused_as_one_date(tools, store, tmp_path):
    """Held-out omh-214: the lead's `date_diff` with "F1, F5" was refused five times as one date measured to today
    (the check read the references before they were resolved), and the run stopped with no answer."""
    split = "1. When did Hadrian's reign begin?\n2. When did Hadrian's reign end?\nThen: none\n"
    began = [step("I read the page.", "wikipedia_summary", "Hadrian"), step("Found.", "Final", "It began in 117.")]
    ended = [step("I read the page.", "wikipedia_summary", "Hadrian"), step("Found.", "Final", "It ended in 138.")]
    llm = Replay([split, *began, *ended, step("I measure the span.", "date_diff", "F1, F2"),
                  step("Done.", "Final", "Hadrian reigned for 21 years.")])
    result = lead(llm, tools, store, tmp_path).run()
    span = next(s for s in result.steps if s.action == "date_diff")
    assert "needs both dates" not in span.observation
    assert "21 years" in span.observation, span.observation


def test_a_spans_end_answered_with_the_whole_range_is_the_ranges_second_year():
    """Held-out omh-86: asked when Notre-Dame was completed, the helper answered "in 1163–1345"; its value was
    1163, the start, so the cathedral's 182 years of building came to none."""
    from agent.research import read_year
    sentence = "Notre-Dame de Paris, Cathedral in Paris, France, built 1163–1345"
    read = Step(index=0, thought="", action="wikipedia_summary", action_input="Notre-Dame de Paris",
                observation=sentence, findings=Findings(status=ToolStatus.found, pages=["Notre-Dame de Paris"],
                                                        sentences=[sentence]))
    answer = "Notre-Dame de Paris was completed in 1163–1345."
    assert read_year("When was Notre-Dame de Paris completed?", answer, [read]) == (
        "Notre-Dame de Paris", sentence, "1345")
    assert read_year("When did construction of Notre-Dame de Paris begin?", answer, [read])[2] == "1163"
    assert read_year("When did construction of Angkor Wat begin?", "It was built between 1113 and 1150.", [
        read.model_copy(update={"findings": Findings(status=ToolStatus.found, pages=["Angkor Wat"],
                                                     sentences=["It was constructed between 1113 and 1150 CE."])})
    ])[2] == "1113"


def test_a_spans_end_answered_with_the_end_of_one_of_its_pages_ranges_is_kept():
    """Held-out lh-87: asked when the Mexican Revolution ended, the helper answered 1920, the end of the page's
    "(1910–1920)"; code took its page's other range, "held power from 1920 to 1940", for one whose start the helper
    had given, and the revolution lasted 30 years."""
    from agent.research import read_year
    sentences = ["Nationwide armed struggle in Mexico (1910–1920)",
                 "Revolutionary generals held power from 1920 to 1940."]
    read = page_read("Mexican Revolution", sentences)
    answer = "The Mexican Revolution ended on 1 December 1920."
    assert read_year("When did the Mexican Revolution end?", answer, [read]) is None
    assert read_year("When did the Mexican Revolution begin?", "It began on 20 November 1910.", [read]) is None
    only_its_own = page_read("Mexican Revolution", sentences[:1])
    assert read_year("When did the Mexican Revolution begin?", "It ended in 1920.", [only_its_own])[2] == "1910"


def test_a_spans_start_answered_with_its_end_is_the_pages_first_year():
    """Held-out lh-47: asked when Ibn Arabi was born, the helper answered that he died in 1240; a life of 0 years
    made him the shortest-lived of thirteen. An answer whose only year is the other end of its page's range gives
    the asked end; one that gives the asked end stays as it is."""
    from agent.research import read_year
    sentence = "Sufi scholar and Sunni philosopher (1165–1240)"
    read = Step(index=0, thought="", action="wikipedia_summary", action_input="Ibn Arabi", observation=sentence,
                findings=Findings(status=ToolStatus.found, pages=["Ibn Arabi"], sentences=[sentence]))
    answer = "Ibn Arabi was born in al-Andalus, and he died in 1240."
    assert read_year("When was Ibn Arabi born?", answer, [read]) == ("Ibn Arabi", sentence, "1165")
    assert read_year("When did Ibn Arabi die?", answer, [read]) is None
    assert read_year("When was Ibn Arabi born?", "He was born in 1165.", [read]) is None


def test_a_when_answer_with_a_year_or_a_question_of_no_span_is_kept_as_it_is():
    from agent.research import read_year
    assert read_year("When did Hadrian's reign begin?", "It began in 117.", []) is None
    assert read_year("When was Hadrian crowned?", "In Rome.", []) is None  # neither a start nor an end


def test_a_helper_answer_that_states_the_measure_asked_is_kept_as_it_is():
    from agent.research import read_off
    assert read_off("How large is Texas?", "Texas covers 695,660 km2.", []) is None
    assert read_off("When was Texas founded?", "It was founded in 1845.", []) is None


def test_a_value_with_its_uncertainty_takes_the_unit_after_it():
    """Held-out omh-285: "It is 1,267.0 ± 5.4 light-years (388.5 ± 1.7 pc) away" was read as 1,267.0 of nothing
    beside 5.4 light-years, and the Orion Nebula was left out of the pick."""
    from core.units import quantities
    assert quantities("It is 1,267.0 ± 5.4 light-years (388.5 ± 1.7 pc) away") == [("1,267.0", "light-years"),
                                                                                     ("388.5", "pc")]
    assert quantities("a mass of 80 +/- 2 kg and 3 m tall") == [("80", "kg"), ("3", "m")]
    assert quantities("from 5 to 7 kg") == [("5", ""), ("7", "kg")]  # a range is no uncertainty


def test_units_are_read_as_pages_write_them():
    from core.units import asked_units, quantities, unit_kind
    assert quantities("Covering 268,596 square miles (695,660\u00a0km2) and 31.7 million residents") == [
        ("268,596", "square miles"), ("695,660", "km2"), ("31.7", "million")]
    assert [unit_kind(u) for u in ("square kilometres", "sq\u00a0mi", "km²", "Kilometres", "square")] == [
        "km2", "mi2", "km2", "km", "km2"]
    assert asked_units("How many square kilometers of land does Tonga have?") == ("km2", "mi2")
    assert asked_units("How long is the Nile?") == ("km", "mi")
    assert asked_units("How tall is K2?") == ("m", "ft")
    assert asked_units("When was Finland founded?") == ()
    # held-out omh-80: lengths written as adjectives, "193.3-kilometre-long (120.1-mile)"
    assert [(n, unit_kind(u)) for n, u in quantities("The 193.3-kilometre-long (120.1-mile) canal")] == [
        ("193.3", "km"), ("120.1", "mi")]
    assert quantities("an artificial 82-kilometer waterway, a 6,650-km river") == [("82", "kilometer"), ("6,650", "km")]
    # held-out lh-34: "68 to 85 million" was added as 68
    assert quantities("approximately 68 to 85 million native speakers") == [("68", "million"), ("85", "million")]
    # held-out omh-203: "35.5 million km2" is an area (a million of nothing, its year 1913 was taken instead)
    from core.units import scaled
    stated = quantities("by 1920, it covered 35.5\u00a0million\u00a0km2 (13.7\u00a0million\u00a0sq\u00a0mi)")
    assert [(n, unit_kind(u)) for n, u in stated] == [("1920", ""), ("35.5", "km2"), ("13.7", "mi2")]
    assert [scaled(*q) for q in stated[1:]] == [("35500000", "km2"), ("13700000", "sq mi")]
    assert quantities("between 68 to 85 million km2") == [("68", "million km2"), ("85", "million km2")]
    # held-out lh-31: "founded on 10 January 1920" gave the League of Nations the value 10, in "January"
    assert quantities("It was founded on 10 January 1920") == [("1920", "")]
    assert [n.rstrip(",") for n, _ in quantities("founded on January 10, 1920, in Paris")] == ["1920"]


def test_a_question_asking_only_a_computed_number_is_answered_by_code_from_the_result(tools, store, tmp_path):
    # measured on held-out questions: shown "abs(1957 - 1969) = 12", the 1.5B lead answered "1957 - 11 = 186 years"
    task = "How many kilometres longer is the Godavari River than the Krishna River?"
    split = "1. How long is the Godavari River?\n2. How long is the Krishna River?\nThen: difference\n"
    llm = Replay([split, *GODAVARI_HELPER, *KRISHNA_HELPER])  # no reply of the lead's own: code answers
    result = build_agent(task, llm, tools, store=store, strategy="compact", run_id=f"lead-{uuid.uuid4().hex[:6]}",
                         config=AgentConfig(research=True, trace_dir=tmp_path)).run()
    assert result.stop_reason is StopReason.final_answer and llm.remaining == 0
    assert result.steps[2].action_input == "abs(1465 - 1400)"
    assert result.answer == ('The helpers found 1,465 kilometres for "How long is the Godavari River?"; 1,400 '
                             'kilometres for "How long is the Krishna River?"; the difference is 65 kilometres.')


def test_a_question_that_also_picks_one_is_left_to_the_lead():
    from agent.research import split_final
    split = Split(questions=["How long is the Godavari River?", "How long is the Krishna River?"],
                  operation="difference")
    assert split_final(split, [], "Which is longer, the Godavari or the Krishna, and by how much?") is None


def summary_step(tools, title: str) -> Step:
    """A step that read this page with the real offline tool."""
    observed = tools.get("wikipedia_summary").fn(title=title)
    return Step(index=0, thought="", action="wikipedia_summary", action_input=title, observation=str(observed),
                findings=observed.findings)


def test_a_measure_in_the_less_wanted_unit_is_read_again_in_the_wanted_one_when_the_page_has_it(tools):
    from agent.research import read_off
    read = summary_step(tools, "California")
    page, sentence, value = read_off("How large is California?", "It covers 163,696 square miles.", [read])
    assert (page, value) == ("California", "423,970 km2") and "163,696 square miles" in sentence
    assert read_off("How large is California?", "It covers 423,970 km2.", [read]) is None


def test_the_source_of_a_measure_is_the_sentence_stating_it_not_one_sharing_more_numbers(tools):
    # held-out omh-203: "existed between 1492 and 1976, covering 13.7 million square kilometres" was sourced to
    # "Colonial empire between 1492 and 1976", and the ledger took 1492 for the Spanish Empire's area
    from agent.research import source
    read = summary_step(tools, "Spanish Empire")
    answer = "The Spanish Empire existed between 1492 and 1976, covering 13.7 million square kilometres."
    page, sentence = source(answer, [read], "How large is the Spanish Empire?")
    assert page == "Spanish Empire" and "13.7" in sentence
    assert "13.7" not in source(answer, [read])[1]  # asked nothing, the sentence with most of its numbers


def test_a_number_the_question_names_is_no_part_of_the_answer_its_source_must_state(tools):
    # held-out omh-215: "The half-life of carbon-14 is 5,700 years." was sourced to "It belongs to group 14 of the
    # periodic table", and the lead compared carbon-14's "14" with the other half-lives
    from agent.research import source
    read = summary_step(tools, "Carbon")
    answer = "The half-life of carbon-14 is 5,700 years."
    page, sentence = source(answer, [read], "What is the half-life of carbon-14?")
    assert page == "Carbon" and "5,700" in sentence, sentence


def test_the_source_of_a_count_is_the_sentence_stating_it_with_the_answers_words(tools):
    # held-out omh-232: "The Arab League has 22 members." was sourced to "formed in Cairo on 22 March 1945, initially
    # with seven members", the first sentence with a 22, and the ledger took 1945 for its members
    from agent.research import source
    read = summary_step(tools, "Arab League")
    page, sentence = source("The Arab League has 22 members.", [read], "How many countries are members of the Arab League?")
    assert page == "Arab League" and sentence == "Currently, the League has 22 members.", sentence


def test_the_source_is_where_the_number_the_answer_opens_with_is_stated_not_the_page_text_it_pasted(tools):
    # held-out omh-334: the answer pasted the page after "K. 620", and was sourced to the premiere's sentence, which
    # shares two of its numbers (30 September 1791): the ledger took 1791 for the Köchel number
    from agent.research import source
    read = summary_step(tools, "The Magic Flute")
    answer = ("The Köchel number for Mozart's The Magic Flute is 620, which is an opera in two acts. The work "
              "premiered on 30 September 1791 at Schikaneder's theatre.")
    page, sentence = source(answer, [read], "What is the Köchel number for Mozart's The Magic Flute?")
    assert page == "The Magic Flute" and "620" in sentence, sentence
    # an answer that is the page pasted whole opens with no number of its own: the most numbers shared still lead
    # (held-out omh-285's helper pasted the Orion Nebula's intro; its first number, the magnitude 4.0, is no answer)
    nebula = summary_step(tools, "Orion Nebula")
    pasted = ("The Orion Nebula is a diffuse nebula in the Milky Way situated south of Orion's Belt in the "
              "constellation of Orion. It is one of the brightest nebulae and is visible to the naked eye in the night "
              "sky with an apparent magnitude of 4.0. It is 1,267.0 ± 5.4 light-years (388.5 ± 1.7 pc) away.")
    asked = "What is the distance in light-years that the Orion Nebula' Wikipedia intro gives?"
    assert "1,267.0" in source(pasted, [nebula], asked)[1]


def test_the_source_of_a_year_asked_is_the_sentence_stating_the_year(tools):
    # held-out omh-214: "completed in 1994, 50.46 kilometers (31.35 miles) long" was sourced to the tunnel's length
    # sentence (two of its numbers), and the ledger took 50.46 for the year the Channel Tunnel opened
    from agent.research import source
    read = summary_step(tools, "Channel Tunnel")
    answer = "The Channel Tunnel was completed in 1994, 50.46 kilometers (31.35 miles) long."
    page, sentence = source(answer, [read], "When was the Channel Tunnel completed?")
    assert page == "Channel Tunnel" and "1994" in sentence, sentence


def test_an_average_given_for_the_greatest_measure_asked_is_read_again_as_the_greatest(tools):
    # held-out omh-204: asked the greatest depth, a helper answered Lake Winnipeg's "mean depth of 12 metres"
    from agent.research import read_off
    read = summary_step(tools, "Lake Winnipeg")
    asked = "What is the greatest depth in metres given in the Wikipedia intro for Lake Winnipeg?"
    page, sentence, value = read_off(asked, "The greatest depth of Lake Winnipeg is 12 metres.", [read])
    assert (page, value) == ("Lake Winnipeg", "36 metre") and sentence.startswith("Its deepest section")
    assert read_off(asked, "Its greatest depth is 36 metres.", [read]) is None
    assert read_off("What is the mean depth of Lake Winnipeg?", "It is 12 metres deep on average.", [read]) is None


def test_a_year_its_page_gives_as_a_start_answers_no_end(tools):
    # held-out omh-212: asked when Joseph II's reign ended, a helper answered "29 November 1780", when he became
    # "sole ruler of the Habsburg monarchy from 29 November 1780 until his death"; his page's range says 1790
    from agent.research import read_year
    read = summary_step(tools, "Joseph II, Holy Roman Emperor")
    page, sentence, year = read_year("When did Joseph II's reign end?", "It ended on 29 November 1780.", [read])
    assert (page, year) == ("Joseph II, Holy Roman Emperor", "1790") and "1765 to 1790" in sentence
    assert read_year("When did Joseph II's reign end?", "It ended in 1790.", [read]) is None
    assert read_year("When did Joseph II's reign begin?", "It began on 18 August 1765.", [read]) is None


def test_a_not_found_message_echoing_the_helpers_words_is_no_source(tools, store, tmp_path):
    # measured on held-out omh-69: the helper looked its own answer up, the page did not hold it, and the message
    # quoting its input was taken as the sentence that states the answer
    split = "1. How heavy can a beaver get?\nThen: none\n"
    echoing = [step("I check my answer.", "wikipedia_lookup", "Beaver | The maximum weight of a beaver is 150 pounds"),
               step("Done.", "Final", "The maximum weight of a beaver is 150 pounds.")]
    llm = Replay([split, *echoing, step("Unknown.", "Final", "The beaver's weight was not established.")])
    result = lead(llm, tools, store, tmp_path).run()
    research_step = result.steps[0]
    assert "does not appear" in store.step_records(research_step.findings.subrun)[0].step.observation
    assert research_step.observation.startswith("Answer (unverified") and research_step.facts == []


def test_a_helper_value_no_page_states_is_read_off_the_page():
    """Held-out omh-273: the helper answered "approximately 2.952 million square kilometers" for Kaohsiung, whose page
    says "2,952 km2"; the answer went back unverified, and Kaohsiung, the smallest, was left out."""
    from agent.research import read_off
    sentence = ("After annexing the entirety of Kaohsiung County in 2010, ... making it the largest city in Taiwan by "
                "area at 2,952 km2 (1,140 mi2).")
    read = Step(index=0, action="wikipedia_summary", action_input="Kaohsiung", observation=sentence,
                findings=Findings(status=ToolStatus.found, pages=["Kaohsiung"], sentences=[sentence]))
    answer = "The land area of Kaohsiung is approximately 2.952 million square kilometers (1.140 million square miles)."
    assert read_off("What is the land area of Kaohsiung?", answer, [read]) == ("Kaohsiung", sentence, "2,952 km2")
    # an answer that states its page's own value is kept as it is
    assert read_off("What is the land area of Kaohsiung?", "Kaohsiung covers 2,952 km2.", [read]) is None


def test_a_helpers_count_of_people_is_replaced_by_the_count_of_speakers_its_sentence_gives_beside_it():
    """Held-out omh-469: asked how many native speakers Burmese has, the helper answered with the 42.9 million
    people speaking it globally, from the sentence that gives its 32.9 million first-language speakers; the count
    was read as one of "native", the word after "How many", and stood. Now the plural counted is read, and the count
    keeps its scale."""
    from agent.fanout import asked_value
    from agent.research import report
    from core.schema import RunResult
    sentence = ("In 2019, Burmese was spoken by 42.9 million people globally, including by 32.9 million speakers as "
                "a first language and 10 million as a second language.")
    question = "How many native speakers does Burmese have?"
    result = RunResult(run_id="r", task=question, answer="Burmese has 42.9 million native speakers globally.",
                       stop_reason=StopReason.final_answer, steps=[page_read("Burmese language", [sentence])])
    made = report(question, result)
    assert made.startswith("Answer: 32.9 million speakers (the helper answered: Burmese has 42.9 million")
    asked = Step(index=0, action="research", action_input=question, observation=str(made), findings=made.findings)
    asked.facts = facts_of(asked)
    fact, value = asked_value(question, [asked])
    assert (fact.page, value, fact.unit) == ("Burmese language", "32.9", "million")
    # an answer its sentence states as a count of speakers stands
    result.answer = "Burmese has 32.9 million native speakers."
    assert report(question, result).startswith("Answer: Burmese has 32.9 million native speakers.")


def test_a_lookup_that_misses_its_word_still_sources_an_answer_from_the_page_description_it_shows(tools):
    """Held-out omh-496: told that "born" is not on Judy Garland's page, whose description it showed ("American
    actress and singer (1922–1969)"), the helper answered 1922, and the answer went back unverified."""
    from agent.research import report
    from core.schema import RunResult
    missed = tools.get("wikipedia_lookup").fn(title="Judy Garland", text="born")
    assert missed.findings.status is ToolStatus.not_on_page and "(1922–1969)" in missed
    looked = Step(index=0, action="wikipedia_lookup", action_input="Judy Garland | born", observation=str(missed),
                  findings=missed.findings)
    question = "When was the top-billed star of The Wizard of Oz born?"
    result = RunResult(run_id="r", task=question, answer="Judy Garland was born in 1922.",
                       stop_reason=StopReason.final_answer, steps=[looked])
    made = report(question, result)
    assert made.startswith("Answer: Judy Garland was born in 1922.\nSource: Judy Garland: ") and "(1922–1969)" in made
    # the helper's own word, echoed by the message, is no source: an answer only it states stays unverified
    result.answer = "Judy Garland was born in 1921."
    assert report(question, result).startswith("Answer (unverified")


PASTED = ("Kanō Jigorō was a Japanese judoka, educator, politician, and the founder of judo. Judo was one of the "
          "first Japanese martial arts to gain widespread international recognition, and the first to become an "
          "official Olympic sport since 1964 and 1992.")


def test_a_chain_is_split_by_code_and_each_helper_reads_the_page_of_what_it_asks_about(tools, store, tmp_path):
    """Held-out omh-405, after code split its chain: the first helper searched "judo creator" (top title Judo) and
    searched it again, never reading the page; the second, asked about Kanō Jigorō, did the same; both answered from
    memory ("the Kanō ranking system"). Now a search naming its top title reads that page, and a later helper asked
    about a name an earlier one found opens on that name's page (a helper's answer pasting the page goes back), and
    code writes the answer from both."""
    task = ("Who created the martial art of judo, and what ranking system, used to show the relative rank among "
            "members of a martial-art style, is attributed to him?")
    second = ("What ranking system, used to show the relative rank among members of a martial-art style, is "
              "attributed to Kanō Jigorō?")
    # its commas have the model read the list it may hold (none); no split call: code reads the chain
    llm = Replay(["[]", step("Search.", "wikipedia_search", "judo creator"),
                  step("Found.", "Final", "Judo was created by Kanō Jigorō."),
                  step("Done.", "Final", PASTED), step("It says so.", "Final", "The introduction of dan ranking "
                                                          "is attributed to Kanō Jigorō.")])
    result = build_agent(task, llm, tools, store=store, strategy="compact", run_id=f"lead-{uuid.uuid4().hex[:6]}",
                         config=AgentConfig(research=True, trace_dir=tmp_path)).run()
    # code writes the Final answer from the two answers (held-out omh-410's lead wrote the question back, thrice)
    assert result.stop_reason is StopReason.final_answer and result.answer == (
        "Judo was created by Kanō Jigorō. The introduction of dan ranking is attributed to Kanō Jigorō.")
    first, then, final = result.steps
    assert final.injected == ["planned"] and len(llm.calls) == 5  # the list read and four helper steps
    # the second helper's first answer pasted the page's intro, and went back (held-out omh-405's stood)
    pasted = [record.step for record in store.step_records(then.findings.subrun)][1]
    assert pasted.action_input == PASTED and "your answer copies the page" in pasted.observation
    assert (first.action_input, then.action_input) == ("Who created the martial art of judo?", second)
    searched, read = ([record.step for record in store.step_records(s.findings.subrun)][0] for s in (first, then))
    assert searched.findings.page == "Judo" and "created in 1882 by Kanō Jigorō" in searched.observation
    assert (read.action, read.action_input, read.injected) == ("wikipedia_summary", "Kanō Jigorō", ["planned"])
    # both answers are sourced from the pages read, so both enter the ledger
    assert [(fact.page, "unverified" in s.observation) for s in (first, then) for fact in s.facts] == [
        ("Judo", False), ("Kanō Jigorō", False)]
    assert "dan ranking" in then.facts[0].quote


def test_a_chains_first_helper_opens_on_the_one_page_its_question_names(tools, store, tmp_path):
    """Held-out omh-476: the first helper, asked what lies along Uruguay's southern border, searched "Uruguay
    southern border" three times, never read Uruguay's page (which says the Río de la Plata), and answered the
    Uruguay River. Now a helper whose question names one page, with no list and no name found before, opens on it."""
    task = ("What body of water lies along Uruguay's southern border, and if you treat it as a river, what is its "
            "maximum width in kilometres?")
    llm = Replay(["[]", step("It says so.", "Final", "The Río de la Plata lies along Uruguay's southern border."),
                  step("It says so.", "Final", "Its maximum width is 220 kilometres.")])
    result = build_agent(task, llm, tools, store=store, strategy="compact", run_id=f"lead-{uuid.uuid4().hex[:6]}",
                         config=AgentConfig(research=True, trace_dir=tmp_path)).run()
    first = result.steps[0]
    assert first.action_input == "What body of water lies along Uruguay's southern border?"
    read = store.step_records(first.findings.subrun)[0].step
    assert (read.action, read.action_input, read.injected) == ("wikipedia_summary", "Uruguay", ["planned"])
    assert "bordering the Río de la Plata to the south" in read.observation
    assert first.facts and first.facts[0].page == "Uruguay"


def test_a_helper_whose_question_names_two_pages_opens_on_both(tools, store, tmp_path):
    """Held-out omh-514: the helper asked "When did Rainer Maria Rilke begin writing the Duino Elegies?" searched,
    read neither page, and answered 1896 from memory; the poem's page says he "began the elegies in 1912"."""
    task = "How many years before his death did Rainer Maria Rilke begin writing the Duino Elegies?"
    asked = ["When did Rainer Maria Rilke begin writing the Duino Elegies?", "When did Rainer Maria Rilke die?"]
    llm = Replay([f"1. {asked[0]}\n2. {asked[1]}\nThen: difference\n",
                  step("It says so.", "Final", "He began the elegies in 1912."),
                  step("It says so.", "Final", "Rainer Maria Rilke died in 1926.")])
    result = build_agent(task, llm, tools, store=store, strategy="compact", run_id=f"lead-{uuid.uuid4().hex[:6]}",
                         config=AgentConfig(research=True, trace_dir=tmp_path)).run()
    first, then = result.steps[:2]
    reads = [record.step for record in store.step_records(first.findings.subrun)][:2]
    assert [(read.action, read.action_input, read.injected) for read in reads] == [
        ("wikipedia_summary", "Rainer Maria Rilke", ["planned"]), ("wikipedia_summary", "Duino Elegies", ["planned"])]
    assert first.facts and first.facts[0].page == "Duino Elegies" and "1912" in first.facts[0].quote
    # a question naming one page opens on it alone
    assert [record.step.action for record in store.step_records(then.findings.subrun)] == [
        "wikipedia_summary", "Final"]
    assert "14 years" in result.answer


def test_a_helper_answer_copying_two_sentences_of_a_page_goes_back_and_one_quoted_sentence_stays():
    from agent.grounding import answer_is_not_the_page
    read = page_read("Kanō Jigorō", ["Kanō Jigorō  was a Japanese judoka, educator, politician, and the founder of "
                                     "judo.", "Judo was one of the first Japanese martial arts to gain widespread "
                                     "international recognition, and the first to become an official Olympic sport "
                                     "since 1964 and 1992, as well as the Commonwealth Games sport in 1990."])
    question = "What ranking system is attributed to Kanō Jigorō?"

    def judged(answer: str) -> str | None:
        return answer_is_not_the_page(FinalCandidate(answer=answer, task=question, today="2026-12-07", steps=[read]))
    assert question in judged(PASTED)  # the second sentence cut short is copied all the same
    assert judged("Kanō Jigorō was a Japanese judoka, educator, politician, and the founder of judo.") is None
    assert judged("The dan ranking. Kanō Jigorō introduced it, the page says.") is None


def test_a_helper_asked_into_which_sea_that_names_one_only_its_own_lookup_echoed_goes_back():
    """Held-out omh-442: asked "into which sea does the Don river empty?", the helper looked up its own answer as a
    keyword (the tool's not-found message echoed "the Black Sea"), read the Don's page, which says the Sea of Azov,
    and answered the Black Sea, unverified; the chain then asked what connects the Black Sea to the Black Sea."""
    from agent.checks import asked_names_are_grounded
    question = "into which sea does the Don river empty?"
    echoed = Step(index=0, action="wikipedia_lookup", action_input='{"title": "Don River", "text": "The Don River '
                  'empties into the Black Sea."}', observation='"The Don River empties into the Black Sea." does not '
                  'appear in the Wikipedia page "Don (river)". Try a shorter or different keyword.',
                  findings=Findings(status=ToolStatus.not_on_page, pages=["Don (river)"]))
    read = page_read("Don (river)", ["The Don is the fifth-longest river in Europe.", "Flowing from Central Russia "
                                     "to the Sea of Azov in Southern Russia, it is one of Russia's largest rivers."])

    def judged(answer: str, task: str = question) -> str | None:
        return asked_names_are_grounded(FinalCandidate(answer=answer, task=task, today="2026-12-07",
                                                       steps=[echoed, read]))
    assert "Black Sea" in judged("The Don River empties into the Black Sea.")
    assert judged("The Don River empties into the Sea of Azov.") is None
    assert judged("The Don River empties into the Black Sea.", "In which year was the Don first mapped?") is None


def test_a_helper_asked_who_that_names_someone_no_page_gave_goes_back_and_a_number_question_is_not_checked():
    """Held-out omh-433: asked "... Who was that third co-founder?", the helper read only a search's titles and
    answered Dorothy Hodgkin; the chain then asked her Nobel year. A helper's answer to a question asking who or which
    must name someone a page it read mentions (helpers' own checks: agent/runs.py)."""
    from agent.checks import asked_names_are_grounded
    from agent.runs import HELPER_CHECKS
    assert asked_names_are_grounded in HELPER_CHECKS
    question = ("Van 't Hoff founded the Zeitschrift für physikalische Chemie together with Wilhelm Ostwald and one "
                "other scientist. Who was that third co-founder?")
    searched = Step(index=0, action="wikipedia_search", action_input="Zeitschrift für physikalische Chemie founders",
                    observation="Wikipedia pages matching ... :\n1. Jacobus Henricus van 't Hoff\n2. Wilhelm Ostwald\n"
                                "3. Svante Arrhenius", findings=Findings(status=ToolStatus.listed))

    def judged(answer: str, task: str = question) -> str | None:
        return asked_names_are_grounded(FinalCandidate(answer=answer, task=task, today="2026-12-07",
                                                       steps=[searched]))
    assert "Dorothy Hodgkin" in judged("Dorothy Hodgkin was the third co-founder.")
    assert judged("Svante Arrhenius was the third co-founder.") is None
    assert judged("Dorothy Hodgkin, 1964.", "In which year did she win the Nobel Prize?") is None  # asks a number
