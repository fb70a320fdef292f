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


def test_the_other_four_counts_a_list_of_five():
    """Held-out omh-271: "how many years do the other four last in total?" stated four, so the model's list of five
    was refused beside code's list of three (read from "the Umayyad emirate and caliphate of Córdoba, ...")."""
    from agent.reading import settled_list, stated_counts
    task = ("Eras of rule: China's Zhou dynasty, Japan's Heian period, the Umayyad emirate and caliphate of Córdoba, "
            "Vietnam's Trần dynasty, and Rome's Nerva–Antonine dynasty. Which lasted the longest, and how many years do "
            "the other four last in total?")
    assert stated_counts(task) == {5} and stated_counts("Of these five, which exceeds the other four?") == {5}
    read = ["China's Zhou dynasty", "Japan's Heian period", "Umayyad emirate and caliphate of Córdoba",
            "Vietnam's Trần dynasty", "Rome's Nerva–Antonine dynasty"]
    assert settled_list(task, read) == read
