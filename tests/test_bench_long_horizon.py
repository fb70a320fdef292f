"""The long-horizon benchmark suite: questions that each need 10 to 30 lookups in the offline corpus, then a selection
and arithmetic over the facts found. Every gold answer is recomputed here from numbers quoted from the corpus.

Each line of ponder/bench/data/long_horizon.jsonl is a BenchQuestion (id, question, answers, options, evidence, kind,
lookups, tolerance) with two more fields:

- facts: one per entity the question names, in the question's order: {"page": the exact corpus title, "name": how
  an answer names the entity, "quote": verbatim text of the page that wikipedia_summary shows (its description or
  intro), "value": the number the quote states, or [born, died] for a person's "(born–died)"}.
- compute: how the gold answer follows from the values.
  - "measure" (people only): "born", "died" or "lifespan" (died - born), the number each [born, died] gives;
  - "unit": "km", "m" or "km2": the quote states the value in that unit (not the miles or feet beside it);
  - "round": decimals kept in computed numbers (default 2);
  - "answer": the parts of the gold answer in order, each "<op> <selection>". op is `names` (the names of the
    selected entities), `sum`, `mean`, `range` (largest minus smallest) or `ratio` (largest over smallest);
    selection is `all`, `max`, `min`, `top N`, `bottom N`, `above X`, `below X` or `from X to Y` (inclusive).

The one gold alternative is the parts, flattened: ["Mekong", "Lena", "Niger", "13383"]. options is [] for every
question: its answer is several picks and a number, not one pick among the names it lists, so the verdict looks for
every part (see ponder/bench/verdict.py). No LLM, no network; the corpus is the real offline one.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from pydantic import ValidationError

from ponder.bench.suites import BenchQuestion, load_suite, offline_subset
from ponder.bench.verdict import judge_answer, numbers_in
from tools.wiki_offline import Doc, default_corpus_path, load_corpus
from tools.wikipedia import make_wikipedia_tools

SUITE = Path(__file__).resolve().parents[1] / "ponder" / "bench" / "data" / "long_horizon.jsonl"

MIN_QUESTIONS = 12
LOOKUPS = (10, 30)
MIN_KINDS = 5           # rivers, mountains, people, cities, countries, islands, lakes...
MAX_PER_KIND = 3        # or a fifth of the suite, where that is more (32 questions: 6)
REQUIRED_KEYS = {"id", "question", "answers", "options", "evidence", "kind", "lookups", "compute", "facts"}
OPTIONAL_KEYS = {"tolerance"}
MEASURES = {"born": lambda v: v[0], "died": lambda v: v[1], "lifespan": lambda v: v[1] - v[0]}
UNITS = {"km": r"(?:km\b|kilomet)", "m": r"(?:m\b|metres|meters)", "km2": r"(?:km2|square kilomet|-square-kilomet)"}
OPS = {"sum": sum, "mean": lambda xs: sum(xs) / len(xs), "range": lambda xs: max(xs) - min(xs),
       "ratio": lambda xs: max(xs) / min(xs)}
COUNT_WORDS = {10: "ten", 11: "eleven", 12: "twelve", 13: "thirteen", 14: "fourteen", 15: "fifteen", 16: "sixteen",
               17: "seventeen", 18: "eighteen", 19: "nineteen", 20: "twenty", 21: "twenty-one", 22: "twenty-two",
               23: "twenty-three", 24: "twenty-four", 25: "twenty-five", 26: "twenty-six", 27: "twenty-seven",
               28: "twenty-eight", 29: "twenty-nine", 30: "thirty"}


def _load_suite() -> list[dict]:
    return [json.loads(line) for line in SUITE.read_text(encoding="utf-8").splitlines() if line.strip()]


QUESTIONS = _load_suite()
BY_ID = {q.get("id"): q for q in QUESTIONS}
IDS = [str(q.get("id")) for q in QUESTIONS]


@pytest.fixture(scope="module")
def corpus() -> dict[str, Doc]:
    return {doc.title: doc for doc in load_corpus(default_corpus_path())}


@pytest.fixture(scope="module")
def summary(offline_wiki):
    """The wikipedia_summary tool over the real offline corpus: what the agent is shown for a title."""
    return next(tool for tool in make_wikipedia_tools(offline_wiki) if tool.name == "wikipedia_summary")


# --- recomputing an answer ----------------------------------------------------------------------------------------

def values(q: dict, facts: list[dict] | None = None) -> dict[str, float]:
    """name -> the number the question compares, from each fact's value (and the measure, for people)."""
    measure = q["compute"].get("measure")
    return {f["name"]: MEASURES[measure](f["value"]) if measure else f["value"] for f in facts or q["facts"]}


def select(vals: dict[str, float], selection: str) -> dict[str, float]:
    ranked = sorted(vals.items(), key=lambda item: item[1])
    words = selection.split()
    if selection == "all":
        return dict(ranked)
    if selection in ("max", "min"):
        return dict(ranked[-1:] if selection == "max" else ranked[:1])
    if words[0] in ("top", "bottom") and len(words) == 2 and words[1].isdigit():
        n = int(words[1])
        return dict(ranked[-n:] if words[0] == "top" else ranked[:n])
    if words[0] in ("above", "below") and len(words) == 2:
        limit = float(words[1])
        return {k: v for k, v in ranked if (v > limit if words[0] == "above" else v < limit)}
    if words[0] == "from" and len(words) == 4 and words[2] == "to":
        return {k: v for k, v in ranked if float(words[1]) <= v <= float(words[3])}
    raise AssertionError(f"unknown selection {selection!r}")


def written(value: float, digits: int) -> str:
    value = round(value, digits)
    return str(int(value)) if float(value).is_integer() else repr(value)


def recompute(q: dict, facts: list[dict] | None = None) -> list[tuple[str, object]]:
    """The answer's parts: ("names", set of names) or ("number", its string), in the order compute lists them."""
    vals = values(q, facts)
    digits = q["compute"].get("round", 2)
    parts: list[tuple[str, object]] = []
    for part in q["compute"]["answer"]:
        op, _, selection = part.partition(" ")
        chosen = select(vals, selection)
        assert chosen, f"{part!r} selects nothing"
        if op == "names":
            parts.append(("names", set(chosen)))
        else:
            assert op in OPS, f"unknown op {op!r} in {part!r}"
            parts.append(("number", written(OPS[op](list(chosen.values())), digits)))
    return parts


def flatten(parts: list[tuple[str, object]], gold: list[str]) -> list[str]:
    """The parts as one list of strings, the names of a part in the gold answer's order where it has them."""
    out: list[str] = []
    for kind, payload in parts:
        if kind == "names":
            out += sorted(payload, key=lambda name: gold.index(name) if name in gold else len(gold))
        else:
            out.append(payload)
    return out


def phrased(parts: list[tuple[str, object]]) -> str:
    """An answer as a person writes it: names in a sentence, numbers with thousands separators."""
    said = []
    for kind, payload in parts:
        if kind == "names":
            names = sorted(payload)
            said.append(names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1])
        else:
            whole, _, decimals = str(payload).partition(".")
            said.append(f"{int(whole):,}" + (f".{decimals}" if decimals else ""))
    return "The answer: " + "; ".join(said) + "."


def judge(q: dict, prediction: str):
    return judge_answer(q["question"], q["answers"], prediction, options=q["options"], tolerance=q.get("tolerance"))


# --- the suite as a whole -----------------------------------------------------------------------------------------

def test_suite_size_ids_and_kinds():
    assert len(QUESTIONS) >= MIN_QUESTIONS, f"only {len(QUESTIONS)} questions"
    duplicated = [i for i, n in Counter(IDS).items() if n > 1]
    assert not duplicated, f"duplicate ids: {duplicated}"
    assert all(re.fullmatch(r"lh-\d{2,}", i) for i in IDS), IDS
    assert len({q["question"] for q in QUESTIONS}) == len(QUESTIONS), "duplicate question text"
    kinds = Counter(q["kind"] for q in QUESTIONS)
    assert len(kinds) >= MIN_KINDS, f"kinds: {dict(kinds)}"
    assert max(kinds.values()) <= max(MAX_PER_KIND, len(QUESTIONS) // 5), f"too many of one kind: {dict(kinds)}"


def test_the_registered_suite_is_this_file():
    questions = load_suite("long-horizon")
    assert [q.id for q in questions] == IDS
    assert all(q.options == [] and q.lookups == len(q.evidence) for q in questions)


def test_options_may_be_empty_but_not_a_single_name():
    assert BenchQuestion(id="q", question="Which two?", answers=[["A", "B"]], options=[]).options == []
    with pytest.raises(ValidationError):
        BenchQuestion(id="q", question="Which?", answers=["A"], options=["A"])


def test_every_evidence_page_resolves_as_the_offline_wiki_does(corpus):
    questions = load_suite("long-horizon")
    assert offline_subset(questions, list(corpus)) == questions


# --- each question ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("qid", IDS)
def test_fields(qid):
    q = BY_ID[qid]
    assert REQUIRED_KEYS <= q.keys(), f"missing fields: {sorted(REQUIRED_KEYS - q.keys())}"
    unknown = sorted(q.keys() - REQUIRED_KEYS - OPTIONAL_KEYS)
    assert not unknown, f"unknown fields: {unknown}"
    assert q["options"] == [], "the answer is several parts, not one pick: options must be []"
    facts = q["facts"]
    low, high = LOOKUPS
    assert low <= q["lookups"] <= high, f"{q['lookups']} lookups, not {low}-{high}"
    assert q["lookups"] == len(q["evidence"]) == len(facts), "one lookup, one evidence page, one fact per entity"
    assert q["evidence"] == [f["page"] for f in facts], "evidence must list the facts' pages, in order"
    assert len(set(q["evidence"])) == len(q["evidence"]), "a page listed twice"
    for fact in facts:
        assert set(fact) == {"page", "name", "quote", "value"}, fact
        assert all(isinstance(fact[k], str) and fact[k].strip() for k in ("page", "name", "quote")), fact
    names = [f["name"] for f in facts]
    assert len(set(names)) == len(names), "two entities with one name"
    measure = q["compute"].get("measure")
    assert set(q["compute"]) <= {"measure", "unit", "round", "answer"}, q["compute"]
    for fact in facts:
        if measure:
            assert measure in MEASURES and isinstance(fact["value"], list) and len(fact["value"]) == 2
            assert all(type(v) is int for v in fact["value"]), fact
        else:
            assert type(fact["value"]) in (int, float), fact
    assert q["compute"].get("unit") in (None, *UNITS)
    answer = q["compute"]["answer"]
    assert isinstance(answer, list) and all(isinstance(part, str) for part in answer), answer
    ops = {part.partition(" ")[0] for part in answer}
    assert "names" in ops and ops & set(OPS), "a selection (names) and arithmetic (a number) in every answer"


@pytest.mark.parametrize("qid", IDS)
def test_the_question_names_every_entity_and_counts_them(qid):
    q = BY_ID[qid]
    text = q["question"].casefold()
    unnamed = [f["name"] for f in q["facts"] if f["name"].casefold() not in text]
    assert not unnamed, f"entities the question does not name: {unnamed}"
    count = COUNT_WORDS[len(q["facts"])]
    assert re.search(rf"\b{count}\b", text), f"the question should say it names {count} entities"


@pytest.mark.parametrize("qid", IDS)
def test_each_quote_is_on_its_page(qid, corpus):
    q = BY_ID[qid]
    missing = [t for t in q["evidence"] if t not in corpus]
    assert not missing, f"evidence titles not in the corpus: {missing}"
    for fact in q["facts"]:
        doc = corpus[fact["page"]]
        assert fact["quote"] in doc.description or fact["quote"] in doc.text, \
            f"not an exact substring of {fact['page']!r}: {fact['quote']!r}"


@pytest.mark.parametrize("qid", IDS)
def test_wikipedia_summary_shows_each_quote_for_its_title(qid, summary):
    """The title resolves to that page (not a namesake) and the quote is in what the agent is shown (the intro is
    cut to MAX_SUMMARY_CHARS): each fact needs one wikipedia_summary of the evidence title."""
    q = BY_ID[qid]
    for fact in q["facts"]:
        shown = summary(fact["page"])
        assert shown.startswith((f"{fact['page']}, ", f"{fact['page']} (")), \
            f"wikipedia_summary({fact['page']!r}) shows another page: {shown[:120]!r}"
        assert fact["quote"] in shown, f"wikipedia_summary({fact['page']!r}) does not show {fact['quote']!r}"


@pytest.mark.parametrize("qid", IDS)
def test_each_quote_states_its_value(qid):
    q = BY_ID[qid]
    unit = q["compute"].get("unit")
    for fact in q["facts"]:
        quote, value = fact["quote"], fact["value"]
        if isinstance(value, list):
            years = f"{value[0]}–{value[1]}"
            assert years in quote, f"{fact['page']}: {quote!r} does not give {years}"
            continue
        stated = [n for n in numbers_in(quote) if abs(n.value - value) <= 1e-9 * max(1.0, abs(value))]
        assert stated, f"{fact['page']}: {quote!r} does not state {value}"
        if unit:
            after = [quote[quote.find(n.text) + len(n.text):][:20] for n in stated]
            assert any(re.match(r"[\s\u00a0-]*" + UNITS[unit], rest) for rest in after), \
                f"{fact['page']}: {quote!r} does not give {value} in {unit}"


@pytest.mark.parametrize("qid", IDS)
def test_gold_answer_is_recomputed_from_the_quoted_values(qid):
    q = BY_ID[qid]
    assert len(q["answers"]) == 1, "one gold alternative: the recomputed parts"
    gold = q["answers"][0]
    assert isinstance(gold, list) and all(isinstance(p, str) for p in gold), gold
    expected = flatten(recompute(q), gold)
    assert gold == expected, f"compute gives {expected}, the file says {gold}"


@pytest.mark.parametrize("qid", IDS)
def test_the_selection_is_unambiguous(qid):
    """No tie at a selection's edge and no value on a threshold; a lifespan from years alone may be a year long, so
    the longest or shortest life must win by more than a year."""
    q = BY_ID[qid]
    vals = values(q)
    ranked = sorted(vals.values())
    slack = 1 if q["compute"].get("measure") == "lifespan" else 0
    for part in q["compute"]["answer"]:
        selection = part.partition(" ")[2]
        words = selection.split()
        if selection in ("max", "min") or words[0] in ("top", "bottom"):
            n = 1 if selection in ("max", "min") else int(words[1])
            edge = ranked[::-1] if selection == "max" or words[0] == "top" else ranked
            assert abs(edge[n - 1] - edge[n]) > slack, f"{part!r}: a tie at the edge ({edge[n - 1]}, {edge[n]})"
        elif words[0] in ("above", "below", "from"):
            limits = {float(w) for w in words[1:] if w != "to"}
            assert not limits & set(ranked), f"{part!r}: a value lies on the threshold"


@pytest.mark.parametrize("qid", IDS)
def test_the_reference_answer_passes_the_verdict(qid):
    q = BY_ID[qid]
    parts = recompute(q)
    for prediction in (" ".join(q["answers"][0]), phrased(parts)):
        verdict = judge(q, prediction)
        assert verdict.correct, (prediction, verdict.reason)


@pytest.mark.parametrize("qid", IDS)
def test_an_answer_that_missed_one_lookup_is_wrong(qid):
    """Drop any one entity's fact and recompute: if that changes the answer, the verdict (with the question's
    tolerance) must say it is wrong; so each lookup matters, and the tolerance hides none."""
    q = BY_ID[qid]
    gold = recompute(q)
    for i, fact in enumerate(q["facts"]):
        without = recompute(q, q["facts"][:i] + q["facts"][i + 1:])
        if without == gold:
            continue
        verdict = judge(q, phrased(without))
        assert not verdict.correct, f"without {fact['page']} the answer {phrased(without)!r} still passes"


@pytest.mark.parametrize("qid", IDS)
def test_naming_every_candidate_with_a_wrong_number_is_wrong(qid):
    q = BY_ID[qid]
    names = ", ".join(f["name"] for f in q["facts"])
    assert not judge(q, f"{names}. The figure is 1.").correct
    picks = [name for kind, p in recompute(q) if kind == "names" for name in sorted(p)]
    assert not judge(q, f"{', '.join(picks)}.").correct, "the names alone, without the number, must not pass"
