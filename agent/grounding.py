"""Is a final answer's every number backed by the question or an observation?

Small models like to finish with a number they worked out in their head (an age, a product) instead of
with a tool. The loop checks a Final answer (a bounded number of times a run): numbers that appear in no
observation, nor in the question or today's date, are sent back to the model, which can then compute or look
them up, or answer again.
"""
from __future__ import annotations

import re
from typing import Iterable

# 1,093 / 1093 / 3.14 / -5; single digits are left out: "2 parts", "the 3 of them" are rarely claims.
_NUMBER = re.compile(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?(?![\w])")


def _numbers(text: str) -> list[str]:
    found = []
    for raw in _NUMBER.findall(text):
        value = raw.replace(",", "").lstrip("-").rstrip(".")
        whole, _, fraction = value.partition(".")
        whole, fraction = whole.lstrip("0") or "0", fraction.rstrip("0")
        value = f"{whole}.{fraction}" if fraction else whole
        if "." in value or len(value) > 1:
            found.append(value)
    return found


def _backed(number: str, known: set[str], known_decimals: list[float]) -> bool:
    if number in known:
        return True
    if "." in number:  # a rounded form of an observed number: 0.33 from 0.3333
        places = len(number.split(".")[1])
        return any(round(value, places) == float(number) for value in known_decimals)
    return False


def ungrounded_numbers(answer: str, sources: Iterable[str]) -> list[str]:
    """The numbers of `answer` found in none of `sources`, in order, without repeats."""
    known: set[str] = set()
    for source in sources:
        known.update(_numbers(source))
    decimals = [float(n) for n in known if "." in n]
    missing = [n for n in _numbers(answer) if not _backed(n, known, decimals)]
    return list(dict.fromkeys(missing))


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
