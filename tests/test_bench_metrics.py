"""Bench scoring (FanOutQA's string accuracy), evidence bookkeeping, and the question suites."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from ponder.bench import suites
from ponder.bench.metrics import (
    Score,
    answer_strings,
    evidence_recall,
    loose_accuracy,
    normalise,
    pages_looked_up,
    score,
    strict_accuracy,
)
from ponder.bench.suites import (
    BenchQuestion,
    Coverage,
    SuiteError,
    load_questions,
    load_suite,
    offline_coverage,
    offline_subset,
    suite_names,
)
from ponder.bench.verdict import judge_answer
from tools.base import ToolRegistry
from tools.wiki_base import Disambiguation, PageMissing, WikiPage
from tools.wikipedia import make_wikipedia_tools

# --- normalise -----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("Hello, World!", "hello world"),
    ("Who? Me; yes: done.", "who me yes done"),                 # FanOutQA deletes , . ? ! : ;
    ("The Lion King", "the lion king"),                         # articles stay (no stopword removal)
    ("Bose-Einstein (chemistry) $5 100%", "bose-einstein (chemistry) $5 100%"),     # other punctuation stays
    ("  spread \t over\n lines  ", "spread over line"),
    ("5,917,000", "5917000"),                                   # thousands separators
    ("1,234.5", "12345"),                                       # ... then the decimal point goes too
    ("61.6", "616"),
    ("April 14, 1980", "april 14 1980"),                        # a comma and a space is not a separator
    ("2006,2012", "20062012"),                                  # FanOutQA's number rule glues these
    ("Régine Chassagne", "régine chassagne"),                   # accents are kept
    ("It\u2019s \u201cquoted\u201d", "it's \"quoted\""),        # ftfy uncurls quotes
    ("\ufb01ne \uff21\uff22\uff23", "fine abc"),                # ligatures and full-width letters
    ("a\x00b", "ab"),                                           # control characters
    ("U.S.", "us"),
    (12345, "12345"),
])
def test_normalise(text, expected):
    assert normalise(text) == expected


@pytest.mark.parametrize("plural, singular", [
    ("Cities", "city"), ("Democrats", "democrat"), ("churches", "church"), ("classes", "class"),
    ("horses", "horse"), ("taxes", "tax"),
])
def test_normalise_folds_regular_plurals(plural, singular):
    assert normalise(plural) == singular


@pytest.mark.parametrize("word", ["paris", "boss", "campus", "bus", "gas", "analysis"])
def test_normalise_keeps_words_that_are_not_plurals(word):
    assert normalise(word) == word


# --- answer_strings ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("answer, expected", [
    ("Spain", ["Spain"]),
    (4, ["4"]),
    (61.6, ["61.6"]),
    (6.0, ["6"]),                                               # FanOutQA would want "6.0" (normalised "60")
    (True, ["yes"]),
    (False, ["no"]),
    (["Patty Murray", "Ron Wyden"], ["Patty Murray", "Ron Wyden"]),
    ([2006, 2012], ["2006", "2012"]),
    ({"Pat Burrell": "Right", "Mark Mulder": "Left"}, ["Pat Burrell", "Mark Mulder", "Right", "Left"]),
    ({"Macau": 680000, "Kia Telluride": 68.9}, ["Macau", "Kia Telluride", "680000", "68.9"]),
    ({"Robert Downey Jr.": True, "Chris Evans": False}, ["Robert Downey Jr.", "Chris Evans", "yes", "no"]),
    ({"a": ["b", "c"]}, ["a", "b", "c"]),
    ({"Tim Kingsbury": "", "Win Butler": "April 14, 1980"}, ["Tim Kingsbury", "Win Butler", "April 14, 1980"]),
    ("", []),
    (None, []),
])
def test_answer_strings(answer, expected):
    assert answer_strings(answer) == expected


# --- loose and strict accuracy -------------------------------------------------------------------------------------

@pytest.mark.parametrize("prediction, answer, loose", [
    ("The answer is Spain.", "Spain", 1.0),
    ("SPAIN", "spain", 1.0),
    ("A Spaniard", "Spain", 0.0),                               # word boundaries
    ("Spain's capital", "Spain", 1.0),
    ("About 5,917,000 people", 5917000, 1.0),
    ("About 5917000 people", 5917000, 1.0),
    ("About 5.9 million people", 5917000, 0.0),
    ("It has 4 members", 4, 1.0),
    ("It has 40 members", 4, 0.0),
    ("61.6 kWh", 61.6, 1.0),
    ("61.60 kWh", 61.6, 0.0),
    ("6 times", 6.0, 1.0),
    ("60 times", 6.0, 0.0),
    ("It cost $1.027 billion.", "$1.027 billion", 1.0),        # FanOutQA's \b...\b could never find these
    ("Dial +62 for Indonesia", "+62", 1.0),
    ("Denmark (1992) won", "Denmark (1992)", 1.0),
    ("Denmark in 1992", "Denmark (1992)", 0.0),
    ("The Lion King", "The Lion King (2019)", 0.0),
    ("Lion King", "The Lion King", 0.0),                        # articles are not dropped
    ("the Democrat party", "Democrats", 1.0),                   # plural folding stands in for lemmas
    ("Patty Murray and Ron Wyden", ["Patty Murray", "Maria Cantwell", "Ron Wyden"], 2 / 3),
    ("2006, 2012 and 1995", [2006, 2012, 2006, 1995], 1.0),
    ("2006,2012", [2006, 2012], 0.0),                           # glued by the thousands rule, as in FanOutQA
    ("Pat Burrell bats right-handed; Mark Mulder bats left-handed.",
     {"Pat Burrell": "Right", "Mark Mulder": "Left"}, 1.0),
    ("Pat Burrell: right", {"Pat Burrell": "Right", "Mark Mulder": "Left"}, 0.5),
    ("Pat Burrell and Mark Mulder", {"Pat Burrell": "Right", "Mark Mulder": "Left"}, 0.5),  # keys are half
    ("Robert Downey Jr. yes, Chris Evans no", {"Robert Downey Jr.": True, "Chris Evans": False}, 1.0),
    ("Robert Downey Jr.", {"Robert Downey Jr.": True, "Chris Evans": False}, 0.25),
    ("Macau 680,000; Kia Telluride 68.9", {"Macau": 680000, "Kia Telluride": 68.9}, 1.0),
    ("Win Butler: April 14, 1980. Tim Kingsbury: unknown",
     {"Win Butler": "April 14, 1980", "Tim Kingsbury": ""}, 1.0),   # the empty reference is dropped
    ("no", False, 1.0),
    ("", "Spain", 0.0),
    (None, "Spain", 0.0),
    ("anything", "", 0.0),
])
def test_loose_accuracy(prediction, answer, loose):
    assert loose_accuracy(prediction, answer) == pytest.approx(loose)
    assert strict_accuracy(prediction, answer) is (loose == 1.0)


# --- score ---------------------------------------------------------------------------------------------------------

def _q(*answers, evidence=()):
    return BenchQuestion(id="t", question="?", answers=list(answers), evidence=list(evidence))


def test_score_takes_the_best_alternative():
    question = _q("Paris", ["London", "United Kingdom"])
    assert score(question, "paris") == Score(loose=1.0, strict=True, missing=[])
    assert score(question, "London, England") == Score(loose=0.5, strict=False, missing=["united kingdom"])
    both = score(question, "London, United Kingdom")
    assert both.strict and both.loose == 1.0


def test_score_of_no_prediction():
    question = _q({"Pat Burrell": "Right"})
    for prediction in (None, "", "   "):
        result = score(question, prediction)
        assert result.loose == 0.0 and result.strict is False
        assert result.missing == ["pat burrell", "right"]


def test_score_strict_needs_every_string_of_one_alternative():
    question = _q(["A1 Team", "B2 Team"], ["C3 Team"])
    assert not score(question, "A1 Team and C2 Team").strict
    assert score(question, "A1 Team and C2 Team").loose == 0.5
    assert score(question, "C3 Team").strict


# --- evidence_recall -----------------------------------------------------------------------------------------------

def test_evidence_recall():
    assert evidence_recall([], ["Thomas Edison"]) is None
    assert evidence_recall(["Thomas Edison", "Menlo Park, New Jersey"], ["thomas edison"]) == 0.5
    assert evidence_recall(["Thomas Edison", "Menlo Park, New Jersey"], []) == 0.0
    assert evidence_recall(["The Beatles"], ["Beatles"]) == 1.0                # the offline wiki's title rules
    assert evidence_recall(["Python (programming language)"], ["Python"]) == 0.0    # a bare title is another page
    assert evidence_recall(["Nikola Tesla", "Nikola Tesla", "Tesla, Inc."], ["Nikola Tesla"]) == 0.5
    assert evidence_recall(["Café de Flore"], ["Cafe de Flore", "Paris"]) == 1.0


# --- pages_looked_up -----------------------------------------------------------------------------------------------

@dataclass
class Step:
    """What pages_looked_up reads of a Ponder step."""
    action: str
    action_input: str
    observation: str


class FakeWiki:
    """A two-page backend; the real tools turn its pages into the observations a run records."""

    name = "offline"

    def __init__(self, urls: bool = True):
        self.urls = urls
        self.pages = {
            "Thomas Edison": ("American inventor", "Thomas Edison was an American inventor. He was born in Ohio."),
            "Washington, D.C.": ("Capital city of the United States", "Washington, D.C. is the capital."),
            "Python (programming language)": ("", "Python is a programming language. It was created by Guido."),
        }

    def search(self, query, limit=5):
        return list(self.pages)[:limit]

    def page(self, title):
        title = {"edison": "Thomas Edison", "python": "Python (programming language)"}.get(title.lower(), title)
        if title == "Mercury":
            raise Disambiguation(title, ["Mercury (planet)", "Mercury (element)"])
        if title not in self.pages:
            raise PageMissing(title, ["Thomas Edison"])
        description, text = self.pages[title]
        url = "https://en.wikipedia.org/wiki/" + title.replace(" ", "_") if self.urls else ""
        return WikiPage(title=title, summary=text, content=text, url=url, description=description)


def _run(backend, calls):
    registry = ToolRegistry(make_wikipedia_tools(backend))
    return [Step(action, action_input, registry.run(action, action_input).observation)
            for action, action_input in calls]


def test_pages_looked_up_reads_resolved_titles_from_real_observations():
    steps = _run(FakeWiki(), [
        ("wikipedia_search", "inventor"),
        ("wikipedia_summary", "edison"),                                    # resolved to Thomas Edison
        ("wikipedia_summary", "Mercury"),                                   # ambiguous: nothing retrieved
        ("wikipedia_summary", "Atlantis"),                                  # missing: nothing retrieved
        ("wikipedia_lookup", "python | created"),                           # resolved through the lookup
        ("wikipedia_lookup", '{"title": "Washington, D.C.", "text": "zebra"}'),    # page read, text not in it
        ("wikipedia_lookup", "Thomas Edison"),                              # no text: the tool refuses
        ("wikipedia_summary", "Thomas Edison"),                             # a repeat
    ])
    assert "Error:" in steps[6].observation
    assert pages_looked_up(steps) == ["Thomas Edison", "Python (programming language)", "Washington, D.C."]
    with_search = pages_looked_up(steps, include_search=True)
    assert with_search[:3] == ["Thomas Edison", "Washington, D.C.", "Python (programming language)"]


def test_pages_looked_up_reads_the_tools_findings_not_their_wording():
    """Steps that carry what the tool found (core.schema.Findings) are read by those fields: the same pages with
    every observation reworded beyond any format the wording parser knows."""
    from core.schema import Step as RunStep

    registry = ToolRegistry(make_wikipedia_tools(FakeWiki()))
    calls = [("wikipedia_search", "inventor"), ("wikipedia_summary", "edison"), ("wikipedia_summary", "Mercury"),
             ("wikipedia_summary", "Atlantis"), ("wikipedia_lookup", "python | created"),
             ("wikipedia_lookup", '{"title": "Washington, D.C.", "text": "zebra"}'),
             ("wikipedia_lookup", "Thomas Edison")]
    runs = [(action, action_input, registry.run(action, action_input)) for action, action_input in calls]
    steps = [RunStep(index=i, action=action, action_input=action_input, observation=f"(reworded {i})",
                     findings=run.findings) for i, (action, action_input, run) in enumerate(runs)]
    assert runs[6][2].findings is None   # an error reports nothing found
    assert pages_looked_up(steps) == ["Thomas Edison", "Python (programming language)", "Washington, D.C."]
    assert pages_looked_up(steps, include_search=True)[:3] == ["Thomas Edison", "Washington, D.C.",
                                                               "Python (programming language)"]


def test_pages_looked_up_without_urls_cuts_the_description_at_the_right_comma():
    steps = _run(FakeWiki(urls=False), [("wikipedia_summary", "Washington, D.C."), ("wikipedia_summary", "edison"),
                                        ("wikipedia_summary", "Python (programming language)")])
    assert pages_looked_up(steps) == ["Washington, D.C.", "Thomas Edison", "Python (programming language)"]


def test_pages_looked_up_falls_back_to_the_input_for_unknown_formats():
    steps = [
        {"action": "wikipedia_summary", "action_input": "Ada Lovelace", "observation": "Some other format"},
        Step("wikipedia_lookup", "Alan Turing | born", "Other format"),
        Step("wikipedia_lookup", "Grace Hopper, Navy", "Other format"),
        Step("Final", "Ada Lovelace, Alan Turing", ""),
        Step("calculator", "1+1", "2"),
        Step("wikipedia_summary", "Nobody", "Error: timed out"),
    ]
    assert pages_looked_up(steps) == ["Ada Lovelace", "Alan Turing", "Grace Hopper"]


# --- load_questions ------------------------------------------------------------------------------------------------

def _write(tmp_path: Path, content: str | bytes) -> Path:
    path = tmp_path / "suite.jsonl"
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path


def test_load_questions(tmp_path):
    path = _write(tmp_path, "\n".join([
        json.dumps({"question": "Capital of France?", "answers": ["Paris", "Paris, France"]}),
        "",
        json.dumps({"id": "edison", "question": "Who invented the phonograph?", "answers": "Thomas Edison",
                    "evidence": ["Phonograph", "Thomas Edison"], "kind": "two-hop", "lookups": 2,
                    "facts": ["a fact"]}),
        json.dumps({"question": "Batting hands?", "answers": [{"Pat Burrell": "Right"}, ["Right"]]}),
        json.dumps({"id": 7, "question": "How many?", "answer": 4}),
    ]) + "\n")
    questions = load_questions(path)
    assert [q.id for q in questions] == ["q-1", "edison", "q-4", "7"]
    assert questions[0].answers == ["Paris", "Paris, France"] and questions[0].evidence == []
    assert questions[1].answers == ["Thomas Edison"]
    assert questions[1].evidence == ["Phonograph", "Thomas Edison"]
    assert (questions[1].kind, questions[1].lookups, questions[1].facts) == ("two-hop", 2, ["a fact"])
    assert questions[2].answers == [{"Pat Burrell": "Right"}, ["Right"]]
    assert questions[3].answers == [4]


@pytest.mark.parametrize("content, line, words", [
    ('{"question": "a?", "answers": ["x"]}\n{"question": "b?", "answers": [\n', 2, "not valid JSON"),
    ('{"question": "a?", "answers": ["x"]}\n\n{"answers": ["x"]}\n', 3, 'missing "question"'),
    ('{"question": "a?"}\n', 1, 'missing "answers"'),
    ('{"question": "a?", "answers": []}\n', 1, "no answers"),
    ('{"question": "a?", "answers": [null]}\n', 1, "answer 1"),
    ('{"question": "a?", "answers": ["x", ""]}\n', 1, "answer 2 is an empty string"),
    ('{"question": "a?", "answers": [{}]}\n', 1, "empty object"),
    ('{"question": "a?", "answers": [["", " "]]}\n', 1, "answer 1 holds no text"),
    ('{"question": "a?", "answers": [{"a": []}]}\n', 1, "empty list"),
    ('{"question": "", "answers": ["x"]}\n', 1, "question is empty"),
    ('{"question": "a?", "answers": ["x"], "evidence": [1]}\n', 1, "evidence"),
    ('["a?", "x"]\n', 1, "expected a JSON object"),
    ('{"id": "a", "question": "a?", "answers": ["x"]}\n{"id": "a", "question": "b?", "answers": ["y"]}\n', 2,
     "duplicate id 'a' (first used on line 1)"),
    ('{"question": "a?", "answers": ["x"]}\n{"id": "q-1", "question": "b?", "answers": ["y"]}\n', 2, "duplicate id"),
    ('{"question": "a?", "answers": ["x"]}\n{"question": "caf\xe9?", "answers": ["y"]}\n'.encode("latin-1"), 2,
     "not UTF-8"),
])
def test_load_questions_errors_name_the_line(tmp_path, content, line, words):
    path = _write(tmp_path, content)
    with pytest.raises(SuiteError) as caught:
        load_questions(path)
    message = str(caught.value)
    assert message.startswith(f"{path}:{line}: ")
    assert words in message
    assert "\n" not in message


@pytest.mark.parametrize("content", ["", "\n  \n\n"])
def test_load_questions_empty_file(tmp_path, content):
    path = _write(tmp_path, content)
    with pytest.raises(SuiteError, match="no questions"):
        load_questions(path)


def test_load_questions_missing_file(tmp_path):
    with pytest.raises(SuiteError, match="cannot read"):
        load_questions(tmp_path / "nope.jsonl")


# --- named suites --------------------------------------------------------------------------------------------------

def test_suite_registry():
    assert {"offline-multihop", "short-tasks", "fanoutqa-dev", "fanoutqa-dev-offline"} <= set(suite_names())
    with pytest.raises(SuiteError, match="unknown suite 'nope'; the suites are: offline-multihop"):
        load_suite("nope")


def test_offline_multihop_suite():
    questions = load_suite("offline-multihop")
    assert questions and len({q.id for q in questions}) == len(questions)


def test_short_tasks_count_ages_from_the_pinned_today(monkeypatch):
    monkeypatch.setenv("PONDER_TODAY", "2030-06-01")
    questions = load_suite("short-tasks")
    by_id = {q.id: q for q in questions}
    assert len(questions) == 6 and len(by_id) == 6
    assert by_id["short-02"].answers == [["Edison", "183"], ["Edison", "182"]]    # born 1847
    assert by_id["short-03"].answers == [["Leonardo", "578"], ["Leonardo", "577"]]    # born 1452
    edison = by_id["short-02"]
    assert judge_answer(edison.question, edison.answers, "Thomas Edison; he would be 183 years old.").correct
    assert not judge_answer(edison.question, edison.answers, "Thomas Edison; he would be 179 years old.").correct
    monkeypatch.setenv("PONDER_TODAY", "2031-01-01")
    assert {q.id: q for q in load_suite("short-tasks")}["short-02"].answers[0] == ["Edison", "184"]


def test_offline_coverage_by_hand():
    corpus = ["Thomas Edison", "The Beatles", "Mercury (planet)"]
    questions = [
        _q("x", evidence=["Thomas Edison", "Beatles"]),             # covered ("The" is optional, as offline)
        _q("x", evidence=["Mercury"]),                              # a bare title is not "Mercury (planet)"
        _q("x", evidence=["thomas edison", "Nikola Tesla"]),        # half covered
        _q("x"),                                                    # no evidence: not counted
    ]
    assert offline_coverage(questions, corpus) == Coverage(questions=3, questions_covered=1, pages=4,
                                                           pages_covered=2)
    assert offline_subset(questions, corpus) == [questions[0]]
    assert Coverage(questions=4, questions_covered=1, pages=8, pages_covered=2).describe() == \
        "1/4 questions fully covered (25.0%), 2/8 evidence pages in the corpus (25.0%)"


@pytest.fixture(scope="module")
def fanoutqa_dev():
    return load_suite("fanoutqa-dev")


def test_fanoutqa_dev_suite(fanoutqa_dev):
    assert len(fanoutqa_dev) == 310
    assert len({q.id for q in fanoutqa_dev}) == 310
    assert all(q.evidence and q.lookups == len(q.evidence) and len(q.answers) == 1 for q in fanoutqa_dev)
    first = fanoutqa_dev[0]
    assert first.id == "7dcbbbdc7f1120cd"
    assert first.answers == [{"Pat Burrell": "Right", "Mark Mulder": "Left", "Corey Patterson": "Left",
                              "Jeff Austin": "Right", "JD Drew": "Left"}]
    assert first.evidence[:2] == ["1998 Major League Baseball draft", "Pat Burrell"]


def test_fanoutqa_dev_is_the_package_file_unchanged():
    # sha256 of fanoutqa 1.1.1's fanoutqa/data/fanout-final-dev.json (its wheel on PyPI)
    digest = hashlib.sha256(suites.fanoutqa_dev_path().read_bytes()).hexdigest()
    assert digest == "359300b029c6891567816f351bf8786e9b018d7af8a1a44b7da9ba5ef4651288"


def test_necessary_evidence_walks_the_decomposition_depth_first():
    decomposition = [{"evidence": {"title": "A"}, "decomposition": [{"evidence": {"title": "B"}}]},
                     {"evidence": None, "decomposition": [{"evidence": {"title": "C"}, "decomposition": []}]}]
    assert list(suites._necessary_evidence(decomposition)) == ["A", "B", "C"]


def _written_out(answer) -> str:
    """An answer as a person would write it: "key: value" lines for a dict, one item a line for a list."""
    def text(value):
        if isinstance(value, bool):
            return "yes" if value else "no"
        return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
    if isinstance(answer, dict):
        return "\n".join(f"{key}: {text(value)}" for key, value in answer.items())
    if isinstance(answer, list):
        return "\n".join(text(value) for value in answer)
    return text(answer)


def test_fanoutqa_dev_reference_answers_score_full_marks(fanoutqa_dev):
    for question in fanoutqa_dev:
        result = score(question, _written_out(question.answers[0]))
        assert result.strict and result.loose == 1.0, (question.id, result.missing)
        assert score(question, "Sorry.").loose == 0.0, question.id


def test_fanoutqa_dev_offline_subset(fanoutqa_dev):
    corpus = suites.offline_corpus_titles()
    coverage = offline_coverage(fanoutqa_dev, corpus)
    subset = load_suite("fanoutqa-dev-offline")
    dev = {q.id: q for q in fanoutqa_dev}
    assert {q.id for q in subset} < set(dev)
    assert all(q == dev[q.id] for q in subset)
    assert coverage.questions == 310 and len(subset) == coverage.questions_covered
    assert 0 < coverage.questions_covered < 310
    assert 0.05 < coverage.page_share < 0.6
    assert coverage.pages <= len({title for q in fanoutqa_dev for title in q.evidence})


def test_a_helpers_source_page_counts_as_looked_up():
    """--research: the lead reads no page itself; the page that states a helper's answer is what it looked up."""
    from core.schema import Findings, Step, ToolStatus
    helped = Step(index=0, action="research", action_input="How long is the Godavari River?",
                  observation='Answer: 1,465 km\nSource: Godavari River: "It flows east for 1,465 kilometres"',
                  findings=Findings(status=ToolStatus.found, pages=["Godavari River"], subrun="lead-sub-1"))
    unverified = Step(index=1, action="research", action_input="How long is the Krishna River?",
                      observation="Answer (unverified: ...): 2,000 km",
                      findings=Findings(status=ToolStatus.found, subrun="lead-sub-2"))
    assert pages_looked_up([helped, unverified, helped.model_dump()]) == ["Godavari River"]
