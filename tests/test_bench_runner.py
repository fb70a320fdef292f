"""`ponder bench` end to end: the long-recall suite (scripted agent, real loop, real offline tools, real memory and
Chroma) under every strategy, resuming, a user's suite against a scripted OpenAI-compatible server with several
runs in flight, and a short offline-multihop run with the embedded model. Results are checked for being complete
and well-formed, not for timings or accuracy."""
from __future__ import annotations

import json

import pytest

from ponder.bench.runner import RESULTS_FILE, RunRecord, read_records
from ponder.cli import main
from core.schema import StopReason
from memory.strategies import STRATEGIES
from tests.cli_helpers import step
from tests.openai_server import FakeOpenAIServer, completion

STOPS = {reason.value for reason in StopReason}


def records_in(out) -> list[RunRecord]:
    return read_records(out)


def assert_well_formed(record: RunRecord) -> None:
    assert record.stop_reason in STOPS and record.steps >= 1 and record.llm_calls >= record.steps
    assert len(record.step_prompt_tokens) == len(record.step_evaluated_tokens) == record.steps
    assert 0 < record.evaluated_prompt_tokens <= record.prompt_tokens
    assert all(0 <= evaluated <= sent for sent, evaluated in zip(record.step_prompt_tokens,
                                                                  record.step_evaluated_tokens))
    assert 0.0 <= record.loose <= 1.0 and record.strict == (record.strict and record.loose == 1.0)
    assert record.seconds >= record.llm_seconds + record.tool_seconds >= 0
    assert record.run_id.startswith("bench-")


@pytest.fixture(scope="module")
def long_recall(tmp_path_factory, offline_wiki):
    """The 50-step long-recall scenario under every strategy, once for the module."""
    out = tmp_path_factory.mktemp("bench") / "long-recall"
    home = tmp_path_factory.mktemp("home")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("PONDER_HOME", str(home))
        code = main(["bench", "--suite", "long-recall", "--limit", "1", "--strategies", ",".join(STRATEGIES),
                     "--out", str(out)])
    return code, out


def test_long_recall_runs_every_strategy_and_writes_every_output(long_recall, capsys):
    code, out = long_recall
    assert code == 0
    records = records_in(out)
    assert sorted(r.strategy for r in records) == sorted(STRATEGIES)
    assert {r.question_id for r in records} == {"long-recall-50"}
    for record in records:
        assert_well_formed(record)
        assert record.evidence_recall == 1.0  # every strategy ran the same early lookups
    by = {r.strategy: r for r in records}
    # full history outgrows the 4,096-token window long before step 50, as with the embedded model
    assert by["full"].context_overflow and by["full"].stop_reason == "llm_error" and by["full"].steps < 50
    assert max(by["full"].step_prompt_tokens) > max(by["window"].step_prompt_tokens)
    assert all(by[s].steps == 50 for s in ("window", "retrieval", "retrieval+summary"))
    summary = json.loads((out / "summary.json").read_text())
    assert [row["strategy"] for row in summary["strategies"]] == list(STRATEGIES)
    report = (out / "report.md").read_text()
    assert "| retrieval+summary |" in report and "## Prompt tokens sent at step" in report
    for plot in ("prompt_tokens_per_step.png", "accuracy_vs_tokens.png", "seconds_per_step.png"):
        assert (out / plot).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(summary["plots"]) == sorted(p.name for p in out.glob("*.png"))


def test_an_interrupted_bench_resumes_without_running_anything_twice(long_recall, tmp_path, monkeypatch, capsys):
    _, out = long_recall
    monkeypatch.setenv("PONDER_HOME", str(tmp_path))
    lines = (out / RESULTS_FILE).read_text().splitlines()
    kept = [line for line in lines if json.loads(line)["strategy"] != "window"]
    (out / RESULTS_FILE).write_text("\n".join(kept) + "\n" + '{"question_id": "long-rec')  # torn by a kill
    before = {r.strategy: r.run_id for r in records_in(out)}
    capsys.readouterr()
    assert main(["bench", "--resume", str(out), "--strategies", ",".join(STRATEGIES)]) == 0
    captured = capsys.readouterr()
    assert f"{len(STRATEGIES) - 1} already done" in captured.err and "# ponder bench: long-recall" in captured.out
    after = records_in(out)
    assert sorted(r.strategy for r in after) == sorted(STRATEGIES)  # the window run again, nothing twice
    assert {r.strategy: r.run_id for r in after if r.strategy != "window"} == before


def test_a_users_suite_with_several_runs_in_flight(tmp_path, monkeypatch, capsys):
    questions = tmp_path / "mine.jsonl"
    questions.write_text("\n".join(json.dumps({"question": f"What is {n} times 7?", "answers": [str(n * 7)]})
                                   for n in (3, 4, 5)) + "\n")

    def answer(request):  # a scripted model that computes, then answers from the Observation it was shown
        last = request["messages"][-1]["content"]
        n = request["messages"][1]["content"].split("What is ")[1].split(" ")[0]
        if last.startswith("Observation: "):
            return completion(step("Done.", "Final", f"It is {last.split(': ')[1]}."))
        return completion(step("Multiply.", "calculator", f"{n}*7"))

    with FakeOpenAIServer(responder=answer) as server:
        monkeypatch.setenv("PONDER_HOME", str(tmp_path / "home"))
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        monkeypatch.setenv("PONDER_MODEL", "scripted")
        code = main(["bench", "--questions", str(questions), "--strategies", "full,mask", "--concurrency", "3",
                     "--wiki", "offline", "--out", str(tmp_path / "out")])
    assert code == 0
    records = records_in(tmp_path / "out")
    assert len(records) == 6 and len({r.run_id for r in records}) == 6
    assert all(r.strict and r.stop_reason == "final_answer" for r in records)
    for record in records:
        assert_well_formed(record)


@pytest.mark.parametrize("args, message", [
    (["bench"], "give --suite"),
    (["bench", "--suite", "nope"], "unknown suite 'nope'"),
    (["bench", "--suite", "long-recall", "--strategies", "full,everything"], "unknown memory strategy everything"),
    (["bench", "--resume", "/nonexistent/bench"], "nothing to resume"),
])
def test_bad_arguments_are_one_line_and_exit_2(args, message, capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("PONDER_HOME", str(tmp_path))
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_broken_questions_file_names_the_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PONDER_HOME", str(tmp_path))
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"question": "fine", "answers": ["x"]}\n{"question": "no answers"}\n')
    assert main(["bench", "--questions", str(bad)]) == 2
    assert "bad.jsonl:2" in capsys.readouterr().err


@pytest.mark.slow
def test_three_offline_multihop_questions_with_the_embedded_model(tmp_path, monkeypatch, model_path, wiki_index_dir):
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "PONDER_BACKEND", "PONDER_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PONDER_HOME", str(tmp_path))
    monkeypatch.setenv("PONDER_GGUF", str(model_path))
    monkeypatch.setenv("PONDER_THREADS", "2")
    code = main(["bench", "--suite", "offline-multihop", "--limit", "3", "--strategies", "full,retrieval+summary",
                 "--max-steps", "5", "--out", str(tmp_path / "out")])
    assert code == 0
    records = records_in(tmp_path / "out")
    assert sorted((r.question_id, r.strategy) for r in records) == sorted(
        (q, s) for q in ("omh-01", "omh-02", "omh-03") for s in ("full", "retrieval+summary"))
    for record in records:
        assert_well_formed(record)
        assert record.cache_reported  # llama.cpp's prefix reuse is measured, not assumed


def test_a_run_that_crashes_is_reported_and_the_others_go_on(tmp_path):
    from ponder.bench.runner import run_bench
    from ponder.bench.suites import BenchQuestion
    from agent.llm.replay import Replay
    from core.chroma import make_client
    from memory.store import Store
    from tools.base import ToolRegistry
    from tools.calculator import calculator

    questions = [BenchQuestion(id=name, question=f"What is 2+2 ({name})?", answers=["4"]) for name in "ab"]

    def llm_for(question):
        if question.id == "b":
            raise RuntimeError("boom")
        return Replay([step("Add.", "calculator", "2+2"), step("Done.", "Final", "It is 4.")])

    failures = []
    records = run_bench(questions, ["full"], llm_for=llm_for, tools_for=lambda q: ToolRegistry([calculator]),
                        store=Store(make_client("memory")), out_dir=tmp_path, max_steps=4,
                        on_failure=lambda question, strategy, exc: failures.append((question.id, str(exc))))
    assert [(r.question_id, r.strict) for r in records] == [("a", True)] and failures == [("b", "boom")]
    assert [r.question_id for r in read_records(tmp_path)] == ["a"]  # the failed run is left for a resume


def test_each_run_carries_what_its_memory_did_read_back_from_the_store(long_recall):
    """Compactions with their tokens, recall and its use, as the stored run shows them; a strategy that never
    compacts or recalls shows none, and the report has the memory table."""
    code, out = long_recall
    by = {r.strategy: r for r in records_in(out)}
    compact, full = by["compact"].memory, by["full"].memory
    assert compact.compactions >= 2 and compact.compaction_tokens_in > compact.compaction_tokens_out > 0
    assert compact.summariser_failures == 0 and compact.recalled >= compact.recalled_used >= 1
    assert by["retrieval+summary"].memory.compactions >= 1 and by["retrieval+summary"].memory.recalled >= 1
    assert (full.compactions, full.recalled) == (0, 0)
    assert compact.memory_ms_median > 0
    report = (out / "report.md").read_text()
    assert "## Memory" in report and "| compact |" in report.split("## Memory")[1]


def test_the_facts_an_answer_needs_are_counted_kept_only_while_the_model_can_still_see_them(offline_wiki):
    """A suite's facts: needed once their page is looked up (the Rhine is not), kept while the final prompt or
    the ledger holds their value (a value no page stated is never kept). Under `window` with one step kept, the
    Loire's step has left the conversation, and its length is kept by the facts table the prompt then shows."""
    from agent.llm.replay import Replay
    from core.chroma import make_client
    from memory.store import Store
    from ponder.bench.runner import run_one
    from ponder.bench.suites import BenchQuestion
    from tools.defaults import default_tools

    question = BenchQuestion(id="q", question="Which is longer, the Loire or the Elbe?", answers=["Elbe"],
                             options=["Loire", "Elbe"],
                             facts=[{"page": "Loire", "value": 1006}, {"page": "Elbe", "value": 1094},
                                    {"page": "Loire", "value": 4242}, {"page": "Rhine", "value": 1233}])
    script = [step("Look.", "wikipedia_summary", "Loire"), step("Look.", "wikipedia_summary", "Elbe"),
              step("Done.", "Final", "The Elbe (1,094 km) is longer than the Loire (1,006 km).")]
    kept = {}
    for strategy, settings in (("full", None), ("window", {"recent_window": 1})):
        record = run_one(question, strategy, Replay(script), default_tools(offline_wiki),
                         store=Store(make_client("memory")), max_steps=6, max_seconds=120, memory_settings=settings)
        assert record.correct, record.verdict
        kept[strategy] = (record.memory.facts_needed, record.memory.facts_kept)
    assert kept == {"full": (3, 2), "window": (3, 2)}


def test_a_fact_the_page_states_in_millions_counts_as_kept(offline_wiki):
    """Held-out lh-26: Luzon's "64.3 million" in the ledger did not count as the suite's 64300000."""
    from agent.llm.replay import Replay
    from core.chroma import make_client
    from memory.store import Store
    from ponder.bench.runner import run_one
    from ponder.bench.suites import BenchQuestion
    from tools.defaults import default_tools

    question = BenchQuestion(id="q", question="How many people live on Sicily?", answers=["4.7 million"],
                             facts=[{"page": "Sicily", "value": 4700000}])
    script = [step("Look.", "wikipedia_summary", "Sicily"),
              step("Done.", "Final", "Sicily has over 4.7 million inhabitants.")]
    record = run_one(question, "full", Replay(script), default_tools(offline_wiki), store=Store(make_client("memory")),
                     max_steps=4, max_seconds=120)
    assert (record.memory.facts_needed, record.memory.facts_kept) == (1, 1)


def test_a_research_leads_steps_count_what_their_helpers_cost(offline_wiki):
    """Planned research steps call no model themselves: per step, the bench counts the helper's whole run with
    them, so the per-step figures add up to everything the run had the backend evaluate."""
    import uuid

    from agent.config import AgentConfig
    from agent.llm.replay import Replay
    from agent.runs import build_agent
    from core.chroma import make_client
    from memory.store import Store
    from ponder.bench.report import figures, markdown
    from ponder.bench.runner import step_work
    from tools.defaults import default_tools

    task = "Of Franz Liszt, Richard Wagner and Johannes Brahms, who lived the longest?"
    years = {"Franz Liszt": ("1811", "1886"), "Richard Wagner": ("1813", "1883"), "Johannes Brahms": ("1833", "1897")}
    replies = [step("It says so.", "Final", year) for pair in years.values() for year in pair]
    result = build_agent(task, Replay(replies), default_tools(offline_wiki), store=Store(make_client("memory")),
                         strategy="compact", run_id=f"lead-{uuid.uuid4().hex[:6]}",
                         config=AgentConfig(research=True, max_steps=1)).run()
    work = [step_work(s) for s in result.steps]
    research = [w for s, w in zip(result.steps, work) if s.action == "research"]
    assert len(research) == 6 and all(w > 0 for w in research)
    assert sum(work) == result.usage.evaluated_prompt_tokens  # nothing left out, nothing counted twice
    record = RunRecord(question_id="q", strategy="compact+research", question=task, step_work_evaluated=work)
    [row] = figures([record], ["compact+research"])
    assert row.work == [float(w) for w in work]
    assert "## Prompt tokens evaluated at step, helpers' calls included" in markdown([row], [record], {})
