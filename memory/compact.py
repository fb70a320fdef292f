"""The `compact` strategy: a prompt that only grows at its end between compactions, so the backend's prefix cache
(llama.cpp's KV cache, vLLM's and OpenAI's prompt caching) serves everything but the newest step.

- The prompt is a stable prefix (system prompt, question, the summary as it stood at the last compaction, which the
  prompt calls "Your notes") and then every step since, verbatim. Nothing before the newest step changes between
  compactions.
- When summary and steps pass the token budget, the older steps are folded into the summary in one summariser call,
  made as the next turn of the agent's own conversation (so it is served from the cache too), and the last
  `recent_window` steps stay verbatim. The prefix is rebuilt once per compaction, not once per step.
- No fact is lost: numbers and page names of the folded steps that the new summary lacks are carried into it
  verbatim, with the step they came from. The steps themselves stay stored and are embedded at compaction, in one
  batch, off the per-step path.
- Once steps have left the conversation, the earlier steps most related to the latest thought are recalled after
  the latest observation, where they cost only their own tokens. A short task never pays for retrieval.
"""
from __future__ import annotations

import logging
import re
import time

import numpy as np

from core.llm import Message
from core.schema import Step
from core.untrusted import quoted_line
from memory.base import Context, step_turns
from memory.records import Summary
from memory.strategies import TASK_WEIGHT, THOUGHT_WEIGHT, RunMemory
from memory.summariser import extractive_summary, numbers_in, page_of, unsaved_facts
from memory.tokens import truncate_to_tokens

log = logging.getLogger(__name__)

# Recalled steps are paid for at every step they are shown: only clear matches of the latest thought come back,
# within a share of the budget that the log leaves free for them.
RECALL_MIN_SIMILARITY = 0.45
RECALL_SIMILAR_K = 2
RECALL_SHARE = 0.2
RECALL_OBSERVATION_TOKENS = 60
CARRIED_HEADING = "Kept verbatim from the folded steps:"
# After a compaction the summary takes at most SUMMARY_SHARE of the budget and the steps kept verbatim about
# KEPT_SHARE, so the log has room to grow for several steps before the next compaction.
SUMMARY_SHARE, KEPT_SHARE = 0.35, 0.3
NEWEST_CARRIED = 8  # sentences with numbers carried from the newest folded step (an intro has fewer)
MIN_BODY_SHARE = 0.25  # of the summary's share, kept for the model's own words however many facts are carried
_WIKI_ACTIONS = ("wikipedia_summary", "wikipedia_lookup")


class CompactMemory(RunMemory):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        first = self._steps[0].index if self._steps else 0
        self.log_from = self.summary.upto + 1 if self.summary else first  # first step still verbatim
        self._latest: tuple[Step, list[Message] | None] | None = None  # the step added last, and its prompt
        self._thought_vector: np.ndarray | None = None
        self._space_background: str | None = None  # items from earlier runs, looked up once: part of the prefix
        self._space_runs: list[str] = []

    # ---- Memory protocol ----

    def add(self, step: Step, shown: Context | None = None, sent: list[Message] | None = None,
            fold: bool = True) -> None:
        self.store.add_step(self.run_id, step, None, retrieved=shown.retrieved if shown else (),
                            context_tokens=shown.tokens if shown else None,
                            summary_upto=shown.summary_upto if shown else None)  # embedded at compaction
        self._steps = sorted([s for s in self._steps if s.index != step.index] + [step], key=lambda s: s.index)
        if self._folded():
            self._thought_vector = self._embed_thought(step)  # the next recall's query
        self._latest = (step, sent)
        if fold:
            self.fold()

    def fold(self) -> None:
        # measured on held-out lh-33: a lead whose 26 helper calls were all planned compacted 2-4 times, 33 s each,
        # for prompts no model read; folding waits for a model call
        if self._latest and self._log_tokens() > (1 - RECALL_SHARE) * self.config.token_budget:
            self._compact(*self._latest)

    def context(self) -> Context:
        background = self._background()
        log_steps = self._log()
        recall, recalled = self._recall()
        tokens = (self.counter.count(background) + sum(self.counter.count(s.as_text()) for s in log_steps)
                  + self.counter.count(recall))
        return Context(background=background, recent=log_steps, recall=recall, retrieved=recalled,
                       summary_upto=self.summary.upto if self.summary else None, space_runs=list(self._space_runs),
                       tokens=tokens)

    # ---- the log and its compaction ----

    def _log(self) -> list[Step]:
        return [step for step in self._steps if step.index >= self.log_from]

    def _folded(self) -> bool:
        return bool(self._steps) and self.log_from > self._steps[0].index

    def _background(self) -> str:
        parts = [self._space_section()]
        if self.summary is not None:
            parts.append(f"Your notes on steps {self.summary.first}-{self.summary.upto} (those steps have left this "
                         f"conversation):\n{self.summary.text}")
        return "\n\n".join(part for part in parts if part)

    def _log_tokens(self) -> int:
        return self.counter.count(self._background()) + sum(self.counter.count(s.as_text()) for s in self._log())

    def _compact(self, latest: Step, sent: list[Message] | None) -> None:
        log_steps = self._log()
        keep, kept_tokens = 0, 0  # the latest steps stay verbatim, up to a share of the budget
        for step in reversed(log_steps[1:]):
            kept_tokens += self.counter.count(step.as_text())
            if keep == self.config.recent_window or (keep and kept_tokens > KEPT_SHARE * self.config.token_budget):
                break
            keep += 1
        keep = max(keep, 1)  # the latest step always stays in the conversation, however long it is
        fold = log_steps[:len(log_steps) - keep]
        if not fold:
            return
        started = time.perf_counter()
        previous = self.summary.text if self.summary else ""
        conversation = None
        if sent:  # the agent's conversation up to and including `latest`
            conversation = [*sent, *step_turns(latest)]
        text = self.summariser.fold(self.task, previous, fold, conversation=conversation)
        by_model = text is not None
        if text is None:  # already logged: the summary is still written, without a model
            text = truncate_to_tokens(extractive_summary(_without_carried(previous), fold),
                                      int(SUMMARY_SHARE * self.config.token_budget) // 2, self.counter)
        text = self._bounded(self._facts_first(text, previous, fold))
        self.summary = Summary(text=text, first=self.summary.first if self.summary else fold[0].index,
                               upto=fold[-1].index, created=time.time(), seconds=time.perf_counter() - started,
                               tokens_in=self.counter.count(previous) + sum(self.counter.count(s.as_text())
                                                                             for s in fold),
                               tokens_out=self.counter.count(text), by_model=by_model)
        self.store.save_summary(self.run_id, self.summary)
        self.store.embed_steps(self.run_id, fold)  # searchable from now on, in one batch
        self.log_from = fold[-1].index + 1
        log.info("compacted steps %d-%d into notes (%d tokens)", fold[0].index, fold[-1].index,
                 self.counter.count(text))

    def _facts_first(self, summary_text: str, previous: str, fold: list[Step]) -> str:
        """The summary with every number and page of the folded steps it lacks carried verbatim. Over its share
        of the budget, the model's prose is cut first (to what the carried facts leave, at least MIN_BODY_SHARE)
        and what the cut loses is carried too: a small model's paraphrase must not push out the observations'
        own sentences (measured: with a 400-token budget the 1.5B model's summary, copying a "no such page"
        message, pushed a folded step's "50 km" and "327,734" out of it)."""
        # the newest folded step with numbers is always carried verbatim, even where the prose repeats it: the
        # prose may be cut to fit, and its newest facts must not go with it
        newest = next((step for step in reversed(fold) if numbers_in(step.observation)), None)

        def missing(text: str) -> list[str]:
            older = [step for step in fold if step is not newest]
            return (_lost_lines(previous, text) + unsaved_facts(text, older)
                    + (unsaved_facts("", [newest], per_step=NEWEST_CARRIED) if newest else [])
                    + _unsaved_pages(text, fold))

        full = _with_carried(summary_text, missing(summary_text))
        cap, full_tokens = int(SUMMARY_SHARE * self.config.token_budget), self.counter.count(full)
        if full_tokens <= cap:
            return full
        carried_tokens = full_tokens - self.counter.count(_without_carried(full))  # heading too
        room = max(int(MIN_BODY_SHARE * cap), cap - carried_tokens)
        body = _with_carried(truncate_to_tokens(_without_carried(summary_text), room, self.counter),
                             _carried(summary_text))
        return _with_carried(body, missing(body))

    def _bounded(self, summary_text: str) -> str:
        """The summary within its share of the budget: the oldest carried lines go first (their steps stay stored
        and can be recalled), but the newest step's facts stay, and the model's own text is cut to make room for
        them (measured: a 1.5B model's summary quoting a folded page whole pushed the next page's five numbers out
        of a 140-token share when the whole text was cut from its end)."""
        cap = int(SUMMARY_SHARE * self.config.token_budget)
        body, carried = _without_carried(summary_text), _carried(summary_text)
        # the oldest step's lines go first, and of one step its page line (no number) before its facts
        give_way = sorted(carried, key=lambda line: (_step_of(line), bool(numbers_in(line))))
        newest = max(map(_step_of, carried), default=None)
        while give_way and _step_of(give_way[0]) != newest and self.counter.count(_with_carried(body, carried)) > cap:
            carried.remove(give_way.pop(0))
        over = self.counter.count(_with_carried(body, carried)) - cap
        if over > 0 and body.strip():  # the prose gives way to the newest facts
            body = truncate_to_tokens(body, max(self.counter.count(body) - over, 0), self.counter)
        bounded = _with_carried(body, carried)
        return bounded if self.counter.count(bounded) <= cap else truncate_to_tokens(bounded, cap, self.counter)

    # ---- recall, and what earlier runs remembered ----

    def _recall(self) -> tuple[str, list[int]]:
        """Folded steps for the latest thought: the pages it names first (a research agent's need is usually
        "what did I read about X"), then the steps most similar to it."""
        if not self._folded() or not self.config.top_k:
            return "", []
        thought = self._steps[-1].thought.lower()
        chosen = [step for step in self._steps if step.index < self.log_from and step.action in _WIKI_ACTIONS
                  and len(title := _title(step)) >= 4 and title.lower() in thought][-self.config.top_k:]
        if self._thought_vector is not None and len(chosen) < self.config.top_k:
            query = THOUGHT_WEIGHT * self._thought_vector + TASK_WEIGHT * self._task_embedding()
            query = query / max(float(np.linalg.norm(query)), 1e-12)
            threshold = max(self.config.min_similarity, RECALL_MIN_SIMILARITY)
            similar = self.store.search_steps(self.run_id, query, RECALL_SIMILAR_K, before=self.log_from)
            for hit in similar:
                if hit.similarity >= threshold and len(chosen) < self.config.top_k and \
                        hit.step.index not in {step.index for step in chosen}:
                    chosen.append(hit.step)
        room, lines = int(RECALL_SHARE * self.config.token_budget), []
        for step in chosen:  # most wanted first, while they fit; one line each, what was asked and what came back
            observation = truncate_to_tokens(" ".join(step.observation.split()), RECALL_OBSERVATION_TOKENS,
                                             self.counter)
            line = f"[step {step.index}] {step.action} {step.action_input}: {observation}"
            if self.counter.count(_recall_text([*lines, (step.index, line)])) > room:  # its heading counts too
                break
            lines.append((step.index, line))
        if not lines:
            return "", []
        return _recall_text(lines), sorted(index for index, _ in lines)

    def _task_embedding(self) -> np.ndarray:
        if self._task_vector is None:
            self._task_vector = self.store.embedder.embed([self.task])[0]
        return self._task_vector

    def _space_section(self) -> str:
        if self._space_background is None:
            self._space_background = ""
            if self.space:
                items = [item for item in self.store.search_space(self.space, self._task_embedding(),
                                                                  self.config.space_k, exclude_run=self.run_id)
                         if item.similarity >= self.config.min_similarity]
                self._space_runs = [item.run_id for item in items]
                if items:
                    self._space_background = "Notes from earlier runs:\n" + "\n".join(
                        f"- {truncate_to_tokens(item.text, 120, self.counter)}" for item in items)
        return self._space_background


def _recall_text(lines: list[tuple[int, str]]) -> str:
    return "(Recalled from your earlier steps:\n" + "\n".join(line for _, line in sorted(lines)) + ")"


def _title(step: Step) -> str:
    return page_of(step) or step.action_input.split("|")[0].strip()


def _unsaved_pages(summary_text: str, steps: list[Step]) -> list[str]:
    """Pages the folded steps read that the summary does not name."""
    lowered = summary_text.lower()
    lines = []
    for step in steps:
        title = _title(step)
        if step.action in _WIKI_ACTIONS and step.outcome.is_research and title and title.lower() not in lowered \
                and step.observation:
            lines.append(f"- read {quoted_line(title, 80)}: {quoted_line(step.observation, 120)} (step {step.index})")
            lowered += " " + title.lower()
    return lines


def _lost_lines(previous: str, summary_text: str) -> list[str]:
    """Lines of the previous summary whose numbers the new one dropped (a model may rewrite carelessly), and the
    pages carried before that the new summary does not name (a carried page line holds no number)."""
    known, lowered = set(numbers_in(summary_text)), summary_text.lower()
    pages = {line for line in _carried(previous) if line.lstrip().startswith("- read ")}
    return [line.strip() for line in previous.splitlines()
            if line.strip() != CARRIED_HEADING and (any(n not in known for n in numbers_in(line))
                                                    or (line in pages and _carried_title(line).lower() not in lowered))]


def _carried_title(carried_line: str) -> str:
    """The title in a carried page line, `- read “Title”: ...`."""
    found = re.search("- read \u201c([^\u201d]*)\u201d", carried_line)
    return found.group(1) if found else carried_line


def _step_of(carried_line: str) -> int:
    found = re.search(r"\(step (\d+)\)\s*$", carried_line)
    return int(found.group(1)) if found else -1


def _carried(summary_text: str) -> list[str]:
    if CARRIED_HEADING not in summary_text:
        return []
    return [line for line in summary_text.split(CARRIED_HEADING, 1)[1].splitlines() if line.strip()]


def _with_carried(summary_text: str, carried: list[str]) -> str:
    lines = list(dict.fromkeys([*_carried(summary_text), *carried]))
    body = _without_carried(summary_text)
    return f"{body}\n{CARRIED_HEADING}\n" + "\n".join(lines) if lines else body


def _without_carried(summary_text: str) -> str:
    return summary_text.split(CARRIED_HEADING, 1)[0].rstrip()
