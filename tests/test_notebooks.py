"""The tour notebook runs top to bottom as plain Python (as a kernel would, cell by cell in one namespace),
with the local model off, and its variables hold what its text says they hold."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from agent.events import FinalEvent, ObservationEvent, StepStarted
from core.schema import StopReason
from memory.strategies import STRATEGIES

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
TOUR = NOTEBOOKS / "ponder_tour.ipynb"


def _load_builder():
    spec = importlib.util.spec_from_file_location("build_tour", NOTEBOOKS / "build_tour.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_tour_is_nbformat4_without_outputs_and_matches_its_builder():
    text = TOUR.read_text(encoding="utf-8")
    notebook = json.loads(text)
    assert notebook["nbformat"] == 4 and notebook["nbformat_minor"] == 5
    assert notebook["metadata"]["kernelspec"]["language"] == "python"
    cells = notebook["cells"]
    assert len({cell["id"] for cell in cells}) == len(cells)
    for cell in cells:
        assert cell["cell_type"] in ("markdown", "code")
        assert isinstance(cell["source"], list) and all(isinstance(line, str) for line in cell["source"])
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [] and cell["execution_count"] is None
    assert text == _load_builder().render(), "notebook is stale: run python notebooks/build_tour.py"


@pytest.fixture(scope="module")
def tour(tmp_path_factory):
    patch = pytest.MonkeyPatch()
    patch.setenv("PONDER_HOME", str(tmp_path_factory.mktemp("ponder_home")))
    patch.chdir(NOTEBOOKS)  # where Jupyter starts when the notebook is opened from its folder
    namespace = {"__name__": "__main__"}
    cells = [cell for cell in json.loads(TOUR.read_text(encoding="utf-8"))["cells"] if cell["cell_type"] == "code"]
    try:
        for number, cell in enumerate(cells):
            exec(compile("".join(cell["source"]), f"{TOUR.name} code cell {number}", "exec"), namespace)
    finally:
        patch.undo()
    return namespace


def test_local_model_cell_is_skipped_by_default(tour):
    assert tour["RUN_LOCAL_MODEL"] is False
    assert "local_result" not in tour


def test_scripted_run_uses_the_real_tools(tour):
    events, result = tour["events"], tour["result"]
    assert isinstance(events[0], StepStarted) and isinstance(events[-1], FinalEvent)
    assert events[-1].result is result
    assert result.stop_reason is StopReason.final_answer and "225" in result.answer
    assert [step.action for step in result.steps] == ["wikipedia_summary", "calculator", "Final"]
    assert "Gustave Eiffel" in result.steps[0].observation  # from the offline corpus
    assert result.steps[1].observation.strip() == "225"     # from the calculator
    assert [e.observation for e in events if isinstance(e, ObservationEvent)] == \
        [step.observation for step in result.steps[:2]]
    # the observation reached the model, as the reply to its first step
    assert any("Gustave Eiffel" in m.content and m.role == "user" for m in tour["tour_llm"].calls[-1][2:])


def test_memory_strategies_compare_prompt_sizes(tour):
    prompt_tokens, runs, steps = tour["prompt_tokens"], tour["runs"], len(tour["LONG_SCRIPT"])
    assert list(prompt_tokens) == list(STRATEGIES)
    for strategy in STRATEGIES:
        run, memory, _, sizes = runs[strategy]
        assert run.stop_reason is StopReason.final_answer and run.answer.startswith("14 years")
        assert len(sizes) == steps and len(memory.store.load_steps(memory.run_id)) == steps
    full = prompt_tokens["full"]
    assert all(later > earlier for earlier, later in zip(full, full[1:]))  # every step adds to the prompt
    for strategy in ("window", "retrieval", "retrieval+summary"):
        assert max(prompt_tokens[strategy]) < max(full) and sum(prompt_tokens[strategy]) < sum(full)
    # the calculator step's prompt: full history has both years, the 3-step window has lost the tower's
    assert tour["needed"]["1889"]["full"] and tour["needed"]["1903"]["full"]
    assert not tour["needed"]["1889"]["window"]
    summary = tour["summary_memory"].summary
    assert summary is not None and "1889" in summary.text  # the scripted notes read the real observations
    assert tour["needed"]["1889"]["retrieval+summary"]      # ... and carried the year past the window
    records = tour["records"]
    assert [r.step.index for r in records] == list(range(steps))
    assert any(r.retrieved for r in records)
