"""`--plan` through the real loop: the plan is asked first (grammar-constrained), shown in every prompt, checked off
from the tool calls (never from what the model says), rewritten after a dead end at most every K steps, kept in
memory so a resumed run keeps it. Scripted model, real tools, real Chroma (in memory)."""
from __future__ import annotations

import uuid

from agent.config import AgentConfig
from agent.events import PlanMade
from agent.llm.replay import Replay
from agent.loop import Agent
from agent.planning import MAX_ITEMS, Plan, PlanItem, plan_gbnf, progress, progress_line
from core.chroma import make_client
from core.schema import Step
from memory.store import Store
from memory.factory import make_memory
from tools.base import ToolRegistry, tool
from tools.calculator import calculator

TASK = "What is the combined height of the Alpha Tower and the Beta Tower, in metres?"
HEIGHTS = {"Alpha Tower": 300, "Beta Tower": 452}
PLAN = ("1. How tall is the Alpha Tower? -> wikipedia_summary\n"
        "2. How tall is the Beta Tower? -> wikipedia_summary\n"
        "3. What is the sum of the two heights? -> calculator\n")


@tool
def wikipedia_summary(title: str) -> str:
    """The introduction of a page."""
    if title.strip() in HEIGHTS:
        return f"{title}, a tower: it is {HEIGHTS[title.strip()]} metres tall."
    return f'There is no Wikipedia page titled "{title}". Did you mean: Alpha Tower; Beta Tower?'


def tools() -> ToolRegistry:
    return ToolRegistry([calculator, wikipedia_summary])


def step(thought: str, action: str, action_input: str) -> str:
    return f"Thought: {thought}\nAction: {action}\nAction Input: {action_input}"


def tool_step(index: int, action: str, action_input: str, observation: str) -> Step:
    return Step(index=index, action=action, action_input=action_input, observation=observation, outcome="tool")


def test_a_plan_is_read_leniently_and_renumbered():
    text = ("Sure, here is my plan:\n1) Find the Alpha Tower's height → Wikipedia_Summary\n"
            "- Find the Beta Tower's height -> wikipedia_summary\n7. Add them -> calculator.\nThat's all.")
    plan = Plan.parse(text, ["calculator", "wikipedia_summary"])
    assert [(item.number, item.tool) for item in plan.items] == [
        (1, "wikipedia_summary"), (2, "wikipedia_summary"), (3, "calculator")]
    assert Plan.parse("I will look it up.", ["calculator"]) is None
    many = "\n".join(f"{n}. page {n} -> wikipedia_summary" for n in range(1, 12))
    assert len(Plan.parse(many, ["wikipedia_summary"]).items) == MAX_ITEMS


def test_items_are_checked_off_by_tool_calls_not_by_the_models_say_so():
    plan = Plan.parse(PLAN, ["calculator", "wikipedia_summary"])
    steps = [
        Step(index=0, thought="Items 1, 2 and 3 are done.", action="calculator", action_input="1+1",
             observation="Error: calculator failed", outcome="tool"),            # a failed call checks nothing
        tool_step(1, "wikipedia_summary", "Beta Tower", "Beta Tower, a tower: it is 452 metres tall."),
        tool_step(2, "wikipedia_summary", "Gamma Tower", 'There is no Wikipedia page titled "Gamma Tower".'),
    ]
    assert progress(plan, steps) == {2: 1}  # the lookup of the Beta Tower, whatever order the plan had
    line = progress_line(plan, steps)
    assert "done 2 (step 1)" in line and "Next: 1. How tall is the Alpha Tower?" in line
    steps += [tool_step(3, "wikipedia_summary", "Alpha Tower", "Alpha Tower, a tower: it is 300 metres tall."),
              tool_step(4, "calculator", "300+452", "752")]
    assert progress(plan, steps) == {2: 1, 1: 3, 3: 4}
    assert "every item is done" in progress_line(plan, steps)


def test_the_plan_comes_first_and_every_prompt_shows_it_with_its_progress(tmp_path):
    llm = Replay([PLAN, step("Alpha first.", "wikipedia_summary", "Alpha Tower"),
                  step("Now Beta.", "wikipedia_summary", "Beta Tower"),
                  step("Add them.", "calculator", "300+452"),
                  step("Done.", "Final", "Together they are 752 metres tall.")])
    agent = Agent(llm, tools(), config=AgentConfig(plan=True, trace_dir=tmp_path))
    events = list(agent.stream(TASK))
    result = events[-1].result
    assert result.answer == "Together they are 752 metres tall."
    assert llm.grammars[0] == plan_gbnf(["calculator", "wikipedia_summary"])  # the plan call, constrained
    assert llm.grammars[1:] == [None] * 4
    plans = [event for event in events if isinstance(event, PlanMade)]
    assert len(plans) == 1 and plans[0].plan.startswith("1. How tall is the Alpha Tower? -> wikipedia_summary")
    step_prompts = llm.calls[1:]
    for messages in step_prompts:  # the question message holds the plan, unchanged between steps
        assert messages[1].content == step_prompts[0][1].content
        assert "2. How tall is the Beta Tower? -> wikipedia_summary" in messages[1].content
    assert "(Plan: done 1 (step 0). Next: 2. How tall is the Beta Tower?" in step_prompts[1][-1].content
    assert "(Plan: done 1 (step 0), 2 (step 1). Next: 3." in step_prompts[2][-1].content
    # The progress line leaves the conversation with its step: the earlier observation reads as the tool wrote it.
    assert step_prompts[2][-3].content == "Observation: Alpha Tower, a tower: it is 300 metres tall."
    assert "[done at step 2]" in result.plan and result.usage.prompt_tokens > sum(
        s.usage.prompt_tokens for s in result.steps)  # the plan call is paid for


def test_a_dead_end_rewrites_the_plan_at_most_every_k_steps():
    revised = ("1. How tall is the Alpha Tower? -> wikipedia_summary\n"
               "2. How tall is the Beta Tower (exact title)? -> wikipedia_summary\n"
               "3. What is the sum of the two heights? -> calculator\n")
    llm = Replay([PLAN, step("Alpha.", "wikipedia_summary", "Alpha Tower"),
                  step("Beta.", "wikipedia_summary", "Beta Towr"),      # dead end at step 1: too early to revise
                  step("Beta again.", "wikipedia_summary", "Beta Towre"),  # dead end at step 2: revised (K=3)
                  revised,
                  step("Beta, exactly.", "wikipedia_summary", "Beta Tower"),
                  step("Add.", "calculator", "300+452"),
                  step("Done.", "Final", "752 metres.")])
    memory = make_memory("full", f"plan-{uuid.uuid4().hex[:8]}", task=TASK, store=Store(make_client("memory")))
    agent = Agent(llm, tools(), memory=memory, config=AgentConfig(plan=True, plan_revise_every=3))
    events = list(agent.stream())
    plans = [event for event in events if isinstance(event, PlanMade)]
    assert [(p.index, p.revision) for p in plans] == [(0, 0), (3, 1)]
    assert "Step 2 (wikipedia_summary 'Beta Towre') found nothing" in llm.calls[4][-1].content
    assert "(exact title)" in llm.calls[5][1].content  # later prompts show the revised plan
    assert memory.annotation("plan") == plans[-1].plan  # kept with the run
    assert events[-1].result.answer == "752 metres."


def test_a_resumed_run_keeps_its_plan_instead_of_planning_again():
    store, run_id = Store(make_client("memory")), f"plan-{uuid.uuid4().hex[:8]}"
    first = Replay([PLAN, step("Alpha.", "wikipedia_summary", "Alpha Tower")])
    memory = make_memory("full", run_id, task=TASK, store=store)
    Agent(first, tools(), memory=memory, config=AgentConfig(plan=True, max_steps=1,
                                                            force_final_answer=False)).run()
    second = Replay([step("Beta.", "wikipedia_summary", "Beta Tower"), step("Add.", "calculator", "300+452"),
                     step("Done.", "Final", "752 metres.")])
    reopened = make_memory("full", run_id, store=store)
    result = Agent(second, tools(), memory=reopened, config=AgentConfig(plan=True)).run()
    assert result.answer == "752 metres." and second.grammars == [None] * 3  # no second plan call
    assert "1. How tall is the Alpha Tower? -> wikipedia_summary" in second.calls[0][1].content
    assert "(Plan: done 1 (step 0), 2 (step 1). Next: 3." in second.calls[1][-1].content


def test_an_unreadable_plan_leaves_the_run_going_without_one():
    llm = Replay(["I would rather not plan.", step("Add.", "calculator", "300+452"), step("Done.", "Final", "752.")])
    events = list(Agent(llm, tools(), config=AgentConfig(plan=True)).stream(TASK))
    assert [event.plan for event in events if isinstance(event, PlanMade)] == [""]
    assert "Your plan" not in llm.calls[1][1].content and events[-1].result.answer == "752."


def test_the_plan_grammar_allows_lookups_then_one_item_of_work():
    grammar = plan_gbnf(["calculator", "wikipedia_summary"])
    assert grammar.splitlines()[0] == "root ::= look " + "look? " * (MAX_ITEMS - 2) + "work? | work"
    assert '("wikipedia_summary")' in grammar and '("calculator")' in grammar
    # Read back the same way: the work item ends the plan.
    plan = Plan.parse("1. A? -> wikipedia_summary\n2. Sum? -> calculator\n3. More? -> calculator", ["calculator"])
    assert [item.text for item in plan.items] == ["A?", "Sum?"]
    assert PlanItem(1, "x", "calculator") in Plan.parse("1. x -> calculator", ["calculator"]).items


def test_a_lookup_the_tool_reports_as_found_nothing_checks_nothing_off_whatever_its_wording():
    """Planning reads what the tool reported (Findings), not its wording: a reworded "no such page" still counts
    as a dead end, and a found page whose text happens to say "There is no Wikipedia page" still counts."""
    from agent.planning import dead_end
    from core.schema import Findings, ToolStatus

    plan = Plan.parse(PLAN, ["calculator", "wikipedia_summary"])
    reworded = Step(index=0, action="wikipedia_summary", action_input="Alpha Tower", outcome="tool",
                    observation="Nothing here by that name.", findings=Findings(status=ToolStatus.missing))
    assert progress(plan, [reworded]) == {} and dead_end(plan, [reworded]) is reworded
    quoting = Step(index=0, action="wikipedia_summary", action_input="Alpha Tower", outcome="tool",
                   observation='Alpha Tower: its sign reads "There is no Wikipedia page" and it is 300 metres tall.',
                   findings=Findings(status=ToolStatus.found, pages=["Alpha Tower"]))
    assert progress(plan, [quoting]) == {1: 0} and dead_end(plan, [quoting]) is None
