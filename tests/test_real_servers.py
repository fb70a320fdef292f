"""`ponder` against real servers that the tests start and stop (tests/server_process.py): a real Chroma server
(`chroma run`) for memory, and either a real llama.cpp OpenAI-compatible server (the embedded model behind
`python -m llama_cpp.server`) or the scripted fake OpenAI server for the LLM.

Nothing is configured beyond what a user would set: PONDER_CHROMA_HOST/PORT (and TOKEN) and OPENAI_BASE_URL.
Every test also checks that the embedded store ($PONDER_HOME/chroma) was never created: the server held it all.
"""
from __future__ import annotations

import contextlib
import itertools
import json
import subprocess
import threading
import time

import pytest

from tests.cli_helpers import (
    RUN_TIMEOUT,
    finish,
    memory_json,
    ponder,
    ponder_env,
    run_id_of,
    start_ponder,
    step,
)
from tests.openai_server import FakeOpenAIServer, Reply, completion, error
from tests.server_process import (
    HOST,
    TokenProxy,
    chroma_server,
    free_port,
    llama_cpp_server,
    register,
)

# The real-model test: the llama.cpp server runs the same fixed thread count as the in-process model tests.
LLAMA_THREADS = 2
LLAMA_RUN_TIMEOUT = 900  # seconds for one `ponder ask` with a real 1.5B model on a busy 2-core machine

DONE_BEFORE_STOP = 3  # K: steps completed and stored before the process waits on step K's reply
QUESTION = "What is 4+4, after warming up?"
BEFORE = [step(f"Warm-up {n}.", "calculator", f"{n}+{n}") for n in (1, 2, 3)]
AFTER = [step("Now the real one.", "calculator", "4+4"), step("Done.", "Final", "4+4 is 8.")]


# ---- fixtures ----------------------------------------------------------------------------------------------

@pytest.fixture
def chroma(request, tmp_path):
    """A real Chroma server on a free port, its data under tmp_path; stop() and start() again keep both."""
    server = chroma_server(tmp_path / "chroma-data", tmp_path / "chroma-server.log")
    register(request, server)
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def llama_server(request, model_path, tmp_path_factory):
    """The embedded GGUF served by llama-cpp-python's OpenAI-compatible server (its `server` extra)."""
    import llama_cpp.server.app  # noqa: F401  (the local extra's server: fail, not skip, when it is missing)
    server = llama_cpp_server(model_path, tmp_path_factory.mktemp("llama-server") / "llama-server.log",
                              threads=LLAMA_THREADS)
    register(request, server)
    server.start()
    yield server
    server.stop()


def on_server(env: dict[str, str], port: int, token: str | None = None) -> dict[str, str]:
    """env, with Ponder's memory on the Chroma server at 127.0.0.1:port."""
    env = {**env, "PONDER_CHROMA_HOST": HOST, "PONDER_CHROMA_PORT": str(port)}
    env.pop("PONDER_CHROMA_TOKEN", None)
    if token is not None:
        env["PONDER_CHROMA_TOKEN"] = token
    return env


class Held:
    """A scripted model whose reply to one request (by arrival order) waits until `release()`."""

    def __init__(self, replies: list[str], hold: int):
        self.replies, self.hold = replies, hold
        self.released = threading.Event()
        self._count = itertools.count()

    def release(self) -> None:
        self.released.set()

    def __call__(self, body) -> Reply:
        n = next(self._count)  # itertools.count is atomic under the GIL
        if n == self.hold:
            self.released.wait(RUN_TIMEOUT)
        return completion(self.replies[n]) if n < len(self.replies) else error(500, "test script exhausted")


def wait_for_requests(server: FakeOpenAIServer, count: int, proc: subprocess.Popen, stderr_path) -> None:
    deadline = time.monotonic() + RUN_TIMEOUT
    while len(server.chat_requests()) < count:
        if proc.poll() is not None:
            pytest.fail(f"ponder exited early ({proc.returncode}):\n{stderr_path.read_text()}")
        if time.monotonic() > deadline:
            pytest.fail(f"ponder never sent request {count}:\n{stderr_path.read_text()}")
        time.sleep(0.1)


def error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("ponder:")]


def assert_one_line_failure(proc: subprocess.CompletedProcess, *parts: str) -> str:
    assert proc.returncode == 1, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.stdout == ""
    lines = error_lines(proc.stderr)
    assert len(lines) == 1, proc.stderr
    for part in parts:
        assert part in lines[0], proc.stderr
    return lines[0]


def raws(shown: dict) -> list[str]:
    return [record["step"]["raw"] for record in shown["steps"]]


def indices(shown: dict) -> list[int]:
    return [record["step"]["index"] for record in shown["steps"]]


# ---- the real model behind a real llama.cpp server ---------------------------------------------------------

@pytest.mark.slow
def test_ask_end_to_end_on_a_real_chroma_server_and_a_real_llama_cpp_server(tmp_path, chroma, llama_server):
    home = tmp_path / "home"
    env = on_server(ponder_env(home, f"{llama_server.url}/v1"), chroma.port)
    env.pop("PONDER_MODEL")  # the model is the one the server serves (GET /v1/models), as for any user
    env["PONDER_LLM_TIMEOUT"] = str(LLAMA_RUN_TIMEOUT)  # one request on a busy machine; not a behaviour change
    proc = start_ponder(["ask", "What is 15 raised to the power of 2?"], env,
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    done = finish(proc, timeout=LLAMA_RUN_TIMEOUT)
    out, err = done.stdout, done.stderr

    # The grammar is the local backend's: through a server the model writes free text, and its path may differ
    # from the in-process one. It must still answer: a run stopped by a limit (exit 3) is a failure here, not a
    # pass, however close its forced answer came. Its steps are stored on the Chroma server.
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert "225" in out, (out, err)
    run_id = run_id_of(err)
    shown = memory_json(run_id, env)
    assert shown["run"]["task"] == "What is 15 raised to the power of 2?"
    assert len(shown["steps"]) >= 1
    assert shown["steps"][-1]["step"]["action"] == "Final"
    assert not (home / "chroma").exists()


# ---- the real Chroma server with the scripted model --------------------------------------------------------

def test_resume_continues_a_killed_run_from_the_chroma_server(tmp_path, chroma):
    home = tmp_path / "home"
    with FakeOpenAIServer([completion(text) for text in BEFORE] + [Reply(delay=RUN_TIMEOUT)]) as llm:
        env = on_server(ponder_env(home, llm.url), chroma.port)
        stderr_path = tmp_path / "first.stderr"
        with stderr_path.open("w") as stderr:
            proc = start_ponder(["ask", QUESTION], env, stdout=subprocess.PIPE, stderr=stderr)
            try:
                wait_for_requests(llm, DONE_BEFORE_STOP + 1, proc, stderr_path)
                proc.kill()  # kill -9 while it waits on the model for step K
            finally:
                proc.communicate(timeout=30)
        run_id = run_id_of(stderr_path.read_text())
        stored = memory_json(run_id, env)
        assert indices(stored) == list(range(DONE_BEFORE_STOP)) and raws(stored) == BEFORE

        llm.script.extend(completion(text) for text in AFTER)
        resumed = ponder(["resume", run_id], env)

    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout == "4+4 is 8.\n"
    assert f"resuming {run_id} after {DONE_BEFORE_STOP} stored steps" in resumed.stderr
    requests = [request.body["messages"] for request in llm.chat_requests()]
    assert requests[DONE_BEFORE_STOP + 1] == requests[DONE_BEFORE_STOP]  # rebuilt from the server's steps alone
    shown = memory_json(run_id, env)
    assert indices(shown) == list(range(len(BEFORE + AFTER))) and raws(shown) == BEFORE + AFTER
    assert shown["run"]["status"] == "final_answer" and shown["run"]["answer"] == "4+4 is 8."
    assert not (home / "chroma").exists()


def test_four_concurrent_runs_on_one_chroma_server_keep_to_their_own_steps(tmp_path, chroma):
    # Each run its own scripted model; all four hold their first reply until every one has asked, so the
    # four processes are mid-run on the one server at once, then write their steps interleaved.
    bases = (11, 21, 31, 41)
    questions = {base: f"What is {base}*2, after warming up?" for base in bases}
    scripts = {base: [step(f"Warm-up {base}+{j}.", "calculator", f"{base}+{j}") for j in (1, 2)]
               + [step(f"Now {base}*2.", "calculator", f"{base}*2"), step("Done.", "Final", f"{base}*2 is {base * 2}.")]
               for base in bases}
    everyone_asked = threading.Barrier(len(bases))

    def model(base: int):
        counter = itertools.count()

        def reply(body) -> Reply:
            n = next(counter)
            if n == 0:
                everyone_asked.wait(RUN_TIMEOUT)
            return completion(scripts[base][n]) if n < len(scripts[base]) else error(500, "test script exhausted")
        return FakeOpenAIServer(responder=reply)

    home = tmp_path / "home"  # one PONDER_HOME too, as one user's concurrent runs would share it
    llms = {base: model(base) for base in bases}
    procs: dict[int, subprocess.Popen] = {}
    with contextlib.ExitStack() as stack:
        for llm in llms.values():
            stack.enter_context(llm)
        try:
            for base in bases:
                procs[base] = start_ponder(["ask", questions[base]],
                                           on_server(ponder_env(home, llms[base].url), chroma.port),
                                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            done = {base: proc.communicate(timeout=RUN_TIMEOUT * 2) for base, proc in procs.items()}
        finally:
            for proc in procs.values():
                if proc.poll() is None:
                    proc.kill()
                    proc.communicate()

    env = on_server(ponder_env(home, llms[bases[0]].url), chroma.port)
    run_ids = {}
    for base, (out, err) in done.items():
        assert procs[base].returncode == 0, err
        assert out == f"{base}*2 is {base * 2}.\n"
        run_ids[base] = run_id_of(err)
    assert len(set(run_ids.values())) == len(bases)
    for base, run_id in run_ids.items():
        shown = memory_json(run_id, env)
        assert shown["run"]["task"] == questions[base]
        assert indices(shown) == list(range(len(scripts[base])))
        assert raws(shown) == scripts[base]  # its own steps, each once, and nobody else's
    listed = ponder(["memory", "--json"], env)
    assert listed.returncode == 0, listed.stderr
    assert {run["run_id"] for run in json.loads(listed.stdout)} == set(run_ids.values())
    assert not (home / "chroma").exists()


# ---- Chroma server faults ----------------------------------------------------------------------------------

def test_chroma_server_stopping_mid_run_is_a_clear_error_and_the_run_resumes(tmp_path, chroma):
    home = tmp_path / "home"
    # Step K's reply is held while the server stops; the first process gets it and cannot store the step.
    # The resumed run asks for step K again and goes on.
    held = Held(BEFORE + AFTER[:1] + AFTER, hold=DONE_BEFORE_STOP)
    with FakeOpenAIServer(responder=held) as llm:
        env = on_server(ponder_env(home, llm.url), chroma.port)
        stderr_path = tmp_path / "first.stderr"
        with stderr_path.open("w") as stderr:
            proc = start_ponder(["ask", QUESTION], env, stdout=subprocess.PIPE, stderr=stderr)
            try:
                wait_for_requests(llm, DONE_BEFORE_STOP + 1, proc, stderr_path)
                chroma.stop()
                held.release()
                out, _ = proc.communicate(timeout=RUN_TIMEOUT)
            finally:
                held.release()
                if proc.poll() is None:
                    proc.kill()
                    proc.communicate()
        first = subprocess.CompletedProcess(proc.args, proc.returncode, out, stderr_path.read_text())
        line = assert_one_line_failure(first, f"{HOST}:{chroma.port}")
        assert "Chroma server" in line
        run_id = run_id_of(first.stderr)
        assert f"ponder resume {run_id}" in first.stderr

        chroma.start()  # the same data directory, the same port
        stored = memory_json(run_id, env)
        assert indices(stored) == list(range(DONE_BEFORE_STOP)) and raws(stored) == BEFORE  # nothing lost
        assert stored["run"]["status"] not in ("final_answer", "finished")

        resumed = ponder(["resume", run_id], env)

    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout == "4+4 is 8.\n"
    assert f"resuming {run_id} after {DONE_BEFORE_STOP} stored steps" in resumed.stderr
    shown = memory_json(run_id, env)
    assert indices(shown) == list(range(len(BEFORE + AFTER))) and raws(shown) == BEFORE + AFTER
    assert shown["run"]["status"] == "final_answer"
    assert not (home / "chroma").exists()


def test_wrong_chroma_port_is_one_clear_line(tmp_path):
    port = free_port()  # released: nothing listens there
    with FakeOpenAIServer([]) as llm:
        env = on_server(ponder_env(tmp_path / "home", llm.url), port)
        for args in (["ask", QUESTION], ["memory"], ["resume", "20260101-000000-abcdef"]):
            line = assert_one_line_failure(ponder(args, env), f"{HOST}:{port}")
            assert "cannot reach the Chroma server" in line and "resume" not in line
        assert llm.chat_requests() == []  # it stopped before asking the model anything
    assert not (tmp_path / "home" / "chroma").exists()


def test_chroma_token_is_sent_and_a_wrong_one_is_one_clear_line(tmp_path, chroma):
    # `chroma run` (chromadb 1.x) has no token auth of its own: CHROMA_SERVER_AUTHN_PROVIDER/CREDENTIALS are
    # ignored and every request is served. Chroma's docs for 1.x put a token-checking proxy in front of the
    # server; so do we, and Ponder must send PONDER_CHROMA_TOKEN on every request and report a refusal clearly.
    token = "right-token-3f9a"
    home = tmp_path / "home"
    with TokenProxy(chroma.port, token) as proxy, FakeOpenAIServer(
            [completion(step("Easy.", "calculator", "2+3")), completion(step("Done.", "Final", "2+3 is 5."))]) as llm:
        env = on_server(ponder_env(home, llm.url), proxy.port, token=token)
        answered = ponder(["ask", "What is 2+3?"], env)
        assert answered.returncode == 0, answered.stderr
        assert answered.stdout == "2+3 is 5.\n"
        assert len(memory_json(run_id_of(answered.stderr), env)["steps"]) == 2

        for wrong in ("wrong-token-77c1", None):
            for args in (["memory"], ["ask", "What is 2+3?"]):
                refused = ponder(args, on_server(env, proxy.port, token=wrong))
                line = assert_one_line_failure(refused, f"{HOST}:{proxy.port}", "PONDER_CHROMA_TOKEN")
                assert "refused" in line
                assert token not in refused.stderr and (wrong is None or wrong not in refused.stderr)
    assert not (home / "chroma").exists()
