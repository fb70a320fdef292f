"""Tools that need approval: a callback decides in code, a person at the terminal in the CLI (a real pty); a denied
call never runs, becomes an observation, and the decision is in the step, the trace and the store."""
from __future__ import annotations

import json
import subprocess
import sys

import pexpect

from agent.config import AgentConfig
from agent.llm.replay import Replay
from agent.loop import Agent
from agent.trace import read_trace
from core.schema import StopReason
from tests.cli_helpers import RUN_TIMEOUT, memory_json, ponder_command, ponder_env, step
from tests.openai_server import FakeOpenAIServer, completion
from tools.base import ToolRegistry, tool
from tools.calculator import calculator

calls: list[str] = []


@tool(needs_approval=True)
def send_email(to: str) -> str:
    """Send an email (a tool with side effects: every call needs approval)."""
    calls.append(to)
    return f"sent to {to}"


def registry() -> ToolRegistry:
    return ToolRegistry([calculator, send_email])


def test_a_callback_approves_or_denies_each_call_and_the_trace_records_it(tmp_path):
    calls.clear()
    asked: list[tuple[str, str]] = []

    def approver(name: str, action_input: str) -> bool:
        asked.append((name, action_input))
        return action_input == "ada@example.org"

    llm = Replay([step("Mail Bob.", "send_email", "bob@example.org"), step("Mail Ada.", "send_email", "ada@example.org"),
                  step("Add.", "calculator", "1+1"), step("Done.", "Final", "Mailed Ada; Bob was not allowed.")])
    result = Agent(llm, registry(), config=AgentConfig(approver=approver, trace_dir=tmp_path)).run("Mail them")
    assert asked == [("send_email", "bob@example.org"), ("send_email", "ada@example.org")]  # the calculator runs freely
    assert calls == ["ada@example.org"]  # the denied call never ran
    denied, approved, free = result.steps[:3]
    assert (denied.outcome, denied.approval) == ("tool_denied", "denied")
    assert denied.observation.startswith("Denied: the user did not allow send_email")
    assert (approved.outcome, approved.approval, approved.observation) == ("tool", "approved", "sent to ada@example.org")
    assert free.approval == ""
    recorded = [e["step"]["approval"] for e in read_trace(result.trace_path) if e["type"] == "step_recorded"]
    assert recorded == ["denied", "approved", "", ""]


def test_without_an_approver_every_call_that_needs_approval_is_denied_and_asking_again_is_a_repeat():
    calls.clear()
    llm = Replay([step("Mail.", "send_email", "bob@example.org")] * 5 + ["I could not send it."])
    result = Agent(llm, registry(), config=AgentConfig(repeat_limit=2)).run("Mail Bob")
    assert calls == [] and result.steps[0].approval == "denied"
    assert result.stop_reason is StopReason.repeated_action  # a denied call asked for again and again is a loop


def spawn(args, env):
    command = ponder_command(*args)
    child = pexpect.spawn(command[0], command[1:], env={**env, "TERM": "dumb", "COLUMNS": "200"}, encoding="utf-8",
                          timeout=60, dimensions=(50, 200))
    child.logfile_read = sys.stdout
    return child


def test_the_person_at_the_terminal_approves_or_denies(tmp_path):
    script = [step("First try.", "calculator", "6*7"), step("Again.", "calculator", "7*6"),
              step("Done.", "Final", "6 times 7 is 42.")]
    with FakeOpenAIServer([completion(text) for text in script]) as server:
        env = ponder_env(tmp_path / "home", server.url)
        child = spawn(["ask", "--approve", "calculator", "What is 6 times 7?"], env)
        child.expect_exact("Allow calculator('6*7')? [y/N] ")
        child.sendline("n")
        child.expect("Observation: Denied")
        child.expect_exact("Allow calculator('7*6')? [y/N] ")
        child.sendline("y")
        child.expect("Observation: 42")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
        stored = memory_json(_run_id(env), env)  # the only run in this home
    assert [s["step"]["approval"] for s in stored["steps"]] == ["denied", "approved", ""]


def _run_id(env) -> str:
    listed = subprocess.run(ponder_command("memory", "--json"), env=env, capture_output=True, text=True,
                            timeout=RUN_TIMEOUT)
    return json.loads(listed.stdout)[-1]["run_id"]


def test_with_no_terminal_to_ask_the_call_is_denied(tmp_path):
    with FakeOpenAIServer([completion(step("Try.", "calculator", "6*7")),
                           completion(step("Done.", "Final", "I was not allowed to compute it."))]) as server:
        env = ponder_env(tmp_path / "home", server.url)
        proc = subprocess.run(ponder_command("ask", "--json", "--approve", "calculator", "What is 6 times 7?"),
                              env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=RUN_TIMEOUT)
    assert proc.returncode == 0, proc.stderr
    assert "denied calculator: no terminal to ask for approval" in proc.stderr
    assert json.loads(proc.stdout)["steps"][0]["approval"] == "denied"


def test_approving_an_unknown_tool_is_a_usage_error(tmp_path):
    env = ponder_env(tmp_path / "home", "http://127.0.0.1:9/v1")
    proc = subprocess.run(ponder_command("ask", "--approve", "rm_rf", "Hi?"), env=env, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=RUN_TIMEOUT)
    assert proc.returncode == 2 and "no tool named rm_rf" in proc.stderr and "Traceback" not in proc.stderr
