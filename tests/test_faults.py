"""LLM faults through the real CLI process and the real loop: a scripted run answers 2 steps, then the
OpenAI-compatible test server (tests/openai_server.py) fails in one way per run. Retryable faults are retried with
backoff within a bounded time; then the run stops with stop reason llm_error, exit 1, one clear line on stderr and
no traceback, every step made before the fault is stored (`ponder memory RUN --json`), and `ponder resume RUN`
finishes the run once the server answers again, losing no step.

All runs go concurrently (one PONDER_HOME and one server each): each phase costs one process start-up, not nine.
"""
from __future__ import annotations

import contextlib
import itertools
import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.cli_helpers import (
    closed_port_url,
    finish,
    ponder_env,
    run_id_of,
    start_ponder,
    step,
)
from tests.openai_server import (
    FakeOpenAIServer,
    Reply,
    completion,
    dropped,
    error,
    truncated,
)

TIMEOUT = 2.0   # PONDER_LLM_TIMEOUT: seconds a request may stay silent
RETRIES = 2     # PONDER_LLM_RETRIES: retries after the first attempt
BACKOFF_BASE, BACKOFF_MAX = 0.5, 20.0  # OpenAIChat's defaults: waits of base * 2**k * U(0.5, 1), or Retry-After
RETRY_AFTER = 1.0
SLACK = 5.0     # scheduling on a busy 2-core machine
QUESTION = "What is 3+3, after warming up?"
GOOD = [step("Warm-up 1.", "calculator", "1+1"), step("Warm-up 2.", "calculator", "2+2")]
FINAL = step("The server is back.", "Final", "3+3 is 6.")
EMPTY_CHOICES = json.dumps({"id": "x", "object": "chat.completion", "created": 0, "model": "scripted",
                            "choices": []})


@dataclass(frozen=True)
class Fault:
    reply: Reply
    retryable: bool
    message: str  # in the one error line


FAULTS = {
    "429-retry-after": Fault(error(429, "rate limited", headers={"Retry-After": f"{RETRY_AFTER:g}"}), True,
                             "HTTP 429: rate limited"),
    "429": Fault(error(429, "rate limited"), True, "HTTP 429: rate limited"),
    "500": Fault(error(500, "internal error"), True, "HTTP 500: internal error"),
    "503": Fault(error(503, "overloaded"), True, "HTTP 503: overloaded"),
    "malformed-json": Fault(Reply(raw_body='{"choices": [{"message": {"content": "cut'), False,
                            "sent an unusable chat completion response"),
    "empty-choices": Fault(Reply(raw_body=EMPTY_CHOICES), False, "returned no choices"),
    "truncated-body": Fault(truncated(), True, "connection lost (peer closed connection"),
    "slow": Fault(completion("too late", delay=60.0), True, f"no answer within {TIMEOUT:g} s (timeout)"),
    "dropped": Fault(dropped(), True, "connection lost (Server disconnected without sending a response"),
}


def attempts(fault: Fault) -> int:
    return RETRIES + 1 if fault.retryable else 1


def max_waits(kind: str) -> float:
    """The longest the client may spend between its first and its last attempt at one call."""
    if not FAULTS[kind].retryable:
        return 0.0
    waits = sum(RETRY_AFTER if kind == "429-retry-after" else min(BACKOFF_BASE * 2 ** k, BACKOFF_MAX)
                for k in range(RETRIES))
    return waits + (RETRIES * TIMEOUT if kind == "slow" else 0.0)


def min_waits(kind: str) -> list[float]:
    """The least time between consecutive attempts: the backoff (jitter takes at most half off) or Retry-After,
    after the timeout itself for a slow server."""
    if kind == "429-retry-after":
        return [RETRY_AFTER] * RETRIES
    return [(TIMEOUT if kind == "slow" else 0.0) + BACKOFF_BASE * 2 ** k * 0.5 for k in range(RETRIES)]


def in_parallel(commands: dict[str, list[str]], envs: dict[str, dict]) -> dict[str, subprocess.CompletedProcess]:
    procs = {kind: start_ponder(args, envs[kind], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for kind, args in commands.items()}
    return {kind: finish(proc) for kind, proc in procs.items()}


class FaultRuns:
    def __init__(self, tmp: Path):
        self.servers = {kind: FakeOpenAIServer([completion(text) for text in GOOD] + [fault.reply] * attempts(fault))
                        for kind, fault in FAULTS.items()}
        self.envs = {}
        for kind, server in self.servers.items():
            env = ponder_env(tmp / kind, server.url, closed_port_url())
            env.update(PONDER_LLM_TIMEOUT=f"{TIMEOUT:g}", PONDER_LLM_RETRIES=str(RETRIES))
            self.envs[kind] = env
        with contextlib.ExitStack() as stack:
            for server in self.servers.values():
                stack.enter_context(server)
            self.asked = in_parallel({kind: ["ask", QUESTION] for kind in FAULTS}, self.envs)
            self.fault_requests = {kind: server.chat_requests()[len(GOOD):] for kind, server in self.servers.items()}
            self.run_ids = {kind: run_id_of(proc.stderr) for kind, proc in self.asked.items()}
            self.stored = in_parallel({kind: ["memory", self.run_ids[kind], "--json"] for kind in FAULTS}, self.envs)
            for server in self.servers.values():  # the server answers again
                server.script.append(completion(FINAL))
            self.resumed = in_parallel({kind: ["resume", self.run_ids[kind], "--json", "-q"] for kind in FAULTS},
                                       self.envs)

    def stored_json(self, kind: str) -> dict:
        proc = self.stored[kind]
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)

    def resumed_json(self, kind: str) -> dict:
        proc = self.resumed[kind]
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)

    def steps_lost(self, kind: str) -> int:
        """Steps made before the fault that are not, unchanged, in the finished run."""
        before = [s["step"] for s in self.stored_json(kind)["steps"]]
        after = {s["index"]: s for s in self.resumed_json(kind)["steps"]} if self.resumed[kind].returncode == 0 else {}
        made = len(GOOD)
        kept = sum(1 for s in before if after.get(s["index"], {}).get("raw") == s["raw"])
        return made - kept


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> FaultRuns:
    return FaultRuns(tmp_path_factory.mktemp("faults"))


@pytest.mark.parametrize("kind", FAULTS)
def test_a_fault_stops_the_run_with_one_clear_line(runs, kind):
    proc, fault = runs.asked[kind], FAULTS[kind]
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    assert "stop: llm_error" in proc.stderr
    lines = [line for line in proc.stderr.splitlines() if fault.message in line]
    assert len(lines) == 1, proc.stderr  # the error, said once, on one line
    assert lines[0].startswith("error: ") and runs.servers[kind].url in lines[0]
    if fault.retryable:
        assert f"after {attempts(fault)} attempts" in lines[0]
    assert proc.stderr.strip().splitlines()[-1] == f"continue with: ponder resume {runs.run_ids[kind]}"


@pytest.mark.parametrize("kind", FAULTS)
def test_retryable_faults_are_retried_with_backoff_within_a_bounded_time(runs, kind):
    fault, requests = FAULTS[kind], runs.fault_requests[kind]
    assert len(requests) == attempts(fault)  # retried exactly as configured; the rest never retried
    arrivals = [request.at for request in requests]
    gaps = [later - earlier for earlier, later in itertools.pairwise(arrivals)]
    for gap, least in zip(gaps, min_waits(kind)):
        assert gap >= least - 0.05, (gaps, min_waits(kind))
    assert arrivals[-1] - arrivals[0] <= max_waits(kind) + SLACK, gaps
    assert all(request.body["messages"] == requests[0].body["messages"] for request in requests)  # same call


@pytest.mark.parametrize("kind", FAULTS)
def test_every_step_before_the_fault_is_stored(runs, kind):
    shown = runs.stored_json(kind)
    assert shown["run"]["status"] == "llm_error"
    steps = [record["step"] for record in shown["steps"]]
    assert [(s["index"], s["raw"], s["observation"]) for s in steps] == [(0, GOOD[0], "2"), (1, GOOD[1], "4")]


@pytest.mark.parametrize("kind", FAULTS)
def test_resume_finishes_the_run_once_the_server_answers(runs, kind):
    proc = runs.resumed[kind]
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert f"resuming {runs.run_ids[kind]} after {len(GOOD)} stored steps" in proc.stderr
    result = runs.resumed_json(kind)
    assert result["stop_reason"] == "final_answer" and result["answer"] == "3+3 is 6."
    assert [s["raw"] for s in result["steps"]] == [*GOOD, FINAL]
    assert [s["index"] for s in result["steps"]] == [0, 1, 2]
    assert runs.steps_lost(kind) == 0
    # The resumed call is the very prompt the fault interrupted.
    last = runs.servers[kind].chat_requests()[-1].body["messages"]
    assert last == runs.fault_requests[kind][0].body["messages"]


def test_fault_figures(runs):
    """Faults injected by kind, runs resumed and steps lost (run with -s to see the table)."""
    rows = [(kind, len(runs.fault_requests[kind]), runs.resumed[kind].returncode == 0, runs.steps_lost(kind))
            for kind in FAULTS]
    print("\nfault kind         injected  resumed  steps lost")
    for kind, injected, resumed, lost in rows:
        print(f"{kind:<18} {injected:>8}  {'yes' if resumed else 'NO':>7}  {lost:>10}")
    total_injected = sum(row[1] for row in rows)
    resumed = sum(row[2] for row in rows)
    lost = sum(row[3] for row in rows)
    print(f"{'total':<18} {total_injected:>8}  {resumed:>4}/{len(rows)}  {lost:>10}")
    assert resumed == len(FAULTS) and lost == 0
    assert total_injected == sum(attempts(fault) for fault in FAULTS.values())
