"""Sub-agents: the `research` tool hands one sub-question to a child agent with its own context and memory.

A small model answers a single-hop question ("How long is the Godavari River?") far more reliably than a
five-entity one, and each child's context stays small. The child is a run of its own, built by the same run
builder as any run (agent/runs.py): stored, traced, resumable (`ponder resume <its id>`), linked to the parent's
step by `Findings.subrun`. It returns a short answer with its source, the page and the sentence that states it,
which the parent's facts ledger records (memory/ledger.py).

The child's prompt starts with the parent's system prompt word for word (the same tool list; its `research` only
refuses), so the backend's cached system prompt serves both; the embedded backend keeps the parent's KV state
while a child runs and puts it back after (`kept_context`), so the parent's prompt is not evaluated again.
"""
from __future__ import annotations

import dataclasses
import json
import re
import uuid
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import nullcontext
from typing import Callable

from pydantic import BaseModel

from agent.chains import chain_of, role_named_again
from agent.fanout import (FINAL_THOUGHT, MAX_FANOUT, RESEARCH, asked_value, calculator_result, fanned_out,
                          fanout_call, fanout_final, forms, shown, thing_of)
from agent.outcomes import ToolObserved
from agent.reading import (aside_of, compares, computations, end_form, listed_names, measure_note, measured, note_of,
                           page_named, pages_named, says, set_against, settled_list, start_form, stated_counts,
                           two_forms, unread_list)
from core.schema import FINAL_ACTION, Fact, Findings, Observed, RunResult, Step, ToolStatus
from core.support import YEAR_DIGITS, is_year, key_words, names, numbers, singular_forms, year_range
from core.text import PAGE_SENTENCE_BREAK, clip
from core.units import (SCALE_WORDS, asked_units, away_numbers, counted_noun, first_of, quantities, scaled_numbers,
                        unit_kind)
from memory.ledger import ASKS_WHEN
from tools.base import Tool, ToolCall, ToolRegistry

# The prompt's description of the tool (its first line is what the tool list shows): the same for parent and child.
DESCRIPTION = ("Ask a helper ONE simple question about ONE thing (input: the question, e.g. How long is the "
               "Godavari River?); it looks it up and returns the answer with the sentence that states it.")
ANSWER_MAX_CHARS = 240
MAX_HELPERS_AT_ONCE = 4  # against a server; a helper is a handful of calls, so four keep a small one busy
REFUSAL = ("Error: research is for the lead agent only. Look it up yourself: wikipedia_summary or wikipedia_lookup "
           "with the page's title.")


def research_tool(build_child: Callable[..., object], parent_id: str, llm, timeout: float, task: str = "") -> Tool:
    """The parent's `research` tool. build_child(question, run_id, thing, aside, lead, also) gives the child's Agent
    (thing: the one the lead's task lists that the question asks about, or ""; aside: the other name the task gives
    it in brackets, or ""; lead: the task, which picks among the thing's fuller titles; also: a second page to read
    first, or ""); llm: the model both use (its KV state is kept across the child's run when the backend can);
    timeout: the tool's time limit (the child's own limit, and a margin)."""
    listed = [*listed_names(task), *set_against(task)]  # each helper about one of them opens on its page

    def research(question: str) -> str:
        question = " ".join(question.split())
        if not question:
            return "Error: give the question to research, e.g. How long is the Godavari River?"
        child_id = f"{parent_id}-sub-{uuid.uuid4().hex[:6]}"
        with getattr(llm, "kept_context", nullcontext)():
            # with no list, a name an earlier helper found is the thing a later question asks about: a chain's
            # second helper opens on its page ("... is attributed to Kanō Jigorō?": held-out omh-405's searched,
            # read nothing, and answered from memory); else the one page the question names (`page_named`)
            thing = thing_of(question, made.things) or (
                "" if made.things else thing_of(question, made.found) or page_named(question))
            # a question naming two pages reads both: "When did Rainer Maria Rilke begin writing the Duino
            # Elegies?" is answered on the poem's page (held-out omh-514's helper read neither, and answered 1896)
            two = [] if thing or made.things else pages_named(question)
            thing, also = (two[0], two[1]) if len(two) == 2 else (thing, "")
            # what the lead's question says of this thing's value goes with it: "for Daegu, the city itself, not
            # the wider region" (held-out omh-375's helper gave the region's 5 million)
            note = note_of(task, thing, made.things) if thing else ""
            # ... and what it says of every listed thing's ("take the province population, not the city figure")
            note = note or (measure_note(task) if thing in made.things else "")
            # ... and the words its measure puts before the noun the question asks ("the province population")
            asked = measured(question, task) if thing in made.things else question
            asked = f"{asked} (The question says: {note}.)" if note else asked
            result = build_child(asked, child_id, thing, aside_of(task, thing), task, also).run(asked)
        made.found.extend(name for name in names(result.answer or "") if not says(question, name))
        return report(question, result)

    made = Research(research, name=RESEARCH, description=DESCRIPTION)
    made.timeout_seconds = timeout
    made.concurrent = bool(getattr(llm, "concurrent", False))
    made.things = listed  # the lead's opening settles the list (`Split.names`) and sets it again
    made.found = []  # the names helpers' answers gave
    return made


def refusing_tool() -> Tool:
    """The child's `research`: listed as in the parent's prompt (so the two share it), but it never recurses."""
    def research(question: str) -> str:
        return REFUSAL
    return Tool(research, name=RESEARCH, description=DESCRIPTION)


def with_research(tools: ToolRegistry, tool: Tool) -> ToolRegistry:
    """A registry with the same tools, in the same order, and `tool` as research."""
    registry = ToolRegistry([t for t in (tools.get(name) for name in tools.names) if t.name != RESEARCH])
    registry.add(tool)
    return registry


class Research(Tool):
    """Keeps the report's findings (a plain Tool would too) and lists the child's steps as inner calls, so the trace,
    `ponder trace` and the HTML page show the child's work nested under the parent's step.

    Against a model that serves several calls at once (a server: `concurrent`), the lead's planned sub-questions
    are prefetched: their helpers run side by side, and each research call takes its own helper's report. The
    embedded model answers one call at a time, so there helpers run in turn."""
    concurrent = False
    things: list[str] = []  # what the lead's question lists: a helper asked about one opens on its page
    found: list[str] = []  # with no list, the names helpers found: a later helper asked about one opens on its page

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._started: dict[str, Future] = {}

    def prefetch(self, questions: list[str]) -> None:
        """Start the helpers of these sub-questions now, side by side (only when the model is concurrent)."""
        questions = [q for q in dict.fromkeys(" ".join(q.split()) for q in questions) if q not in self._started]
        if not self.concurrent or len(questions) < 2:
            return
        pool = ThreadPoolExecutor(max_workers=min(len(questions), MAX_HELPERS_AT_ONCE), thread_name_prefix="helper")
        for question in questions:
            self._started[question] = pool.submit(self.fn, question=question)
        pool.shutdown(wait=False)  # the threads finish their helpers; nobody waits on the pool itself

    def invoke(self, action_input: str, calls: list[ToolCall] | None = None) -> str:
        arguments = self.arguments(action_input)
        started = self._started.pop(" ".join(str(arguments.get("question", "")).split()), None)
        out = started.result() if started is not None else self.fn(**arguments)
        if calls is not None and isinstance(out, _Report):
            calls.extend(ToolCall(name=step.action, input=step.action_input, observation=step.observation,
                                  seconds=step.timings.tool_seconds) for step in out.child_steps)
        return out


class _Report(Observed):
    child_steps: list[Step]


def report(question: str, result: RunResult) -> str:
    """What the parent reads: the child's answer and the sentence that states it, found by code in what the
    child's tools returned; an answer no observation states is marked unverified and records no fact."""
    usage, answer = result.usage, (result.answer or "").strip()
    if not answer:
        text = (f"The helper found no answer to {question!r} (it stopped: {result.stop_reason.value}). Ask a "
                "simpler question: one fact about one thing.")
        findings = Findings(status=ToolStatus.no_match, subrun=result.run_id, usage=usage)
    else:
        page, sentence = source(answer, result.steps, question)
        answer = said = clip(answer, ANSWER_MAX_CHARS, marker=" ...", at="space")  # a helper that pasted the page
        read = (read_off(question, answer, result.steps) or read_count(question, answer, result.steps)
                or read_year(question, answer, result.steps))
        value = ""
        if read:
            page, sentence, value = read
            answer = f"{value} (the helper answered: {said})"
        kept = {"value": value, "said": said if value else ""}
        if sentence:
            text = f"Answer: {answer}\nSource: {page}: \"{sentence}\""
            findings = Findings(status=ToolStatus.found, pages=[page], sentences=[sentence], answer=answer,
                                subrun=result.run_id, usage=usage, **kept)
        else:
            text = f"Answer (unverified: no page the helper read states it): {answer}"
            findings = Findings(status=ToolStatus.found, answer=answer, subrun=result.run_id, usage=usage, **kept)
    made = _Report(text, findings)
    made.child_steps = list(result.steps)
    return made


def source(answer: str, steps: list[Step], question: str = "") -> tuple[str, str]:
    """(page, sentence): the sentence of a page the child read that states most of the answer's numbers (or, for
    an answer without numbers, its names), first those of the measure the question asks; ("", "") when none
    states any."""
    # a lone digit counts: "The atomic number of oxygen is 8." went back unverified (held-out omh-132); a number the
    # question names does not: carbon-14's half-life was sourced from "It belongs to group 14" (held-out omh-215)
    wanted_numbers = set(numbers(answer, single_digits=True)) - set(numbers(question, single_digits=True))
    wanted_names = set(names(answer))
    added = key_words(answer) - key_words(question)
    # "existed between 1492 and 1976, covering 13.7 million square kilometres" answers how large with the area's
    # sentence, not the one with both years (held-out omh-203 took 1492 for the Spanish Empire's area)
    units = asked_units(question)
    measured = {number.replace(",", "") for number, unit in quantities(answer) if unit_kind(unit) in units}
    if ASKS_WHEN.match(question):  # "completed in 1994, 50.46 kilometers long": the year's sentence, not the
        # length's with two numbers (held-out omh-214 took the Channel Tunnel's 50.46 km for its year)
        measured = {number for number in wanted_numbers if is_year(number)}
    # of sentences stating as many of its numbers, the one stating them with the answer's words: "has 22 members",
    # not "formed on 22 March 1945" (held-out omh-232 took 1945 for the Arab League's members)
    worded = {(number.replace(",", ""), unit_kind(unit)) for number, unit in quantities(answer) if unit}
    # the number the answer opens with, before page text it pasted after it: "The Köchel number for The Magic Flute
    # is 620, which is an opera ... premiered on 30 September 1791" is sourced where 620 is stated (held-out omh-334
    # took the premiere's sentence, and 1791 for the Köchel number)
    # (its first sentence only: an answer that is the page pasted whole opens with none of its own)
    opening = PAGE_SENTENCE_BREAK.split(answer.strip(), maxsplit=1)[0]
    first = next((number for number in numbers(opening, single_digits=True) if number in wanted_numbers), None)
    best, best_score = ("", ""), (0, 0, 0, 0)
    for page, sentence in page_sentences(steps):
        if wanted_numbers:
            stated = {*numbers(sentence, single_digits=True), *scaled_numbers(sentence)}  # "7 million": 7000000
            said = {(number.replace(",", ""), unit_kind(unit)) for number, unit in quantities(sentence)}
            score = (len(measured & stated), first in stated, len(wanted_numbers & stated), len(worded & said))
        else:  # of sentences naming as many of its names (a name by a word of it: "Kanō"), the one with more of
            # the words the answer adds to the question: "the introduction of dan ranking" attributed to Kanō, not
            # "Kanō Jigorō was ... the founder of judo" (held-out omh-405)
            said = set(sentence.split())
            named = {name for name in wanted_names
                     if name in sentence or said & {word for word in name.split() if len(word) > 3}}
            score = (0, 0, len(named), len(added & key_words(sentence)))
        if score > best_score:
            best, best_score = (page, sentence), score
    return best


def page_sentences(steps: list[Step]) -> list[tuple[str, str]]:
    """(page, sentence) for every sentence a page returned to these steps, in order. Only what a page returned: a
    not-found message echoes the helper's own input (held-out omh-69's beaver: '"... is 150 pounds (68 kg)." does
    not appear in the page' was taken as the source of that answer), but the page's description it shows is the
    page's own."""
    return [(step.findings.page, " ".join(sentence.split())) for step in steps
            if step.findings and step.findings.page
            and step.findings.status in (ToolStatus.found, ToolStatus.not_on_page)
            for sentence in (step.findings.sentences or ([] if step.findings.status is ToolStatus.not_on_page
                                                         else PAGE_SENTENCE_BREAK.split(step.observation)))]


# words many page titles share: "Krishna River" is not about the Godavari River, "Lake Superior" not Lake Victoria
_GENERIC_TITLE_WORDS = frozenset("""river lake mount mountain island ocean city state province
republic kingdom united north south east west bay gulf desert fall bridge tower volcano national park""".split())


def _about(page: str, question: str) -> bool:
    """Whether a page is about the thing a question names: a word of its title other than a generic one is in it,
    in the singular or not (the Mantis page is about "mantises", Louse about "lice")."""
    words = key_words(page) or {page.lower()}  # a short title has no key word of four letters: "Eel"
    asked = {form for word in key_words(question) | set(re.findall(r"[a-z]+", question.lower()))
             for form in singular_forms(word)}
    return bool({form for word in (words - _GENERIC_TITLE_WORDS or words) for form in singular_forms(word)} & asked)


# "with a mean depth of 12 metres": a value the page gives as an average
_MEAN_WORD = r"\b(?:mean|average)\b"
_AVERAGED = re.compile(_MEAN_WORD + r"\s+(?:[a-z]+\s+){0,2}?(?:of\s+)?(?:about\s+|approximately\s+|around\s+)?"
                       r"(\d[\d,]*(?:\.\d+)?)", re.IGNORECASE)
_GREATEST = re.compile(r"\b(?:greatest|maximum|max\.?|deepest|highest|tallest|longest)\b", re.IGNORECASE)


def read_off(question: str, answer: str, steps: list[Step]) -> tuple[str, str, str] | None:
    """(page, sentence, value): when the question asks a measure (an area, a length, a height) and the helper's
    answer states none (or only in the less wanted unit: miles, not kilometres, or only as the page's average when
    the greatest is asked), the first sentence of a page about the thing that does, and that value. Measured on
    twelve held-out "How large is ...?" helpers: three answered with the page's opening sentence and one with its
    population ("over 241 million inhabitants"), while the pages they read stated each area."""
    units = asked_units(question)
    sentences = [(page, sentence) for page, sentence in page_sentences(steps) if _about(page, question)]
    # asked the greatest depth, a helper answered Lake Winnipeg's "mean depth of 12 metres"; its page's next
    # sentence gives the deepest, 36 metres (held-out omh-204)
    averaged = {number.replace(",", "") for _, sentence in sentences for number in _AVERAGED.findall(sentence)} \
        if _GREATEST.search(question) and not re.search(_MEAN_WORD, question, re.IGNORECASE) else set()
    # a value no sentence of its pages states is no answer of its own: "approximately 2.952 million square
    # kilometers" for Kaohsiung, whose page says "2,952 km2" (held-out omh-273 left Kaohsiung out, the smallest)
    said = {number.replace(",", "") for _, sentence in sentences for number, _ in quantities(sentence)}
    # how far away a thing is states none of its dimensions: "2.878 million light-years (ly) from Earth" answers no
    # diameter (held-out omh-304's helper quoted the Triangulum Galaxy's distance; its page gives 61,100 light-years)
    away = {number.replace(",", "") for _, sentence in sentences for number in away_numbers(question, sentence)}
    given = [(number.replace(",", ""), unit_kind(unit)) for number, unit in quantities(answer)
             if (number.replace(",", "") in said or not sentences) and number.replace(",", "") not in away]
    stated = [units.index(kind) for number, kind in given if kind in units and number not in averaged]
    units = units[:min(stated, default=len(units))]  # only a unit more wanted than the answer's own (California's
    if not units:  # 163,696 square miles beside twelve areas in km2 was left out of a mean; its page says 423,970 km2)
        return None
    for kind in units:
        for page, sentence in sentences:
            stated = first_of([(number, unit) for number, unit in quantities(sentence)
                               if number.replace(",", "") not in averaged | away], [kind])
            if stated:
                return page, sentence, " ".join(stated)
    return None


def read_count(question: str, answer: str, steps: list[Step]) -> tuple[str, str, str] | None:
    """(page, sentence, count): when the question counts something ("How many species ...") and no page the
    helper read states the count its answer gives, the first sentence of a page about the thing that counts it.
    Measured on held-out questions: helpers that read the Louse and Eel pages answered "3 species" and
    "approximately 100 species", neither stated anywhere, and the lead was left without a value. A count stated
    with a word between ("about 2,400 described species", held-out lh-65) is the answer's own: kept."""
    noun = counted_noun(question)
    if not noun:
        return None
    said = set(_counts_of(answer, noun))
    sentences = page_sentences(steps)
    # or stated with more words between: "Her 24 women's singles major titles and total of 64 major titles" states
    # the helper's "24 major championships" (held-out omh-330 took the 64)
    if any(said & set(_counts_of(sentence, noun)) or any(_counted_near(sentence, number, noun) for number in said)
           for _, sentence in sentences):
        return None
    for page, sentence in sentences:
        stated = _counts_of(sentence, noun)
        if stated and _about(page, question):
            return page, sentence, f"{stated[0]} {noun}"
    return None


def _counts_of(text: str, noun: str) -> list[str]:
    """The numbers a text counts the noun with, a word between allowed: "about 2,400 described species": 2,400."""
    nouns = singular_forms(noun)
    # a number within a word counts nothing: "L2 speakers" (held-out omh-230 replaced Yoruba's 50 million with 2);
    # its scale is its own: "32.9 million speakers" (read as 32.9, held-out omh-469's count would lose a million)
    counted = [found.group(1) for found in re.finditer(rf"(?<![\w.])(\d[\d,]*(?:\.\d+)?(?:\s+(?:{SCALE_WORDS}))?)"
                                                       r"\s+([a-z-]+)(?:\s+([A-Za-z]+))?", text)
               if singular_forms(found.group(2)) & nouns or found.group(3) and singular_forms(found.group(3)) & nouns]
    # "The number of named Niger–Congo languages listed by Ethnologue is 1,540." (held-out omh-258's helper
    # answered with the page's first sentence, unverified)
    stated = [found.group(2) for found in re.finditer(r"\bnumber of\s+([^.;]{1,80}?)\s+(?:is|was|stands at)\s+"
                                                      r"(?:about\s+|around\s+|approximately\s+)?(\d[\d,]*)", text,
                                                      re.IGNORECASE)
              if any(singular_forms(word) & nouns for word in re.findall(r"[a-z-]+", found.group(1).lower()))]
    return counted + stated


def _counted_near(text: str, number: str, noun: str) -> bool:
    """Whether the text states the number with the noun at most four words after it."""
    nouns = singular_forms(noun)
    return any(singular_forms(word.lower()) & nouns for found in re.finditer(
        rf"(?<![\w.]){re.escape(number)}((?:\s+[\w'’-]+){{1,4}})", text) for word in found.group(1).split())


_STARTS = re.compile(r"\b(?:born|begin|take office|construction of)\b", re.IGNORECASE)
_ENDS = re.compile(r"\b(?:die|end|leave office|completed)\b", re.IGNORECASE)


def read_year(question: str, answer: str, steps: list[Step]) -> tuple[str, str, str] | None:
    """(page, sentence, year): when a span's start or end is asked ("When did Hadrian's reign begin?") and the
    helper's answer holds no year, the first or the second year of the first range ("from 117 to 138",
    "(1811–1886)") on a page about the thing. Measured on omh-73: the helper answered with where Hadrian was born,
    while the page it read said "Roman emperor from 117 to 138". An answer that gives the range itself ("completed
    in 1163–1345", held-out omh-86) gives its first or second year, from a sentence of its page that states it; one
    whose only year is the range's other end gives the asked end."""
    start, end = _STARTS.search(question), _ENDS.search(question)
    if not ASKS_WHEN.match(question) or bool(start) == bool(end):
        return None
    about = [(page, sentence) for page, sentence in page_sentences(steps) if _about(page, question)]
    said = year_range(answer)
    if said:
        year = said[0 if start else 1]
        return next(((page, sentence, year) for page, sentence in about if re.search(rf"\b{year}\b", sentence)), None)
    given = set(re.findall(rf"\b{YEAR_DIGITS}\b", answer))
    if end and given and all(_stated_as_start(year, [sentence for _, sentence in about]) for year in given):
        # "sole ruler of the Habsburg monarchy from 29 November 1780 until his death" answers no end: the page's
        # range does, "from 1765 to 1790" (held-out omh-212 ended Joseph II's reign in 1780)
        given = set()
    ranges = [(page, sentence, found) for page, sentence in about if (found := year_range(sentence))]
    if given:  # only the other end of its page's range ("born ... he died in 1240", held-out lh-47's Ibn Arabi)
        if any(given == {found[0 if start else 1]} for _, _, found in ranges):
            # the asked end of a range its page states: "(1910–1920)" beside "held power from 1920 to 1940"
            # (held-out lh-87 took 1940 for the Mexican Revolution's end)
            return None
        return next(((page, sentence, found[0 if start else 1]) for page, sentence, found in ranges
                     if given == {found[1 if start else 0]}), None)
    return next(((page, sentence, found[0 if start else 1]) for page, sentence, found in ranges), None)


def _stated_as_start(year: str, sentences: list[str]) -> bool:
    """Whether the sentences that state a year all give it as a start ("from 29 November 1780", "since 1999")."""
    stating = [sentence for sentence in sentences if re.search(rf"\b{year}\b", sentence)]
    start = re.compile(rf"\b(?i:from|since)\s+(?:\d{{1,2}}\s+[A-Z][a-z]+\s+|[A-Z][a-z]+\s+\d{{1,2}},?\s+)?{year}\b"
                       rf"(?!\s*(?:–|—|-|to|until)\s*\d)")
    return bool(stating) and all(start.search(sentence) for sentence in stating)


# ---- the lead's opening: the question split into sub-questions, each handed to a helper before the model's turn --

SPLIT = """Before you start, split the question into the simple questions your helpers must answer. Each asks for \
ONE fact about ONE thing, in the question's own words; ask about every thing the question names. If a question \
needs the answer of an earlier one, list only the earlier one (you ask the rest later). Then name what to do with \
the answers: max or min (which is the most or least), sum (combined, total), difference (how much more, how many \
years between or after), ratio (how many times), or none.

Example: Which is the largest of these lakes: Lake Superior, Lake Victoria or Lake Baikal?
1. How large is Lake Superior?
2. How large is Lake Victoria?
3. How large is Lake Baikal?
Then: max

Example: How many years after Johannes Gutenberg was born did Martin Luther die?
1. When was Johannes Gutenberg born?
2. When did Martin Luther die?
Then: difference

Example: What is the combined population of Oslo and Bergen?
1. What is the population of Oslo?
2. What is the population of Bergen?
Then: sum

Example: Who wrote the novel Dracula, and in what city was he born?
1. Who wrote the novel Dracula?
Then: none

Write the numbered questions and the Then line only."""
MAX_SUBQUESTIONS = 6
OPERATIONS = ("max", "min", "sum", "difference", "ratio", "none")
# Each line bounded, so the reply can never run into the token limit mid-way.
# not "Which ...": a question that picks among things is the whole question again, not one fact
START_GBNF = 'start ::= "How " | "When " | "What " | "Who " | "Where " | "In what "\n'
SPLIT_GBNF = ('root ::= item item? item? item? item? item? "Then: " op "\\n"?\n'
              'item ::= [1-6] ". " start [^\\n?]{3,100} "?\\n"\n' + START_GBNF +
              'op ::= ' + " | ".join(f'"{op}"' for op in OPERATIONS) + "\n")
_ITEM = re.compile(r"^\s*\d\.\s*(.+\?)\s*$", re.MULTILINE)
_THEN = re.compile(r"^Then:\s*(\w+)", re.MULTILINE)
# The question's own words settle the operation where they are plain: a 1.5B model answered "max" for "how many
# metres higher is A than B" (a difference). Which is the most or least stays the model's call.
_OPERATION_WORDS = [
    ("ratio", re.compile(r"\bhow many times\b|\btimes (?:as|longer|larger|bigger|higher|more)\b", re.IGNORECASE)),
    ("difference", re.compile(r"\bhow (?:many|much)\b.*\b(?:than|after|before|between|separate|passed)\b"
                              r"|\bhow old\b|\bwhat age\b", re.IGNORECASE)),  # an age: two years' difference
    ("sum", re.compile(r"\b(?:combined|total|sum|altogether)\b", re.IGNORECASE)),
]
OPENING_THOUGHT = "I hand this part of the question to a helper."
COMPUTE_THOUGHT = "I compute with the values the helpers established."


class Split(BaseModel):
    """A question split for helpers: the sub-questions, what to do with their answers, and the things the question
    lists (settled once, with the model's reading: `settled_list`; [] when it lists none)."""
    questions: list[str]
    operation: str = "none"
    names: list[str] = []
    refers: str = ""  # a chain's: the words of its second question that stand for the first's answer ("he")

    def render(self) -> str:
        return "\n".join([*self.questions, f"Then: {self.operation}",
                          *([f"{NAMES}{json.dumps(self.names)}"] if self.names else []),
                          *([f"{REFERS}{self.refers}"] if self.refers else [])])

    @classmethod
    def parse(cls, text: str, task: str = "", limit: int = MAX_SUBQUESTIONS) -> "Split":
        questions = [" ".join(q.split()) for q in _ITEM.findall(text)]
        questions = [q for q in questions if q.casefold() != task.strip().casefold()]
        then = _THEN.search(text)
        operation = then.group(1) if then and then.group(1) in OPERATIONS else "none"
        return cls(questions=list(dict.fromkeys(questions))[:limit], operation=operation)

    @classmethod
    def stored(cls, note: str, task: str = "") -> "Split":
        """From the run's note (a resumed run keeps its split, fanned out or not, and its list: one stored before
        lists were kept is code's reading of the task)."""
        lines = [line for line in note.splitlines() if line]
        names = next((json.loads(line[len(NAMES):]) for line in lines if line.startswith(NAMES)), None)
        refers = next((line[len(REFERS):] for line in lines if line.startswith(REFERS)), "")
        split = cls.parse("\n".join(f"1. {line}" if not line.startswith("Then: ") else line
                                    for line in lines if not line.startswith((NAMES, REFERS))), limit=MAX_FANOUT)
        return split.model_copy(update={"names": listed_names(task) if names is None else names, "refers": refers})


def split_question(complete, system: str, task: str) -> Split:
    """The question split by the model (complete(messages, grammar) -> Completion); the system prompt is the
    agent's own, so the backend's cached one serves this call too."""
    from core.llm import Message
    listed, counts = listed_names(task), stated_counts(task)
    if counts and len(listed) not in counts or unread_list(task):  # code's list misses the count, or is none
        listed = settled_list(task, read_list(complete, system, task))
    chain = None if listed else chain_of(task)
    if chain:  # a chain code reads: its second question is asked with the first's answer (`bridge`)
        return Split(questions=[chain.first, chain.then], refers=chain.refers)
    said = (two_forms(task) or tuple(filter(None, [start_form(task) or end_form(task)]))) if listed else ()
    if said:  # each thing's start and end (or start), in code's words: the model's split is not needed (nor its time)
        return Split(questions=[form.format(name) for name in listed for form in said][:MAX_FANOUT], names=listed)
    completion = complete([Message(role="system", content=system),
                           Message(role="user", content=f"Question: {task}\n\n{SPLIT}")], SPLIT_GBNF)
    split = Split.parse(completion.text, task).model_copy(update={"names": listed})
    if not listed:
        split = split.model_copy(update={"questions": _life_event_asked(_not_combining(split.questions), task)})
    fanned = fanned_out(split.questions, task, listed)
    # the model asked the whole question again, or asked each thing one question in words the task does not use
    # ("In what year was the first known sighting of macaques in the wild?" for how many species each group has,
    # held-out omh-221): one thing's question, by grammar, told the foreign words. Two such words at least: good
    # forms have one ("How many people live in Guangdong?"), and no seen run's one-form split had two
    # or asked each thing the question's comparison ("How many years separate the debut of the first Olympic
    # newcomer from {}'s debut?", held-out omh-254: a helper answers one thing from one page)
    if listed and (fanned is None or fanned[1] == 1 and (len(_foreign_words(fanned[0][0], task, listed[0])) >= 2
                                                         or compares(fanned[0][0]))):
        fanned = fanned_out([one_things_question(complete, system, task, listed[0], listed)], task, listed)
    if fanned is not None:
        questions, forms = fanned
        split = Split(questions=questions, operation=split.operation, names=listed)
        if forms > 1:  # two facts of each thing (born, died): the lead combines them, not one operation
            return split.model_copy(update={"operation": "none"})
    worded = next((operation for operation, words in _OPERATION_WORDS if words.search(task)), None)
    # with two answers or more to combine, plain wording wins even over "none" (measured: "how many years passed
    # between the launch of Sputnik 1 and the first crewed Moon landing" split in two, then "none")
    return split.model_copy(update={"operation": worded}) if worded and len(split.questions) >= 2 else split


def _not_combining(questions: list[str]) -> list[str]:
    """The sub-questions less one that asks of two others' things together: "How old will Lionel Messi be when
    Halley's Comet returns?" after Messi's birth and the comet's return is the question's computation again, and
    held-out omh-497's helper answered it "40" from nothing. Code computes it from the two (`compute_call`)."""
    def combines(at: int) -> bool:
        own = set(names(questions[at]))
        covered = [own & set(names(other)) for index, other in enumerate(questions) if index != at]
        # its names asked apart, none of the others asking them all (two questions about one thing are no combining)
        return len(own) >= 2 and set().union(*covered) == own and all(found != own for found in covered)
    kept = [question for at, question in enumerate(questions) if not combines(at)]
    return kept if len(kept) >= 2 else questions


_BORN, _DIED = re.compile(r"\bborn\b|\bbirth", re.IGNORECASE), re.compile(r"\bdie[ds]?\b|\bdeath", re.IGNORECASE)
_ASKS_BORN, _ASKS_DIED = re.compile(r"^When was (.+) born\?$"), re.compile(r"^When did (.+) die\?$")


def _life_event_asked(questions: list[str], task: str) -> list[str]:
    """The sub-questions with a birth the question never mentions asked as the death it does (or the other way):
    "How many years before his death did Rilke begin writing the Duino Elegies?" was split into when he was born and
    when he began them, and answered 37 years (measured on omh-514 after its run)."""
    for said, unsaid, wrong, right in ((_DIED, _BORN, _ASKS_BORN, "When did {} die?"),
                                       (_BORN, _DIED, _ASKS_DIED, "When was {} born?")):
        if said.search(task) and not unsaid.search(task) and not any(said.search(q) for q in questions):
            return [right.format(found.group(1)) if (found := wrong.match(q)) else q for q in questions]
    return questions


NAMES = "Names: "
REFERS = "Refers: "
MAX_LISTED = 30
LIST_PROMPT = ("The question names several things (people, places, works, events or other things) and asks the same "
               "about each. Copy each one's name exactly as the question writes it, in order, without descriptions, "
               "as a JSON list of strings.")
# at most MAX_LISTED names of at most 70 characters: the reply cannot run into the token limit
LIST_GBNF = ('root ::= "[" item ("," " " item){1,' + str(MAX_LISTED - 1) + '} "]"\n'
             'item ::= "\\"" [^"\\n\\\\]{1,70} "\\""\n')


def read_list(complete, system: str, task: str) -> list[str]:
    """The things the question lists as the model reads them: a JSON list bounded by the grammar, [] when the reply
    is no list. Code checks it before it counts (`settled_list`)."""
    from core.llm import Message
    reply = complete([Message(role="system", content=system),
                      Message(role="user", content=f"Question: {task}\n\n{LIST_PROMPT}")], LIST_GBNF).text
    try:
        read = json.loads(reply)
    except ValueError:
        return []
    # a list the grammar cut at its bound may have left names out (measured: twenty of held-out lh-01's 25 rivers)
    return [str(item) for item in read] if isinstance(read, list) and len(read) < MAX_LISTED else []


def one_things_question(complete, system: str, task: str, thing: str, names: list[str] | None = None) -> str:
    """The question a helper must answer about one thing the task lists, its name forced by the grammar (measured:
    asked to split a question listing eleven countries, the 1.5B model wrote the whole question again, cut at
    its 100 characters, so no helper was asked about any one country)."""
    from core.llm import Message
    literal = thing.replace("\\", "\\\\").replace('"', '\\"')
    grammar = f'root ::= start [^\\n?]{{0,80}} "{literal}" [^\\n?]{{0,40}} "?"\n' + START_GBNF
    prompt = (f"Question: {task}\n\nThe question lists several things. Write the ONE simple question a helper "
              f"must answer about {thing} alone: the one fact of it the question needs, in the question's own "
              f"words, about {thing} itself (not about Wikipedia or its pages). The same question is then asked "
              f"about each of the others.")
    asked = complete([Message(role="system", content=system), Message(role="user", content=prompt)], grammar).text
    foreign = _foreign_words(asked, task, thing)
    # "What is the lowest natural point in Australia at Kati Thanda–Lake Eyre, and how many Baku meters is it below
    # sea level?" (held-out omh-263, asked of Baku): another listed thing's question, which no form makes
    elsewhere = [name for name in names or [] if name.lower() in asked.lower() and name.lower() not in thing.lower()]
    # "What is the distance to The Galactic Center of the Milky Way in kiloparsecs, and how far The Galactic Center of
    # the Milky Way is from ...?" (held-out omh-270): asked of the others, each question named it still, and the
    # Large Magellanic Cloud's value was read as the Galactic Center's second
    twice = asked.lower().count(thing.lower()) > 1
    if not foreign and not elsewhere and not twice:
        return asked
    # measured on held-out lh-20: "When was Jacques Cartier born?" for a question about when they died; once more,
    # naming the word, and the second reply stands
    if foreign:
        prompt += f" The question does not say {', '.join(repr(word) for word in foreign)}: ask for what it asks."
    if elsewhere:
        prompt += (f" Ask about {thing} alone, not {', '.join(elsewhere)}, nor how the question describes "
                   f"{'it' if len(elsewhere) == 1 else 'them'}.")
    if twice:
        prompt += f" Ask one thing, naming {thing} once."
    return complete([Message(role="system", content=system), Message(role="user", content=prompt)], grammar).text


_MEASURE_WORDS = {"larg", "high", "tall", "deep", "wide", "heav"}  # "How large is {}?" asks any question's area


def _foreign_words(asked: str, task: str, thing: str) -> list[str]:
    """The content words of a sub-question that are not the thing's and start no word of the task."""
    stems = {word[:4] for word in key_words(task)} | _MEASURE_WORDS
    return sorted(word for word in key_words(asked) - key_words(thing) if word[:4] not in stems)


def compute_call(split: Split, steps: list[Step]) -> tuple[str, str, str] | None:
    """The calculator call the split's operation makes of the helpers' values, once every sub-question has one;
    None when there is nothing to compute (or a value is missing: the lead works it out itself)."""
    if split.operation == "none" or len(split.questions) < 2:
        return None
    if split.operation in ("difference", "ratio") and len(split.questions) != 2:
        return None  # of which two? the lead picks them from the table
    values = [asked_value(question, steps)[1] for question in split.questions]
    if not all(values):
        return None
    expression = {"max": f"max({', '.join(values)})", "min": f"min({', '.join(values)})",
                  "sum": " + ".join(values), "difference": f"abs({values[0]} - {values[1]})",
                  "ratio": f"{values[0]} / {values[1]}"}[split.operation]
    return COMPUTE_THOUGHT, "calculator", expression


_PICKS = re.compile(r"\b(?:which|who)\b", re.IGNORECASE)
_SAID = {"difference": "the difference is {}", "sum": "together they come to {}", "ratio": "the first is {} times the "
         "second"}


def split_final(split: Split, steps: list[Step], task: str) -> tuple[str, str, str] | None:
    """The Final answer written from the split's computed result, when the question asks only for that number (a
    difference, a sum, a ratio; no "which"): the values found and the result, each as the steps state it. Measured
    on held-out questions: shown "abs(1957 - 1969) = 12", the 1.5B lead answered "1957 - 11 = 186 years"."""
    if split.operation not in _SAID or _PICKS.search(task):
        return None
    made = compute_call(split, steps)
    result = calculator_result(steps, made[2]) if made else None
    if result is None:
        return None
    found = [(question, asked_value(question, steps)[0]) for question in split.questions]
    # a year asked for has no unit: "1948 film" and "1958 amid" were shown for years read off "a 1948 Italian ...
    # film" and "in 1958 amid the Space Race" (held-out omh-513, -515)
    years = [bool(ASKS_WHEN.match(question) and is_year(fact.value)) for question, fact in found]
    listed = "; ".join(f"{fact.value} {'' if year else fact.unit}".strip() + f" for \"{question}\""
                       for (question, fact), year in zip(found, years))
    result = shown(result)
    unit = found[0][1].unit if split.operation != "ratio" and len({fact.unit for _, fact in found}) == 1 else ""
    unit = ("years" if split.operation == "difference" else "") if all(years) else unit
    said = _SAID[split.operation].format(f"{result} {unit}".strip())
    return FINAL_THOUGHT, FINAL_ACTION, f"The helpers found {listed}; {said}."


# ---- computing over the facts table: F1, F2... by reference, and results named by the fact they equal ----------

_REFERENCE = re.compile(r"\bF(\d{1,2})\b")


def resolve(action_input: str, facts: list[Fact]) -> str:
    """F1, F2... in a tool's input replaced by those rows' values as plain numbers (1,465 -> 1465); anything else
    is left as written."""
    def value(match: re.Match) -> str:
        number = int(match.group(1))
        if not 1 <= number <= len(facts):
            return match.group(0)
        plain = numbers(facts[number - 1].value)
        return plain[0] if plain else match.group(0)
    return _REFERENCE.sub(value, action_input) if facts else action_input


def named(observed: ToolObserved, facts: list[Fact]) -> ToolObserved:
    """A computing tool's result that is one of the table's values says which row it is: max(1465, 1400) gives
    "1465 (= F1: Godavari River, 1,465 kilometres)", so the lead need not match numbers back to names itself."""
    result = numbers(observed.observation)
    if not facts or len(result) != 1:
        return observed
    rows = [f"F{number}: {fact.subject}, {fact.value} {fact.unit}".strip()
            for number, fact in enumerate(facts, 1) if numbers(fact.value)[:1] == result]
    if not rows:
        return observed
    return dataclasses.replace(observed, observation=f"{observed.observation} (= {'; '.join(rows)})")


def each_one_thing(questions: list[str], task: str) -> bool:
    """Whether a split with no list asks one question of each thing the question describes ("How many tales are in
    the final 1857 edition of Grimms' Fairy Tales?"): three or more, as many as the question counts or in a list
    code does not read, none of them the question's comparison. Held-out omh-245 and -256 were split so, each thing
    in its own words, and the lead, left to pick and add, answered neither."""
    return (len(questions) >= 3 and (len(questions) in stated_counts(task) or unread_list(task))
            and not any(map(compares, questions)))


COPIED_WORDS = 6  # "How many AU are in a parsec?" copies no six words of held-out omh-222; omh-390's copied 14


def _copies(question: str, task: str) -> bool:
    """Whether a question copies a run of COPIED_WORDS words or more from the task."""
    words, said = _WORDS.findall(question.lower()), f" {' '.join(_WORDS.findall(task.lower()))} "
    return any(f" {' '.join(words[at:at + COPIED_WORDS])} " in said for at in range(len(words) - COPIED_WORDS + 1))


_WORDS = re.compile(r"[\w'’-]+")


def opening(split: Split, steps: list[Step], task: str = "") -> list:
    """The lead's planned actions: each sub-question not yet researched, then the computations, each built when
    its turn comes from the values found by then. `steps`: the run's own list, which grows as the run goes.

    A question listing its things and asking one fact of each gets the computations its words ask for (the
    largest, the sum of the four smallest, the mean of those above a bound: agent/reading.py); any other, the
    split's operation."""
    asked = {step.action_input for step in steps if step.action == RESEARCH}

    def once(make: Callable[[], tuple[str, str, str] | None]) -> Callable[[], tuple[str, str, str] | None]:
        def call() -> tuple[str, str, str] | None:
            made = make()
            return made if made and all((s.action, s.action_input) != made[1:] for s in steps) else None
        return call
    names = split.names
    asked_forms, others = forms(split.questions, names, task) if names else ([], [])
    # a thing beyond the list set against its pick is asked like the list, and code computes that gap too
    others = [question for question in others if not thing_of(question, set_against(task))]
    # one naming no thing of the list (nor one set against it) in the question's own words asks the whole question
    # again: no helper answers it from one page (held-out omh-390's answered "approximately 1,000 km", sourced
    # nowhere, and the lead, left to write the answer beside it, repeated it)
    idle = [question for question in others if not thing_of(question, names) and _copies(question, task)
            ] if asked_forms else []
    others = [question for question in others if question not in idle]
    paired = two_forms(task)
    wanted = (computations(task, tuple(names)) if len(asked_forms) == 1 or paired and asked_forms == list(paired)
              else computations(task) if not names and each_one_thing(split.questions, task) else [])
    # a question about something beyond the list ("... exceed the atomic number of iodine") needs more than the
    # list's computations: code computes them, and the lead writes the answer
    final = [] if others else [once(lambda: fanout_final(wanted, split.questions, steps, names, task))]
    computes = ([*(once(lambda c=c: fanout_call(c, split.questions, steps, names)) for c in wanted), *final]
                if wanted else [once(lambda: chain_final(split, steps))] if split.refers
                else [once(lambda: compute_call(split, steps)), once(lambda: split_final(split, steps, task))])
    # a chain's later question names what the one before found by a pronoun ("In what year did this navigator
    # die?"): asked when its turn comes, with the name the first helper's answer gives
    said_back = split.refers or (role_named_again(*split.questions[:2]) if len(split.questions) > 1 else "")
    refers = re.compile(rf"\b{re.escape(said_back)}\b", re.IGNORECASE) if said_back else _REFERS_BACK
    bridged = {question: once(lambda question=question: bridge(split.questions[0], question, steps, refers))
               for question in split.questions[1:2] if not names and refers.search(question)}
    return [*(bridged.get(question) or (OPENING_THOUGHT, RESEARCH, question) for question in split.questions
              if question not in asked and question not in idle), *computes]


def chain_final(split: Split, steps: list[Step]) -> tuple[str, str, str] | None:
    """A chain's Final answer, written by code once both its helpers have answered: their two answers, in turn.
    Measured on held-out omh-410 (code's chain split): given "the Jordan River" and "flows through the Sea of
    Galilee", the 1.5B lead wrote the question back as its answer three times and the run was forced."""
    answered = [step.findings for step in steps if step.action == RESEARCH and step.findings
                and step.findings.answer]
    if len(answered) < len(split.questions):
        return None
    return FINAL_THOUGHT, FINAL_ACTION, " ".join(map(_as_said, answered))


def _as_said(findings: Findings) -> str:
    """A helper's answer as a sentence of the Final answer: as the helper said it, with the value code read off
    the page where it said another."""
    value, said = findings.value, findings.said.strip()
    said = findings.answer.strip() if not value else said if value in said else f"{said.rstrip('.')} ({value})"
    return said if said.endswith(".") else f"{said}."


# "this navigator", "this atmospheric phenomenon", "he": what a chain's earlier question found (held-out omh-402's
# second helper, asked "In what year did this navigator die?", took Prince Henry the Navigator; omh-404's "he" too);
# not "that", as often a conjunction ("the certification that smallpox had been eradicated", omh-397)
_REFERS_BACK = re.compile(r"\b(?i:this)(?:\s+[a-z]+){1,2}?(?=\s+(?:die|died|was|is|did|do|does|has|have|had|"
                          r"become|became|write|wrote|born|credited|named|known|called|dubbed|discovered|found|"
                          r"founded|invented|built|made|published|first)\b|\s*\?)|\b(?:he|she)\b")


_ERAS = frozenset({"AD", "BC", "BCE", "CE"})


def bridge(first: str, question: str, steps: list[Step], refers: re.Pattern = _REFERS_BACK
           ) -> tuple[str, str, str] | None:
    """The chain's later question with what it refers back to (`refers`) replaced by the first name the first
    helper's answer gives that neither question does; as it is when the answer names none; None before that
    answer."""
    answered = next((step for step in steps if step.action == RESEARCH and step.action_input == first), None)
    if answered is None:
        return None
    answer = answered.findings.answer if answered.findings and answered.findings.answer else answered.observation
    # not a name the later question gives itself: "What strait connects that sea to the Black Sea?" bridged with the
    # Black Sea asked what connects the Black Sea to the Black Sea (held-out omh-442)
    # nor an era: "who ruled from 14-18 AD" (held-out omh-479 asked which two sons of "AD's" ruled after him)
    # and last, the title of the page its answer came from, when the answer says it: a name opening the answer is
    # no name phrase ("Tyagaraja was born in 1767.": held-out omh-480's second helper was asked about "that composer")
    pages = [page for page in (answered.findings.pages if answered.findings else []) if says(answer, page)]
    new = [name for name in dict.fromkeys([*names(answer), *pages]) if name not in _ERAS and not any(
        name.lower().removeprefix("the ") in asked.lower() for asked in (first, question))]
    # first one sharing no word with the first question: "The Iguazu River rises near ... the city of Curitiba"
    # answers which city (held-out omh-461 asked where the Iguazu River ranks among Brazil's cities)
    first_words = set(re.findall(r"\w+", first.lower()))
    found = next((name for name in new if not first_words & set(re.findall(r"\w+", name.lower())) - {"the"}),
                 new[0] if new else "")
    if not found:
        return OPENING_THOUGHT, RESEARCH, question
    # the kind the first question asks for stays with the name: "What was that dynasty called?" answered "the
    # Merovingian dynasty" (held-out omh-482 asked which ruler brought "Merovingian's rule" to an end)
    kinds = set(re.findall(r"\b(?:that|which|what|this)\s+([a-z]+)", first.lower())) & key_words(first)
    kind = re.match(rf"{re.escape(found)}\s+([a-z]+)\b", answer[answer.find(found):])
    found = f"{found} {kind.group(1)}" if kind and kind.group(1) in kinds else found
    said = refers.sub(lambda match: f"{found}'s" if match.group(0).lower() in ("his", "its") else found, question,
                      count=1)  # "its length": "the Congo River's length"
    return OPENING_THOUGHT, RESEARCH, said
