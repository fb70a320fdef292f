"""Code's ceiling on a suite: each question read and computed by code alone, from the suite's own values, as if
every helper had found its fact. No model and no tool but the calculator, so it runs in about a second over a
suite. The long-horizon suite states each thing's value; offline-multihop quotes pages only, so there each value is
read from its quote (an approximate figure where a quote states several numbers).

A question the research lead answers is read twice by code (agent/reading.py): which things it lists, and what it
asks computed over their values (the largest, the sum of those above a bound, the span between the first and the
last...); agent/fanout.py then computes and writes the answer. On fresh questions most failures read by hand were
readings of the question's words. This measures that part apart from the model: a question code gets wrong here,
no run can get right; one it gets right, a run gets right when its helpers find the values.

The other part is the helpers': `--runs DIR` reads a long-horizon bench's research runs (its results.jsonl and
runs/*/trace.jsonl) and counts, for each question, the things whose helper's value is the suite's, beside code's
ceiling and the run's verdict. A question code reads right is lost by its helpers when one value is missing or
wrong.

    python -m ponder.bench.ceiling [--suite offline-multihop] [--ids lh-01,lh-02] [--show]
    python -m ponder.bench.ceiling --runs benchmarks/results/2026-12-05/long-horizon-heldout-55-60
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import NamedTuple

from agent.fanout import SPANNED, YEAR, Computed, answer_of, computed, reach, with_asides
from agent.reading import computations, listed_names, span_forms, start_form
from agent.trace import read_trace
from core.units import quantities, scaled, unit_kind
from ponder.bench.metrics import normalise
from ponder.bench.suites import load_suite
from ponder.bench.runner import read_records
from ponder.bench.verdict import judge_answer, numbers_in
from tools.calculator import calculator

_MEASURES = {"born": lambda value: value[0], "died": lambda value: value[1],
             "lifespan": lambda value: value[1] - value[0]}
_UNITS = {"km": "kilometres", "m": "metres", "km2": "square kilometres"}


class Ceiling(NamedTuple):
    question_id: str
    correct: bool
    answer: str
    reason: str  # what code could not do, or the verdict's reason


def read_and_computed(question) -> Ceiling:
    """One question answered by code from the suite's values: a long-horizon question's `facts` and `compute`, or
    a fan-out question's quotes read as values (`_as_long_horizon`)."""
    facts, compute = _as_long_horizon(question)
    if not facts:
        return Ceiling(question.id, False, "", "no value read from the suite's quotes")
    names = listed_names(question.question)
    values = _values(names, facts, compute.get("measure"))
    if values is None:
        return Ceiling(question.id, False, "", f"list read as {names}, not the suite's {len(facts)} things")
    wanted = computations(question.question)
    if not wanted:
        return Ceiling(question.id, False, "", "no computation read")
    measure = compute.get("measure")
    unit = YEAR if measure in ("born", "died") else "years" if measure else _UNITS.get(compute.get("unit", ""), "")
    sentences, results = [], []
    for computation in wanted:
        if computation.operation in SPANNED:
            made = _reach(facts, names, computation)
        elif measure == "lifespan" and computation.of in ("start", "end"):  # "born first": a pick of a point
            end = computation.of == "end"
            made = computed(computation, _values(names, [{**fact, "value": fact["value"][end]} for fact in facts],
                                                 None), YEAR)
        else:
            made = computed(computation, values, unit)
        if made is None:
            return Ceiling(question.id, False, "", f"{computation.operation} computed nothing")
        result = calculator(made.expression).split()[0] if made.expression else ""
        sentences.append(made.sentence)
        results.append(result)
    answer = with_asides(answer_of(sentences, results), names, question.question)
    verdict = judge_answer(question.question, question.answers, answer, options=question.options,
                           tolerance=question.tolerance, evidence=question.evidence)
    return Ceiling(question.id, verdict.correct, answer, verdict.reason)


def _as_long_horizon(question) -> tuple[list[dict], dict]:
    """The question's facts as the long-horizon suite states them: one per thing with its value. A fan-out
    question (offline-multihop) quotes its pages only: one fact per page of its evidence, its value the first
    quantity its quote states that the suite's arithmetic uses (else its first), or the years of its quotes when the
    question ranks spans ("(1812–1870)": [1812, 1870]) or starts alone; ([], {}) when a quote states none."""
    facts, compute = question.model_extra.get("facts") or [], question.model_extra.get("compute")
    if isinstance(compute, dict):
        return facts, compute
    worked = str(compute or "")  # the gold arithmetic: "5601911 - (1633595 + 603519)"
    spans = span_forms(question.question) is not None
    start_only = not spans and start_form(question.question) is not None
    # "which was the last to die": a life's second year ("(1867–1959)": 1959)
    ends = not spans and re.search(r"\b(?:die|died|death)\b", question.question, re.IGNORECASE) is not None
    quotes: dict[str, list[str]] = {}
    for fact in facts:
        quotes.setdefault(fact["page"], []).append(fact["quote"])
    written = {page: quantities(" ".join(said)) for page, said in quotes.items()}
    found = {page: [(scaled(number, unit)[0].replace(",", ""), unit) for number, unit in stated]
             for page, stated in written.items()}
    # the quantities the suite's own arithmetic uses, where it names them ("About 30 cockroach species out of
    # 4,600": 4600; "a population of 5,601,911 residents as of 2021": 5601911; "35.5 million km2" as 35.5), and
    # their units
    used = {page: [q for q, (number, _) in zip(stated, written[page])
                   if any(re.search(rf"(?<![\d.]){re.escape(said)}(?![\d.])", worked)
                          for said in (q[0], number.replace(",", "")))]
            for page, stated in found.items()}
    kinds = {unit_kind(unit) for stated in used.values() for _, unit in stated}
    made = []
    for page in question.evidence or list(quotes):
        said = " ".join(quotes.get(page, []))
        # "from 431 to 404 BC": years counted back, as agent/fanout.py reads a helper's "431 BC" (held-out omh-282)
        back = -1 if re.search(r"\bBCE?\b", said) and not re.search(r"\b(?:AD|CE)\b", said) else 1
        years = [back * int(year) for year in re.findall(r"\b\d{3,4}\b", said)]
        stated = used.get(page) or [q for q in found.get(page, []) if unit_kind(q[1]) in kinds] or found.get(page)
        if (spans and len(years) < 2) or (start_only and not years) or not stated:
            return [], {}
        value = ([years[0], years[1]] if spans else [years[0], years[0]] if start_only
                 else years[1] if ends and len(years) > 1 else float(stated[0][0]))
        made.append({"page": page, "value": value})
    return made, {"measure": "lifespan"} if spans else {"measure": "born"} if start_only else {}


def _reach(facts: list[dict], names: list[str], computation) -> Computed | None:
    """"reach": from the earliest start to the latest end (or from the start of the thing it names first to the
    end of the one it names last), as agent/fanout.py computes it from each thing's two values (its helpers' start
    and end). The suite's facts are in the question's order, as its list is."""
    spans = [fact["value"] for fact in facts if isinstance(fact.get("value"), list)]
    if len(spans) != len(facts):
        return None
    things = [*names, *[""] * (len(spans) - len(names))]
    return reach([(thing, str(start), str(end)) for thing, (start, end) in zip(things, spans)], computation)


def _values(names: list[str], facts: list[dict], measure: str | None) -> list[tuple[str, str]] | None:
    """(listed name, value) for each thing the question lists, from the fact about it; None when the list read
    is not the suite's things (one apiece). A name no fact's name resembles takes the fact left over in its place
    (the suite's facts are in the question's order): "katydids" is Tettigoniidae."""
    if len(names) != len(facts):
        return None
    matched: dict[int, int] = {}  # name's index -> fact's index
    for number, name in enumerate(names):
        nearness = {index: _nearness(name, fact) for index, fact in enumerate(facts) if index not in matched.values()}
        best = max(nearness.values(), default=(0, 0))
        found = [index for index, near in nearness.items() if near == best]
        if best[0] and len(found) == 1:
            matched[number] = found[0]
    left = iter(index for index in range(len(facts)) if index not in matched.values())
    pairs = []
    for number, name in enumerate(names):
        value = facts[matched[number] if number in matched else next(left)]["value"]
        value = _MEASURES[measure](value) if measure else value
        pairs.append((name, _plain(value)))
    return pairs


def _plain(value: float | int) -> str:
    """A value as code's computations take it: 9200000.0 -> "9200000", 95.5 -> "95.5"."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _nearness(name: str, fact: dict) -> tuple[int, int]:
    """(2, _): the listed name is the fact's page or answer name; (1, the length of the shorter): one holds the
    other as whole words ("Lena" and "Lena River", "herons" and "Heron", "New Zealand's North Island" and "North
    Island" rather than "Zealand"); (0, 0): neither. Compared in FanOutQA's normal form (singular, lower case)."""
    listed = normalise(name)
    said = [normalise(text) for text in (fact.get("page", ""), fact.get("name", "")) if text]
    if listed in said:
        return 2, len(listed)
    held = [min(len(a), len(b)) for text in said for a, b in ((listed, text), (text, listed)) if _holds(b, a)]
    return (1, max(held)) if held else (0, 0)


class Helped(NamedTuple):
    question_id: str
    right: int  # the values the helpers found that are the suite's
    asked: int  # the values the question needs (a life needs two: its start and its end)
    missing: int  # of those not right, the ones no helper found at all
    run_correct: bool


_STARTS = re.compile(r"\b(?:born|birth|begin|began|start|came to|took)\b", re.IGNORECASE)


def helper_values(results_dir: Path, suite: dict | None = None) -> list[Helped]:
    """Each research run's helper values against the suite's (long-horizon questions only)."""
    suite = suite or {question.id: question for question in load_suite("long-horizon")}
    helped = []
    for record in read_records(results_dir):
        question = suite.get(record.question_id)
        trace = results_dir / "runs" / record.run_id / "trace.jsonl"
        if record.strategy != "compact+research" or question is None or not trace.is_file():
            continue
        found: dict[str, str | None] = {}  # each sub-question the lead asked: its helper's value (None: none)
        for event in read_trace(trace):
            step = event.get("step") if event.get("type") == "step_recorded" else None
            if step and step["action"] == "research":
                # with its unit: a helper's "12.5 million" is 12,500,000 (held-out lh-99 counted 9 of 12 wrong)
                found.setdefault(step["action_input"], f'{step["facts"][0]["value"]} {step["facts"][0].get("unit", "")}'
                                 if step.get("facts") else None)
        right = asked = missing = 0
        measure = question.model_extra["compute"].get("measure")
        for fact in question.model_extra["facts"]:
            asked_about = {q: v for q, v in found.items() if _about(q, fact)}
            golds = fact["value"] if isinstance(fact["value"], list) else [fact["value"]]
            wanted = golds[:1] if measure == "born" else golds[1:] if measure == "died" else golds
            for end, gold in enumerate(wanted):  # a life's two values: its start's question and its end's
                values = [v for q, v in asked_about.items() if len(wanted) == 1 or bool(_STARTS.search(q)) == (end == 0)]
                asked += 1
                if any(_same_value(_number(v), gold) for v in values):
                    right += 1
                elif not any(values):
                    missing += 1
        helped.append(Helped(question.id, right, asked, missing, record.correct))
    return helped


def _about(sub_question: str, fact: dict) -> bool:
    """Whether a helper's sub-question is about the fact's thing: its page or its answer name in it."""
    said = normalise(sub_question)
    return any(_holds(said, normalise(text)) for text in (fact.get("page", ""), fact.get("name", "")) if text)


def _holds(text: str, words: str) -> bool:
    """Whether the text holds the words whole (not "Guinea" inside "Guinea-Bissau")."""
    return re.search(rf"(?<![\w-]){re.escape(words)}(?![\w-])", text) is not None


def _same_value(value: float | None, gold: float) -> bool:
    """A year or a count exactly (1666 is not 1665); a large number within 0.5% ("about 12,000" for 11,990)."""
    return value is not None and abs(value - gold) <= (abs(gold) * 0.005 if abs(gold) >= 10000 else 0.005)


def _number(value: str | None) -> float | None:
    """A ledger value as a reader reads it: "1,465" 1465.0, "64.3 million" 64300000.0; None when it holds none."""
    said = numbers_in(value or "")
    return said[0].value if said else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ponder.bench.ceiling", description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", choices=("long-horizon", "offline-multihop"), default="long-horizon",
                        help="the suite (offline-multihop: its fan-out questions)")
    parser.add_argument("--ids", default="", help="comma-separated question ids (default: the whole suite)")
    parser.add_argument("--show", action="store_true", help="print each answer code wrote")
    parser.add_argument("--runs", type=Path, help="a long-horizon bench's results folder: its helpers' values")
    args = parser.parse_args(argv)
    if args.runs:
        return _runs_main(args.runs)
    wanted = {part.strip() for part in args.ids.split(",") if part.strip()}
    suite = load_suite(args.suite)
    unknown = wanted - {q.id for q in suite}
    questions = [q for q in suite if (not wanted or q.id in wanted) and (args.suite == "long-horizon"
                                                                          or q.kind == "fanout")]
    if unknown:
        print(f"error: no such question in the {args.suite} suite: {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    rows = [read_and_computed(question) for question in questions]
    for row in rows:
        print(f"{row.question_id}\t{'right' if row.correct else 'wrong'}\t{row.reason}")
        if args.show and row.answer:
            print(f"\t{row.answer}")
    print(f"code alone, from the suite's values: {sum(row.correct for row in rows)} of {len(rows)} right")
    return 0


def _runs_main(results_dir: Path) -> int:
    if not (results_dir / "results.jsonl").is_file():
        print(f"error: {results_dir} holds no results.jsonl (give a `ponder bench` output folder)", file=sys.stderr)
        return 2
    suite = {question.id: question for question in load_suite("long-horizon")}
    helped = helper_values(results_dir, suite)
    print("question\thelpers' values right\tcode alone (this commit's)\tthe run (its commit's)")
    for row in helped:
        ceiling = read_and_computed(suite[row.question_id])
        print(f"{row.question_id}\t{row.right} of {row.asked} ({row.missing} not found)\t"
              f"{'right' if ceiling.correct else 'wrong'}\t{'right' if row.run_correct else 'wrong'}")
    right, asked = sum(row.right for row in helped), sum(row.asked for row in helped)
    print(f"helpers' values right: {right} of {asked}; not found: {sum(row.missing for row in helped)}; "
          f"questions with every value right: {sum(row.right == row.asked for row in helped)} of {len(helped)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
