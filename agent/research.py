"""Sub-agents: the `research` tool hands one sub-question to a child agent with its own context and memory.

A small model answers a single-hop question ("How long is the Godavari River?") far more reliably than a
five-entity one, and each child's context stays small. The child is a run of its own, built by the same run
builder as any run (agent/runs.py): stored, traced, resumable (`ponder resume <its id>`), linked to the parent's
step by `Findings.subrun`. It returns a short answer with its source, the page and the sentence that states it,
which the parent's facts ledger records (memory/ledger.py).

The child's prompt starts with the parent's system prompt word for word (the same tool list; its `research` only
refuses), so the backend's cached system prompt serves both; the embedded backend keeps the parent's KV state
while a child runs and puts it back after (`kept_context`), so the parent's prompt is not evaluated again.
"""
from __future__ import annotations

import re
import uuid
from contextlib import nullcontext
from typing import Callable

from core.schema import Findings, Observed, RunResult, Step, ToolStatus
from core.support import names, numbers
from tools.base import Tool, ToolCall, ToolRegistry

RESEARCH = "research"
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(])")

# The prompt's description of the tool (its first line is what the tool list shows): the same for parent and child.
DESCRIPTION = ("Ask a helper ONE simple question about ONE thing (input: the question, e.g. How long is the "
               "Godavari River?); it looks it up and returns the answer with the sentence that states it.")
REFUSAL = ("Error: research is for the lead agent only. Look it up yourself: wikipedia_summary or wikipedia_lookup "
           "with the page's title.")


def research_tool(build_child: Callable[[str, str], object], parent_id: str, llm, timeout: float) -> Tool:
    """The parent's `research` tool. build_child(question, run_id) gives the child's Agent; llm: the model both
    use (its KV state is kept across the child's run when the backend can); timeout: the tool's time limit (the
    child's own limit, and a margin)."""
    def research(question: str) -> str:
        question = " ".join(question.split())
        if not question:
            return "Error: give the question to research, e.g. How long is the Godavari River?"
        child_id = f"{parent_id}-sub-{uuid.uuid4().hex[:6]}"
        with getattr(llm, "kept_context", nullcontext)():
            result = build_child(question, child_id).run(question)
        return report(question, result)

    made = _Research(research, name=RESEARCH, description=DESCRIPTION)
    made.timeout_seconds = timeout
    return made


def refusing_tool() -> Tool:
    """The child's `research`: listed as in the parent's prompt (so the two share it), but it never recurses."""
    def research(question: str) -> str:
        return REFUSAL
    return Tool(research, name=RESEARCH, description=DESCRIPTION)


def with_research(tools: ToolRegistry, tool: Tool) -> ToolRegistry:
    """A registry with the same tools, in the same order, and `tool` as research."""
    registry = ToolRegistry([t for t in (tools.get(name) for name in tools.names) if t.name != RESEARCH])
    registry.add(tool)
    return registry


class _Research(Tool):
    """Keeps the report's findings (a plain Tool would too) and lists the child's steps as inner calls, so the trace,
    `ponder trace` and the HTML page show the child's work nested under the parent's step."""

    def invoke(self, action_input: str, calls: list[ToolCall] | None = None) -> str:
        out = self.fn(**self.arguments(action_input))
        if calls is not None and isinstance(out, _Report):
            calls.extend(ToolCall(name=step.action, input=step.action_input, observation=step.observation,
                                  seconds=step.timings.tool_seconds) for step in out.child_steps)
        return out


class _Report(Observed):
    child_steps: list[Step]


def report(question: str, result: RunResult) -> str:
    """What the parent reads: the child's answer and the sentence that states it, found by code in what the
    child's tools returned; an answer no observation states is marked unverified and records no fact."""
    usage, answer = result.usage, (result.answer or "").strip()
    if not answer:
        text = (f"The helper found no answer to {question!r} (it stopped: {result.stop_reason.value}). Ask a "
                "simpler question, or look it up yourself.")
        findings = Findings(status=ToolStatus.no_match, subrun=result.run_id, usage=usage)
    else:
        page, sentence = source(answer, result.steps)
        if sentence:
            text = f"Answer: {answer}\nSource: {page}: \"{sentence}\""
            findings = Findings(status=ToolStatus.found, pages=[page], sentences=[sentence], answer=answer,
                                subrun=result.run_id, usage=usage)
        else:
            text = f"Answer (unverified: no page the helper read states it): {answer}"
            findings = Findings(status=ToolStatus.found, answer=answer, subrun=result.run_id, usage=usage)
    made = _Report(text, findings)
    made.child_steps = list(result.steps)
    return made


def source(answer: str, steps: list[Step]) -> tuple[str, str]:
    """(page, sentence): the sentence of a page the child read that states most of the answer's numbers (or, for
    an answer without numbers, its names); ("", "") when none states any."""
    wanted_numbers, wanted_names = set(numbers(answer)), set(names(answer))
    best, best_score = ("", ""), 0
    for step in steps:
        page = step.findings.page if step.findings else ""
        if not page:
            continue
        candidates = step.findings.sentences or _SENTENCE.split(step.observation)
        for sentence in candidates:
            sentence = " ".join(sentence.split())
            if wanted_numbers:
                score = len(wanted_numbers & set(numbers(sentence)))
            else:
                score = len({name for name in wanted_names if name in sentence})
            if score > best_score:
                best, best_score = (page, sentence), score
    return best


# ---- the lead's opening: the question split into sub-questions, each handed to a helper before the model's turn --

SPLIT = """Before you start, split the question into the simple questions your helpers must answer. Each asks for \
ONE fact about ONE thing, in the question's own words; ask about every thing the question names. If a question \
needs the answer of an earlier one, list only the earlier one (you ask the rest later).

Example: Which is the largest of these lakes: Lake Superior, Lake Victoria or Lake Baikal?
1. How large is Lake Superior?
2. How large is Lake Victoria?
3. How large is Lake Baikal?

Example: How many years after Johannes Gutenberg was born did Martin Luther die?
1. When was Johannes Gutenberg born?
2. When did Martin Luther die?

Example: Who wrote the novel Dracula, and in what city was he born?
1. Who wrote the novel Dracula?

Write the numbered questions only."""
MAX_SUBQUESTIONS = 6
# Each line bounded, so the reply can never run into the token limit mid-way.
SPLIT_GBNF = r'''root ::= item item? item? item? item? item?
item ::= [1-6] ". " [A-Z] [^\n?]{3,100} "?\n"
'''
_ITEM = re.compile(r"^\s*\d\.\s*(.+\?)\s*$", re.MULTILINE)
OPENING_THOUGHT = "I hand this part of the question to a helper."


def split_question(complete, system: str, task: str) -> list[str]:
    """The question's sub-questions, as the model splits it (complete(messages, grammar) -> Completion); the
    system prompt is the agent's own, so the backend's cached one serves this call too."""
    from core.llm import Message
    completion = complete([Message(role="system", content=system),
                           Message(role="user", content=f"Question: {task}\n\n{SPLIT}")], SPLIT_GBNF)
    questions = [" ".join(q.split()) for q in _ITEM.findall(completion.text)]
    return list(dict.fromkeys(q for q in questions if q.casefold() != task.strip().casefold()))[:MAX_SUBQUESTIONS]
