"""The summariser agent: a separate LLM call that folds old steps into the run's running summary (which its
prompts call the agent's notes).

It must never break a run: any failure (LLMError or anything else, empty or degenerate output, runaway
length) keeps the previous summary and is logged.
"""
from __future__ import annotations

import json
import logging
import re
import zlib
from typing import Sequence

from core.llm import Message
from core.schema import Step, StepOutcome
from core.text import SENTENCE_BREAK
from core.untrusted import neutralise, quoted_line
from memory.base import render_steps
from memory.tokens import TokenCounter, truncate_to_tokens

log = logging.getLogger(__name__)

SYSTEM_PROMPT = """You keep the working notes of a research agent. You are given the task, the current notes \
and some new steps (thought, action, observation). Fold the new steps into the notes.

Write the updated notes only, in plain text, under these four headings:
Facts: facts found so far, each with its source (article title or tool) and step number, e.g. "(step 4)"
Sources: articles and searches already used
Open questions: what is still unknown
Dead ends: searches or pages that gave nothing useful

Keep every fact needed to answer the task, drop chatter, and stay under {max_words} words."""

COMPACT_INSTRUCTION = """Pause the research for a moment. Your turns from step {first} to step {last} are about to \
be replaced by your notes, so write the updated notes now: keep what the earlier notes say and add what those \
steps found. Plain text, under these headings:
Facts: each fact found so far with its source (article title or tool) and step number, e.g. "(step 4)"
Sources: articles and searches already used
Open questions: what is still unknown
Dead ends: searches or pages that gave nothing useful
Keep every fact needed to answer the question (names and numbers exactly as observed) and stay under {max_words} \
words. Write the notes only, no Thought or Action."""

_HEADING = re.compile(r"^\s*(?:#+\s*)?(?:updated\s+)?notes\s*:?\s*$", re.IGNORECASE)


class Summariser:
    def __init__(self, llm, counter: TokenCounter, *, max_tokens: int = 350, step_tokens: int = 200):
        self.llm = llm
        self.counter = counter
        self.max_tokens = max_tokens    # bound on the summary kept in every prompt
        self.step_tokens = step_tokens  # observations are cut to this in the summariser's own prompt

    def messages(self, task: str, previous: str, steps: Sequence[Step]) -> list[Message]:
        shortened = [step.model_copy(update={"observation": truncate_to_tokens(step.observation, self.step_tokens,
                                                                               self.counter)})
                     for step in steps]
        user = (f"Task: {task}\n\nCurrent notes:\n{previous.strip() or '(none yet)'}\n\n"
                f"New steps:\n{render_steps(shortened)}\n\nUpdated notes:")
        system = SYSTEM_PROMPT.format(max_words=int(self.max_tokens * 0.7))
        return [Message(role="system", content=system), Message(role="user", content=user)]

    def in_conversation(self, conversation: Sequence[Message], steps: Sequence[Step]) -> list[Message]:
        """The agent's own conversation, continued with the request to fold `steps` into its summary: the backend
        reuses the whole conversation from its prefix cache, and the agent's next prompt shares the system prompt
        with this call, so compacting evicts nothing that is needed again."""
        instruction = COMPACT_INSTRUCTION.format(first=steps[0].index, last=steps[-1].index,
                                                 max_words=int(self.max_tokens * 0.7))
        return [*conversation, Message(role="user", content=instruction)]

    def fold(self, task: str, previous: str, steps: Sequence[Step],
             conversation: Sequence[Message] | None = None) -> str | None:
        """The new summary, or None when the call failed or its output is unusable (already logged).

        conversation: the messages the agent has so far (its last prompt, step and observation); given, the summary
        is asked for as the conversation's next turn instead of in a prompt of their own."""
        span = f"steps {steps[0].index}-{steps[-1].index}" if steps else "no steps"
        messages = self.in_conversation(conversation, steps) if conversation else self.messages(task, previous, steps)
        try:
            text = self.llm.complete(messages).text
        except Exception as exc:  # an LLMError or a backend bug: either way the run goes on
            log.warning("summariser failed on %s, keeping the previous summary: %s", span, exc)
            return None
        problem = self._problem(text)
        if problem:
            log.warning("summariser output for %s rejected (%s), keeping the previous summary", span, problem)
            return None
        text = "\n".join(line for line in text.strip().splitlines() if not _HEADING.match(line)).strip()
        # a summary written from pages may echo a page's forged step lines or chat tokens: they go into every later
        # prompt, so they are defused as observations are
        return truncate_to_tokens(neutralise(text), self.max_tokens, self.counter)

    def _problem(self, text: str) -> str:
        stripped = (text or "").strip()
        if sum(ch.isalpha() for ch in stripped) < 10:
            return "empty"
        if re.match(r"(?i)(thought|action)\s*:", stripped):
            return "a research step instead of notes"
        if self.counter.count(stripped) > 3 * self.max_tokens:
            return "runaway length"
        raw = stripped.encode()
        # Degenerate loops ("the the the ...") compress far better than any real summary does.
        if len(raw) > 200 and len(raw) / len(zlib.compress(raw)) > 6:
            return "repetitive"
        return ""


# A quantity or a rank: "1,006 kilometres", "the 171st-longest" (its digits; a rank is a fact a question may ask)
_NUMBER = re.compile(r"(?<![\w.])(\d[\d,]*(?:\.\d+)?)(?:st|nd|rd|th)?(?![\w])")
CARRIED_PER_STEP = 3
# their observations are ours, not a tool's
_NOT_OBSERVED = (StepOutcome.parse_error, StepOutcome.repeat_warning, StepOutcome.tool_refused, StepOutcome.reply_cut)
CARRIED_CHARS = 200
CARRIED_MARGIN = 50   # characters kept either side of a carried number


def numbers_in(text: str) -> list[str]:
    """The numbers in text that can be facts (two digits or more), without thousands separators."""
    found = (n.replace(",", "").rstrip(".") for n in _NUMBER.findall(text))
    return [n for n in found if len(n.replace(".", "")) > 1]


def unsaved_facts(summary_text: str, steps: Sequence[Step], per_step: int = CARRIED_PER_STEP) -> list[str]:
    """The numbers observed in `steps` that `summary_text` lacks, each as the words around it, with the page and
    step it came from: what compaction carries into the summary verbatim so no fact is lost."""
    known = set(numbers_in(summary_text))
    carried = []
    for step in steps:
        if step.is_final or step.outcome in _NOT_OBSERVED:
            continue
        page = page_of(step)
        source = f"{quoted_line(page, 60)}: " if page else ""
        lines = []
        for sentence in SENTENCE_BREAK.split(step.observation):
            new = [n for n in dict.fromkeys(numbers_in(sentence)) if n not in known]  # "2 parts" is no fact
            if new:
                known |= set(new)
                lines.append(f"- {source}{quoted_line(around_numbers(sentence, new), CARRIED_CHARS)} "
                             f"(step {step.index})")
            if len(lines) == per_step:
                break
        carried.extend(lines)
    return carried


def page_of(step: Step) -> str:
    """The page a Wikipedia step asked for (`Title`, `Title | text` or a JSON object with a title), else ""."""
    if not step.action.startswith("wikipedia_"):
        return ""
    if step.findings is not None:  # the tool's own report (a search reads the page titled as asked; older steps:
        return step.findings.page  # read from the input)
    if step.action == "wikipedia_search":
        return ""
    text = step.action_input.strip()
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            data = None
        if isinstance(data, dict) and data:
            return str(data.get("title") or next(iter(data.values()))).strip()
    return text.split("|")[0].strip()


def around_numbers(sentence: str, numbers: Sequence[str], margin: int = CARRIED_MARGIN) -> str:
    """The part of a sentence from `margin` characters before its first new number to `margin` after its last,
    cut at spaces and marked with an ellipsis: on a small budget the number and its unit and subject, not the
    whole sentence (a 200-character sentence costs ~50 tokens of a 140-token summary share)."""
    flat = " ".join(sentence.split())
    spans = [m.span() for m in _NUMBER.finditer(flat) if m.group(1).replace(",", "").rstrip(".") in numbers]
    if not spans or len(flat) <= 2 * margin + 20:
        return flat
    start, end = max(0, spans[0][0] - margin), min(len(flat), spans[-1][1] + margin)
    if start > 0:
        start = flat.find(" ", start) + 1 or start
    if end < len(flat):
        space = flat.rfind(" ", spans[-1][1], end)
        end = space if space > 0 else end
    return ("\u2026" if start > 0 else "") + flat[start:end].strip() + ("\u2026" if end < len(flat) else "")


def extractive_summary(previous: str, steps: Sequence[Step]) -> str:
    """A summary without a model: the previous summary, then each new observation's first sentence (the fallback
    when the summariser's output is unusable)."""
    lines = [previous.strip()] if previous.strip() else ["Facts:"]
    for step in steps:
        if step.observation and not step.is_final and step.outcome not in _NOT_OBSERVED:
            sentences = SENTENCE_BREAK.split(step.observation.strip())
            fact = next((s for s in sentences if numbers_in(s)), sentences[0])  # a sentence with a number first
            lines.append(f"- {step.action} {quoted_line(step.action_input, 60)}: {quoted_line(fact, CARRIED_CHARS)} "
                         f"(step {step.index})")
    return "\n".join(lines)
