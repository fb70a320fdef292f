"""The summariser agent: a separate LLM call that folds old steps into the run's running notes.

It must never break a run: any failure (LLMError or anything else, empty or degenerate output, runaway
length) keeps the previous summary and is logged.
"""
from __future__ import annotations

import logging
import re
import zlib
from typing import Sequence

from core.llm import Message
from core.schema import Step
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

    def fold(self, task: str, previous: str, steps: Sequence[Step]) -> str | None:
        """The new summary, or None when the call failed or its output is unusable (already logged)."""
        span = f"steps {steps[0].index}-{steps[-1].index}" if steps else "no steps"
        try:
            text = self.llm.complete(self.messages(task, previous, steps)).text
        except Exception as exc:  # an LLMError or a backend bug: either way the run goes on
            log.warning("summariser failed on %s, keeping the previous summary: %s", span, exc)
            return None
        problem = self._problem(text)
        if problem:
            log.warning("summariser output for %s rejected (%s), keeping the previous summary", span, problem)
            return None
        text = "\n".join(line for line in text.strip().splitlines() if not _HEADING.match(line)).strip()
        return truncate_to_tokens(text, self.max_tokens, self.counter)

    def _problem(self, text: str) -> str:
        stripped = (text or "").strip()
        if sum(ch.isalpha() for ch in stripped) < 10:
            return "empty"
        if self.counter.count(stripped) > 3 * self.max_tokens:
            return "runaway length"
        raw = stripped.encode()
        # Degenerate loops ("the the the ...") compress far better than any real notes do.
        if len(raw) > 200 and len(raw) / len(zlib.compress(raw)) > 6:
            return "repetitive"
        return ""
