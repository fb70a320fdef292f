"""Is a final answer's every number backed by the question or an observation?

Small models like to finish with a number they worked out in their head (an age, a product) instead of
with a tool. The loop checks a Final answer (a bounded number of times a run): numbers that appear in no
observation, nor in the question or today's date, are sent back to the model, which can then compute or look
them up, or answer again.
"""
from __future__ import annotations

from core.support import ungrounded_numbers


def numbers_are_grounded(candidate) -> str | None:
    """The final-answer check for numbers (agent.outcomes.FinalCheck): None if every number is backed."""
    sources = [candidate.task, candidate.today,
               *(step.observation for step in candidate.steps if not step.is_final)]
    missing = ungrounded_numbers(candidate.answer, sources)
    if not missing:
        return None
    still = "still " if candidate.rejections else ""
    return (f"Check before finishing: your answer {still}states {', '.join(missing)}, which no Observation "
            "shows. Work it out with a tool (calculator, date_diff) or look it up, then write a new Final "
            "answer that uses the Observations' numbers; if it is right as it is, repeat the same Final answer.")
