"""Fitting summary, items remembered from earlier runs, retrieved steps and recent steps into a token budget.

Priority: the summary, then the recent window verbatim (its older steps' observations are cut before any
recent step is dropped), then items remembered from earlier runs (the prompt heads them "Notes from earlier
runs"), then retrieved steps with shortened observations, most similar first. Chosen steps are shown in
chronological order, each marked with its step number.
"""
from __future__ import annotations

from typing import Sequence

from core.schema import Step
from memory.base import Context, render_steps
from memory.records import Retrieved, SpaceItem, Summary
from memory.tokens import TokenCounter, truncate_to_tokens

RECENT_OBSERVATION_CAPS = (400, 200, 80, 20)  # tried in turn on the recent window's older steps, then all
RETRIEVED_OBSERVATION_CAPS = (120, 50)
SPACE_ITEM_TOKENS = 120
SEPARATOR = "\n\n"


class Assembler:
    def __init__(self, counter: TokenCounter, budget: int):
        if budget < 100:
            raise ValueError(f"token budget {budget} is too small for any context: use at least 100")
        self.counter = counter
        self.budget = budget

    def _capped(self, step: Step, cap: int | None) -> Step:
        if cap is None:
            return step
        return step.model_copy(update={"observation": truncate_to_tokens(step.observation, cap, self.counter)})

    def _step_text(self, step: Step, cap: int | None) -> str:
        return render_steps([self._capped(step, cap)])

    def _cost(self, pieces: Sequence[str]) -> int:
        return sum(self.counter.count(piece) for piece in pieces) + len(pieces) * self.counter.count(SEPARATOR)

    def assemble(self, *, summary: Summary | None = None, recent: Sequence[Step] = (),
                 retrieved: Sequence[Retrieved] = (), space_items: Sequence[SpaceItem] = ()) -> Context:
        used = 0
        summary_section = None
        if summary is not None:
            text = truncate_to_tokens(summary.text, self.budget // 3, self.counter)
            summary_section = (f"Summary of steps {summary.first}-{summary.upto}:", [text])
            used += self._cost([summary_section[0], text])

        recent_pieces, recent_steps = self._fit_recent(list(recent), self.budget - used - 4)
        used += self._cost(["Recent steps:", *recent_pieces]) if recent_pieces else 0

        space_pieces, space_runs = [], []
        for item in space_items:
            piece = f"- {truncate_to_tokens(item.text, SPACE_ITEM_TOKENS, self.counter)}"
            cost = self._cost([piece]) + (0 if space_pieces else self._cost(["Notes from earlier runs:"]))
            if used + cost <= self.budget:
                space_pieces.append(piece)
                space_runs.append(item.run_id)
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
            sections = [("Notes from earlier runs:", space_pieces), summary_section,
                        ("Relevant earlier steps:", [piece for _, piece in shown])]
            background = _join(filter(None, sections))
            text = Context(background, recent_steps).text
            tokens = self.counter.count(text) if text else 0
            if tokens <= self.budget or not chosen:
                break
            chosen.pop()  # chosen is in descending similarity
        if tokens > self.budget:  # only a recent window cut to its last step is still over: cut the background
            background = truncate_to_tokens(background, max(self.budget - self._cost(recent_pieces) - 4, 1),
                                            self.counter) if background else ""
            text = Context(background, recent_steps).text
            tokens = self.counter.count(text)
        return Context(background=background, recent=recent_steps, retrieved=[hit.step.index for hit, _ in shown],
                       summary_upto=summary.upto if summary else None, space_runs=space_runs, tokens=tokens)

    def _fit_recent(self, steps: list[Step], budget: int) -> tuple[list[str], list[Step]]:
        """Recent steps within budget: verbatim if possible, else with older observations cut, else fewer.

        Returns the rendered pieces and the steps as shown (copies with cut observations where cut).
        """
        if not steps:
            return [], []
        heading = self._cost(["Recent steps:"])

        def fits(shown: list[Step]) -> bool:
            return heading + self._cost([render_steps([step]) for step in shown]) <= budget

        def candidates():  # built lazily: cutting an observation costs a tokenizer pass
            yield list(steps)
            older_cut = list(steps)
            for cap in RECENT_OBSERVATION_CAPS:  # older steps of the window first, the latest one last
                older_cut = [self._capped(step, cap) for step in steps[:-1]] + [steps[-1]]
                yield older_cut
            for cap in RECENT_OBSERVATION_CAPS:
                yield older_cut[:-1] + [self._capped(steps[-1], cap)]

        for shown in candidates():
            if fits(shown):
                break
        while len(shown) > 1 and not fits(shown):  # long thoughts: drop the oldest
            shown = shown[1:]
        # One step with a huge thought, input or unparsed reply (shown instead of them): cut every field of it to
        # half the room, then a quarter..., until it fits (at 0 tokens each only the labels are left).
        step, room = shown[0], max(budget - heading, 8)
        while room and not fits(shown):
            room //= 2
            shown = [step.model_copy(update={name: truncate_to_tokens(getattr(step, name), room, self.counter)
                                             for name in ("thought", "action", "action_input", "observation", "raw")})]
        return [render_steps([step]) for step in shown], shown


def _join(sections) -> str:
    """Headed sections, skipping empty ones."""
    return SEPARATOR.join(f"{heading}\n{SEPARATOR.join(pieces)}" for heading, pieces in sections if pieces)
