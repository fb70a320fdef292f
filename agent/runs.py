"""One way to build a run: the agent of each attempt at a question, with its memory sized to the model's window.

`ponder ask`, `ponder resume`, `ponder bench` and the memory explorer notebook all build runs here (one attempt:
`build_agent`), so an option that changes how a run is assembled (the memory's budget, the attempt ids of a
--reflect retry, what the summariser runs on) is added once.
"""
from __future__ import annotations

from typing import Callable, Sequence

from agent.checks import asked_names_are_grounded
from agent.config import AgentConfig
from agent.grounding import (answer_from_facts, answer_is_not_the_page, answer_is_not_the_question,
                             answer_names_the_computed_pick)
from agent.loop import Agent
from agent.prompts import HELPER_BRIEF, LEAD_BRIEF, memory_budget
from agent.research import RESEARCH, refusing_tool, research_tool, with_research
from core.clock import SYSTEM_CLOCK
from core.llm import LLM
from memory.factory import make_memory
from tools.base import ToolRegistry

AttemptBuilder = Callable[[int, Sequence[str]], Agent]
LEAD_CHECKS = (answer_from_facts, answer_names_the_computed_pick, answer_is_not_the_question)  # a lead's answer
# a helper's answer, beside the run's own checks: not the page pasted, asked who, no name no page it read gives,
# and not its question (held-out omh-482's helper answered "... brought Merovingian's rule to an end, in what year?")
HELPER_CHECKS = (answer_is_not_the_page, asked_names_are_grounded, answer_is_not_the_question)


def attempt_id(run_id: str, number: int) -> str:
    """A --reflect retry is a run of its own: run id -retryN."""
    return run_id if number == 0 else f"{run_id}-retry{number}"


def attempts(task: str, run_id: str, llm: LLM, tools: ToolRegistry, *, store, strategy: str,
             config: AgentConfig, aux_llm: LLM | None = None, n_ctx: int | None = None,
             memory_settings: dict | None = None, on_open: Callable[[str], None] | None = None,
             via: LLM | None = None) -> AttemptBuilder:
    """The builder of each attempt's Agent (attempt 0, then one per --reflect retry, with the lessons so far).

    The memory's token budget is its share of the model's window (n_ctx, or the model's own), the same for every
    caller unless memory_settings names one. aux_llm: the model for side work (the summariser, the plan's
    checks); default the model itself. on_open: told each attempt's run id once its memory exists (stored).
    via: a wrapper of llm that the agent and the summariser call instead (the bench's meter of calls and tokens);
    the budget is counted with llm's own tokenizer.
    """
    settings = dict(memory_settings or {})
    if "token_budget" not in settings:
        budget = memory_budget(llm, tools.describe(), task, SYSTEM_CLOCK.today().isoformat(), n_ctx)
        if budget:
            settings["token_budget"] = budget
    model = via or llm
    side = aux_llm or model
    if config.research:  # the lead: sub-agents read the pages, it computes and answers from their facts
        lead_actions = [RESEARCH, *(name for name in tools.names if not tools.get(name).reads_sources)]
        checks = [*config.final_answer_checks, *(check for check in LEAD_CHECKS
                                                 if check not in config.final_answer_checks)]
        config = config.model_copy(update={"final_answer_checks": checks, "actions": lead_actions,
                                           "brief": LEAD_BRIEF})

    def memory_of(this_id: str, question: str):
        return make_memory(strategy, this_id, task=question, store=store, summariser_llm=side,
                           token_counter=getattr(llm, "count_tokens", None), **settings)

    def attempt(number: int, lessons: Sequence[str]) -> Agent:
        this_id = attempt_id(run_id, number)
        memory = memory_of(this_id, task)
        if on_open:
            on_open(this_id)
        run_tools = tools
        if config.research:
            memory.annotate("research", "on")  # a resumed run keeps its sub-agents
            run_tools = with_research(tools, research_tool(sub_agent_builder(this_id), this_id, model,
                                                           timeout=config.research_max_seconds + 30, task=task))
        return Agent(model, run_tools, memory=memory, config=config, run_id=this_id, aux_llm=side,
                     lessons=lessons)

    def sub_agent_builder(parent_id: str) -> Callable[[str, str], Agent]:
        """Each research call's child: a run of its own, on the same model and tools (its research refuses)."""
        own_checks = [check for check in config.final_answer_checks if check not in LEAD_CHECKS]
        child_config = config.model_copy(update={
            "research": False, "plan": False, "reflect_retries": 0, "max_steps": config.research_max_steps,
            "actions": [name for name in tools.names if tools.get(name).reads_sources], "brief": HELPER_BRIEF,
            "max_wall_seconds": config.research_max_seconds,
            "final_answer_checks": [*own_checks, *(check for check in HELPER_CHECKS if check not in own_checks)]})
        child_tools = with_research(tools, refusing_tool())

        def child(question: str, child_id: str, thing: str = "", aside: str = "", lead: str = "",
                  also: str = "") -> Agent:
            memory = memory_of(child_id, question)
            memory.store.update_run(child_id, parent=parent_id)  # `ponder memory` shows the link
            return Agent(model, child_tools, memory=memory, config=child_config.model_copy(update={
                "first_lookup": thing, "first_lookup_aside": aside, "first_lookup_lead": lead,
                "first_lookup_also": also}),
                run_id=child_id, aux_llm=side)
        return child

    return attempt


def build_agent(task: str, llm: LLM, tools: ToolRegistry, *, store, strategy: str, run_id: str,
                config: AgentConfig | None = None, **options) -> Agent:
    """One run's Agent, built as `ponder ask` builds it: `attempts(...)` for a run without --reflect retries."""
    return attempts(task, run_id, llm, tools, store=store, strategy=strategy, config=config or AgentConfig(),
                    **options)(0, ())
