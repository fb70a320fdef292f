"""`ponder ask --step` as a person at a terminal uses it: a real pseudo-terminal (pexpect), the real CLI process,
a scripted OpenAI-compatible model on loopback. Keys: Enter runs the proposed action, e edits it, o writes its
observation, c continues without pausing, q stops (the run stays resumable)."""
from __future__ import annotations

import json
import re
import sys

import pexpect

from tests.cli_helpers import memory_json, ponder, ponder_command, ponder_env, step
from tests.openai_server import FakeOpenAIServer, completion

QUESTION = "What is 6 times 7?"
KEYS = "stop > "  # the end of the key prompt, one style segment whatever the colours


def spawn(args: list[str], env: dict[str, str]):
    command = ponder_command(*args)
    # TERM=dumb: the same text without colour codes, so the expected lines can be matched whole.
    child = pexpect.spawn(command[0], command[1:], env={**env, "COLUMNS": "200", "TERM": "dumb"}, encoding="utf-8",
                          timeout=60, dimensions=(50, 200))
    child.logfile_read = sys.stdout  # shown by pytest on failure
    return child


def test_edit_an_action_write_an_observation_then_continue(tmp_path):
    script = [step("Multiply.", "calculator", "6*8"),            # edited by the person into 6*7
              step("Double-check.", "calculator", "6*7*1"),      # its observation written by the person
              step("Once more.", "calculator", "7*6"),           # after c: no more pauses
              step("Done.", "Final", "6 times 7 is 42.")]
    with FakeOpenAIServer([completion(text) for text in script]) as server:
        env = ponder_env(tmp_path / "home", server.url)
        child = spawn(["ask", "--step", "--json", QUESTION], env)
        child.expect("Action Input: 6\\*8")
        child.expect_exact(KEYS)
        child.sendline("e")
        child.expect_exact("Action: ")
        child.sendline("calculator")
        child.expect_exact("Action Input: ")
        child.sendline("6*7")
        child.expect("Observation: 42")
        child.expect_exact(KEYS)
        child.sendline("o")
        child.expect_exact("Observation: ")
        child.sendline("42, as checked by hand")
        child.expect_exact(KEYS)
        child.sendline("c")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
        output = child.before
        result = json.loads(output[output.index("{"):output.rindex("}") + 1])
        assert result["answer"] == "6 times 7 is 42."
        steps = result["steps"]
        assert [(s["action_input"], s["injected"]) for s in steps] == [
            ("6*7", ["action"]), ("6*7*1", ["observation"]), ("7*6", []), ("6 times 7 is 42.", [])]
        assert steps[0]["observation"] == "42" and steps[1]["observation"] == "42, as checked by hand"
        assert len(server.chat_requests()) == 4  # the edit replaced the model's action, not its call


def test_q_stops_and_the_run_resumes(tmp_path):
    # The Final proposed before q was never recorded: the resumed run asks the model again.
    with FakeOpenAIServer([completion(step("Multiply.", "calculator", "6*7")),
                           completion(step("Done.", "Final", "42")), completion(step("Done.", "Final", "42"))]) as server:
        env = ponder_env(tmp_path / "home", server.url)
        child = spawn(["ask", "--step", QUESTION], env)
        child.expect_exact(KEYS)
        child.sendline("")  # Enter: run the calculator
        child.expect("Observation: 42")
        child.expect_exact(KEYS)
        child.sendline("q")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 130 and "ponder resume" in child.before
        run_id = re.search(r"ponder resume (\S+)", child.before).group(1)
        stored = memory_json(run_id, env)
        assert stored["run"]["status"] == "interrupted" and len(stored["steps"]) == 1
        resumed = ponder(["resume", run_id], env)
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.strip() == "42"
