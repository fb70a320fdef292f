"""Code's ceiling on the long-horizon suite (ponder/bench/ceiling.py): each question read and computed by code from
the suite's own values, no model. It is the quick check of every reader change against the suite's tuned questions.
"""
from __future__ import annotations

import subprocess
import sys

import pytest

from ponder.bench.ceiling import main, read_and_computed
from ponder.bench.suites import BenchQuestion, load_suite

# The questions every reader change so far was tuned on (later ones are held out until a bench has run them).
TUNED = [question for question in load_suite("long-horizon") if int(question.id.split("-")[1]) <= 60]
# lh-50 asks about "true flies" and its gold answer names them Diptera, a name the question never uses: code's
# answer names them as the question does
NAMED_OTHERWISE = {"lh-50"}


def rivers(question: str) -> BenchQuestion:
    facts = [{"page": f"{name} River", "name": name, "quote": f"{length} km", "value": length}
             for name, length in (("Lena", 4400), ("Niger", 4180), ("Volga", 3531), ("Danube", 2850))]
    return BenchQuestion(id="lh-test", question=question, answers=[["Lena", "Niger", "8580"]], options=[],
                         facts=facts, compute={"unit": "km", "answer": ["names top 2", "sum top 2"]})


@pytest.mark.parametrize("question", TUNED, ids=[question.id for question in TUNED])
def test_code_reads_and_computes_every_tuned_long_horizon_question(question):
    """A reader change that breaks a tuned question's list or computation fails here, named by the question."""
    made = read_and_computed(question)
    assert made.correct != (question.id in NAMED_OTHERWISE), (made.reason, made.answer)


def test_a_question_read_right_is_answered_from_the_suites_values():
    made = read_and_computed(rivers("Of the Lena, the Niger, the Volga and the Danube, which two are the longest, "
                                    "and what is their combined length?"))
    assert made.correct, made.reason
    assert "Lena" in made.answer and "Niger" in made.answer and "8,580" in made.answer


def test_a_wording_code_does_not_read_is_wrong_and_says_why():
    unread = read_and_computed(rivers("Of the Lena, the Niger, the Volga and the Danube, name the pair that would "
                                      "stretch furthest laid end to end."))
    assert not unread.correct and unread.reason == "no computation read"
    short = read_and_computed(rivers("Of the Lena and the Niger, which two are the longest, and what is their "
                                     "combined length?"))
    assert not short.correct and short.reason.startswith("list read as")


def test_the_command_prints_each_verdict_and_the_total(capsys):
    assert main(["--ids", "lh-01,lh-02", "--show"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split("\t")[:2] for line in out if line.startswith("lh-")] == [["lh-01", "right"], ["lh-02", "right"]]
    assert out[-1] == "code alone, from the suite's values: 2 of 2 right"


def test_an_unknown_question_id_is_a_clear_error_and_a_non_zero_exit():
    ran = subprocess.run([sys.executable, "-m", "ponder.bench.ceiling", "--ids", "lh-01,lh-999"],
                         capture_output=True, text=True, timeout=120)
    assert ran.returncode == 2 and "Traceback" not in ran.stderr
    assert ran.stderr.strip() == "error: no such question in the long-horizon suite: lh-999"
