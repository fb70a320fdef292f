"""`ponder resume` after a real crash: a `ponder ask` process is killed (SIGKILL, or Ctrl-C's SIGINT) while it
waits on the model for step K, then resumed. Nothing stored may be lost or duplicated, and the resumed run
must see exactly the prompt the killed one was waiting on."""
from __future__ import annotations

import signal
import subprocess
import time

import pytest

from agent.trace import read_trace
from tests.cli_helpers import (
    RUN_TIMEOUT,
    closed_port_url,
    memory_json,
    ponder,
    ponder_env,
    run_id_of,
    start_ponder,
    step,
)
from tests.openai_server import FakeOpenAIServer, Reply, completion

DONE_BEFORE_KILL = 3  # K: steps completed and stored before the process dies waiting on step K
QUESTION = "What is 4+4, after warming up?"
BEFORE = [step(f"Warm-up {n}.", "calculator", f"{n}+{n}") for n in (1, 2, 3)]
AFTER = [step("Now the real one.", "calculator", "4+4"), step("Done.", "Final", "4+4 is 8.")]


def wait_until_stalled(proc: subprocess.Popen, server: FakeOpenAIServer, stderr_path) -> None:
    """Until the process has sent the request for step K (so steps 0..K-1 are stored: memory.add precedes it)."""
    deadline = time.monotonic() + RUN_TIMEOUT
    while len(server.chat_requests()) < DONE_BEFORE_KILL + 1:
        if proc.poll() is not None:
            pytest.fail(f"ponder exited early ({proc.returncode}):\n{stderr_path.read_text()}")
        if time.monotonic() > deadline:
            pytest.fail(f"ponder never reached step {DONE_BEFORE_KILL}:\n{stderr_path.read_text()}")
        time.sleep(0.1)


@pytest.mark.parametrize("sig, exit_code", [(signal.SIGKILL, -signal.SIGKILL), (signal.SIGINT, 130)],
                         ids=["kill-9", "ctrl-c"])
def test_resume_after_the_process_dies_keeps_every_step_once(tmp_path, sig, exit_code):
    # The reply to step K's request never comes while the first process lives (the server holds it).
    stall = Reply(delay=RUN_TIMEOUT)
    with FakeOpenAIServer([completion(text) for text in BEFORE] + [stall]) as server:
        env = ponder_env(tmp_path / "home", server.url, closed_port_url())
        stderr_path = tmp_path / "first.stderr"
        with stderr_path.open("w") as stderr:
            proc = start_ponder(["ask", QUESTION], env, stdout=subprocess.PIPE, stderr=stderr)
            try:
                wait_until_stalled(proc, server, stderr_path)
                proc.send_signal(sig)
                proc.communicate(timeout=30)
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait(timeout=10)
        first_err = stderr_path.read_text()
        assert proc.returncode == exit_code, first_err
        assert "Traceback" not in first_err
        run_id = run_id_of(first_err)
        if sig == signal.SIGINT:
            assert "interrupted" in first_err and f"ponder resume {run_id}" in first_err
            assert memory_json(run_id, env)["run"]["status"] == "interrupted"
        trace = list(read_trace(tmp_path / "home" / "runs" / run_id / "trace.jsonl"))
        recorded = [event["step"] for event in trace if event["type"] == "step_recorded"]
        assert [s["index"] for s in recorded] == list(range(DONE_BEFORE_KILL))

        server.script.extend(completion(text) for text in AFTER)
        resumed = ponder(["resume", run_id], env)

    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout == "4+4 is 8.\n"
    assert f"resuming {run_id} after {DONE_BEFORE_KILL} stored steps" in resumed.stderr
    assert "Traceback" not in resumed.stderr

    requests = [request.body["messages"] for request in server.chat_requests()]
    assert len(requests) == DONE_BEFORE_KILL + 1 + len(AFTER)
    # The resumed run rebuilt, from the store alone, the very prompt the dead process was waiting on.
    assert requests[DONE_BEFORE_KILL + 1] == requests[DONE_BEFORE_KILL]
    last_turn = requests[DONE_BEFORE_KILL + 1][-2]  # the model's own latest step, then its observation
    assert last_turn["role"] == "assistant" and "3+3" in last_turn["content"]

    shown = memory_json(run_id, env)
    steps = [record["step"] for record in shown["steps"]]
    assert [s["index"] for s in steps] == list(range(DONE_BEFORE_KILL + len(AFTER)))  # each index exactly once
    # The stored steps are the ones the first process made, timings included.
    assert steps[:DONE_BEFORE_KILL] == recorded
    assert [s["raw"] for s in steps] == BEFORE + AFTER
    assert [s["observation"] for s in steps] == ["2", "4", "6", "8", ""]
    assert shown["run"]["status"] == "final_answer" and shown["run"]["answer"] == "4+4 is 8."
