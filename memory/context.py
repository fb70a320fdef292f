"""Fitting summary, notes from earlier runs, retrieved steps and recent steps into a token budget.

Priority: the summary, then the recent window verbatim (its older steps' observations are cut before any
recent step is dropped), then notes from earlier runs, then retrieved steps with shortened observations, most
similar first. Chosen steps are shown in chronological order, each marked with its step number.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from agent.schema import Step
from memory.base import render_steps
from memory.store import Retrieved, SpaceItem, Summary
from memory.tokens import TokenCounter, truncate_to_tokens

RECENT_OBSERVATION_CAPS = (400, 200, 80, 20)  # tried in turn on the recent window's older steps, then all
RETRIEVED_OBSERVATION_CAPS = (120, 50)
NOTE_TOKENS = 120
SEPARATOR = "\n\n"


@dataclass
class Assembled:
    text: str
    tokens: int
    retrieved: list[int] = field(default_factory=list)  # indices of retrieved steps shown
    recent: list[int] = field(default_factory=list)
    summary_upto: int | None = None
    notes: list[str] = field(default_factory=list)      # run ids whose notes were shown


class Assembler:
    def __init__(self, counter: TokenCounter, budget: int):
        if budget < 100:
            raise ValueError(f"token budget {budget} is too small for any context: use at least 100")
        self.counter = counter
        self.budget = budget

    def _step_text(self, step: Step, cap: int | None) -> str:
        if cap is not None:
            step = step.model_copy(update={"observation": truncate_to_tokens(step.observation, cap, self.counter)})
        return render_steps([step])

    def _cost(self, pieces: Sequence[str]) -> int:
        return sum(self.counter.count(piece) for piece in pieces) + len(pieces) * self.counter.count(SEPARATOR)

    def assemble(self, *, summary: Summary | None = None, recent: Sequence[Step] = (),
                 retrieved: Sequence[Retrieved] = (), notes: Sequence[SpaceItem] = ()) -> Assembled:
        used = 0
        summary_section = None
        if summary is not None:
            text = truncate_to_tokens(summary.text, self.budget // 3, self.counter)
            summary_section = (f"Summary of steps {summary.first}-{summary.upto}:", [text])
            used += self._cost([summary_section[0], text])

        recent_pieces, recent_steps = self._fit_recent(list(recent), self.budget - used - 4)
        used += self._cost(["Recent steps:", *recent_pieces]) if recent_pieces else 0

        note_pieces, note_runs = [], []
        for item in notes:
            piece = f"- {truncate_to_tokens(item.text, NOTE_TOKENS, self.counter)}"
            cost = self._cost([piece]) + (0 if note_pieces else self._cost(["Notes from earlier runs:"]))
            if used + cost <= self.budget:
                note_pieces.append(piece)
                note_runs.append(item.run_id)
                used += cost

        chosen: list[tuple[Retrieved, str]] = []
        heading_cost = self._cost(["Relevant earlier steps:"])
        for hit in sorted(retrieved, key=lambda hit: -hit.similarity):
            for cap in RETRIEVED_OBSERVATION_CAPS:
                piece = self._step_text(hit.step, cap)
                cost = self._cost([piece]) + (0 if chosen else heading_cost)
                if used + cost <= self.budget:
                    chosen.append((hit, piece))
                    used += cost
                    break

        # Per-piece sums can differ slightly from the joined text's count: drop the least similar if over.
        while True:
            shown = sorted(chosen, key=lambda pair: pair[0].step.index)
            sections = [("Notes from earlier runs:", note_pieces), summary_section,
                        ("Relevant earlier steps:", [piece for _, piece in shown]), ("Recent steps:", recent_pieces)]
            text = SEPARATOR.join(f"{heading}\n{SEPARATOR.join(pieces)}" for heading, pieces in filter(None, sections)
                                  if pieces)
            tokens = self.counter.count(text) if text else 0
            if tokens <= self.budget or not chosen:
                break
            chosen.pop()  # chosen is in descending similarity
        if tokens > self.budget:
            text = truncate_to_tokens(text, self.budget, self.counter)
            tokens = self.counter.count(text)
        return Assembled(text=text, tokens=tokens, retrieved=[hit.step.index for hit, _ in shown],
                         recent=[step.index for step in recent_steps],
                         summary_upto=summary.upto if summary else None, notes=note_runs)

    def _fit_recent(self, steps: list[Step], budget: int) -> tuple[list[str], list[Step]]:
        """Recent steps within budget: verbatim if possible, else with older observations cut, else fewer."""
        if not steps:
            return [], []
        heading = self._cost(["Recent steps:"])
        pieces = [self._step_text(step, None) for step in steps]
        if heading + self._cost(pieces) <= budget:
            return pieces, steps
        for cap in RECENT_OBSERVATION_CAPS:  # older steps of the window first, the latest one last
            pieces = [self._step_text(step, cap) for step in steps[:-1]] + [pieces[-1]]
            if heading + self._cost(pieces) <= budget:
                return pieces, steps
        for cap in RECENT_OBSERVATION_CAPS:
            pieces = pieces[:-1] + [self._step_text(steps[-1], cap)]
            if heading + self._cost(pieces) <= budget:
                return pieces, steps
        while len(steps) > 1 and heading + self._cost(pieces) > budget:  # long thoughts: drop the oldest
            steps, pieces = steps[1:], pieces[1:]
        if heading + self._cost(pieces) > budget:
            pieces = [truncate_to_tokens(pieces[0], max(budget - heading, 1), self.counter)]
        return pieces, steps

