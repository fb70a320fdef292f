"""Every text the agent sends to the model lives here."""
from __future__ import annotations

import datetime as dt
from typing import Sequence

from core.clock import fixed_clock
from core.llm import Message, count_tokens_fallback
from memory.base import Context, step_turns
from tools.clock import clock_tools

SYSTEM = """You are Ponder, a careful research assistant. You answer the user's question by working step by \
step with tools. Today's date is {today}.

Tools:
{tools}

At every turn write exactly these three lines and nothing else:
Thought: <what you know so far and what you will do next>
Action: <one tool name from the list above, or Final>
Action Input: <the input for the tool; for Final, the complete answer to the question>

After each Action you receive an Observation with the tool's result; never write the Observation yourself.
Rules: look facts up with the Wikipedia tools; only if they lack a fact (no such page, nothing useful found), \
use what you know and say so. Do all arithmetic with the calculator (write powers as 15**2) and all ages and \
durations with date_diff: never compute in your head. Use Final only when every part of the question is \
answered, and make its input a full sentence that answers every part with the Observations' numbers.

Example 1:
Question: Who wrote Hamlet, and what is 12 times 12?
Thought: Two parts: who wrote Hamlet, and 12 times 12. First I look up Hamlet.
Action: wikipedia_summary
Action Input: Hamlet
Observation: Hamlet, Tragedy by William Shakespeare: Hamlet is a tragedy written by William Shakespeare ...
Thought: Part one is done: Shakespeare wrote it. Now part two, the arithmetic.
Action: calculator
Action Input: 12*12
Observation: 144
Thought: I have both parts.
Action: Final
Action Input: Hamlet was written by William Shakespeare, and 12 times 12 is 144.

Example 2:
Question: How many years ago did Apollo 11 land on the Moon?
Thought: I look up Apollo 11 for its year.
Action: wikipedia_summary
Action Input: Apollo 11
Observation: Apollo 11, First crewed Moon landing (1969): Apollo 11 was the American spaceflight that first landed ...
Thought: It landed in 1969. The years from then to today come from date_diff, not from my head.
Action: date_diff
Action Input: 1969
Observation: {date_diff_1969}
Thought: The Observation gives the number.
Action: Final
Action Input: Apollo 11 landed on the Moon in 1969, {years_since_1969} years ago."""

QUESTION = "Question: {task}"

BACKGROUND = """

What you already know from memory (older steps of this question, and notes from earlier runs):
{background}"""

PLAN = """

Your plan (the progress line after each Observation says which items are done):
{plan}"""

LESSONS = """

Lessons from earlier attempts at this question (do not repeat their mistakes):
{lessons}"""

# --research: what the lead agent and its helpers are told after the question (not in the system prompt, which
# the two share word for word so that the backend's cached system prompt serves both)
LEAD_BRIEF = """You lead this research with helpers. Do not read pages yourself: call research with ONE simple \
question about ONE of the things the question names, in the question's own words, then the next one, until you \
have asked about each of them. The facts table lists what the helpers established. Compare and compute with \
calculator or date_diff on the table's values (write a row's value as F1, F2...: e.g. max(F1, F2)), then give \
the Final answer with them."""

HELPER_BRIEF = """You are a helper: find this one fact on Wikipedia and answer with the value and its unit exactly \
as the page states it (no conversions, no calculations). If the page does not state it, say so."""

CONTEXT_HEADER = "\nYour work so far:\n{context}\n"

FORCED_FINAL = """You have run out of steps. From the work so far, give your best final answer to the \
question now, in one or two sentences. If something could not be found, say so. Answer with the text only."""


def build_messages(task: str, context: Context, tools: str, today: str, *, plan: str = "", progress: str = "",
                   lessons: Sequence[str] = (), facts: str = "", brief: str = "") -> list[Message]:
    """System prompt, the question (with what memory recalls, the lessons of failed attempts and the plan), then
    the recent steps as the conversation: each step the model's own turn, each observation the reply to it.
    What changes every step (recall, the facts table, the plan's progress) comes after the latest observation."""
    question = QUESTION.format(task=task) + (f"\n\n{brief}" if brief else "")
    if context.background.strip():
        question += BACKGROUND.format(background=context.background)
    if lessons:
        question += LESSONS.format(lessons="\n".join(f"- {lesson}" for lesson in lessons))
    if plan:
        question += PLAN.format(plan=plan)
    system = SYSTEM.format(tools=tools, today=today, years_since_1969=int(today[:4]) - 1969,  # today: YYYY-MM-DD
                           date_diff_1969=_date_diff_example(today))
    messages = [Message(role="system", content=system),
                Message(role="user", content=question)]
    for step in context.recent:
        messages.extend(step_turns(step))
    # After the latest observation: everything before it stays as the last prompt had it.
    tail = "\n\n".join(part for part in (context.recall, facts, progress if context.recent else "") if part)
    if tail:
        messages[-1] = Message(role="user", content=f"{messages[-1].content}\n\n{tail}")
    return messages


# The memory's part of a prompt may fill this share of the model's window (after the system prompt, the question
# and the reply): the rest leaves room for the newest step and for a compaction asked inside the conversation.
WINDOW_SHARE = 0.75
MIN_MEMORY_BUDGET = 400


def memory_budget(llm, tools: str, task: str, today: str, n_ctx: int | None = None) -> int | None:
    """Tokens the memory may use in each prompt, counted with the LLM's own tokenizer; None when the model's
    window is unknown (a remote server without --ctx)."""
    window = n_ctx or getattr(llm, "n_ctx", None)
    if not window:
        return None
    count = getattr(llm, "count_tokens", count_tokens_fallback)
    fixed = sum(count(m.content) + 8 for m in build_messages(task, Context(), tools, today))  # 8: chat template
    return max(MIN_MEMORY_BUDGET, int(window * WINDOW_SHARE) - fixed - getattr(llm, "max_tokens", 512))


# Added to the prompt of a step whose reply stopped on the token limit, to ask for it once more.
CUT_RETRY = ("Your reply was cut off at the length limit. Write the three lines again, shorter: a short Thought and "
             "a short Action Input.")


def after_cut(messages: Sequence[Message]) -> list[Message]:
    """The prompt again, CUT_RETRY appended to its last user message (a turn of its own after anything else): the
    prompt's cached prefix is reused, and roles still alternate for chat templates that insist on it."""
    messages = list(messages)
    if messages and messages[-1].role == "user":
        return [*messages[:-1], Message(role="user", content=f"{messages[-1].content}\n\n{CUT_RETRY}")]
    return [*messages, Message(role="user", content=CUT_RETRY)]


def build_forced_final(task: str, context: Context, today: str, facts: str = "") -> list[Message]:
    """The last-chance call: the work so far (and a lead's facts table), then the request for the best answer."""
    work = CONTEXT_HEADER.format(context=context.text) + (f"\n{facts}\n" if facts else "")
    return [
        Message(role="system", content=f"You are Ponder, a careful research assistant. Today's date is {today}."),
        Message(role="user", content=f"Question: {task}\n{work}\n{FORCED_FINAL}"),
    ]


def _date_diff_example(today: str) -> str:
    """The example's Observation, written by date_diff itself on the prompt's date, so the two always agree."""
    noon = dt.datetime.combine(dt.date.fromisoformat(today), dt.time(12)).astimezone()
    _, date_diff = clock_tools(fixed_clock(noon))
    return date_diff("1969").split(";")[0] + "; ..."
