"""`ponder score`, `ponder bench --rescore`, `--corpus` and a bench's provenance, through the real CLI.

The re-scoring test runs on a copy of committed results (benchmarks/results/2026-12-03/): the figures it expects
are the ones a reader gets by opening those answers, which the old scorer overstated."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from ponder.bench.provenance import dirty_warning
from ponder.bench.runner import RunRecord, read_records, write_records
from ponder.cli import main
from tests.cli_helpers import step
from tests.openai_server import FakeOpenAIServer, completion

ROOT = Path(__file__).resolve().parent.parent
COMMITTED = ROOT / "benchmarks" / "results" / "2026-12-03"


def _lines(path: Path, records: list) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records),
                    encoding="utf-8")
    return path


def test_score_prints_one_verdict_a_line_in_input_order(tmp_path, capsys):
    file = _lines(tmp_path / "preds.jsonl", [
        {"question": "Which is longest: the Godavari, the Krishna or the Yamuna?", "answers": ["Godavari"],
         "prediction": "The Krishna River is the third-longest in India, after the Ganga and Godavari."},
        {"id": "q2", "question": "How long are they together?", "answers": ["3147"], "prediction": "3,147.0 km",
         "system": "ignored"},
        {"question": "How long?", "answers": ["3147"], "prediction": "31.47 km"},
        {"question": "Which is older, A or B?", "answers": ["B"], "options": ["A", "B"], "prediction": "B is older."},
        {"question": "How far?", "answers": ["19784"], "prediction": "19,800 m", "tolerance": "1%"},
        {"question": "Is it?", "answer": "no", "prediction": None},
    ])
    assert main(["score", str(file)]) == 0
    out, err = capsys.readouterr()
    verdicts = [json.loads(line) for line in out.splitlines()]
    assert [v["line"] for v in verdicts] == [1, 2, 3, 4, 5, 6] and verdicts[1]["id"] == "q2"
    assert [v["correct"] for v in verdicts] == [False, True, False, True, True, False]
    assert verdicts[0]["fanoutqa_strict"] is True            # the string metric is fooled; the verdict is not
    assert "Krishna" in verdicts[0]["reason"] and "Godavari" in verdicts[0]["reason"]
    assert verdicts[3]["pick"] == "B" and all("reason" in v and "f1" in v for v in verdicts)


@pytest.mark.parametrize("lines, where, words", [
    (['{"question": "q", "answers": ["a"], "prediction": "a"}', "not json"], ":2", "not valid JSON"),
    (['{"question": "q", "answers": ["a"]}'], ":1", "missing 'prediction'"),
    (['{"question": "q", "answers": ["a"], "prediction": 3}'], ":1", "prediction must be a string"),
    (['{"question": "q", "answers": ["a"], "prediction": "a", "tolerance": "lots"}'], ":1", "tolerance"),
    (['[1, 2]'], ":1", "expected a JSON object"),
])
def test_score_names_each_bad_line_and_exits_2_printing_nothing(tmp_path, capsys, lines, where, words):
    file = _lines(tmp_path / "bad.jsonl", lines)
    assert main(["score", str(file)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and f"bad.jsonl{where}" in err and words in err and "Traceback" not in err


def test_score_of_a_missing_file_is_one_line(tmp_path, capsys):
    assert main(["score", str(tmp_path / "nope.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_score_with_a_judge_stores_its_verdict_beside_the_rules(tmp_path, capsys):
    file = _lines(tmp_path / "preds.jsonl", [
        {"question": "How long?", "answers": ["3147"], "prediction": "3,147 km"},
        {"question": "How long?", "answers": ["3147"], "prediction": "1,000 km"},
    ])
    replies = [completion("CORRECT: the total matches"), completion("WRONG: 1,000 is not 3,147")]
    with FakeOpenAIServer(replies) as server:
        assert main(["score", str(file), "--judge", "judge-model", "--base-url", server.url]) == 0
        prompts = [r.body["messages"][-1]["content"] for r in server.chat_requests()]
    verdicts = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(v["correct"], v["judge"]["correct"]) for v in verdicts] == [(True, True), (False, False)]
    assert verdicts[1]["judge"]["reason"] == "1,000 is not 3,147" and "3,147 km" in prompts[0]


def _rescored(tmp_path, name: str, capsys) -> tuple[Path, dict, str]:
    out = tmp_path / name
    shutil.copytree(COMMITTED / name, out)
    assert main(["bench", "--rescore", str(out)]) == 0
    report = capsys.readouterr().out
    return out, json.loads((out / "summary.json").read_text()), report


def test_rescore_finds_what_a_reader_finds_in_the_committed_runs(tmp_path, capsys):
    before = {r.strategy: r for r in read_records(COMMITTED / "plan-reflect")}
    out, summary, report = _rescored(tmp_path, "plan-reflect", capsys)
    rows = {row["strategy"]: row for row in summary["strategies"]}
    # FanOutQA's string metric said 1/4, 3/4, 2/4, 4/4; read by hand the answers hold 0, 1, 0, 1 (+1 forced)
    assert {s: rows[s]["correct"] for s in rows} == {"compact": 0, "compact+plan": 1, "compact+reflect": 0,
                                                     "compact+plan+reflect": 1}
    assert rows["compact+plan+reflect"]["forced_right"] == 1     # Denali, but after a repeated-action stop
    assert summary["header"]["before_rescore"] == {"compact": 0.25, "compact+plan": 0.75, "compact+reflect": 0.5,
                                                   "compact+plan+reflect": 1.0}
    assert "| before |" in report and "The Krishna River is the third-longest" in report
    assert "provenance_missing" in report or "commit alone does not prove" in report
    after = {r.strategy: r for r in read_records(out)}
    assert after.keys() == before.keys()
    for strategy, record in after.items():   # scores change; what the run did is kept
        assert record.answer == before[strategy].answer and record.steps == before[strategy].steps
    assert all(record.verdict for record in read_records(out))
    for plot in summary["plots"]:
        assert (out / plot).stat().st_size > 1000
    # a second re-scoring keeps the figures the report first showed as "before"
    assert main(["bench", "--rescore", str(out)]) == 0
    again = json.loads((out / "summary.json").read_text())
    assert again["header"]["before_rescore"] == summary["header"]["before_rescore"]


def test_rescore_of_the_first_offline_multihop_runs(tmp_path, capsys):
    out, summary, _ = _rescored(tmp_path, "omh", capsys)
    assert {row["strategy"]: row["correct"] for row in summary["strategies"]} == {
        "full": 2, "mask": 2, "retrieval+summary": 1, "compact": 2}    # it said 3, 3, 2, 3


def test_rescore_counts_ages_from_the_day_the_bench_ran(tmp_path, capsys, monkeypatch):
    """short-tasks asks an age today: a bench re-scored later still expects the age on the day it ran."""
    monkeypatch.delenv("PONDER_TODAY", raising=False)
    question = "Who invented the light bulb, and how old would they be today if they were alive?"
    write_records(tmp_path, [RunRecord(question_id="short-02", strategy="full", question=question,
                                       answer="Thomas Edison; he would be 183 years old.", stop_reason="final_answer")])
    header = {"suite": "short-tasks", "suite_name": "short-tasks", "strategies": "full", "today": "2030-06-01",
              "dirty": False}
    (tmp_path / "summary.json").write_text(json.dumps({"header": header, "strategies": []}), encoding="utf-8")
    assert main(["bench", "--rescore", str(tmp_path)]) == 0, capsys.readouterr().err
    [record] = read_records(tmp_path)
    assert record.correct, record.verdict


def test_rescore_of_something_else_is_one_line(tmp_path, capsys):
    assert main(["bench", "--rescore", str(tmp_path)]) == 2
    assert "not a bench output directory" in capsys.readouterr().err


CORPUS = [{"title": "Zorbulan River", "text": "The Zorbulan River is a river of the Quelt plateau. It is 742 "
                                             "kilometres long."},
          {"title": "Quelt plateau", "text": "The Quelt plateau is a highland."}]


def test_a_suite_brings_its_own_corpus_and_the_summary_records_where_it_all_came_from(tmp_path, monkeypatch,
                                                                                      capsys):
    corpus = _lines(tmp_path / "docs.jsonl", CORPUS)
    suite = _lines(tmp_path / "mine.jsonl", [{"corpus": "docs.jsonl"},
                                             {"id": "z", "question": "How long is the Zorbulan River?",
                                              "answers": ["742"], "evidence": ["Zorbulan River"]}])

    def answer(request):   # looks the river up, then answers from the observation it was shown
        last = request["messages"][-1]["content"]
        if last.startswith("Observation: "):
            number = re.search(r"(\d+) kilometres", last)
            return completion(step("Read it.", "Final", f"It is {number[1] if number else 'unknown'} km long."))
        return completion(step("Look it up.", "wikipedia_summary", "Zorbulan River"))

    with FakeOpenAIServer(responder=answer) as server:
        monkeypatch.setenv("PONDER_HOME", str(tmp_path / "home"))
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        monkeypatch.setenv("PONDER_MODEL", "scripted")
        code = main(["bench", "--questions", str(suite), "--strategies", "full", "--out", str(tmp_path / "out")])
    assert code == 0
    [record] = read_records(tmp_path / "out")
    assert record.correct and record.answer == "It is 742 km long." and record.evidence_recall == 1.0
    header = json.loads((tmp_path / "out" / "summary.json").read_text())["header"]
    assert header["corpus"]["path"] == str(corpus) and header["corpus"]["pages"] == 2
    assert re.fullmatch(r"[0-9a-f]{24}", header["corpus"]["fingerprint"])
    assert header["command"] == f"ponder bench --questions {suite} --strategies full --out {tmp_path / 'out'}"
    assert re.fullmatch(r"[0-9a-f]{40}", header["commit"]) and isinstance(header["dirty"], bool)
    assert header["model_file"]["name"].startswith("openai:scripted @ http://127.0.0.1")
    assert "sha256" not in header["model_file"] and header["machine"]["cpus"] >= 1
    first_line = (tmp_path / "out" / "report.md").read_text().splitlines()[0]
    assert first_line.startswith("> **Measured on uncommitted changes") == header["dirty"]


def test_a_dirty_run_says_so_first():
    assert dirty_warning({"commit": "abc123", "dirty": True}).startswith("> **Measured on uncommitted changes")
    assert dirty_warning({"commit": "abc123", "dirty": False}) is None


def test_bench_corpus_flag_that_cannot_be_read_is_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PONDER_HOME", str(tmp_path))
    suite = _lines(tmp_path / "q.jsonl", [{"question": "q?", "answers": ["a"]}])
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("PONDER_MODEL", "scripted")
    assert main(["bench", "--questions", str(suite), "--corpus", str(tmp_path / "missing.jsonl"),
                 "--out", str(tmp_path / "out")]) == 2
    assert "missing.jsonl" in capsys.readouterr().err


@pytest.mark.slow
def test_the_embedded_models_sha256_is_recorded(model_path):
    from ponder.bench.provenance import model_identity
    from agent.llm.local_llama import DEFAULT_MODEL_SHA256

    class Local:     # what LocalLlama exposes for provenance, without loading 1 GB of weights
        name, model_path_ = "local", model_path
    local = Local()
    local.model_path = model_path
    assert model_identity(local)["sha256"] == DEFAULT_MODEL_SHA256
