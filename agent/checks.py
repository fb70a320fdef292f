"""Final-answer checks beyond numbers (agent.outcomes.FinalCheck): each returns None to accept, or the message
that sends the answer back to the model.

- names_are_grounded: a person, place or work the answer names must appear in an observation that is about the
  question (one that also holds one of the question's key words). "The phonograph was invented by Louis
  Daguerre", after reading only the Photography page (which names Daguerre, not the phonograph), goes back.
- every_part_answered: a question in several parts ("..., and what is ...?") needs an answer that touches each
  part; an answer that leaves one out goes back.
"""
from __future__ import annotations

import re

from agent.grounding import numbers_are_grounded
from agent.outcomes import FinalCandidate

_NAME = re.compile(r"\b[A-Z][\w'’-]+(?:[ \t]+(?:of|de|da|van|von|the|la|le|du|del|[A-Z][\w'’-]+))*")
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]{3,}")
_STOP = frozenset("""what which when where who whom whose why how many much long does did were was have has with
from that this these those their there than then into about after before between during among also each
other some such only same more most less least very give tell find name list is are the and for""".split())
_PARTS = re.compile(r",?\s+and\s+(?=(?:what|which|when|where|who|how|why|is|are|does|did)\b)|[?;]\s+(?=\S)",
                    re.IGNORECASE)


def key_words(text: str) -> set[str]:
    """The content words of a question, lower-cased, with a crude plural fold."""
    return {word.lower().rstrip("s") for word in _WORD.findall(text) if word.lower() not in _STOP}


def names(text: str) -> list[str]:
    """Capitalised name phrases, less sentence-initial words that merely start a sentence."""
    found = []
    for match in _NAME.finditer(text):
        phrase = match.group(0).rstrip(".")
        start = match.start()
        sentence_start = start == 0 or text[:start].rstrip().endswith((".", "!", "?", ":"))
        if sentence_start and " " not in phrase:
            continue  # "The", "It", "Yes" at a sentence's start
        if phrase.lower() not in _STOP:
            found.append(phrase)
    return list(dict.fromkeys(found))


def names_are_grounded(candidate: FinalCandidate) -> str | None:
    question_words = key_words(candidate.task)
    relevant = [step.observation for step in candidate.steps if not step.is_final and step.observation
                and (not question_words or question_words & key_words(step.observation))]
    unsupported = []
    for name in names(candidate.answer):
        if name.lower() in candidate.task.lower():
            continue  # named by the question itself
        if not any(name.lower() in observation.lower() for observation in relevant):
            unsupported.append(name)
    if not unsupported:
        return None
    return (f"Check before finishing: your answer names {', '.join(unsupported)}, but no Observation about this "
            "question mentions them. Look it up (wikipedia_search with the question's words, then the page), or "
            "say what the Observations do show; if it is right as it is, repeat the same Final answer.")


def question_parts(task: str) -> list[str]:
    return [part.strip(" ,?") for part in _PARTS.split(task) if part and len(part.strip(" ,?").split()) >= 2]


_ASKS_NUMBER = re.compile(r"\d|how (?:many|much|old|long|far|tall|high|deep)|what year|when\b", re.IGNORECASE)


def every_part_answered(candidate: FinalCandidate) -> str | None:
    parts = question_parts(candidate.task)
    if len(parts) < 2:
        return None
    words, has_number = key_words(candidate.answer), bool(re.search(r"\d", candidate.answer))
    missed = [part for part in parts
              if not key_words(part) & words and not (has_number and _ASKS_NUMBER.search(part))]
    if not missed:
        return None
    return (f"Check before finishing: the question has {len(parts)} parts and your answer does not address "
            f"\"{missed[0]}\". Work that part out too, then give one Final answer covering every part.")


CHECKS = {"numbers": numbers_are_grounded, "names": names_are_grounded, "parts": every_part_answered}


def checks_named(text: str) -> list:
    """The checks of a comma-separated list of names (ValueError naming the valid ones otherwise)."""
    names_given = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names_given if name not in CHECKS]
    if unknown:
        raise ValueError(f"unknown final-answer check {', '.join(unknown)}: choose from {', '.join(CHECKS)}")
    return [CHECKS[name] for name in dict.fromkeys(names_given)]
