"""The Chroma step store: exact reload for resume, no duplicates, run registry, isolation between runs."""
from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap
import threading
import uuid
from pathlib import Path

import pytest

from ponder.bench.synthetic import distractor_step
from core.chroma import get_collection, make_client
from core.schema import ParseStatus, RunResult, Step, StopReason, Usage
from memory.store import Store
from memory.factory import make_memory

ROOT = Path(__file__).resolve().parents[1]


def run_id(prefix: str = "t") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"  # EphemeralClient is one instance per process


@pytest.fixture(scope="module")
def store() -> Store:
    return Store(make_client("memory"))


def test_collections_never_embed_by_themselves(store):
    collection = get_collection(store.client, run_id("c"))
    assert collection.configuration["embedding_function"] is None
    assert collection.configuration["hnsw"]["space"] == "cosine"


def test_load_steps_returns_the_exact_steps_sorted(store):
    rid = run_id()
    memory = make_memory("retrieval", rid, store=store, task="a task")
    steps = [Step(index=i, thought=f"thought {i} ü", action="wiki_search", action_input=f"q{i}",
                  observation=f"obs {i}", raw=f"raw {i}", parse_status=ParseStatus.lenient,
                  usage=Usage(prompt_tokens=i, completion_tokens=2 * i), started_at=1000.5 + i)
             for i in (1, 2, 3)]
    for step in steps:
        memory.add(step, memory.context())
    assert store.load_steps(rid) == steps
    assert store.load_steps(run_id("unknown")) == []


def test_reopening_a_run_resumes_without_duplicating(store):
    rid = run_id()
    first = make_memory("window", rid, store=store, task="resume me")
    steps = [distractor_step(i, random.Random(i)) for i in range(1, 6)]
    for step in steps:
        first.add(step)
    again = make_memory("window", rid, store=store)
    assert again.steps() == steps and again.task == "resume me"
    again.add(steps[-1])  # a loop that re-adds the last stored step must not create a duplicate
    again.add(distractor_step(6, random.Random(6)))
    assert [s.index for s in store.load_steps(rid)] == [1, 2, 3, 4, 5, 6]
    assert "[step 6]" in again.context().text and "[step 3]" not in again.context().text


def test_registry_lists_runs_with_status_and_retrieval_records(store):
    rid = run_id("reg")
    memory = make_memory("retrieval", rid, store=store, task="registry task")
    for i in range(1, 8):
        memory.add(distractor_step(i, random.Random(i)), memory.context())
    memory.finish(RunResult(run_id=rid, task=memory.task, answer="42", stop_reason=StopReason.final_answer))
    info = next(run for run in store.list_runs() if run.run_id == rid)
    assert (info.task, info.status, info.steps, info.strategy, info.answer) == \
        ("registry task", "final_answer", 7, "retrieval", "42")
    records = store.step_records(rid)
    assert [r.step.index for r in records] == list(range(1, 8))
    # The prompt for step 7 showed steps 4-6 as recent; anything it retrieved came from before them.
    assert all(index < 4 for index in records[-1].retrieved)
    assert records[-1].context_tokens and records[-1].context_tokens > 0


def test_bad_run_id_is_a_clear_error(store):
    with pytest.raises(ValueError, match="invalid run id"):
        make_memory("window", "../etc/passwd", store=store)


def test_concurrent_runs_in_threads_never_see_each_other(store):
    errors = []

    def run(tag: str, rid: str):
        try:
            memory = make_memory("retrieval", rid, store=store, task=f"task {tag}")
            for i in range(1, 16):
                text = memory.context().text
                assert f"run-{'b' if tag == 'a' else 'a'}" not in text
                memory.add(Step(index=i, thought=f"run-{tag} thinks {i}", action="wiki_search",
                                action_input=f"run-{tag} {i}", observation=f"run-{tag} saw item {i}"))
        except Exception as exc:  # surfaced in the main thread below
            errors.append(exc)

    rids = {"a": run_id("a"), "b": run_id("b")}
    threads = [threading.Thread(target=run, args=(tag, rid)) for tag, rid in rids.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors
    for tag, rid in rids.items():
        steps = store.load_steps(rid)
        assert len(steps) == 15 and all(s.thought.startswith(f"run-{tag} ") for s in steps)


PROCESS_RUN = textwrap.dedent("""
    import json, sys
    from core.schema import Step
    from core.chroma import make_client
    from memory.factory import make_memory
    path, rid, tag = sys.argv[1:4]
    memory = make_memory("retrieval", rid, client=make_client("persistent", path), task="task " + tag)
    leaks = 0
    for i in range(1, 13):
        leaks += ("process-" + ("b" if tag == "a" else "a")) in memory.context().text
        memory.add(Step(index=i, thought=f"process-{tag} thinks {i}", action="wiki_search",
                        action_input=f"process-{tag} {i}", observation=f"process-{tag} saw {i}"))
    print(json.dumps({"leaks": leaks, "steps": len(memory.steps())}))
""")


def test_two_processes_on_one_persistent_store_stay_apart(tmp_path):
    rids = {"a": run_id("pa"), "b": run_id("pb")}
    procs = {tag: subprocess.Popen([sys.executable, "-c", PROCESS_RUN, str(tmp_path), rid, tag], cwd=ROOT,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for tag, rid in rids.items()}
    for tag, proc in procs.items():
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err[-2000:]
        assert json.loads(out.strip().splitlines()[-1]) == {"leaks": 0, "steps": 12}
    reopened = Store(make_client("persistent", tmp_path))
    for tag, rid in rids.items():
        steps = reopened.load_steps(rid)
        assert [s.index for s in steps] == list(range(1, 13))
        assert all(s.thought.startswith(f"process-{tag} ") for s in steps)
    assert {run.run_id for run in reopened.list_runs()} == set(rids.values())


def test_ponder_memory_shows_runs_steps_and_retrievals(tmp_path, monkeypatch, capsys):
    from ponder.cli import main

    monkeypatch.setenv("PONDER_HOME", str(tmp_path))
    store = Store(make_client("persistent", tmp_path / "chroma"))
    rid = run_id("show")
    memory = make_memory("retrieval", rid, store=store, task="show me")
    for i in range(1, 7):
        memory.add(distractor_step(i, random.Random(i)), memory.context())
    assert main(["memory"]) == 0
    listing = capsys.readouterr().out
    assert rid in listing and "show me" in listing
    assert main(["memory", rid]) == 0
    report = capsys.readouterr().out
    last = store.step_records(rid)[-1]
    assert f"step 6 · prompt {last.context_tokens} memory tokens · retrieved steps: " \
           f"{', '.join(map(str, last.retrieved)) or 'none'}" in report
    assert main(["memory", run_id("missing")]) == 2
    assert "no run" in capsys.readouterr().err


def test_processes_opening_a_new_persistent_store_at_once_all_succeed(tmp_path):
    # Unserialised, Chroma's first-open migrations raced here: "table collections already exists" in 3 of 32 opens.
    code = ("import sys\nfrom core.chroma import make_client\n"
            "make_client('persistent', sys.argv[1]).get_or_create_collection('probe', embedding_function=None)\n")
    for trial in range(3):
        procs = [subprocess.Popen([sys.executable, "-c", code, str(tmp_path / f"store{trial}")], cwd=ROOT,
                                  stderr=subprocess.PIPE, text=True) for _ in range(4)]
        for proc in procs:
            _, err = proc.communicate(timeout=120)
            assert proc.returncode == 0, err[-1000:]
