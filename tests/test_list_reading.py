"""The list-reading measure (ponder/bench/list_reading.py): code's list, the model's checked list and the settled
one, each against the number of things the question's evidence names."""
from __future__ import annotations

import json

from core.llm import Completion
from core.schema import Usage
from ponder.bench.list_reading import main, read_lists
from ponder.bench.suites import BenchQuestion

PAINTERS = ("Take these five painters: Claude Monet, Edgar Degas and Pierre-Auguste Renoir, then Paul Cézanne, who "
            "worked in Provence, and Paul Gauguin, who went to Tahiti. Who died first?")
FIVE = ["Claude Monet", "Edgar Degas", "Pierre-Auguste Renoir", "Paul Cézanne", "Paul Gauguin"]


def test_each_list_is_set_against_the_evidences_count():
    question = BenchQuestion(id="omh-test", question=PAINTERS, answers=[["Gauguin"]], options=[], evidence=FIVE)
    asked = []
    def complete(messages, grammar):
        asked.append(messages[-1].content)
        return Completion(text=json.dumps(FIVE), usage=Usage(), model="m")
    row = read_lists(question, complete, "system")
    assert asked and asked[0].startswith(f"Question: {PAINTERS}")
    assert (len(row["code"]), row["model"], row["settled"]) == (3, FIVE, FIVE)
    assert (row["code_count_right"], row["model_count_right"], row["settled_count_right"]) == (False, True, True)


def test_an_unknown_question_is_a_clear_error_before_any_model_loads(capsys):
    assert main(["--ids", "omh-182,omh-9999"]) == 2
    assert "no such question: omh-9999" in capsys.readouterr().err
