"""The visual trace: `ponder trace RUN --html FILE` writes one self-contained page, opened here in a real headless
browser (chromium: one .step per step, hostile observations stay text, no console errors, a screenshot); the
notebook's rich display of Step, RunResult and Context (escaped); the per-step plots.

The run is real: the loop with a scripted model, the real calculator, a composite tool and a tool that returns a
hostile web page."""
from __future__ import annotations

import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from ponder.cli import main
from agent.config import AgentConfig
from ponder.html import render_result_html, render_trace_html
from agent.llm.replay import Replay
from agent.loop import Agent
from ponder.plots import prompt_tokens_figure, retrieval_similarity_figure, run_figure, step_seconds_figure
from agent.trace import read_trace
from core.schema import RunResult, Step, StepOutcome, StopReason, Timings, Usage
from memory.base import Context
from tests.cli_helpers import closed_port_url, ponder, ponder_env
from tools.base import ToolRegistry, tool
from tools.calculator import calculator
from tools.composite import CompositeTool

HOSTILE = '<script>alert(1)</script><img src=x onerror="alert(2)">'
ESCAPE_ATTEMPT = "</pre></details></div>"  # tries to close the markup around it
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="chromium is not installed (apt-get install -y chromium): the page is checked in a real "
                             "browser; .ci/run installs it")


@tool
def web_page(url: str) -> str:
    """The text of a web page."""
    return f"Page {url} says: 6*7 is 42. {HOSTILE}{ESCAPE_ATTEMPT}"


def check_product(expression: str, call) -> str:
    """Compute an expression, then read the page that states the result."""
    return call("web_page", f"http://example.org/{call('calculator', expression)}")


def step(thought: str, action: str, action_input: str) -> str:
    return f"Thought: {thought}\nAction: {action}\nAction Input: {action_input}"


def scripted_run(trace_dir: Path) -> RunResult:
    calc = tool(calculator)
    tools = ToolRegistry([calc, web_page, CompositeTool(check_product, [calc, web_page], name="check_product")])
    llm = Replay([
        "1. What is 6*7? -> calculator\n",  # the plan (--plan)
        step("Multiply first.", "calculator", "6*7"),
        step("Read the <b>page</b>.", "web_page", "http://evil.example/<i>x</i>"),
        step("Check it twice.", "check_product", "6*7"),
        step("Try a strange tool.", '<img src=x onerror="alert(3)">', "1"),
        step("Answer.", "Final", "It is 43."),         # no observation shows 43: sent back
        step("Fix the answer.", "Final", "6*7 is 42."),
    ])
    return Agent(llm, tools, config=AgentConfig(trace_dir=trace_dir, plan=True)).run(
        f"What is 6*7? {HOSTILE}")


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> RunResult:
    result = scripted_run(tmp_path_factory.mktemp("runs"))
    assert result.stop_reason is StopReason.final_answer and result.answer == "6*7 is 42."
    assert [s.outcome for s in result.steps] == ["tool", "tool", "tool", "parse_error", "final_sent_back", "final"]
    assert result.steps[2].tool_calls and HOSTILE in result.steps[1].observation
    return result


class Dom(HTMLParser):
    """Every element (tag, attributes) and all text of a document."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str]]] = []
        self.texts: list[str] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, {name: value or "" for name, value in attrs}))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_data(self, data):
        self.texts.append(data)

    @property
    def text(self) -> str:
        return "".join(self.texts)

    def tags(self, name: str) -> list[dict[str, str]]:
        return [attrs for tag, attrs in self.elements if tag == name]

    def with_class(self, css: str) -> list[dict[str, str]]:
        return [attrs for _, attrs in self.elements if css in attrs.get("class", "").split()]

    def handlers(self) -> list[str]:
        return [f"{tag} {name}" for tag, attrs in self.elements for name in attrs if name.startswith("on")]


def assert_inert(dom: Dom, scripts: int) -> None:
    """Hostile text arrived as text: no element, script or event handler came from it."""
    assert len(dom.tags("script")) == scripts
    assert dom.tags("img") == [] and dom.handlers() == []
    assert HOSTILE in dom.text


# ---- the page in a real browser ----

def chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    profile = tmp_path / "chromium-profile"
    return subprocess.run([CHROMIUM, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
                          capture_output=True, text=True, timeout=120, check=False)


def console_messages(stderr: str) -> list[str]:
    # With --enable-logging=stderr every console message (errors, blocked scripts) is an ":INFO:CONSOLE" line.
    return [line for line in stderr.splitlines() if ":CONSOLE" in line]


@needs_chromium
def test_the_cli_writes_a_page_that_a_real_browser_renders_with_every_step_and_nothing_injected(run, tmp_path):
    page = tmp_path / "run.html"
    env = ponder_env(tmp_path / "home", closed_port_url())
    written = ponder(["trace", str(Path(run.trace_path).parent), "--html", str(page)], env)
    assert written.returncode == 0, written.stderr
    assert written.stdout == "" and f"wrote {page}" in written.stderr
    text = page.read_text(encoding="utf-8")
    assert "http://" not in text.replace("http://evil.example", "").replace("http://example.org", "")  # no CDN

    shown = chromium(tmp_path, "--enable-logging=stderr", "--v=0", "--dump-dom", page.as_uri())
    assert shown.returncode == 0, shown.stderr[-2000:]
    dom = Dom(shown.stdout)
    root = dom.tags("html")[0]
    assert root.get("data-ready") == "1", "the page's script did not run to its end"
    assert "data-errors" not in root and "data-csp-violations" not in root, root
    assert console_messages(shown.stderr) == []
    steps = dom.with_class("step")
    assert [attrs["data-index"] for attrs in steps] == [str(s.index) for s in run.steps]
    assert root["data-steps"] == str(len(run.steps))
    assert_inert(dom, scripts=2)
    assert "Read the <b>page</b>." in dom.text and ESCAPE_ATTEMPT in dom.text
    assert len(dom.with_class("plan")) == 1 and len(dom.with_class("chart-tokens")) == 1
    assert [attrs["class"] for attrs in dom.with_class("verdicts")] == ["verdicts", "verdicts"]

    shot = tmp_path / "run.png"
    taken = chromium(tmp_path, f"--screenshot={shot}", "--window-size=1200,2000", page.as_uri())
    assert taken.returncode == 0 and shot.is_file(), taken.stderr[-2000:]
    from PIL import Image
    with Image.open(shot) as image:
        assert image.format == "PNG" and image.size == (1200, 2000)
        colours = image.convert("RGB").getcolors(maxcolors=1 << 20)
    assert shot.stat().st_size > 30_000 and len(colours) > 100  # text, charts and cards, not a blank page


@needs_chromium
def test_even_markup_that_escaped_escaping_could_not_run_and_the_checks_would_see_it(run, tmp_path):
    """The page's Content-Security-Policy runs only its own two scripts; this is also the check that the browser
    checks above can fail (console lines and the recorded violations are seen)."""
    smuggled = ('<script>document.documentElement.setAttribute("data-pwned","script")</script>'
                '<img src="x" onerror="document.documentElement.setAttribute(\'data-pwned\',\'img\')">')
    page = tmp_path / "smuggled.html"
    page.write_text(render_result_html(run).replace("</h1>", "</h1>" + smuggled, 1), encoding="utf-8")
    shown = chromium(tmp_path, "--enable-logging=stderr", "--v=0", "--dump-dom", page.as_uri())
    root = Dom(shown.stdout).tags("html")[0]
    assert "data-pwned" not in root and root.get("data-ready") == "1"
    assert "script-src" in root.get("data-csp-violations", ""), root
    assert any("Content Security Policy" in line for line in console_messages(shown.stderr))


def test_bad_input_stays_a_clear_usage_error_and_writes_nothing(tmp_path, capsys):
    not_a_trace = tmp_path / "notes.txt"
    not_a_trace.write_text("just some notes\nand more\n")
    page = tmp_path / "out.html"
    assert main(["trace", str(not_a_trace), "--html", str(page)]) == 2
    assert main(["trace", str(tmp_path / "no-such-run"), "--html", str(page)]) == 2
    captured = capsys.readouterr()
    assert "is not a Ponder trace" in captured.err and "no trace at" in captured.err
    assert captured.out == "" and "Traceback" not in captured.err and not page.exists()


def test_an_unwritable_page_is_a_usage_error(run, tmp_path, capsys):
    assert main(["trace", run.trace_path, "--html", str(tmp_path / "missing-dir" / "out.html")]) == 2
    assert "cannot write" in capsys.readouterr().err


# ---- the renderer on its own ----

def test_the_trace_and_the_result_give_the_same_steps(run):
    from_trace, from_result = Dom(render_trace_html(read_trace(run.trace_path))), Dom(render_result_html(run))
    for dom in (from_trace, from_result):
        assert [a["data-index"] for a in dom.with_class("step")] == [str(s.index) for s in run.steps]
        assert_inert(dom, scripts=2)
    assert len(from_trace.with_class("prompt")) == len(run.steps)  # only a trace has the prompts
    assert "memory recalled no earlier steps" in from_trace.text and "not known here" in from_result.text


def test_recall_links_come_from_the_store_when_given_and_from_the_prompts_otherwise():
    steps = [Step(index=i, thought=f"t{i}", action="calculator", action_input=f"{i}+1", observation=str(i + 1),
                  outcome="tool") for i in range(4)]
    result = RunResult(run_id="r", task="count", answer="4", stop_reason=StopReason.final_answer, steps=steps)
    dom = Dom(render_result_html(result, retrieved={2: [0], 3: [0, 1]},
                                 summaries=[{"text": f"folded {HOSTILE}", "first": 0, "upto": 1}]))
    links = sorted(attrs["data-target"] for attrs in dom.tags("a") if "data-target" in attrs)
    assert links == ["0", "0", "0", "1", "1"]  # step 2's, step 3's and the summary's
    assert len(dom.with_class("arc")) == 3 and len(dom.with_class("bracket")) == 1
    assert_inert(dom, scripts=2)

    events = [{"type": "prompt", "index": 2, "messages": [
        {"role": "system", "content": "rules"},
        {"role": "user", "content": "Question: count\n\nWhat you already know from memory:\n[step 0]\nThought: t0"},
        {"role": "assistant", "content": "Thought: t1"},
        {"role": "user",
         "content": "Observation: 2\n\n(Recalled from your earlier steps:\n[step 1] calculator 1+1: 2)"}]}]
    events += [{"type": "step_recorded", "step": s.model_dump(mode="json")} for s in steps[:3]]
    dom = Dom(render_trace_html(events))
    assert [attrs["data-target"] for attrs in dom.tags("a") if "data-target" in attrs] == ["0", "1"]
    assert len(dom.with_class("arc")) == 2
    assert "the trace has no final event" in dom.text and "Ponder: count" in dom.text  # the task from the prompt

    # A trace that records what memory recalled is read by that record, not by its prompts' wording: a page that
    # quotes "[step 0]" draws no arc, and a recall in any wording draws its own.
    events[0] = {**events[0], "recalled": [1]}
    events[0]["messages"][1] = {"role": "user", "content": "Question: count\n\n[step 0] is what a page said."}
    events[0]["messages"][3] = {"role": "user", "content": "Observation: 2\n\n(Earlier: calculator 1+1 gave 2)"}
    dom = Dom(render_trace_html(events))
    assert [attrs["data-target"] for attrs in dom.tags("a") if "data-target" in attrs] == ["1"]


def test_old_traces_plans_lessons_and_injected_steps_show():
    events = [
        {"type": "plan", "index": 0, "plan": "1. <b>x</b> -> calculator", "revision": 0, "raw": "", "usage": {}},
        {"type": "step_started", "index": 0},
        {"type": "llm_output", "index": 0, "text": "...", "usage": {"prompt_tokens": 90, "completion_tokens": 9},
         "seconds": 1.5},
        {"type": "action", "index": 0, "thought": "add", "action": "calculator", "action_input": "1+1",
         "parse_status": "ok"},
        {"type": "observation", "index": 0, "observation": HOSTILE, "seconds": 0.25},
        {"type": "step_recorded", "step": Step(index=1, action="calculator", action_input="2+2", observation="4",
                                               injected=["observation"]).model_dump(mode="json")},
        {"type": "lesson", "attempt": 0, "failure": "a limit", "lesson": f"look first {HOSTILE}", "usage": {}},
    ]
    dom = Dom(render_trace_html(events))
    assert [a["data-index"] for a in dom.with_class("step")] == ["0", "1"]
    assert "90 prompt + 9 completion" in dom.text and "LLM 1.50 s · tool 0.25 s" in dom.text
    assert "1. <b>x</b> -> calculator" in dom.text and "injected: observation" in dom.text
    assert len(dom.with_class("lesson")) == 1 and dom.text.count(HOSTILE) == 2
    assert_inert(dom, scripts=2)


def test_bad_events_raise_what_the_cli_reports():
    for events in ([{"type": "step_recorded"}], [{"type": "step_recorded", "step": {"index": "x"}}],
                   [{"type": "final", "result": {"run_id": "r"}}]):
        with pytest.raises((KeyError, ValueError, TypeError)):
            render_trace_html(events)


# ---- Jupyter's rich display ----

# thought, action, input, observation, verdict name and message, injected, inner call name/input/observation
# (the outcome is a StepOutcome: no text of anyone's reaches it)
HOSTILE_FIELDS = 10


def hostile_step(index: int = 3) -> Step:
    return Step(index=index, thought=HOSTILE, action=HOSTILE, action_input=HOSTILE, observation=HOSTILE,
                outcome=StepOutcome.final_sent_back, verdicts={HOSTILE: HOSTILE}, injected=[HOSTILE],
                tool_calls=[{"name": HOSTILE, "input": HOSTILE, "observation": HOSTILE, "seconds": 0.5}],
                usage=Usage(prompt_tokens=100, completion_tokens=7, cached_prompt_tokens=80),
                timings=Timings(llm_seconds=1.25, tool_seconds=0.5, memory_seconds=0.004))


def test_a_step_displays_escaped_with_its_parts():
    dom = Dom(hostile_step()._repr_html_())
    assert [a["data-index"] for a in dom.with_class("step")] == ["3"]
    assert_inert(dom, scripts=0)
    assert dom.text.count(HOSTILE) == HOSTILE_FIELDS
    assert "100 prompt (20 evaluated) + 7 completion" in dom.text
    assert "LLM 1.25 s · tool 0.50 s · memory 4 ms" in dom.text
    assert "final_sent_back" in dom.text and "StepOutcome" not in dom.text
    assert all(not cls or cls.replace("-", "").replace("_", "").isalnum()
               for attrs in dom.with_class("step") for cls in attrs["class"].split())
    assert repr(hostile_step()).startswith("Step(index=3")  # the text repr is unchanged


def test_a_result_displays_escaped_with_its_steps():
    result = RunResult(run_id="r1", task=HOSTILE, answer=HOSTILE, stop_reason=StopReason.max_steps,
                       forced_answer=True, steps=[hostile_step(0), hostile_step(1)], error=HOSTILE, plan=HOSTILE,
                       lessons=[HOSTILE], attempts=2, usage=Usage(prompt_tokens=10, completion_tokens=2))
    dom = Dom(result._repr_html_())
    assert [a["data-index"] for a in dom.with_class("step")] == ["0", "1"]
    assert_inert(dom, scripts=0)
    assert "max_steps (answer forced from the work so far)" in dom.text and "2 steps" in dom.text
    assert dom.text.count(HOSTILE) == 5 + 2 * HOSTILE_FIELDS  # task, answer, error, plan, lesson; two steps


def test_a_memory_context_displays_escaped():
    context = Context(background=HOSTILE, recent=[hostile_step(5)], recall=HOSTILE, retrieved=[1, 2],
                      summary_upto=4, space_runs=[HOSTILE], tokens=321)
    dom = Dom(context._repr_html_())
    assert_inert(dom, scripts=0)
    assert [a["data-target"] for a in dom.tags("a") if "data-target" in a] == ["1", "2"]
    assert "321 tokens" in dom.text and "summary covers steps up to 4" in dom.text
    assert dom.text.count(HOSTILE) == 3 + HOSTILE_FIELDS  # background, recall, notes; the step


# ---- plots ----

def test_plots_have_a_line_or_bar_per_series_and_save(run, tmp_path):
    other = run.model_copy(update={"steps": run.steps[:3]})
    tokens = prompt_tokens_figure({"compact": run, "full": other})
    ax = tokens.axes[0]
    assert len(ax.lines) == 4  # sent and evaluated for each run
    assert list(ax.lines[0].get_ydata()) == [s.usage.prompt_tokens for s in run.steps]
    assert list(ax.lines[1].get_ydata()) == [s.usage.evaluated_prompt_tokens for s in run.steps]
    assert len(prompt_tokens_figure(run).axes[0].lines) == 2

    seconds = step_seconds_figure(run).axes[0]
    assert [len(bars) for bars in seconds.containers] == [len(run.steps)] * 3  # LLM, tool, memory stacked
    assert [bars.get_label() for bars in seconds.containers] == ["LLM", "tool", "memory"]

    similarity = retrieval_similarity_figure([None, 0.5, [0.7, 0.3], []]).axes[0]
    assert len(similarity.lines) == 1 and len(similarity.collections) == 1
    assert len(similarity.collections[0].get_offsets()) == 3

    assert len(run_figure(run).axes) == 2
    combined = run_figure(run, similarities=[[0.5]] * len(run.steps))
    assert len(combined.axes) == 3
    for name, figure in (("tokens", tokens), ("combined", combined)):
        path = tmp_path / f"{name}.png"
        figure.savefig(path)
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 10_000
