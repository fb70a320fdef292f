"""`ponder` end to end: the real CLI in a subprocess, a scripted OpenAI-compatible server and the MediaWiki
test server on 127.0.0.1, real Chroma under a temporary PONDER_HOME. Asserts exit codes and what goes to
stdout (the result only) and stderr (steps, messages).

Every `ask` subprocess pays Python + Chroma + embedder start-up, so the runs are shared by module fixtures
and the independent ones run concurrently.
"""
from __future__ import annotations

import contextlib
import json
import subprocess
from pathlib import Path

import pytest

from tests.cli_helpers import (  # noqa: F401
    PONDER,
    ROOT,
    RUN_ID,
    RUN_TIMEOUT,
    assert_clean_failure,
    closed_port_url,
    finish,
    memory_json,
    ponder,
    ponder_command,
    ponder_env,
    run_id_of,
    start_ponder,
    step,
)
from tests.mediawiki_server import MediaWikiServer
from tests.openai_server import FakeOpenAIServer, completion

# ---- shared runs -------------------------------------------------------------------------------------------

ANSWER = "Thomas Edison was born in 1847; 15 squared is 225."
# More steps than the recent window, so later prompts retrieve the oldest steps from Chroma.
LIMITED = [step(f"Multiply {n} by seven.", "calculator", f"{n}*7") for n in range(1, 8)]
SUMMARY = "Facts: Edison was born in 1847 (step 0). 15**2 = 225 (step 1).\nSources: Thomas Edison"


class Runs:
    """The `ask` runs of this module, each with its own servers and PONDER_HOME, run concurrently."""

    def __init__(self, tmp: Path, wiki: MediaWikiServer):
        researched = [step("I look Edison up.", "wikipedia_summary", "Thomas Edison"),
                      step("Now the arithmetic.", "calculator", "15**2"),
                      step("I have both parts.", "Final", ANSWER)]
        self.servers = {
            "default": FakeOpenAIServer([completion(text) for text in researched]),
            "json": FakeOpenAIServer([completion(step("Easy.", "calculator", "2+3")),
                                      completion(step("Done.", "Final", "2+3 is 5."))]),
            "limit": FakeOpenAIServer([completion(text) for text in LIMITED] + [completion("My best answer: 49.")]),
            "remember": FakeOpenAIServer([completion(text) for text in researched] + [completion(SUMMARY)]),
            "compact": FakeOpenAIServer([completion(text) for text in LIMITED] + [completion("My best answer: 49.")]),
            "aux": FakeOpenAIServer([completion(text) for text in researched] + [completion(SUMMARY)]),
        }
        question = "When was Thomas Edison born, and what is 15**2?"
        commands = {
            "default": ["ask", question],
            "json": ["ask", "What is 2+3?", "--json", "-q", "--memory", "window"],
            "limit": ["ask", "Multiply by seven forever", "--max-steps", str(len(LIMITED)), "--memory", "retrieval"],
            "remember": ["ask", question, "--remember", "facts"],
            "aux": ["ask", question, "--remember", "facts", "--aux-model", "small-model", "--check", "numbers,names"],
            "compact": ["ask", "Multiply by seven forever", "--max-steps", str(len(LIMITED)), "--memory", "compact",
                        "--ctx", "8192"],
            "unreachable": ["ask", "What is 2+3?", "-q"],
        }
        self.homes = {name: tmp / name for name in commands}
        self.envs = {name: ponder_env(self.homes[name], self.servers[name].url if name in self.servers
                                      else closed_port_url(), wiki.api_url) for name in commands}
        with contextlib.ExitStack() as stack:
            for server in self.servers.values():
                stack.enter_context(server)
            procs = {name: start_ponder(args, self.envs[name], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                     for name, args in commands.items()}
            self.results = {name: finish(proc) for name, proc in procs.items()}

    def requests(self, name: str) -> list[list[dict]]:
        """The message lists the scripted server received for that run."""
        return [request.body["messages"] for request in self.servers[name].chat_requests()]


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Runs:
    with MediaWikiServer() as wiki:
        return Runs(tmp_path_factory.mktemp("cli"), wiki)


# ---- ask ---------------------------------------------------------------------------------------------------

def test_ask_prints_the_answer_alone_on_stdout_and_the_steps_on_stderr(runs):
    proc = runs.results["default"]
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ANSWER + "\n"
    assert "Traceback" not in proc.stderr
    err = proc.stderr
    assert "memory: compact" in err  # the default strategy
    run_id = run_id_of(err)
    assert f"trace: {runs.homes['default'] / 'runs' / run_id / 'trace.jsonl'}" in err  # whole, never wrapped
    for text in ("step 0", "Action: wikipedia_summary", "American inventor", "step 1", "Observation: 225",
                 "step 2", "stop: final_answer"):
        assert text in err, text
    assert err.index("step 0") < err.index("step 1") < err.index("step 2")
    # The wiki tool really ran against the loopback MediaWiki server; its result reached the next prompt.
    second_prompt = runs.requests("default")[1][-1]["content"]
    assert "American inventor" in second_prompt and "Thomas Edison" in second_prompt
    assert len(runs.requests("default")) == 3  # no summariser call in a 3-step run without --remember


def test_ask_json_quiet_prints_valid_json_and_no_steps(runs):
    proc = runs.results["json"]
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["answer"] == "2+3 is 5."
    assert result["stop_reason"] == "final_answer"
    assert [(s["index"], s["action"], s["observation"]) for s in result["steps"]] == [
        (0, "calculator", "5"), (1, "Final", "")]
    assert "step 0" not in proc.stderr and "Thought" not in proc.stderr and "Traceback" not in proc.stderr


def test_step_limit_prints_the_forced_answer_and_exits_3(runs):
    proc = runs.results["limit"]
    assert proc.returncode == 3, proc.stderr
    assert proc.stdout == "My best answer: 49.\n"
    assert "stopped: max_steps" in proc.stderr and "answer forced from the work so far" in proc.stderr
    requests = runs.requests("limit")
    assert len(requests) == len(LIMITED) + 1
    forced_prompt = requests[-1][-1]["content"]
    assert "run out of steps" in forced_prompt and "7*7" in forced_prompt


def test_compact_memory_sends_prompts_that_only_grow_at_their_end(runs):
    proc = runs.results["compact"]
    assert proc.returncode == 3 and proc.stdout == "My best answer: 49.\n", proc.stderr
    assert "memory: compact" in proc.stderr
    steps = runs.requests("compact")[:len(LIMITED)]
    for before, after in zip(steps, steps[1:]):  # a short task: no compaction, each prompt extends the last
        assert after[:len(before)] == before and len(after) == len(before) + 2


def test_unreachable_server_is_a_clear_error(runs):
    proc = runs.results["unreachable"]
    assert_clean_failure(proc, 1, "cannot connect")
    assert "OPENAI_BASE_URL" in proc.stderr


def test_remember_with_the_default_strategy_calls_the_summariser(runs):
    proc = runs.results["remember"]
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ANSWER + "\n"
    requests = runs.requests("remember")
    assert len(requests) == 4
    summariser_prompt = requests[3]
    assert summariser_prompt[0]["content"].startswith("You keep the working notes")
    assert "American inventor" in summariser_prompt[1]["content"]
    shown = memory_json(run_id_of(proc.stderr), runs.envs["remember"])
    assert [(s["first"], s["upto"], s["text"]) for s in shown["summaries"]] == [(0, 2, SUMMARY)]
    assert shown["run"]["space"] == "facts"


def test_side_work_goes_to_the_aux_model(runs):
    proc = runs.results["aux"]
    assert proc.returncode == 0 and proc.stdout == ANSWER + "\n", proc.stderr
    assert "side work: openai:small-model" in proc.stderr
    models = [request.body["model"] for request in runs.servers["aux"].chat_requests()]
    assert models == ["scripted"] * 3 + ["small-model"]  # three steps, then the summariser
    assert runs.requests("aux")[3][0]["content"].startswith("You keep the working notes")


# ---- bad input ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (["ask", "   "], "the question is empty"),
    (["ask", "q", "--max-steps", "0"], "must be at least 1"),
    (["ask", "q", "--max-steps", "abc"], "not a whole number: 'abc'"),
    (["ask", "q", "--max-seconds", "-1"], "must be more than 0 seconds"),
    (["ask", "q", "--max-seconds", "nan"], "must be more than 0 seconds"),
    (["ask", "q", "--remember", "bad!name"], "invalid memory space 'bad!name'"),
    (["ask", "q", "--no-such-flag"], "unrecognized arguments: --no-such-flag"),
    (["ask", "q", "--ctx", "0"], "must be at least 1"),
    (["ask", "q", "--check", "numbers,vibes"], "unknown final-answer check vibes"),
    (["ask", "q", "--memory", "everything"], "invalid choice: 'everything'"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
    ([], "the following arguments are required"),
])
def test_bad_input_exits_2_with_one_clear_line(tmp_path, args, message):
    proc = ponder(args, ponder_env(tmp_path, closed_port_url()))
    assert_clean_failure(proc, 2, message)
    lines = [line for line in proc.stderr.strip().splitlines() if not line.startswith("model: ")]  # the run's header
    assert len(lines) == 1, proc.stderr  # one line: no usage block, no traceback


# ---- trace -------------------------------------------------------------------------------------------------

def test_trace_by_run_id_and_by_file(runs):
    env, home = runs.envs["default"], runs.homes["default"]
    run_id = run_id_of(runs.results["default"].stderr)
    trace_file = home / "runs" / run_id / "trace.jsonl"
    assert trace_file.is_file()
    by_id, by_file = ponder(["trace", run_id], env), ponder(["trace", str(trace_file)], env)
    by_dir = ponder(["trace", str(trace_file.parent)], env)
    assert by_id.returncode == by_file.returncode == by_dir.returncode == 0, by_id.stderr + by_file.stderr
    assert by_id.stdout == by_file.stdout == by_dir.stdout
    out = by_id.stdout
    for text in ("step 0", "prompt: 2 messages", "Action: wikipedia_summary", "Observation: Thomas Edison (live",
                 "American inventor", "step 2", f"Answer: {ANSWER}"):
        assert text in out, text
    assert out.index("step 0") < out.index("step 1") < out.index("Answer:")


def test_trace_missing_exits_2(runs):
    proc = ponder(["trace", "no-such-run"], runs.envs["default"])
    assert_clean_failure(proc, 2, "no trace at 'no-such-run'")


@pytest.mark.parametrize("content", ["this is not json\n{\"type\": \"final\"}\n", "not json at all\n", "[1, 2]\n", ""])
def test_trace_of_a_garbage_file_exits_2(tmp_path, content):
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text(content)
    proc = ponder(["trace", str(garbage)], ponder_env(tmp_path, closed_port_url()))
    assert_clean_failure(proc, 2, "is not a Ponder trace")


# ---- memory ------------------------------------------------------------------------------------------------

def test_memory_lists_the_run(runs):
    env, run_id = runs.envs["default"], run_id_of(runs.results["default"].stderr)
    table = ponder(["memory"], env)
    assert table.returncode == 0, table.stderr
    assert run_id in table.stdout and "final_answer" in table.stdout
    listed = ponder(["memory", "--json"], env)
    assert [(r["run_id"], r["steps"], r["strategy"]) for r in json.loads(listed.stdout)] == [
        (run_id, 3, "compact")]


def test_memory_of_a_run_shows_its_steps_and_what_was_retrieved(runs):
    env, run_id = runs.envs["default"], run_id_of(runs.results["default"].stderr)
    shown = memory_json(run_id, env)
    assert shown["run"]["answer"] == ANSWER and shown["run"]["status"] == "final_answer"
    steps = shown["steps"]
    assert [s["step"]["index"] for s in steps] == [0, 1, 2]
    assert [s["step"]["action"] for s in steps] == ["wikipedia_summary", "calculator", "Final"]
    assert all(s["context_tokens"] is not None for s in steps[1:])  # memory's share of each later prompt
    readable = ponder(["memory", run_id], env)
    assert readable.returncode == 0, readable.stderr
    assert "step 0" in readable.stdout and "retrieved steps:" in readable.stdout
    assert f"Answer: {ANSWER}" in readable.stdout


def test_memory_shows_steps_retrieved_from_beyond_the_recent_window(runs):
    env, run_id = runs.envs["limit"], run_id_of(runs.results["limit"].stderr)
    steps = memory_json(run_id, env)["steps"]
    assert [s["step"]["index"] for s in steps] == list(range(len(LIMITED)))
    for record in steps:
        assert all(earlier < record["step"]["index"] for earlier in record["retrieved"]), record
    retrieved = steps[-1]["retrieved"]
    assert retrieved, "the last prompt retrieved no older step"
    # The retrieved steps really were in that prompt, under their own heading with the question, not among
    # the recent steps (the conversation's latest turns).
    last_prompt = runs.requests("limit")[len(LIMITED) - 1]
    relevant, recent = last_prompt[1]["content"], " ".join(m["content"] for m in last_prompt[2:])
    assert "Relevant earlier steps:" in relevant and [m["role"] for m in last_prompt[2:4]] == ["assistant", "user"]
    for earlier in retrieved:
        assert f"{earlier + 1}*7" in relevant and f"{earlier + 1}*7" not in recent
    readable = ponder(["memory", run_id], env)
    assert f"retrieved steps: {', '.join(map(str, steps[-1]['retrieved']))}" in readable.stdout


@pytest.mark.parametrize("run_id", ["20990101-000000-abcdef", "../etc"])
def test_memory_of_an_unknown_run_exits_2(tmp_path, run_id):
    proc = ponder(["memory", run_id], ponder_env(tmp_path, closed_port_url()))
    assert_clean_failure(proc, 2, "run")


def test_resume_of_a_finished_run_exits_2(runs):
    env, run_id = runs.envs["json"], json.loads(runs.results["json"].stdout)["run_id"]
    proc = ponder(["resume", run_id], env)
    assert_clean_failure(proc, 2, "already finished")
