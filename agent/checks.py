"""Final-answer checks beyond numbers (agent.outcomes.FinalCheck): each returns None to accept, or the message
that sends the answer back to the model.

- names_are_grounded: a person, place or work the answer names must appear in an observation that is about the
  question (one that also holds one of the question's key words). "The phonograph was invented by Louis
  Daguerre", after reading only the Photography page (which names Daguerre, not the phonograph), goes back.
- every_part_answered: a question in several parts ("..., and what is ...?") needs an answer that touches each
  part; an answer that leaves one out goes back.

And action checks (agent.outcomes.ActionCheck), consulted before a tool runs: each returns None to let the call
run, or the observation that refuses it.

- date_diff_needs_two_dates: date_diff given one date counts from it to today. When the question says nothing of
  today (a span between two births, say), that cannot be its answer: the call is refused and both dates asked for.
"""
from __future__ import annotations

import inspect
import re

from agent.grounding import numbers_are_grounded
from agent.outcomes import (
    ActionCheck,
    FinalAccepted,
    FinalCandidate,
    FinalCheck,
    FinalSentBack,
    ToolRefused,
)
from core.llm import LLMError, Message
from core.support import key_words, names, unsupported_names
from core.text import SENTENCE_BREAK
from tools.base import ToolError, tool_arguments
from tools.clock import date_diff, date_diff_ends, is_today, reads_as_date

__all__ = ["names", "key_words", "names_are_grounded", "asked_names_are_grounded", "every_part_answered",
           "question_parts", "CHECKS",
           "date_diff_needs_two_dates", "refusal", "no_answer"]

def judge_final(checks, candidate: FinalCandidate, may_send_back: bool) -> FinalAccepted | FinalSentBack:
    """Each check may send the answer back, a bounded number of times a run (may_send_back); after that the
    answer is accepted with the checks' objections kept in its verdicts (a --reflect retry reads them), unless a
    check that marks `no_answer` objects: then the run ends without an answer (StopReason.unanswered)."""
    verdicts: dict[str, str] = {}
    answers = True
    for check in checks:
        name = getattr(check, "__name__", type(check).__name__)
        message = check(candidate)
        verdicts[name] = message or "ok"
        if message and may_send_back:
            return FinalSentBack(message, check=name, verdicts=verdicts)
        answers = answers and not (message and getattr(check, "no_answer", False))
    return FinalAccepted(verdicts=verdicts, answers=answers)


def no_answer(checks, candidate: FinalCandidate) -> bool:
    """Whether a check that marks `no_answer` objects to this answer (it is no answer at all)."""
    return any(getattr(check, "no_answer", False) and check(candidate) for check in checks)


def refusal(checks: list[ActionCheck], action: str, action_input: str, task: str,
            allowed: list[str] | None = None) -> ToolRefused | None:
    """The first action check's refusal of this call, or None: the tool may run. allowed: the tools this run may
    call (AgentConfig.actions; a grammar-constrained model cannot call others, a free-text one is told here)."""
    if allowed is not None and action not in allowed:
        message = (f"Error: {action} is not for this run: use {', '.join(allowed)}, or Final to answer.")
        return ToolRefused(message, check="allowed_actions", verdicts={"allowed_actions": message})
    for check in checks:
        message = check(action, action_input, task)
        if message:
            name = getattr(check, "__name__", type(check).__name__)
            return ToolRefused(message, check=name, verdicts={name: message})
    return None


# A question about today: the words that make a span from one date to today its answer.
_ABOUT_TODAY = re.compile(r"\b(?:today|now|nowadays|current(?:ly)?|present|ago|ages?|aged|how old|this year|as of|"
                          r"since|so far)\b", re.IGNORECASE)
_DATE_DIFF_PARAMS = list(inspect.signature(date_diff).parameters)


def date_diff_needs_two_dates(action: str, action_input: str, task: str) -> str | None:
    if action.strip().lower() != date_diff.__name__ or _ABOUT_TODAY.search(task):
        return None
    try:
        arguments = tool_arguments(action_input, _DATE_DIFF_PARAMS, date_diff.__name__)
        start, end = date_diff_ends(**{name: str(value) for name, value in arguments.items()})
    except (ToolError, TypeError):  # no start, or an unknown argument: the tool itself says what is wrong
        return None
    if not (is_today(start) or is_today(end)) or is_today(start) and is_today(end):
        return None
    given = (end if is_today(start) else start).strip()
    if not reads_as_date(given):  # "1.3020 parsecs": the tool's own error says what it reads (held-out omh-222's
        return None  # lead was told four times to add "the other date" to a distance, and stopped on repeats
    return (f"date_diff needs both dates here: the question asks for a span between two dates, not from {given} to "
            f"today. Give the two dates in one input: {given}, <the other date>.")


_PARTS = re.compile(r",?\s+and\s+(?=(?:what|which|when|where|who|how|why|is|are|does|did)\b)|[?;]\s+(?=\S)",
                    re.IGNORECASE)


def names_are_grounded(candidate: FinalCandidate) -> str | None:
    unsupported = unsupported_names(candidate.answer, candidate.task, candidate.steps)
    if not unsupported:
        return None
    return (f"Check before finishing: your answer names {', '.join(unsupported)}, but no Observation about this "
            "question mentions them. Look it up (wikipedia_search with the question's words, then the page), or "
            "say what the Observations do show; if it is right as it is, repeat the same Final answer.")


def asked_names_are_grounded(candidate: FinalCandidate) -> str | None:
    """`names_are_grounded` for a question that asks who or which (its last sentence), not a number: a helper's
    answer to "Who was that third co-founder?" that names someone no page it read mentions goes back (held-out
    omh-433's helper read only a search's titles and answered Dorothy Hodgkin for Svante Arrhenius)."""
    asked = SENTENCE_BREAK.split(candidate.task.strip())[-1]
    if not _ASKS_NAME.match(asked) or _ASKS_NUMBER.search(asked):
        return None
    return names_are_grounded(candidate)


# "into which sea does the Don river empty?" too (held-out omh-442's helper read the Don's page, which says the Sea of
# Azov, and answered the Black Sea)
_ASKS_NAME = re.compile(r"\s*(?:(?:in|into|on|at|by|from|to|for|of|with|after|under)\s+)?"
                        r"(?:who|whom|whose|which|what)\b", re.IGNORECASE)


def question_parts(task: str) -> list[str]:
    return [part.strip(" ,?") for part in _PARTS.split(task) if part and len(part.strip(" ,?").split()) >= 2]


_ASKS_NUMBER = re.compile(r"\d|how (?:many|much|old|long|far|tall|high|deep)|(?:what|which) year|when\b",
                          re.IGNORECASE)


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


JUDGE = """Question: {task}

What the research found (the tools' results):
{observations}

Proposed final answer: {answer}

Does the answer answer every part of the question, with every name and number in it stated by the results above? \
Reply YES, or NO: and what is missing or unsupported, in one line."""
JUDGE_GBNF = 'root ::= "YES" | "NO: " [^\\n]+\n'


def answer_judge(llm) -> FinalCheck:
    """A check that is an LLM call: the model (the --aux-model, when given) judges the answer against the
    observations. A judge that cannot be reached accepts: a check must not end the run."""
    def judge(candidate: FinalCandidate) -> str | None:
        observations = [step for step in candidate.steps if not step.is_final and step.observation]
        shown = "\n".join(f"- {step.action}({step.action_input[:60]!r}): {' '.join(step.observation.split())[:240]}"
                          for step in observations[-8:]) or "(nothing)"
        prompt = JUDGE.format(task=candidate.task, observations=shown, answer=candidate.answer)
        try:
            verdict = llm.complete([Message(role="user", content=prompt)], grammar=JUDGE_GBNF).text.strip()
        except LLMError:
            return None
        if not verdict.upper().startswith("NO"):
            return None
        reason = verdict.split(":", 1)[1].strip() if ":" in verdict else "it is not supported by the results"
        return (f"Check before finishing: a reviewer says {reason} Fix that with the tools, or if the answer is right "
                "as it is, repeat the same Final answer.")
    judge.__name__ = "answer_judge"
    return judge


CHECKS = {"numbers": numbers_are_grounded, "names": names_are_grounded, "parts": every_part_answered,
          "judge": answer_judge}
_NEED_LLM = ("judge",)


def check_names(text: str) -> list[str]:
    """The names in a comma-separated list, each a known check (ValueError naming the valid ones otherwise)."""
    names_given = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names_given if name not in CHECKS]
    if unknown:
        raise ValueError(f"unknown final-answer check {', '.join(unknown)}: choose from {', '.join(CHECKS)}")
    return names_given


def checks_named(text: str, llm=None) -> list:
    """The checks of a comma-separated list of names (ValueError naming the valid ones otherwise). llm: the model
    for the checks that are LLM calls."""
    names_given = check_names(text)
    if llm is None and any(name in _NEED_LLM for name in names_given):
        raise ValueError("the judge check needs a model")
    return [CHECKS[name](llm) if name in _NEED_LLM else CHECKS[name] for name in dict.fromkeys(names_given)]
