"""The offline-multihop benchmark suite: every gold answer follows from the text of the offline Wikipedia corpus.

Each question names the corpus pages it needs and quotes, from each page's Wikidata description or intro, the
facts its answer rests on. This test checks the quotes against the real corpus (exact substrings, where
wikipedia_summary shows them), re-derives each numeric answer with Ponder's own calculator from numbers that the
quotes state, and checks that every non-numeric gold answer is stated by a quote. No LLM, no network, no index.
"""
from __future__ import annotations

import ast
import json
import re
import unicodedata
from collections import Counter
from pathlib import Path

import pytest

from tools.calculator import calculator
from tools.wiki_offline import Doc, default_corpus_path, load_corpus

SUITE = Path(__file__).resolve().parents[1] / "ponder" / "bench" / "data" / "offline_multihop.jsonl"

KINDS = {"fanout", "chain", "arithmetic", "date"}
MIN_KIND_COUNTS = {"fanout": 16, "date": 8, "arithmetic": 8, "chain": 6}
MIN_QUESTIONS = 40
REQUIRED_KEYS = {"id", "question", "answers", "evidence", "kind", "lookups", "facts"}
OPTIONAL_KEYS = {"options", "compute"}
FANOUT_ENTITIES = (3, 6)
# wikipedia_summary shows an intro cut to this many characters (tools.wikipedia.MAX_SUMMARY_CHARS): a fact quoted
# from further down the intro could only be found with a lucky wikipedia_lookup.
SUMMARY_CHARS = 1500

_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_PUNCTUATION = re.compile(r"(?!(?<=\d)\.(?=\d))[\W_]")     # any non-word character but a decimal point
_COMPUTE_OPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.USub, ast.UAdd)


def _load_suite() -> list[dict]:
    lines = SUITE.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


QUESTIONS = _load_suite()
BY_ID = {q.get("id"): q for q in QUESTIONS}
IDS = [str(q.get("id")) for q in QUESTIONS]


@pytest.fixture(scope="module")
def corpus() -> dict[str, Doc]:
    return {doc.title: doc for doc in load_corpus(default_corpus_path())}


def normalise(text: str) -> str:
    """Case-, accent- and punctuation-insensitive form; thousands separators dropped (1,376 -> 1376)."""
    text = _THOUSANDS.sub("", unicodedata.normalize("NFKD", text))
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    return " ".join(_PUNCTUATION.sub(" ", text).split())


def contains(haystack: str, needle: str) -> bool:
    """Whole-word containment of normalised text."""
    return f" {normalise(needle)} " in f" {normalise(haystack)} "


def numbers_in(text: str) -> set[float]:
    return {float(n) for n in _NUMBER.findall(_THOUSANDS.sub("", text))}


def as_number(text: str) -> float | None:
    cleaned = _THOUSANDS.sub("", text.strip())
    return float(cleaned) if re.fullmatch(r"-?\d+(?:\.\d+)?", cleaned) else None


def matches(value: float, alternative: str) -> bool:
    """`alternative` is `value`, possibly rounded to the decimals it is written with."""
    number = as_number(alternative)
    if number is None:
        return False
    decimals = len(alternative.strip().partition(".")[2])
    return abs(value - number) <= 0.5 * 10 ** -decimals + 1e-9 * max(1.0, abs(value))


def alternatives(question: dict) -> list[list[str]]:
    return [[a] if isinstance(a, str) else list(a) for a in question["answers"]]


def compute_numbers(expression: str) -> list[float]:
    """The numeric literals of a compute expression, except round()'s digits argument; only arithmetic allowed."""
    tree = ast.parse(expression, mode="eval")
    found: list[float] = []

    def walk(node: ast.AST) -> None:
        if isinstance(node, ast.Expression):
            walk(node.body)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, _COMPUTE_OPS):
            walk(node.left)
            walk(node.right)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, _COMPUTE_OPS):
            walk(node.operand)
        elif isinstance(node, ast.Constant) and type(node.value) in (int, float):
            found.append(float(node.value))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "round"
              and not node.keywords and 1 <= len(node.args) <= 2):
            walk(node.args[0])
            if len(node.args) == 2:
                assert isinstance(node.args[1], ast.Constant) and type(node.args[1].value) is int, \
                    "round()'s digits must be a whole number"
        else:
            raise AssertionError(f"compute may hold only numbers, + - * / ** ( ) and round: "
                                 f"{ast.unparse(node)!r} is not allowed")

    walk(tree)
    return found


# --- the suite as a whole --------------------------------------------------------------------------------------

def test_suite_size_and_unique_ids():
    assert len(QUESTIONS) >= MIN_QUESTIONS, f"only {len(QUESTIONS)} questions"
    duplicated = [i for i, n in Counter(IDS).items() if n > 1]
    assert not duplicated, f"duplicate ids: {duplicated}"
    assert len({normalise(q["question"]) for q in QUESTIONS}) == len(QUESTIONS), "duplicate question text"


def test_kind_mix():
    counts = Counter(q.get("kind") for q in QUESTIONS)
    short = {kind: (counts[kind], need) for kind, need in MIN_KIND_COUNTS.items() if counts[kind] < need}
    assert not short, f"kinds below their minimum (have, need): {short}"


# --- each question ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("qid", IDS)
def test_fields(qid):
    q = BY_ID[qid]
    assert REQUIRED_KEYS <= q.keys(), f"missing fields: {sorted(REQUIRED_KEYS - q.keys())}"
    assert q.keys() <= REQUIRED_KEYS | OPTIONAL_KEYS, f"unknown fields: {sorted(q.keys() - REQUIRED_KEYS - OPTIONAL_KEYS)}"
    assert re.fullmatch(r"omh-\d{2,}", q["id"]), q["id"]
    assert isinstance(q["question"], str) and "?" in q["question"], "the question must ask something"
    assert q["kind"] in KINDS, q["kind"]
    assert type(q["lookups"]) is int and 2 <= q["lookups"] <= 8, q["lookups"]

    assert isinstance(q["answers"], list) and q["answers"], "answers must be a non-empty list"
    for alternative in q["answers"]:
        parts = [alternative] if isinstance(alternative, str) else alternative
        assert isinstance(parts, list) and parts, f"bad alternative {alternative!r}"
        assert all(isinstance(p, str) and p.strip() for p in parts), f"bad alternative {alternative!r}"

    evidence = q["evidence"]
    assert isinstance(evidence, list) and evidence and all(isinstance(t, str) and t for t in evidence)
    assert len(set(evidence)) == len(evidence), "evidence lists a page twice"
    assert len(evidence) >= 2, "a multi-hop question needs at least two pages"
    if q["kind"] == "fanout":
        low, high = FANOUT_ENTITIES
        assert low <= len(evidence) <= high, f"fanout over {len(evidence)} pages, not {low}-{high}"
    assert q["lookups"] >= len(evidence), "fewer lookups than evidence pages"

    assert isinstance(q["facts"], list) and q["facts"]
    for fact in q["facts"]:
        assert isinstance(fact, dict) and set(fact) == {"page", "quote"}, fact
        assert isinstance(fact["page"], str) and isinstance(fact["quote"], str) and fact["quote"].strip(), fact
    if "compute" in q:
        assert isinstance(q["compute"], str) and q["compute"].strip()


@pytest.mark.parametrize("qid", IDS)
def test_evidence_and_quotes_are_in_the_corpus(qid, corpus):
    q = BY_ID[qid]
    missing = [t for t in q["evidence"] if t not in corpus]
    assert not missing, f"evidence titles not in the corpus: {missing}"
    for fact in q["facts"]:
        page, quote = fact["page"], fact["quote"]
        assert page in q["evidence"], f"fact from {page!r}, which is not in evidence"
        doc = corpus[page]
        if quote in doc.description:
            continue
        at = doc.text.find(quote)
        assert at >= 0, f"not an exact substring of {page!r} (text or description): {quote!r}"
        assert at + len(quote) <= SUMMARY_CHARS, (f"quote on {page!r} ends at character {at + len(quote)}, past what "
                                                  f"wikipedia_summary shows ({SUMMARY_CHARS}): {quote!r}")
    unused = [t for t in q["evidence"] if not any(f["page"] == t for f in q["facts"])]
    assert not unused, f"evidence pages with no quoted fact: {unused}"


@pytest.mark.parametrize("qid", IDS)
def test_gold_answer_follows_from_the_quotes(qid):
    q = BY_ID[qid]
    quotes = [f["quote"] for f in q["facts"]]
    if "compute" not in q:
        first = alternatives(q)[0]
        unstated = [g for g in first if not any(contains(quote, g) for quote in quotes)]
        assert not unstated, f"gold strings stated by no quote: {unstated}"
        return

    stated = set().union(*(numbers_in(quote) for quote in quotes))
    unquoted = [n for n in compute_numbers(q["compute"]) if n not in stated]
    assert not unquoted, f"numbers in compute that no quote states: {unquoted}"

    printed = calculator(q["compute"])
    value = float(printed)
    flat = [a for alt in alternatives(q) for a in alt]
    assert any(matches(value, a) for a in flat), f"compute gives {printed}, which matches no gold alternative {flat}"
    assert printed in flat, f"no alternative is written as the calculator prints the value ({printed})"
