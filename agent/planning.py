"""`--plan`: before the first step the model writes a short numbered plan (the sub-questions and the tool that
answers each). Every prompt shows it; the items done so far are checked off from the steps themselves (a tool
call that answered the item), never from the model's say-so. When a lookup for an open item comes back empty
(no such page, nothing found), the plan is rewritten, at most once every `revise_every` steps.

Where the plan sits keeps the backend's prefix cache: the plan itself is part of the question message, fixed
between revisions; the plan call itself continues the agent's system prompt; the progress line, which changes, comes after the latest observation, where it costs only
its own tokens.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Sequence

from agent.llm.grammar import gbnf_literal
from core.llm import Completion, Message
from core.schema import Step, StepOutcome
from core.support import key_words, names

# Lookups first, then at most one item of work over them (the arithmetic, a date span). A 1.5B model given room
# for more invents more: a first try planned "how many years apart are the rivers' lengths -> date_diff" after the
# lookups and its answer followed that plan ("3147000000 kilometres, including the years from 1969").
MAX_ITEMS = 7
_ITEM = re.compile(r"^\s*(?:\d+[.)]|[-*])\s*(?P<text>.+?)\s*(?:->|→|—>|=>)\s*(?P<tool>[\w.-]+)\s*$")
# Observations that say a lookup found nothing: the plan's route to that item does not work.
_DEAD_END = ("There is no Wikipedia page", "No Wikipedia pages match", "does not appear in the Wikipedia page")

# Asked in the agent's own conversation (its system prompt, then the question), so the backend's prefix cache serves
# the system prompt to the plan call and the plan call's to the first step.
PLAN_REQUEST = """Before the first step, plan. Break the question into the sub-questions that answer it, in order: first one lookup per person, place or thing \
the question names, then the arithmetic (calculator) or date spans (date_diff) over what was found. Write 2 to \
{max_items} lines, each a sub-question, " -> " and the one tool that answers it: one line per lookup, then at most one line of arithmetic or dates, and nothing else.

Example, for another question:
Question: Which was completed first, the Eiffel Tower or the Statue of Liberty, and how many years apart?
1. When was the Eiffel Tower completed? -> wikipedia_summary
2. When was the Statue of Liberty completed? -> wikipedia_summary
3. How many years apart are the two years? -> calculator

Now the plan for this question:"""

REVISE = """Your plan for this question:
{plan}

Step {index} ({action} {action_input!r}) found nothing: {observation}

Write the plan again in the same form: keep the items marked done, and replace what this shows will not work \
(another title, a search with other keywords, another tool)."""


@dataclass(frozen=True)
class PlanItem:
    number: int
    text: str
    tool: str


@dataclass(frozen=True)
class Plan:
    items: tuple[PlanItem, ...]
    revision: int = 0
    made_after: int = 0  # steps taken when it was written

    def render(self, done: dict[int, int] | None = None) -> str:
        done = done or {}
        return "\n".join(f"{item.number}. {item.text} -> {item.tool}"
                         + (f"   [done at step {done[item.number]}]" if item.number in done else "")
                         for item in self.items)

    @classmethod
    def parse(cls, text: str, tool_names: Sequence[str], revision: int = 0, made_after: int = 0) -> "Plan | None":
        """The plan in a model's reply; None if it holds no item. Tools it does not know are kept as written
        (the model may still find the right one), numbering is redone."""
        items = []
        for line in text.splitlines():
            match = _ITEM.match(line)
            if match and len(items) < MAX_ITEMS:
                tool = _known(match.group("tool"), tool_names)
                items.append(PlanItem(len(items) + 1, match.group("text").strip(), tool))
                if _family(tool) != "wikipedia":
                    break  # the work over the lookups ends the plan (see MAX_ITEMS)
        return cls(tuple(items), revision, made_after) if items else None


def _known(tool: str, tool_names: Sequence[str]) -> str:
    lowered = {name.lower(): name for name in tool_names}
    return lowered.get(tool.lower().strip("`'\"."), tool)


def _family(tool: str) -> str:
    """Tools that can answer the same item: any Wikipedia tool can answer a lookup."""
    return "wikipedia" if tool.lower().startswith("wikipedia") else tool.lower()


def _subject(item: PlanItem) -> set[str]:
    return key_words(" ".join(names(item.text))) or key_words(item.text)


def _subjects(plan: Plan) -> dict[int, set[str]]:
    """Each lookup item's distinctive words: "tower" in "Alpha Tower" and "Beta Tower" tells them apart from
    nothing, so only "alpha" and "beta" count."""
    subjects = {item.number: _subject(item) for item in plan.items if _family(item.tool) == "wikipedia"}
    distinct = {}
    for number, words in subjects.items():
        others = set().union(*(other for n, other in subjects.items() if n != number))
        distinct[number] = (words - others) or words
    return distinct


def _found_nothing(step: Step) -> bool:
    """The tool's own report (steps stored before tools reported findings: the Wikipedia tools' wording)."""
    if step.findings is not None:
        return step.findings.found_nothing
    return any(marker in step.observation for marker in _DEAD_END)


def _useful(step: Step) -> bool:
    return step.outcome is StepOutcome.tool and not step.observation.startswith("Error") and not _found_nothing(step)


def _aim(item: PlanItem, step: Step, subjects: dict[int, set[str]]) -> int:
    """How clearly the step's tool call is aimed at this item: 0 for not at all (another kind of tool; for a
    lookup, none of the item's distinctive words in the input or the page's title line)."""
    if _family(step.action) != _family(item.tool):
        return 0
    if _family(item.tool) != "wikipedia":
        return 1
    return len(subjects[item.number] & key_words(f"{step.action_input} {step.observation.split(chr(10))[0]}"))


def progress(plan: Plan, steps: Sequence[Step]) -> dict[int, int]:
    """Item number -> the step that answered it. Each useful tool step checks off at most one open item: the one
    it is most clearly aimed at (the first of equals)."""
    done: dict[int, int] = {}
    subjects = _subjects(plan)
    for step in steps:
        if not _useful(step):
            continue
        aims = [(_aim(item, step, subjects), -item.number) for item in plan.items if item.number not in done]
        best = max(aims, default=(0, 0))
        if best[0] > 0:
            done[-best[1]] = step.index
    return done


def progress_line(plan: Plan, steps: Sequence[Step]) -> str:
    done = progress(plan, steps)
    if len(done) == len(plan.items):
        return "(Plan: every item is done. If the Observations answer the whole question, give the Final answer.)"
    checked = ", ".join(f"{number} (step {index})" for number, index in sorted(done.items())) or "none yet"
    upcoming = next(item for item in plan.items if item.number not in done)
    return f"(Plan: done {checked}. Next: {upcoming.number}. {upcoming.text} -> {upcoming.tool})"


def dead_end(plan: Plan, steps: Sequence[Step]) -> Step | None:
    """The latest step, if it was aimed at an open item and found nothing."""
    if not steps:
        return None
    step, done = steps[-1], progress(plan, steps)
    if step.outcome is not StepOutcome.tool or not _found_nothing(step):
        return None
    open_items = [item for item in plan.items if item.number not in done]
    return step if any(_family(step.action) == _family(item.tool) for item in open_items) else None


def plan_gbnf(tool_names: Sequence[str]) -> str:
    """GBNF for lines "N. <sub-question> -> <tool>": up to MAX_ITEMS - 1 lookups, then at most one item of work
    (with no lookup tools, one item of work)."""
    names = list(dict.fromkeys(tool_names))
    lookups = [name for name in names if _family(name) == "wikipedia"]
    work = [name for name in names if _family(name) != "wikipedia"]
    rules = [r'text ::= [^\n>-] [^\n>]*']
    for rule, tools in (("look", lookups), ("work", work)):
        if tools:
            rules.append(rf'{rule} ::= [1-9] ". " text " -> " ({" | ".join(map(gbnf_literal, tools))}) "\n"')
    looks = " ".join(["look"] + ["look?"] * (MAX_ITEMS - 2))
    root = f"{looks} work? | work" if lookups and work else looks if lookups else "work"
    return "\n".join([f"root ::= {root}", *rules]) + "\n"


Complete = Callable[[list[Message], str], Completion]  # (messages, GBNF grammar) -> completion


class Planner:
    """Makes, shows and revises one run's plan. `complete` is the LLM call (the aux model's, when there is one)."""

    def __init__(self, complete: Complete, task: str, system: str, tool_names: Sequence[str], revise_every: int = 3):
        """system: the agent's system prompt."""
        self.complete, self.task, self.system = complete, task, system
        self.tool_names, self.revise_every = list(tool_names), revise_every
        self.plan: Plan | None = None

    def make(self) -> Completion:
        completion = self._ask(PLAN_REQUEST.format(max_items=MAX_ITEMS))
        self.plan = Plan.parse(completion.text, self.tool_names)
        return completion

    def revise(self, steps: Sequence[Step]) -> Completion | None:
        """Rewrite the plan if the latest step hit a dead end (and the last revision is old enough)."""
        if self.plan is None or len(steps) - self.plan.made_after < self.revise_every:
            return None
        step = dead_end(self.plan, steps)
        if step is None:
            return None
        completion = self._ask(REVISE.format(
            plan=self.plan.render(progress(self.plan, steps)), index=step.index, action=step.action,
            action_input=step.action_input, observation=step.observation[:300]))
        revised = Plan.parse(completion.text, self.tool_names, self.plan.revision + 1, len(steps))
        # An unreadable revision keeps the old plan, but no new attempt until revise_every more steps.
        self.plan = revised or Plan(self.plan.items, self.plan.revision, len(steps))
        return completion

    def _ask(self, request: str) -> Completion:
        return self.complete([Message(role="system", content=self.system),
                              Message(role="user", content=f"Question: {self.task}\n\n{request}")],
                             plan_gbnf(self.tool_names))
